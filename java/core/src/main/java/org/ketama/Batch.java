package org.ketama;

/**
 * Many keys' servers in one call ({@link Ring#indexMany}): on rings whose key hash is the MD5
 * of the key and whose placement reads only that hash, the keys' digests are computed two at a
 * time ({@link Md5#word0Pair}), and a plain key given as a string is encoded into a buffer the
 * call reuses; every other ring looks each key up on its own. Each key gets exactly the
 * answer {@link Ring#index} gives it, or -1 where that throws.
 */
final class Batch {
    private final Ring ring;
    private final Profile profile;
    private final HashFn hash;
    private final Lookup lookup;
    /** Keys hashed in pairs: MD5 word keys, a placement of the key hash alone. */
    private final boolean pairs;
    /** The key as given is the key hashed (no tag, prefix or rewrite). */
    private final boolean plain;
    /** Each slot's key bytes (a buffer longer than the key for encoded strings), and its length. */
    private final byte[][] bytes = new byte[2][];
    private final int[] lens = new int[2];
    private final byte[][] scratch = {new byte[64], new byte[64]};
    /** Where a slot's key is refused: {@link #lens} holds this. */
    private static final int REFUSED = -1;

    Batch(Ring ring, Profile profile, HashFn hash, Options options, int servers, Lookup lookup) {
        this.ring = ring;
        this.profile = profile;
        this.hash = hash;
        this.lookup = lookup;
        this.plain = Keys.plain(profile, options);
        this.pairs = hash.fromMd5Word0() && placesHash(profile) && !(profile.singleShortcut && servers == 1);
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

    /** The server index of each string key (its UTF-8) into {@code out}, -1 where {@link Ring#index} throws. */
    void run(String[] keys, int[] out) {
        for (int i = 0; i < keys.length; i += 2) {
            load(0, keys[i]);
            if (i + 1 < keys.length) {
                load(1, keys[i + 1]);
            }
            place(out, i, Math.min(2, keys.length - i));
        }
    }

    /** The server index of each key into {@code out}, -1 where {@link Ring#index} throws. */
    void run(byte[][] keys, int[] out) {
        for (int i = 0; i < keys.length; i += 2) {
            load(0, keys[i]);
            if (i + 1 < keys.length) {
                load(1, keys[i + 1]);
            }
            place(out, i, Math.min(2, keys.length - i));
        }
    }

    private void load(int slot, String key) {
        if (!pairs) {
            bytes[slot] = null;
            try {
                bytes[slot] = Utf16.utf8(key, "key");
            } catch (InvalidUtf8Exception e) {
                lens[slot] = REFUSED;
                return;
            }
            lens[slot] = bytes[slot].length;
            return;
        }
        int n = key.length();
        byte[] s = scratch[slot];
        if (s.length < n) {
            s = new byte[Math.max(n, 2 * s.length)];
            scratch[slot] = s;
        }
        for (int i = 0; i < n; i++) {
            char c = key.charAt(i);
            if (c >= 0x80) {
                try {
                    load(slot, Utf16.utf8(key, "key"));
                } catch (InvalidUtf8Exception e) {
                    lens[slot] = REFUSED;
                }
                return;
            }
            s[i] = (byte) c;
        }
        prepare(slot, s, n);
    }

    private void load(int slot, byte[] key) {
        if (!pairs) {
            bytes[slot] = key;
            lens[slot] = key.length;
            return;
        }
        prepare(slot, key, key.length);
    }

    /** The slot's key as the client hashes it, or {@link #REFUSED}. */
    private void prepare(int slot, byte[] key, int len) {
        if (plain) {
            bytes[slot] = key;
            lens[slot] = Keys.refused(profile, hash, key, len) ? REFUSED : len;
            return;
        }
        byte[] exact = len == key.length ? key : java.util.Arrays.copyOf(key, len);
        try {
            byte[] k = ring.prepare(exact);
            bytes[slot] = k;
            lens[slot] = k == Keys.UNHASHED ? Keys.UNHASHED_LENGTH : k.length;
        } catch (KeyRejectedException e) {
            lens[slot] = REFUSED;
        }
    }

    /** Places the {@code n} (1 or 2) loaded keys into {@code out[at..]}. */
    private void place(int[] out, int at, int n) {
        if (!pairs) {
            for (int j = 0; j < n; j++) {
                out[at + j] = lens[j] == REFUSED ? -1 : single(bytes[j]);
            }
            return;
        }
        if (n == 2 && fits(lens[0]) && fits(lens[1])) {
            long w = Md5.word0Pair(bytes[0], 0, lens[0], bytes[1], 0, lens[1]);
            out[at] = locate(hash.ofMd5Word0((int) w));
            out[at + 1] = locate(hash.ofMd5Word0((int) (w >>> 32)));
            return;
        }
        for (int j = 0; j < n; j++) {
            int len = lens[j];
            out[at + j] = len == REFUSED ? -1
                : locate(len == Keys.UNHASHED_LENGTH ? 0 : hash.ofMd5Word0(Md5.word0(bytes[j], 0, len)));
        }
    }

    private static boolean fits(int len) {
        return len >= 0 && len <= Md5.ONE_BLOCK;
    }

    private int locate(int h) {
        try {
            return lookup.locateHash(h);
        } catch (KetamaException e) {
            return -1;
        }
    }

    private int single(byte[] key) {
        try {
            return ring.index(key);
        } catch (KetamaException e) {
            return -1;
        }
    }
}
