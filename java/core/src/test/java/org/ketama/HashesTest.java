package org.ketama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Known answers of every hash family (core's unit-test values, from the real clients). */
class HashesTest {
    static long h(String name, String key) {
        return Hashes.hash(name, key);
    }

    @Test
    void knownAnswers() {
        assertEquals(3195025439L, h("md5", "apple"));
        assertEquals(2297466611L, h("one_at_a_time", "apple"));
        assertEquals(2144029493L, h("one_at_a_time", "été"));
        assertEquals(1191034661L, h("one_at_a_time_unsigned", "été"));
        assertEquals(0xCBF43926L, h("crc32a", "123456789"));
        assertEquals(2838417488L, h("crc32a", "apple"));
        assertEquals(10542L, h("crc", "apple"));
        assertEquals(2257596867L, h("crc16", "123456789"));
        assertEquals(3662830516L, h("crc16", "apple"));
        assertEquals(473199127L, h("fnv1_64", "apple"));
        assertEquals(1488911807L, h("fnv1a_64", "apple"));
        assertEquals(67176023L, h("fnv1_32", "apple"));
        assertEquals(280767167L, h("fnv1a_32", "apple"));
        assertEquals(200187927L, h("fnv1a_32", "été"));
        assertEquals(4290086935L, h("fnv1a_32_unsigned", "été"));
        assertEquals(3995086359L, h("fnv1_64", "été"));
        assertEquals(3487848983L, h("fnv1_64_unsigned", "été"));
        assertEquals(3738850110L, h("hsieh", "apple"));
        assertEquals(0L, h("hsieh", ""));
        assertEquals(1442444624L, h("jenkins", "apple"));
        assertEquals(4142305122L, h("murmur", "apple"));
        assertEquals(1120212521L, h("murmur3", "apple"));
        assertEquals(1510573L, h("seed_tohash", "apple"));
        assertEquals(0xa9993e36L, h("sha1", "abc"));
        assertEquals(0xda39a3eeL, h("sha1", ""));
        assertEquals(4077680093L, h("native", "hello world!"));
        assertEquals(2036609855L, h("mysql", "hello world!"));
        assertEquals(21676401L, h("elf", "hello world!"));
        assertEquals(1353327565L, h("rs", "hello world!"));
        assertEquals(843468207L, h("lua", "hello world!"));
        assertEquals(3045921L, h("native", "café"));
        assertEquals(2942944915L, h("lua", "emoji😀x"));
        assertEquals(2638304199L, h("mysql", "emoji😀x"));
        assertEquals(88517560L, h("elf", "emoji😀x"));
        assertEquals(1110486855L, h("rs", "emoji😀x"));
        assertEquals(3548571338L, h("spooky32", "hello"));
        assertEquals(1811220761L, h("spooky32", ""));
    }

    @Test
    void javaClientNames() {
        String[] names = {"CRC_HASH", "FNV1_64_HASH", "FNV1A_64_HASH", "FNV1_32_HASH", "FNV1A_32_HASH", "KETAMA_HASH", "ONE_AT_A_TIME"};
        long[][] want = {
            {948, 3111880380L, 3445237362L, 2315368860L, 2956263410L, 2398699516L, 2614696403L},
            {6317, 4043580002L, 3898172124L, 3853951970L, 856211068L, 3833532679L, 2425794034L},
            {19412, 651624534L, 918180296L, 162790294L, 3646128104L, 3331975971L, 866013889L},
        };
        String[] keys = {"hello world!", "café", "emoji😀x"};
        for (int k = 0; k < keys.length; k++) {
            for (int i = 0; i < names.length; i++) {
                assertEquals(want[k][i], h(names[i], keys[k]), names[i] + " " + keys[k]);
            }
        }
    }

    @Test
    void spookyAndFurcAgreeWithMcrouter() {
        byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
        assertEquals(2594585269L, Spooky.hash32(hello, 0, 5, 0xface2014) & 0xFFFFFFFFL);
        assertEquals(3992584464990660298L, Spooky.hash128First(hello, 0, 5, 0, 0));
        assertEquals(5566605159182504090L, Furc.murmur64a(new byte[0], 0, 0, Furc.SEED));
        assertEquals(0, Furc.furcHash(hello, 0, 5, 3));
        assertEquals(72, Furc.furcHash(new byte[0], 0, 0, 1000));
        byte[] k192 = new byte[192];
        java.util.Arrays.fill(k192, (byte) 107);
        assertEquals(1739110002L, Spooky.hash32(k192, 0, 192, 0) & 0xFFFFFFFFL);
        assertEquals(Long.parseUnsignedLong("10536444386813195890"), Spooky.hash128First(k192, 0, 192, 0, 0));
        int[] ns = {0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 100, 1000, 65535, 65536, 8388607, 8388608, 8388609, 16777216};
        int[] want = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 98, 777, 5385, 5385, 3104963, 3104963, 3104963, 3104963};
        byte[] k32 = new byte[32];
        java.util.Arrays.fill(k32, (byte) 107);
        for (int i = 0; i < ns.length; i++) {
            assertEquals(want[i], Furc.furcHash(k32, 0, 32, ns[i]), "n=" + ns[i]);
        }
    }

    @Test
    void md5MatchesTheJdkAtEveryLength() throws Exception {
        Random r = new Random(7);
        for (int len = 0; len <= 200; len++) {
            byte[] b = new byte[len + 3];
            r.nextBytes(b);
            byte[] want = MessageDigest.getInstance("MD5").digest(java.util.Arrays.copyOfRange(b, 3, 3 + len));
            assertArrayEquals(want, Md5.digest(b, 3, len), "len " + len);
        }
    }

    /** The MD5 lanes of the batch lookups: each lane's first word is that message's, whatever the lane count. */
    @Test
    void md5LanesMatchOneAtATime() {
        Random r = new Random(11);
        Md5Lanes lanes = new Md5Lanes();
        for (int n : new int[] {1, 7, 8, 9, 56, Md5Lanes.LANES}) {
            byte[][] msgs = new byte[n][];
            for (int j = 0; j < n; j++) {
                msgs[j] = new byte[(j * 7 + n) % (Md5.ONE_BLOCK + 1) + 3];
                r.nextBytes(msgs[j]);
                lanes.set(j, msgs[j], 3, msgs[j].length - 3);
            }
            lanes.run(n);
            for (int j = 0; j < n; j++) {
                assertEquals(Md5.word0(msgs[j], 3, msgs[j].length - 3), lanes.word0(j), n + " lanes, message " + j);
            }
        }
    }

    @Test
    void namesResolveAsCoreDoes() {
        assertEquals("md5", Hashes.canonicalName("KETAMA_HASH"));
        assertEquals("java_fnv1_32", Hashes.canonicalName("FNV1_32_HASH"));
        assertEquals("fnv1_32", Hashes.canonicalName("fnv1_32"));
        assertEquals("one_at_a_time_unsigned", Hashes.canonicalName("ONE_AT_A_TIME"));
        assertEquals("fnv1a_64", Hashes.canonicalName("FNV1A_64"));
        assertEquals("jenkins", Hashes.canonicalName("JENKINS"));
        // ASCII case only: the Kelvin sign lowercases to 'k' in Java, not in core.
        assertThrows(UnknownHashException.class, () -> Hashes.hash("jen\u212Ains", new byte[0]));
        assertThrows(AmbiguousHashException.class, () -> Hashes.hash("crc32", new byte[0]));
        UnknownHashException e = assertThrows(UnknownHashException.class, () -> Hashes.hash("nope", new byte[0]));
        assertEquals("UnknownHash", e.errorName());
        for (String n : Hashes.names()) {
            assertEquals(n, Hashes.canonicalName(n));
        }
    }

    @Test
    void everySpecHashHasItsFlavour() {
        // The spec's `input` for each hash equals how this port's function reads bytes.
        for (SpecTable.HashRow h : SpecTable.HASHES) {
            assertEquals(h.input, h.fn.input(), h.fn.canonical);
        }
        assertEquals(HashFn.values().length, Hashes.names().size());
    }

    @Test
    void utf16DecodingReplacesEachMaximalInvalidSubsequence() {
        int[][] in = {{0xE2, 0x82}, {0xF0, 0x80, 0x80}, {0xED, 0xA0, 0x80}, {0xC0, 0x80}, {'a', 0xFF, 'b'}, {0xF0, 0x9F, 0x98, 0x80}};
        String[] want = {"\uFFFD", "\uFFFD\uFFFD\uFFFD", "\uFFFD\uFFFD\uFFFD", "\uFFFD\uFFFD", "a\uFFFDb", "\uD83D\uDE00"};
        for (int i = 0; i < in.length; i++) {
            byte[] b = new byte[in[i].length];
            for (int j = 0; j < b.length; j++) {
                b[j] = (byte) in[i][j];
            }
            assertEquals(want[i], Utf16.decode(b, 0, b.length), "case " + i);
        }
    }

    @Test
    void xxh3AtEveryLengthPath() {
        // the reference xxhash library (Python xxhash 3.x xxh3_64) over bytes (7i + 3) & 255
        int[] len = {0, 1, 3, 4, 8, 9, 16, 17, 100, 128, 129, 240, 241, 1500};
        String[] want = {"2d06800538d394c2", "13e608bc156defed", "a9088dda485b481c", "6d9253b16c8b1ed3",
            "60539db630471163", "feff668361d723a8", "b8c859b0f030b585", "714a04408e79b80f", "b5937857f0d78c9f",
            "67425a03650261bf", "c664bf3311c6abc4", "64556dc6b462a6cf", "8beadd3a8874fe17", "636eb3103aa644e2"};
        for (int c = 0; c < len.length; c++) {
            byte[] b = new byte[len[c] + 3];
            for (int i = 0; i < len[c]; i++) {
                b[i + 3] = (byte) (i * 7 + 3);
            }
            // read at an offset: the same bytes
            long v = Xxh3.hash64(b, 3, len[c]);
            assertEquals(want[c], String.format("%016x", v), "length " + len[c]);
            assertEquals(Long.parseUnsignedLong(want[c], 16) & 0xFFFFFFFFL,
                Hashes.hash("xxh3", java.util.Arrays.copyOfRange(b, 3, b.length)), "low word, length " + len[c]);
        }
    }

    @Test
    void murmur3X64AndEmcache() {
        // the reference implementation's output bytes (PyPI mmh3 hash_bytes)
        String[][] cases = {{"hello", "029bbd41b3a7d8cb191dae486a901e5b"},
            {"0123456789abcdefXYZ", "1d904a6c0275d399f39cf8ea56e2694e"}, {"", "00000000000000000000000000000000"}};
        for (String[] c : cases) {
            byte[] k = c[0].getBytes(StandardCharsets.UTF_8);
            long[] h = Murmur128.hash128(k, 0, k.length);
            String hex = String.format("%016x%016x", Long.reverseBytes(h[0]), Long.reverseBytes(h[1]));
            assertEquals(c[1], hex, c[0]);
        }
        // 'hello': bytes 02 9b bd 41: 0x02, then 0x9b (>= 0x80) fills bits 8 and up
        assertEquals(0xFFFFFF02L, h("emcache_murmur3", "hello"));
    }

    @Test
    void pymemcacheMurmur3HashesEachCharactersLowByte() {
        // mmh3.hash(bytes([0xe9])), mmh3.hash(bytes([0x78, 0xe5, 0x00])), mmh3.hash(b'abc'), unsigned
        assertEquals(1153881266L, h("pymemcache_murmur3", "\u00e9"));
        assertEquals(2168096952L, h("pymemcache_murmur3", "x\u65e5\ud83d\ude00"));
        assertEquals(3017643002L, h("pymemcache_murmur3", "abc"));
        byte[] raw = {0x61, (byte) 0xff};
        assertEquals(Hashes.hash("murmur3_32", raw), Hashes.hash("pymemcache_murmur3", raw));
    }

    @Test
    void theSixtyFourBitHashes() {
        // SMHasher's verification value of MurmurHash64A: the keys [0], [0, 1], ..., [0..254]
        // with seeds 256 - length, then their concatenated little-endian hashes with seed 0
        byte[] key = new byte[256];
        for (int i = 0; i < 256; i++) {
            key[i] = (byte) i;
        }
        byte[] all = new byte[256 * 8];
        for (int len = 0; len < 256; len++) {
            long h = Hash64.murmur64a(key, 0, len, 256 - len);
            for (int i = 0; i < 8; i++) {
                all[len * 8 + i] = (byte) (h >>> (8 * i));
            }
        }
        assertEquals(0x1F0D3804, (int) Hash64.murmur64a(all, 0, all.length, 0));
        assertEquals(0L, Hash64.murmur64a(new byte[0], 0, 0, 0));
        // the reference XXH64 (seed 0): "", "a", and 100 bytes through the 32-byte stripes
        assertEquals(0xEF46DB3751D8E999L, HashFn.XXH64.apply64(new byte[0], 0, 0));
        assertEquals(0xEF46DB37L, Hashes.hash("xxh64", ""));
        assertEquals(0xD24EC4F1A98C6E5BL, HashFn.XXH64.apply64(new byte[] {'a'}, 0, 1));
        byte[] abc = "abc".getBytes(StandardCharsets.UTF_8);
        assertEquals(0x44BC2CF5AD770999L, HashFn.XXH64.apply64(abc, 0, 3));
        byte[] hundred = new byte[103];
        for (int i = 0; i < 100; i++) {
            hundred[i + 3] = (byte) i;
        }
        assertEquals(0x6AC1E58032166597L, HashFn.XXH64.apply64(hundred, 3, 100));
        assertEquals(0xD93FA2DFEE5C24C9L, HashFn.XXH64.apply64(hundred, 3, 37));
        // a 64-bit hash's 32-bit form is its high word; every other hash's 64-bit form its 32 bits
        byte[] k = "key".getBytes(StandardCharsets.UTF_8);
        for (HashFn f : new HashFn[] {HashFn.MURMUR64A, HashFn.XXH64}) {
            assertEquals(f.apply64(k, 0, 3) >>> 32, f.apply(k, 0, 3) & 0xFFFFFFFFL, f.canonical);
        }
        assertEquals(3195025439L, HashFn.MD5.apply64("apple".getBytes(StandardCharsets.UTF_8), 0, 5));
        assertEquals(~0xCBF43926L & 0xFFFFFFFFL, h("crc32_raw", "123456789"));
        // FNV-1a from the state 0: nothing hashed is 0; one byte is that byte times the prime
        assertEquals(0L, h("fnv1a_32_zero", ""));
        assertEquals(0x61L * 0x01000193L & 0xFFFFFFFFL, h("fnv1a_32_zero", "a"));
    }
}
