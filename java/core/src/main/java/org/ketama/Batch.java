package org.ketama;

import java.util.Arrays;

/**
 * Many keys' servers in one call ({@link Ring#indexMany}): on rings whose key hash is a
 * function of the key's MD5 and whose placement reads only that hash, the keys that fit one
 * MD5 block are hashed {@link Md5Lanes#LANES} at a time, and a key given as an ASCII string is
 * encoded into a buffer the call reuses; every other ring looks each key up on its own. Each
 * key gets exactly the answer {@link Ring#index} gives it, or -1 where that throws. One per
 * call (not thread-safe).
 */
final class Batch {
    /** Where a key is refused: the prepared length records this. */
    private static final int REFUSED = -1;

    private final Ring ring;
    private final Profile profile;
    private final HashFn hash;
    private final Lookup lookup;
    /** Keys hashed in lanes: an MD5 key hash, a placement of the key hash alone. */
    private final boolean lanes;
    /** The key as given is the key hashed (no tag, prefix or rewrite). */
    private final boolean plain;
    /** The current key as the client hashes it: bytes (maybe longer than the key) and length. */
    private byte[] cur;
    private int curLen;
    private byte[] scratch = new byte[64];
    private Md5Lanes md5;
    /** For each lane, the key's place in its group. */
    private final int[] laneKey = new int[Md5Lanes.LANES];

    Batch(Ring ring, Profile profile, HashFn hash, Options options, int servers, Lookup lookup) {
        this.ring = ring;
        this.profile = profile;
        this.hash = hash;
        this.lookup = lookup;
        this.plain = Keys.plain(profile, options);
        this.lanes = hash.fromMd5Word0() && placesHash(profile) && !(profile.singleShortcut && servers == 1);
    }

    /** Whether a placement reads the key's 32-bit hash alone ({@link Lookup#locateHash}). */
    private static boolean placesHash(Profile p) {
        switch (p.shape) {
            case SORTED:
            case TIE_RUNS:
            case BUCKETS:
            case JUMP:
            case RENDEZVOUS:
            case MAGLEV:
            case SCALED:
                return true;
            case SLOTS:
                return !p.oldCompat;
            default:
                return false;
        }
    }

    /**
     * The server index of each key ({@code String}: its UTF-8; {@code byte[]}: as given) into
     * {@code out}, -1 where {@link Ring#index} throws.
     */
    void run(Object[] keys, int[] out) {
        if (!lanes) {
            for (int i = 0; i < keys.length; i++) {
                out[i] = single(keys[i]);
            }
            return;
        }
        for (int at = 0; at < keys.length; at += Md5Lanes.LANES) {
            group(keys, at, Math.min(Md5Lanes.LANES, keys.length - at), out);
        }
    }

    /** Keys {@code at..at + m}: the one-block ones through the lanes, the others one by one. */
    private void group(Object[] keys, int at, int m, int[] out) {
        if (md5 == null) {
            md5 = new Md5Lanes();
        }
        int filled = 0;
        for (int j = 0; j < m; j++) {
            prepare(keys[at + j]);
            if (curLen >= 0 && curLen <= Md5.ONE_BLOCK) {
                md5.set(filled, cur, 0, curLen);
                laneKey[filled++] = j;
            } else if (curLen == REFUSED) {
                out[at + j] = -1;
            } else {
                out[at + j] = locate(curLen == Keys.UNHASHED_LENGTH ? 0 : hash.ofMd5Word0(Md5.word0(cur, 0, curLen)));
            }
        }
        md5.run(filled);
        for (int f = 0; f < filled; f++) {
            out[at + laneKey[f]] = locate(hash.ofMd5Word0(md5.word0(f)));
        }
    }

    /** Sets {@link #cur} and {@link #curLen} to the key as the client hashes it, or {@link #REFUSED}. */
    private void prepare(Object key) {
        if (key instanceof byte[]) {
            prepare((byte[]) key, ((byte[]) key).length);
            return;
        }
        String s = (String) key;
        int n = s.length();
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, 2 * scratch.length)];
        }
        byte[] buf = scratch;
        // every character copied, then one test: a loop without an exit the JIT can unroll
        int all = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            all |= c;
            buf[i] = (byte) c;
        }
        if (all < 0x80) {
            prepare(buf, n);
            return;
        }
        try {
            byte[] utf8 = Utf16.utf8(s, "key");
            prepare(utf8, utf8.length);
        } catch (InvalidUtf8Exception e) {
            curLen = REFUSED;
        }
    }

    private void prepare(byte[] key, int len) {
        if (plain) {
            cur = key;
            curLen = Keys.refused(profile, hash, key, len) ? REFUSED : len;
            return;
        }
        try {
            byte[] k = ring.prepare(len == key.length ? key : Arrays.copyOf(key, len));
            cur = k;
            curLen = k == Keys.UNHASHED ? Keys.UNHASHED_LENGTH : k.length;
        } catch (KeyRejectedException e) {
            curLen = REFUSED;
        }
    }

    private int locate(int h) {
        try {
            return lookup.locateHash(h);
        } catch (KetamaException e) {
            return -1;
        }
    }

    private int single(Object key) {
        try {
            return key instanceof byte[] ? ring.index((byte[]) key) : ring.index((String) key);
        } catch (KetamaException e) {
            return -1;
        }
    }
}
