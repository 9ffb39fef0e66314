package org.ketama;

/** The CRC family: IEEE CRC-32, its 15-bit cut and twemproxy's crc16. */
final class Crc {
    private Crc() {}

    private static final int[] IEEE = new int[256];
    private static final int[] XMODEM = new int[256];

    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            }
            IEEE[n] = c;
            int x = n << 8;
            for (int k = 0; k < 8; k++) {
                x = (x & 0x8000) != 0 ? (x << 1) ^ 0x1021 : x << 1;
            }
            XMODEM[n] = x & 0xFFFF;
        }
    }

    /** Standard CRC-32 (reflected 0xEDB88320, init and final xor 0xFFFFFFFF). */
    static int crc32a(byte[] b, int off, int len) {
        int c = 0xFFFFFFFF;
        for (int i = off, end = off + len; i < end; i++) {
            c = IEEE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
        }
        return ~c;
    }

    /** CRC-32 of a byte range followed by the four little-endian bytes of {@code tail}. */
    static int crc32aWithLe32(byte[] b, int off, int len, int tail) {
        int c = 0xFFFFFFFF;
        for (int i = off, end = off + len; i < end; i++) {
            c = IEEE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
        }
        for (int k = 0; k < 4; k++) {
            c = IEEE[(c ^ (tail >>> (8 * k))) & 0xff] ^ (c >>> 8);
        }
        return ~c;
    }

    /** {@code (crc32 >> 16) & 0x7fff}: libhashkit crc, Java CRC_HASH / CRC32_HASH. */
    static int crc15(byte[] b, int off, int len) {
        return (crc32a(b, off, len) >>> 16) & 0x7fff;
    }

    /** twemproxy crc16: the XMODEM table step on a 32-bit accumulator never truncated. */
    static int crc16(byte[] b, int off, int len) {
        int c = 0;
        for (int i = off, end = off + len; i < end; i++) {
            c = (c << 8) ^ XMODEM[((c >>> 8) ^ (b[i] & 0xff)) & 0xff];
        }
        return c;
    }
}
