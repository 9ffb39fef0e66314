package org.ketama.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * Every profile of the spec, including those no client recorded vectors for (go-ketama, jump,
 * rendezvous, maglev), placed by the port as by the core: {@code ketama lookup} on the same
 * weighted servers and keys.
 */
class CoreAgreementTest {
    static final String[] SERVERS = {
        "10.0.0.1:11211 3", "10.0.0.2:11212 1", "10.0.0.3:11211 2", "[2001:db8::7]:11211 1",
        "192.168.1.10:22122 5", "10.0.0.4:11211 1", "10.0.0.5:11300 2",
    };

    @Test
    void everyProfileAgreesWithTheCore() throws Exception {
        Path bin = Cli.bin();
        Path dir = Files.createTempDirectory("ketama-core-agreement");
        try {
            Path servers = dir.resolve("servers");
            Files.write(servers, List.of(SERVERS), StandardCharsets.UTF_8);
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                keys.add("user:" + i + (i % 5 == 0 ? ":é日本" : ":profile") + (i % 11 == 0 ? "😀" : ""));
            }
            Path keyFile = dir.resolve("keys");
            Files.write(keyFile, keys, StandardCharsets.UTF_8);
            List<Server> list = new ArrayList<>();
            for (String s : SERVERS) {
                String[] f = s.split(" ");
                list.add(new Server(f[0], Long.parseLong(f[1])));
            }
            for (String profile : Ring.profiles()) {
                Ring ring = Ring.create(profile, null, list);
                Path out = dir.resolve("out");
                Process p = new ProcessBuilder(bin.toString(), "lookup", "-p", profile, "-s", servers.toString(), "-k", keyFile.toString())
                    .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
                if (!p.waitFor(2, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new AssertionError("ketama lookup did not finish");
                }
                assertEquals(0, p.exitValue(), "ketama lookup -p " + profile);
                List<String> want = Files.readAllLines(out, StandardCharsets.UTF_8);
                assertEquals(keys.size(), want.size(), profile);
                int wrong = 0;
                String example = null;
                for (int i = 0; i < keys.size(); i++) {
                    String got;
                    try {
                        got = ring.get(keys.get(i));
                    } catch (org.ketama.KetamaException e) {
                        got = "-"; // what the CLI prints when no server is returned
                    }
                    if (!got.equals(want.get(i))) {
                        wrong++;
                        example = example == null ? keys.get(i) + ": " + got + " vs " + want.get(i) : example;
                    }
                }
                assertEquals(0, wrong, profile + ", e.g. " + example);
            }
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
            }
        }
    }
}
