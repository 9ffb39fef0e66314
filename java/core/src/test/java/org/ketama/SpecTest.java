package org.ketama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The generated tables ({@link SpecTable}, {@link Profile}) and exception classes are the
 * repository's spec files: a spec changed without regenerating (bash tests/gen-tables.sh)
 * fails here.
 */
class SpecTest {
    private static final String REGENERATE = ": regenerate with bash tests/gen-tables.sh";

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(String path) throws Exception {
        return (Map<String, Object>) Json.parse(Files.readString(Repo.root().resolve(path), StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Map<String, Object> doc, String key) {
        return (List<Map<String, Object>>) doc.get(key);
    }

    @Test
    void profileTableIsTheSpecs() throws Exception {
        Map<String, Object> doc = read("spec/profiles.json");
        List<String> names = rows(doc, "profiles").stream().map(r -> (String) r.get("name")).collect(Collectors.toList());
        assertEquals(names, Ring.profiles(), "profiles" + REGENERATE);
        for (Map<String, Object> row : rows(doc, "profiles")) {
            Profile p = Spec.get().profile((String) row.get("name"));
            assertEquals(row.get("is_ring"), p.isRing, p.name);
            @SuppressWarnings("unchecked")
            Map<String, Object> layout = (Map<String, Object>) row.get("layout");
            assertEquals(((String) layout.get("kind")).toUpperCase(), p.shape.name(), p.name + REGENERATE);
            Object bound = layout.get("bound");
            assertEquals(bound == null ? null : ((String) bound).toUpperCase(), p.bound == null ? null : p.bound.name(), p.name);
            assertEquals(row.get("description"), p.description, p.name + REGENERATE);
        }
        List<String> hashes = rows(doc, "hashes").stream().map(r -> (String) r.get("name")).collect(Collectors.toList());
        assertEquals(hashes, Hashes.names(), "hashes" + REGENERATE);
        @SuppressWarnings("unchecked")
        Map<String, Object> options = (Map<String, Object>) doc.get("options");
        assertEquals(((Long) options.get("hash_tag_bytes")).intValue(), SpecTable.HASH_TAG_BYTES);
        assertEquals(((Long) options.get("prefixed_key_max_bytes")).intValue(), SpecTable.PREFIXED_KEY_MAX_BYTES);
        assertEquals("libmemcached-weighted", Ring.create("php-memcached", null, List.of()).profile());
        assertThrows(UnknownProfileException.class, () -> Ring.create("nope", null, List.of()));
    }

    @Test
    @SuppressWarnings("unchecked")
    void knobEnumsAreTheSpecsVocabulary() throws Exception {
        Map<String, Object> knobs = (Map<String, Object>) read("spec/profiles.json").get("knobs");
        Map<String, Class<? extends Enum<?>>> enums = Map.of("node", Profile.Node.class, "placement", Profile.Placement.class,
            "layout", Profile.Shape.class, "bound", Profile.Bound.class, "failover", Profile.Failover.class,
            "key", Profile.Rewrite.class, "chars", Profile.Chars.class);
        enums.forEach((knob, type) -> {
            List<String> want = new ArrayList<>();
            for (Object v : (List<Object>) knobs.get(knob)) {
                want.add(((String) v).toUpperCase());
            }
            List<String> have = Stream.of(type.getEnumConstants()).map(Enum::name).collect(Collectors.toList());
            assertEquals(want, have, knob + REGENERATE);
        });
    }

    /**
     * One exception class per core error of spec/errors.json, no other: its name, its core
     * name and its message; the list of classes is read from the source folder, so an error
     * removed from core leaves no class behind unnoticed.
     */
    @Test
    void errorClassesAreCores() throws Exception {
        TreeSet<String> want = new TreeSet<>();
        for (Map<String, Object> e : rows(read("spec/errors.json"), "errors")) {
            if (!(Boolean) e.get("core")) {
                continue;
            }
            String name = (String) e.get("name");
            want.add(name + "Exception");
            Class<?> c = Class.forName("org.ketama." + name + "Exception");
            assertTrue(KetamaException.class.isAssignableFrom(c) && c.getSuperclass() == KetamaException.class, name);
            assertTrue(Modifier.isPublic(c.getModifiers()), name);
            KetamaException x = (KetamaException) c.getConstructor().newInstance();
            assertEquals(name, x.errorName());
            assertEquals(e.get("message"), x.getMessage());
            KetamaException d = (KetamaException) c.getConstructor(String.class).newInstance("detail");
            assertEquals(e.get("message") + ": detail", d.getMessage());
            assertEquals(-1, d.serverIndex());
        }
        Path src = Repo.root().resolve("java/core/src/main/java/org/ketama");
        TreeSet<String> have = new TreeSet<>();
        try (Stream<Path> files = Files.list(src)) {
            files.map(f -> f.getFileName().toString().replace(".java", ""))
                .filter(n -> n.endsWith("Exception") && !n.equals("KetamaException"))
                .forEach(have::add);
        }
        assertEquals(want, have, "exception classes" + REGENERATE);
        assertNotNull(InvalidUtf8Exception.MESSAGE);
    }
}
