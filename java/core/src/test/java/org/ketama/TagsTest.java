package org.ketama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each client's hash tag rule, as core's tag.rs tests them. */
class TagsTest {
    private static final Profile.TagRule[] RULES = {Profile.TagRule.FIRST_NON_EMPTY, Profile.TagRule.FIRST_UP_TO_NUL,
        Profile.TagRule.LINE_START, Profile.TagRule.GREEDY_LAST, Profile.TagRule.LAZY_FIND};

    private static String tag(Profile.TagRule rule, String key, char o, char c) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        return new String(Tags.tag(rule, k, (byte) o, (byte) c), StandardCharsets.UTF_8);
    }

    private static String[] all(String key) {
        String[] out = new String[RULES.length];
        for (int i = 0; i < RULES.length; i++) {
            out[i] = tag(RULES[i], key, '{', '}');
        }
        return out;
    }

    /**
     * The clients' tags side by side (recorded by each client's oracle): Predis, phpredis,
     * redis-rb, redis-shard, Jedis with its default pattern.
     */
    @Test
    void eachRuleAsItsClientAppliesIt() {
        String[][] cases = {
            {"user:{42}:profile", "42", "42", "user:{42}:profile", "42", "42"},
            {"{}", "{}", "", "{}", "", "{}"},
            {"a{}b", "a{}b", "", "a{}b", "", "a{}b"},
            {"{}{42}", "{}{42}", "", "}{42", "42", "}{42"},
            {"{a}{b}", "a", "a", "a", "b", "a"},
            {"pre{tag}mid{other}post", "tag", "tag", "pre{tag}mid{other}post", "other", "tag"},
            {"}42{", "}42{", "}42{", "}42{", "}42{", "}42{"},
            {"a{b", "a{b", "a{b", "a{b", "a{b", "a{b"},
            {"{a{b}", "a{b", "a{b", "a{b", "b", "a{b"},
            {"{{x}}", "{x", "{x", "{x", "x}", "{x"},
            {"{x}}", "x", "x", "x", "x}", "x"},
        };
        for (String[] c : cases) {
            assertArrayEquals(java.util.Arrays.copyOfRange(c, 1, 6), all(c[0]), c[0]);
        }
    }

    @Test
    void linesAndNulBytes() {
        // Ruby's ^ starts every line; its `.` stops at \n.
        assertEquals("t", all("x\n{t}y")[2]);
        assertEquals("{a\nb}", all("{a\nb}")[2]);
        // Python's match stays on the first line.
        assertEquals("a", all("{a}\n{b}")[3]);
        assertEquals("x\n{b}", all("x\n{b}")[3]);
        // Java's `.` stops at \r and U+2028 too; the next `{` may still match.
        assertEquals("{a\rb}", all("{a\rb}")[4]);
        assertEquals("c", all("{a\u2028b}{c}")[4]);
        assertEquals("c", all("{a\u0085b}{c}")[4]);
        assertEquals("a\u00e9", all("{a\u00e9}")[4]);
        // phpredis reads the key as a C string.
        assertEquals("a\0{b}", all("a\0{b}")[1]);
        assertEquals("{a\0}", all("{a\0}")[1]);
        assertEquals("a", all("{a}\0")[1]);
        // twemproxy's `hash_tag`, with other delimiters too, and a Jedis pattern.
        assertEquals("user1", tag(Profile.TagRule.FIRST_NON_EMPTY, "{user1}:x", '{', '}'));
        assertEquals("b", tag(Profile.TagRule.FIRST_NON_EMPTY, "}a{b}", '{', '}'));
        assertEquals("b", tag(Profile.TagRule.FIRST_NON_EMPTY, "a:b:c", ':', ':'));
        assertEquals("::x", tag(Profile.TagRule.FIRST_NON_EMPTY, "::x", ':', ':'));
        assertEquals("b", tag(Profile.TagRule.LAZY_FIND, "a[b]c", '[', ']'));
    }

    /** A key without a tag is hashed as given: the same array, nothing copied. */
    @Test
    void noTagNoCopy() {
        byte[] k = "plain".getBytes(StandardCharsets.UTF_8);
        for (Profile.TagRule r : RULES) {
            assertEquals(k, Tags.tag(r, k, (byte) '{', (byte) '}'), r.toString());
        }
    }
}
