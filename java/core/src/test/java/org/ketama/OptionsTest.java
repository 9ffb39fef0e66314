package org.ketama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Placement options against the real clients: tests/vectors/options/*.json (placements
 * recorded from twemproxy and php-memcached with their options) and the values each client
 * accepts (tests/vectors/extra/*-rules.json).
 */
class OptionsTest {
    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path p) throws IOException {
        return (Map<String, Object>) Json.parse(Files.readString(p, StandardCharsets.UTF_8));
    }

    /** A vector file's {@code options} as an {@link Options}. */
    static Options options(Map<String, Object> o) {
        Options x = Options.none();
        if (o.get("hash_tag") != null) {
            x = x.withHashTag((String) o.get("hash_tag"));
        }
        if (o.get("prefix_key") != null) {
            x = x.withPrefixKey((String) o.get("prefix_key"));
        }
        if (o.get("hash_with_prefix") != null) {
            x = x.withHashWithPrefix((Boolean) o.get("hash_with_prefix"));
        }
        return x;
    }

    @Test
    @SuppressWarnings("unchecked")
    void optionFilesMatchTheRealClients() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(Repo.root().resolve("tests/vectors/options"))) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        }
        assertTrue(files.size() >= 18, files.size() + " option files");
        List<String> bad = new ArrayList<>();
        for (Path f : files) {
            Map<String, Object> v = read(f);
            List<Server> servers = new ArrayList<>();
            for (Object o : (List<Object>) v.get("servers")) {
                Map<String, Object> s = (Map<String, Object>) o;
                long w = s.containsKey("weight") ? (Long) s.get("weight") : 1;
                servers.add(new Server((String) s.get("label"), w, (String) s.get("name")));
            }
            Ring plain = Ring.create((String) v.get("profile"), (String) v.get("hash"), servers);
            Ring ring = plain.withOptions(options((Map<String, Object>) v.get("options")));
            assertEquals(Options.none(), plain.options(), "withOptions leaves the ring unchanged");
            List<Object> keys = (List<Object>) v.get("keys");
            List<Object> expect = (List<Object>) v.get("expect");
            int differ = 0;
            for (int i = 0; i < keys.size(); i++) {
                String k = (String) keys.get(i);
                String got;
                try {
                    got = ring.get(k);
                } catch (KetamaException e) {
                    got = null;
                }
                if (!java.util.Objects.equals(got, expect.get(i))) {
                    if (differ++ < 3) {
                        bad.add(f.getFileName() + ": key " + k + ": got " + got + ", want " + expect.get(i));
                    }
                }
            }
            String[] many = ring.getMany(keys.toArray(new String[0]));
            for (int i = 0; i < keys.size(); i++) {
                if (!java.util.Objects.equals(many[i], expect.get(i)) && differ++ < 3) {
                    bad.add(f.getFileName() + ": key " + keys.get(i) + ": getMany " + many[i] + ", want " + expect.get(i));
                }
            }
            if (differ > 0) {
                bad.add(f.getFileName() + ": " + differ + " of " + keys.size() + " keys differ");
            }
        }
        assertEquals(List.of(), bad);
    }

    private static boolean accepted(Supplier<Options> make) {
        try {
            make.get();
            return true;
        } catch (BadOptionException e) {
            return false;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void hashTagsNutcrackerAcceptsAreAccepted() throws IOException {
        Map<String, Object> v = read(Repo.root().resolve("tests/vectors/extra/twemproxy-hash-tag-rules.json"));
        List<Object> cases = (List<Object>) v.get("cases");
        assertTrue(cases.size() >= 10);
        for (Object o : cases) {
            Map<String, Object> c = (Map<String, Object>) o;
            String tag = (String) c.get("value");
            assertEquals(c.get("accepted"), accepted(() -> Options.none().withHashTag(tag)), "hash_tag " + tag);
        }
    }

    /** A prefix is taken exactly when php-memcached (binary protocol) keeps that very prefix. */
    @Test
    @SuppressWarnings("unchecked")
    void prefixesPhpMemcachedKeepsAreAccepted() throws IOException {
        Map<String, Object> v = read(Repo.root().resolve("tests/vectors/extra/php-memcached-prefix-rules.json"));
        int checked = 0;
        for (Object o : (List<Object>) v.get("cases")) {
            Map<String, Object> c = (Map<String, Object>) o;
            if (!Boolean.TRUE.equals(c.get("binary"))) {
                continue;
            }
            String value = (String) c.get("value");
            boolean kept = Boolean.TRUE.equals(c.get("set")) && value.equals(c.get("prefix_after"));
            assertEquals(kept, accepted(() -> Options.none().withPrefixKey(value)), "prefix " + value);
            if (kept) {
                assertArrayEquals(value.getBytes(StandardCharsets.UTF_8), Options.none().withPrefixKey(value).prefixKey());
            }
            checked++;
        }
        assertTrue(checked >= 20, checked + " binary-protocol cases");
    }

    @Test
    void onlyTheClientsThatHaveAnOptionTakeIt() {
        List<Server> servers = List.of(new Server("10.0.0.1:11211", 1), new Server("10.0.0.2:11211", 1));
        Options tag = Options.none().withHashTag("{}");
        Options prefix = Options.none().withPrefixKey("p:").withHashWithPrefix(true);
        List<String> tags = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        for (String name : Ring.profiles()) {
            Ring r;
            try {
                r = Ring.create(name, null, servers);
            } catch (KetamaException e) {
                continue;
            }
            Profile p = Spec.get().profile(name);
            assertEquals(p.optHashTag, accepted(() -> r.withOptions(tag).options()), name);
            assertEquals(p.optPrefixKey, accepted(() -> r.withOptions(prefix).options()), name);
            if (p.optHashTag) {
                tags.add(name);
            }
            if (p.optPrefixKey) {
                prefixes.add(name);
            }
        }
        assertTrue(tags.containsAll(List.of("twemproxy", "twemproxy-modula")), tags.toString());
        assertTrue(prefixes.containsAll(List.of("libmemcached", "libmemcached-weighted", "modula")), prefixes.toString());
        assertTrue(!tags.contains("libketama") && !prefixes.contains("libketama") && !prefixes.contains("twemproxy"));
    }

    @Test
    void badValuesAreBadOption() {
        assertThrows(BadOptionException.class, () -> Options.none().withHashTag("{"));
        assertThrows(BadOptionException.class, () -> Options.none().withHashTag("«»"));
        assertThrows(BadOptionException.class, () -> Options.none().withPrefixKey("x".repeat(128)));
        assertThrows(BadOptionException.class, () -> Options.none().withPrefixKey("p\0q"));
        List<Server> servers = List.of(new Server("10.0.0.1:11211", 1));
        Ring tw = Ring.create("twemproxy", null, servers);
        assertThrows(BadOptionException.class, () -> tw.withOptions(Options.none().withPrefixKey("p:")));
        assertThrows(BadOptionException.class, () -> tw.withOptions(Options.none().withHashWithPrefix(true)));
        assertThrows(BadOptionException.class,
                () -> Ring.create("php-memcached", null, servers, Options.none().withHashTag("{}")));
        assertEquals(Options.none(), tw.options());
    }

    @Test
    void hashTagsAndHashedPrefixesMoveKeysAsTheClientDoes() {
        List<Server> servers = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            servers.add(new Server("10.0.0." + i + ":11211", 1));
        }
        Ring plain = Ring.create("twemproxy", null, servers);
        Ring tw = plain.withOptions(Options.none().withHashTag("{}"));
        for (int i = 0; i < 50; i++) {
            assertEquals(plain.get("user:" + i), tw.get("{user:" + i + "}:cart"));
        }
        assertEquals(plain.keyHash(b("{}x")), tw.keyHash(b("{}x")));
        assertEquals(plain.keyHash(b("x{y")), tw.keyHash(b("x{y")));
        Ring bare = Ring.create("php-memcached", null, servers);
        Ring php = bare.withOptions(Options.none().withPrefixKey("p:").withHashWithPrefix(true));
        Ring unhashed = bare.withOptions(Options.none().withPrefixKey("p:"));
        assertEquals(bare.keyHash(b("p:k1")), php.keyHash(b("k1")));
        assertEquals(bare.keyHash(b("k1")), unhashed.keyHash(b("k1")));
        assertEquals(bare.keyHash(new byte[] {'p', ':', 'a', 0, 0}), php.keyHash(new byte[] {'a', 0, 'b'}));
        assertEquals(0, php.keyHash(b("k".repeat(249))));
        assertNotEquals(0, php.keyHash(b("k".repeat(248))));
        assertEquals(php.get(b("k".repeat(249))), php.getN(b("k".repeat(249)), 2).get(0));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
