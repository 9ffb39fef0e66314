package org.ketama;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON reader (RFC 8259) for the tests (vector files, the spec): objects become
 * {@code Map<String, Object>} (insertion order), arrays {@code List<Object>}, numbers
 * {@code Long} (integers) or {@code Double}, plus {@code String}, {@code Boolean} and
 * {@code null}. Duplicate keys, trailing commas, leading zeros, control characters in strings,
 * lone surrogate escapes and anything after the value are refused.
 */
final class Json {
    private final String s;
    private int at;
    private int depth;
    private static final int MAX_DEPTH = 64;

    private Json(String s) {
        this.s = s;
    }

    /** Parses a whole document. */
    static Object parse(String text) {
        Json p = new Json(text);
        p.ws();
        Object v = p.value();
        p.ws();
        if (p.at != p.s.length()) {
            throw p.fail("trailing characters");
        }
        return v;
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException("bad JSON at offset " + at + ": " + what);
    }

    private void ws() {
        while (at < s.length()) {
            char c = s.charAt(at);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                at++;
            } else {
                break;
            }
        }
    }

    private void expect(char c) {
        if (at >= s.length() || s.charAt(at) != c) {
            throw fail("expected '" + c + "'");
        }
        at++;
    }

    private boolean literal(String word) {
        if (s.startsWith(word, at)) {
            at += word.length();
            return true;
        }
        return false;
    }

    private Object value() {
        if (at >= s.length()) {
            throw fail("unexpected end");
        }
        char c = s.charAt(at);
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            default: break;
        }
        if (literal("true")) {
            return Boolean.TRUE;
        }
        if (literal("false")) {
            return Boolean.FALSE;
        }
        if (literal("null")) {
            return null;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
        }
        throw fail("unexpected character");
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw fail("nested too deeply");
        }
    }

    private Map<String, Object> object() {
        enter();
        expect('{');
        Map<String, Object> m = new LinkedHashMap<>();
        ws();
        if (at < s.length() && s.charAt(at) == '}') {
            at++;
            depth--;
            return Collections.unmodifiableMap(m);
        }
        while (true) {
            ws();
            String k = string();
            ws();
            expect(':');
            ws();
            if (m.containsKey(k)) {
                throw fail("duplicate key " + k);
            }
            m.put(k, value());
            ws();
            if (at < s.length() && s.charAt(at) == ',') {
                at++;
                continue;
            }
            expect('}');
            depth--;
            return Collections.unmodifiableMap(m);
        }
    }

    private List<Object> array() {
        enter();
        expect('[');
        List<Object> l = new ArrayList<>();
        ws();
        if (at < s.length() && s.charAt(at) == ']') {
            at++;
            depth--;
            return Collections.unmodifiableList(l);
        }
        while (true) {
            ws();
            l.add(value());
            ws();
            if (at < s.length() && s.charAt(at) == ',') {
                at++;
                continue;
            }
            expect(']');
            depth--;
            return Collections.unmodifiableList(l);
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            if (at >= s.length()) {
                throw fail("unterminated string");
            }
            char c = s.charAt(at++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw fail("control character in string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (at >= s.length()) {
                throw fail("unterminated escape");
            }
            char e = s.charAt(at++);
            switch (e) {
                case '"': b.append('"'); break;
                case '\\': b.append('\\'); break;
                case '/': b.append('/'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 't': b.append('\t'); break;
                case 'u': {
                    char u = hex4();
                    if (Character.isHighSurrogate(u)) {
                        if (!s.startsWith("\\u", at)) {
                            throw fail("lone surrogate escape");
                        }
                        at += 2;
                        char lo = hex4();
                        if (!Character.isLowSurrogate(lo)) {
                            throw fail("lone surrogate escape");
                        }
                        b.append(u).append(lo);
                    } else if (Character.isLowSurrogate(u)) {
                        throw fail("lone surrogate escape");
                    } else {
                        b.append(u);
                    }
                    break;
                }
                default:
                    throw fail("bad escape");
            }
        }
    }

    private char hex4() {
        if (at + 4 > s.length()) {
            throw fail("short \\u escape");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Address.hexDigit(s.charAt(at + i));
            if (d < 0) {
                throw fail("bad \\u escape");
            }
            v = v * 16 + d;
        }
        at += 4;
        return (char) v;
    }

    private Object number() {
        int start = at;
        if (s.charAt(at) == '-') {
            at++;
        }
        int intStart = at;
        digits();
        if (at - intStart > 1 && s.charAt(intStart) == '0') {
            throw fail("leading zero");
        }
        boolean integer = true;
        if (at < s.length() && s.charAt(at) == '.') {
            at++;
            digits();
            integer = false;
        }
        if (at < s.length() && (s.charAt(at) == 'e' || s.charAt(at) == 'E')) {
            at++;
            if (at < s.length() && (s.charAt(at) == '+' || s.charAt(at) == '-')) {
                at++;
            }
            digits();
            integer = false;
        }
        String t = s.substring(start, at);
        if (integer) {
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                throw fail("integer out of range");
            }
        }
        return Double.parseDouble(t);
    }

    private void digits() {
        int from = at;
        while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
            at++;
        }
        if (at == from) {
            throw fail("expected a digit");
        }
    }
}
