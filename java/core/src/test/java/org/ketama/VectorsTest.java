package org.ketama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every vector file in tests/vectors (recorded from the real clients) read directly: each key
 * must get the client's answer.
 */
class VectorsTest {
    static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(Repo.root().resolve("tests/vectors"))) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        }
    }

    @SuppressWarnings("unchecked")
    static List<String> check(Map<String, Object> v) {
        String kind = v.containsKey("kind") ? (String) v.get("kind") : "locate";
        List<Object> keys = (List<Object>) v.get("keys");
        List<Object> expect = (List<Object>) v.get("expect");
        List<String> bad = new ArrayList<>();
        String profile = (String) v.get("profile");
        String hash = (String) v.get("hash");
        Spec spec = Spec.get();
        if (kind.equals("hash")) {
            Ring ring = profile == null ? null : Ring.create(profile, hash, List.of());
            HashFn fn = profile == null ? spec.hash(hash) : null;
            for (int i = 0; i < keys.size(); i++) {
                byte[] k = ((String) keys.get(i)).getBytes(StandardCharsets.UTF_8);
                Long got;
                if (ring == null) {
                    got = fn.apply(k, 0, k.length) & 0xFFFFFFFFL;
                } else {
                    try {
                        got = ring.keyHash(k);
                    } catch (KeyRejectedException e) {
                        got = null;
                    }
                }
                Object want = expect.get(i);
                if (!java.util.Objects.equals(got, want)) {
                    bad.add(keys.get(i) + ": got " + got + ", want " + want);
                }
            }
            return bad;
        }
        List<Server> servers = new ArrayList<>();
        for (Object o : (List<Object>) v.get("servers")) {
            Map<String, Object> s = (Map<String, Object>) o;
            long w = s.containsKey("weight") ? (Long) s.get("weight") : 1;
            servers.add(new Server((String) s.get("label"), w, (String) s.get("name")));
        }
        Ring ring = Ring.create(profile, hash, servers);
        int n = v.containsKey("n") ? ((Long) v.get("n")).intValue() : 1;
        List<Integer> dead = new ArrayList<>();
        if (kind.equals("dead")) {
            for (Object l : (List<Object>) v.get("dead")) {
                int at = ring.servers().stream().map(Server::label).collect(Collectors.toList()).indexOf(l);
                assertTrue(at >= 0, "dead server " + l + " is a server");
                dead.add(at);
            }
        }
        for (int i = 0; i < keys.size(); i++) {
            String k = (String) keys.get(i);
            Object got;
            try {
                got = kind.equals("sequence") ? ring.failover(k, n) : kind.equals("dead") ? ring.getAlive(k, dead) : ring.get(k);
            } catch (KetamaException e) {
                got = null;
            }
            Object want = expect.get(i);
            if (!java.util.Objects.equals(got, want)) {
                bad.add(k + ": got " + got + ", want " + want);
            }
        }
        if (kind.equals("locate") && !ring.servers().isEmpty()) {
            // the batch calls give every key the same answer, keys as strings and as bytes
            String[] ks = keys.toArray(new String[0]);
            byte[][] bs = new byte[ks.length][];
            for (int i = 0; i < ks.length; i++) {
                bs[i] = ks[i].getBytes(StandardCharsets.UTF_8);
            }
            String[] many = ring.getMany(ks);
            String[] manyBytes = ring.getMany(bs);
            for (int i = 0; i < ks.length; i++) {
                if (!java.util.Objects.equals(many[i], expect.get(i)) || !java.util.Objects.equals(manyBytes[i], expect.get(i))) {
                    bad.add(ks[i] + ": getMany " + many[i] + " / " + manyBytes[i] + ", want " + expect.get(i));
                }
            }
        }
        return bad;
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyVectorFileMatchesTheRealClient() throws IOException {
        Map<String, int[]> perProfile = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (Path f : files()) {
            Map<String, Object> v = (Map<String, Object>) Json.parse(Files.readString(f));
            String profile = v.get("profile") == null ? "(hash " + v.get("hash") + ")" : (String) v.get("profile");
            int[] tally = perProfile.computeIfAbsent(profile, x -> new int[2]);
            tally[1]++;
            List<String> bad;
            try {
                bad = check(v);
            } catch (RuntimeException e) {
                bad = List.of("error " + e);
            }
            if (bad.isEmpty()) {
                tally[0]++;
            } else {
                failures.add(f.getFileName() + ": " + bad.size() + " wrong, e.g. " + bad.subList(0, Math.min(3, bad.size())));
            }
        }
        StringBuilder table = new StringBuilder();
        perProfile.forEach((p, t) -> table.append(String.format("  %-45s %d/%d%n", p, t[0], t[1])));
        System.out.println("vector files agreeing, per profile:\n" + table);
        assertTrue(files().size() > 400, "the vector files are there");
        assertEquals(List.of(), failures);
    }

    /** Dead-server recordings (tests/vectors/extra/): where keys go while servers are down. */
    @Test
    @SuppressWarnings("unchecked")
    void everyDeadServerRecordingMatchesTheRealClient() throws IOException {
        List<String> failures = new ArrayList<>();
        int seen = 0;
        try (Stream<Path> s = Files.list(Repo.root().resolve("tests/vectors/extra"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList())) {
                Map<String, Object> v = (Map<String, Object>) Json.parse(Files.readString(f));
                if (!"dead".equals(v.get("kind"))) {
                    continue;
                }
                seen++;
                List<String> bad = check(v);
                if (!bad.isEmpty()) {
                    failures.add(f.getFileName() + ": " + bad.size() + " wrong, e.g. " + bad.subList(0, Math.min(3, bad.size())));
                }
            }
        }
        assertTrue(seen >= 12, seen + " dead-server files");
        assertEquals(List.of(), failures);
    }
}
