package org.ketama;

/** The byte-reading hashes of C clients: one-at-a-time, FNV, Hsieh, Murmur, lookup3. */
final class Bits {
    private Bits() {}

    /** Jenkins one-at-a-time; {@code signed} widens bytes as x86 {@code char}. */
    static int oneAtATime(byte[] b, int off, int len, boolean signed) {
        int h = 0;
        for (int i = off, end = off + len; i < end; i++) {
            h += signed ? b[i] : b[i] & 0xff;
            h += h << 10;
            h ^= h >>> 6;
        }
        h += h << 3;
        h ^= h >>> 11;
        return h + (h << 15);
    }

    static final int FNV32_BASIS = 0x811C9DC5;
    static final int FNV32_PRIME = 0x01000193;
    /** The low word of the 64-bit FNV basis and prime (the low word is all that is kept). */
    static final int FNV64_BASIS_LOW = 0x84222325;
    static final int FNV64_PRIME_LOW = 0x1b3;

    /** FNV over bytes: {@code a} = FNV-1a (xor first), {@code wide} = the 64-bit constants. */
    static int fnv(byte[] b, int off, int len, boolean signed, boolean a, boolean wide) {
        int h = wide ? FNV64_BASIS_LOW : FNV32_BASIS;
        int p = wide ? FNV64_PRIME_LOW : FNV32_PRIME;
        for (int i = off, end = off + len; i < end; i++) {
            int x = signed ? b[i] : b[i] & 0xff;
            h = a ? (h ^ x) * p : (h * p) ^ x;
        }
        return h;
    }

    /** FNV-1a 32 over unsigned bytes from the state {@code h} (Enyim starts from 0). */
    static int fnvFrom(int h, byte[] b, int off, int len) {
        for (int i = off, end = off + len; i < end; i++) {
            h = (h ^ (b[i] & 0xff)) * FNV32_PRIME;
        }
        return h;
    }

    private static int le16(byte[] b, int q) {
        return (b[q] & 0xff) | (b[q + 1] & 0xff) << 8;
    }

    private static int le32(byte[] b, int q) {
        return (b[q] & 0xff) | (b[q + 1] & 0xff) << 8 | (b[q + 2] & 0xff) << 16 | (b[q + 3] & 0xff) << 24;
    }

    /** SuperFastHash from 0; {@code signedTail} reads a 3-byte tail's last byte as x86 does. */
    static int hsieh(byte[] b, int off, int len, boolean signedTail) {
        if (len == 0) {
            return 0;
        }
        int h = 0;
        int q = off;
        for (int n = len >>> 2; n > 0; n--, q += 4) {
            h += le16(b, q);
            int t = (le16(b, q + 2) << 11) ^ h;
            h = (h << 16) ^ t;
            h += h >>> 11;
        }
        switch (len & 3) {
            case 3:
                h += le16(b, q);
                h ^= h << 16;
                h ^= (signedTail ? b[q + 2] : b[q + 2] & 0xff) << 18;
                h += h >>> 11;
                break;
            case 2:
                h += le16(b, q);
                h ^= h << 11;
                h += h >>> 17;
                break;
            case 1:
                h += b[q] & 0xff;
                h ^= h << 10;
                h += h >>> 1;
                break;
            default:
                break;
        }
        h ^= h << 3;
        h += h >>> 5;
        h ^= h << 4;
        h += h >>> 17;
        h ^= h << 25;
        return h + (h >>> 6);
    }

    /** Little-endian word of the {@code n} (0..4) bytes at {@code q}, zero-padded. */
    private static int tail(byte[] b, int q, int n) {
        int t = 0;
        for (int i = n - 1; i >= 0; i--) {
            t = (t << 8) | (b[q + i] & 0xff);
        }
        return t;
    }

    /** libhashkit MurmurHash2, seed {@code 0xDEADBEEF * len}. */
    static int murmur2(byte[] b, int off, int len) {
        final int m = 0x5bd1e995;
        int h = (0xDEADBEEF * len) ^ len;
        int q = off;
        for (int n = len >>> 2; n > 0; n--, q += 4) {
            int k = le32(b, q) * m;
            k ^= k >>> 24;
            k *= m;
            h = (h * m) ^ k;
        }
        if ((len & 3) != 0) {
            h = (h ^ tail(b, q, len & 3)) * m;
        }
        h ^= h >>> 13;
        h *= m;
        return h ^ (h >>> 15);
    }

    /** MurmurHash3_x86_32 with an explicit seed. */
    static int murmur3(byte[] b, int off, int len, int seed) {
        final int c1 = 0xcc9e2d51, c2 = 0x1b873593;
        int h = seed;
        int q = off;
        for (int n = len >>> 2; n > 0; n--, q += 4) {
            h ^= Integer.rotateLeft(le32(b, q) * c1, 15) * c2;
            h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
        }
        if ((len & 3) != 0) {
            h ^= Integer.rotateLeft(tail(b, q, len & 3) * c1, 15) * c2;
        }
        h ^= len;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    /** lookup3 {@code hashlittle(key, len, 13)}. */
    static int jenkins(byte[] k, int off, int len) {
        int a = 0xDEADBEEF + len + 13, b = a, c = a;
        int q = off;
        int rest = len;
        while (rest > 12) {
            a += le32(k, q);
            b += le32(k, q + 4);
            c += le32(k, q + 8);
            a -= c; a ^= Integer.rotateLeft(c, 4); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 6); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 8); b += a;
            a -= c; a ^= Integer.rotateLeft(c, 16); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 19); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 4); b += a;
            q += 12;
            rest -= 12;
        }
        if (rest == 0) {
            return c;
        }
        a += tail(k, q, Math.min(rest, 4));
        if (rest > 4) {
            b += tail(k, q + 4, Math.min(rest - 4, 4));
        }
        if (rest > 8) {
            c += tail(k, q + 8, rest - 8);
        }
        c ^= b; c -= Integer.rotateLeft(b, 14);
        a ^= c; a -= Integer.rotateLeft(c, 11);
        b ^= a; b -= Integer.rotateLeft(a, 25);
        c ^= b; c -= Integer.rotateLeft(b, 16);
        a ^= c; a -= Integer.rotateLeft(c, 4);
        b ^= a; b -= Integer.rotateLeft(a, 14);
        c ^= b; c -= Integer.rotateLeft(b, 24);
        return c;
    }
}
