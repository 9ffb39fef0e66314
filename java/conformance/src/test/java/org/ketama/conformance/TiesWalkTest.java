package org.ketama.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.ketama.Ring;
import org.ketama.Server;

/**
 * A failover walk over a tied position does not meet the tie's loser there: the walking
 * clients that keep their points in a map (a later server's point replaces an earlier one's)
 * never held that point. Each key goes where the core sends it ({@code ketama lookup --dead})
 * with the tie winner down, on fleets whose point strings collide.
 */
class TiesWalkTest {
    /**
     * A profile and a fleet whose point strings collide: flexihash appends the index to the
     * label ("a:1" + "10" = "a:11" + "0"), groupcache and go-redis v7 put it first ("1" +
     * "1a:1" = "11" + "a:1"). The tie winner is always the server at index 1.
     */
    static final String[][] FLEETS = {
        {"flexihash", "a:1", "a:11", "b:2", "c:3"},
        {"groupcache", "1a:1", "a:1", "b:2", "c:3"},
        {"go-redis-v7", "1a:1", "a:1", "b:2", "c:3"},
    };

    @Test
    void walksSkipTheLosersOfTies() throws Exception {
        Path bin = Cli.bin();
        Path dir = Files.createTempDirectory("ketama-ties");
        try {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                keys.add("key:" + i);
            }
            Path keyFile = dir.resolve("keys");
            Files.write(keyFile, keys, StandardCharsets.UTF_8);
            for (String[] f : FLEETS) {
                String profile = f[0];
                List<String> labels = List.of(f).subList(1, f.length);
                Path servers = dir.resolve("servers");
                Files.write(servers, labels, StandardCharsets.UTF_8);
                List<Server> list = new ArrayList<>();
                for (String l : labels) {
                    list.add(new Server(l, 1));
                }
                Ring ring = Ring.create(profile, null, list);
                List<Ring.Point> pts = ring.points();
                int ties = 0;
                for (int i = 1; i < pts.size(); i++) {
                    ties += pts.get(i).position() == pts.get(i - 1).position() ? 1 : 0;
                }
                assertTrue(ties > 0, profile + ": the fleet has no tied points");
                Path out = dir.resolve("out");
                Process p = new ProcessBuilder(bin.toString(), "lookup", "-p", profile, "-s", servers.toString(),
                        "-k", keyFile.toString(), "--dead", labels.get(1))
                    .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
                if (!p.waitFor(2, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new AssertionError("ketama lookup did not finish");
                }
                assertEquals(0, p.exitValue(), "ketama lookup -p " + profile);
                List<String> want = Files.readAllLines(out, StandardCharsets.UTF_8);
                assertEquals(keys.size(), want.size(), profile);
                for (int i = 0; i < keys.size(); i++) {
                    String got = ring.getAlive(keys.get(i), List.of(1));
                    assertEquals(want.get(i), got == null ? "-" : got, profile + ", " + labels.get(1) + " down: " + keys.get(i));
                }
            }
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
            }
        }
    }
}
