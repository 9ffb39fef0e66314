package org.ketama;

import java.util.Arrays;

/**
 * Hash tags: the part of a key a client hashes instead of the whole key, found by each
 * client's own rule (the spec's {@code key_tag.rule}) between an opening and a closing byte.
 */
final class Tags {
    private Tags() {}

    /** What no tag is: the whole key is hashed. */
    private static final long NONE = -1;

    /** The bytes {@code rule} hashes for {@code key} with delimiters {@code o} and {@code c}. */
    static byte[] tag(Profile.TagRule rule, byte[] key, byte o, byte c) {
        long span = find(rule, key, o, c);
        if (span == NONE) {
            return key;
        }
        int start = (int) (span >>> 32), end = (int) span;
        return start == 0 && end == key.length ? key : Arrays.copyOfRange(key, start, end);
    }

    /** The tag's bounds as {@code start << 32 | end}, or {@link #NONE}. */
    static long find(Profile.TagRule rule, byte[] key, byte o, byte c) {
        switch (rule) {
            case FIRST_NON_EMPTY: {
                long s = first(key, key.length, o, c);
                return s != NONE && (int) (s >>> 32) < (int) s ? s : NONE;
            }
            case FIRST_UP_TO_NUL:
                return first(key, indexOf(key, 0, key.length, (byte) 0), o, c);
            case LINE_START:
                for (int p = 0; p < key.length; p++) {
                    if (key[p] == o && (p == 0 || key[p - 1] == '\n')) {
                        long s = lazyFrom(key, p, c, false);
                        if (s != NONE) {
                            return s;
                        }
                    }
                }
                return NONE;
            case GREEDY_LAST: {
                int line = indexOf(key, 0, key.length, (byte) '\n');
                int end = lastIndexOf(key, line, c);
                if (end < 0) {
                    return NONE;
                }
                int open = lastIndexOf(key, end, o);
                return open < 0 ? NONE : span(open + 1, end);
            }
            case LAZY_FIND:
                for (int p = 0; p < key.length; p++) {
                    if (key[p] == o) {
                        long s = lazyFrom(key, p, c, true);
                        if (s != NONE) {
                            return s;
                        }
                    }
                }
                return NONE;
            default:
                throw new IllegalStateException(rule.toString());
        }
    }

    private static long span(int start, int end) {
        return (long) start << 32 | end;
    }

    /** The first index of {@code b} in {@code key[from..to)}, else {@code to}. */
    private static int indexOf(byte[] key, int from, int to, byte b) {
        for (int i = from; i < to; i++) {
            if (key[i] == b) {
                return i;
            }
        }
        return to;
    }

    /** The last index of {@code b} in {@code key[0..to)}, else -1. */
    private static int lastIndexOf(byte[] key, int to, byte b) {
        for (int i = to - 1; i >= 0; i--) {
            if (key[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** In {@code key[0..end)}: the first {@code o}, the first {@code c} after it; the bytes between (maybe none). */
    private static long first(byte[] key, int end, byte o, byte c) {
        int open = indexOf(key, 0, end, o);
        if (open == end) {
            return NONE;
        }
        int close = indexOf(key, open + 1, end, c);
        return close == end ? NONE : span(open + 1, close);
    }

    /**
     * From the {@code o} at {@code p}: at least one byte, then up to the first {@code c}, failing
     * at a line end before that {@code c} ({@code java}: Java's line terminators, else
     * {@code \n}); the bytes between.
     */
    private static long lazyFrom(byte[] key, int p, byte c, boolean java) {
        int start = p + 1;
        if (start >= key.length || endsLine(key, start, java)) {
            return NONE;
        }
        for (int q = start + 1; q < key.length; q++) {
            if (endsLine(key, q, java)) {
                return NONE;
            }
            if (key[q] == c) {
                return span(start, q);
            }
        }
        return NONE;
    }

    /**
     * Whether a line terminator starts at {@code at}: {@code \n}; with {@code java} also
     * {@code \r} and the UTF-8 of U+0085, U+2028 and U+2029 (what Java's {@code .} does not match).
     */
    private static boolean endsLine(byte[] key, int at, boolean java) {
        int b = key[at] & 0xff;
        if (b == '\n') {
            return true;
        }
        if (!java) {
            return false;
        }
        int n = key.length - at;
        return b == '\r'
            || (b == 0xC2 && n >= 2 && (key[at + 1] & 0xff) == 0x85)
            || (b == 0xE2 && n >= 3 && (key[at + 1] & 0xff) == 0x80 && ((key[at + 2] & 0xff) == 0xA8 || (key[at + 2] & 0xff) == 0xA9));
    }
}
