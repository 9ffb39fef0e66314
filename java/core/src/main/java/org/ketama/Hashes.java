package org.ketama;

import java.util.List;

/** Every key hash of the embedded spec, by name. */
public final class Hashes {
    private Hashes() {}

    /**
     * The unsigned 32-bit hash of {@code key} by the hash called {@code name}: our snake_case
     * name ({@code md5}, {@code one_at_a_time}, ...) or a client's own ({@code KETAMA_HASH},
     * {@code FNV1_32_HASH}, {@code HASHKIT_HASH_MD5}, ...). Java clients' names select their
     * UTF-16 flavour.
     *
     * @throws UnknownHashException no hash has this name
     * @throws AmbiguousHashException {@code crc32} (say {@code crc} or {@code crc32a})
     */
    public static long hash(String name, byte[] key) {
        return Spec.get().hash(name).apply(key, 0, key.length) & 0xFFFFFFFFL;
    }

    /**
     * {@link #hash(String, byte[])} of the key's UTF-8 bytes.
     *
     * @throws InvalidUtf8Exception the key holds an unpaired surrogate (it has no UTF-8)
     */
    public static long hash(String name, String key) {
        return hash(name, Utf16.utf8(key, "key"));
    }

    /** The canonical name of the hash {@code name} selects. */
    public static String canonicalName(String name) {
        return Spec.get().hash(name).canonical;
    }

    /** Every canonical hash name, in the spec's order. */
    public static List<String> names() {
        return Spec.get().hashNames();
    }
}
