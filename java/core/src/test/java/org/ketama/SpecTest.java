package org.ketama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The embedded spec: an exact copy of spec/profiles.json, read strictly, fully understood. */
class SpecTest {
    @Test
    void embeddedCopyEqualsTheRepositorySpec() throws Exception {
        byte[] repo = Files.readAllBytes(Repo.root().resolve("spec/profiles.json"));
        assertArrayEquals(repo, Spec.read().getBytes(StandardCharsets.UTF_8),
            "java/core/src/main/resources/org/ketama/profiles.json differs from spec/profiles.json: regenerate it with bash tests/gen-tables.sh");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyProfileLoadsAndEveryErrorHasItsException() throws Exception {
        Map<String, Object> doc = (Map<String, Object>) Json.parse(Spec.read());
        assertEquals(Profile.list(doc, "profiles").size(), Ring.profiles().size());
        for (Object o : Profile.list(doc, "errors")) {
            String name = Profile.str((Map<String, Object>) o, "name");
            KetamaException e = KetamaException.of(name);
            assertEquals(name + "Exception", e.getClass().getSimpleName());
            assertEquals(name, e.errorName());
            assertEquals(Profile.str((Map<String, Object>) o, "message"), e.getMessage());
        }
        for (Object o : Profile.list(doc, "profiles")) {
            Map<String, Object> row = (Map<String, Object>) o;
            Profile p = Spec.get().profile(Profile.str(row, "name"));
            assertEquals(Profile.bool(row, "is_ring"), p.isRing(), p.name);
        }
        assertEquals("libmemcached-weighted", Ring.create("php-memcached", null, List.of()).profile());
        assertThrows(UnknownProfileException.class, () -> Ring.create("nope", null, List.of()));
    }

    @Test
    void jsonReaderIsStrict() {
        String[] bad = {"", "{", "[1,]", "{\"a\":1,}", "{\"a\":1,\"a\":2}", "01", "1 2", "\"\u0001\"", "\"\\ud800\"", "[1]x", "nul", "\"\\x\"", "-", "1.", "1e"};
        for (String b : bad) {
            assertThrows(IllegalArgumentException.class, () -> Json.parse(b), b);
        }
        assertEquals(List.of(1L, -2.5, "é😀", true, false), Json.parse("[1, -2.5, \"\\u00e9\\ud83d\\ude00\", true, false]"));
        assertTrue(Json.parse(" null ") == null);
    }
}
