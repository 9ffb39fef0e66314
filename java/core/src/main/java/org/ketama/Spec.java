package org.ketama;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The spec's tables ({@link SpecTable}, generated from the repository's
 * {@code spec/profiles.json}) indexed for look-ups by name: hashes by our names and the clients'
 * own, profiles by name and alias.
 */
final class Spec {
    private static final Spec INSTANCE = new Spec();

    /** Exact names and client aliases -> function. */
    private final Map<String, HashFn> hashNames = new HashMap<>();
    /** Canonical names only, in the spec's order. */
    private final List<String> hashOrder = new ArrayList<>();
    /** Canonical names lowercased, for names matched in any case. */
    private final Map<String, HashFn> hashFolded = new HashMap<>();
    private final Map<String, Profile> profiles = new LinkedHashMap<>();
    private final Map<String, Profile> profileNames = new HashMap<>();
    /** The spec's {@code options} limits: {@code hash_tag} bytes, longest prefix, longest hashed prefix + key. */
    final int hashTagBytes = SpecTable.HASH_TAG_BYTES;
    final int prefixKeyMaxBytes = SpecTable.PREFIX_KEY_MAX_BYTES;
    final int prefixedKeyMaxBytes = SpecTable.PREFIXED_KEY_MAX_BYTES;

    /** The tables. */
    static Spec get() {
        return INSTANCE;
    }

    private Spec() {
        for (SpecTable.HashRow h : SpecTable.HASHES) {
            String name = h.fn.canonical;
            hashOrder.add(name);
            hashNames.put(name, h.fn);
            hashFolded.put(asciiLower(name), h.fn);
            for (String a : h.aliases) {
                hashNames.put(a, h.fn);
            }
        }
        for (Profile p : SpecTable.profiles()) {
            profiles.put(p.name, p);
            profileNames.put(p.name, p);
        }
        // Aliases after every name, so a name always selects its own profile.
        for (Profile p : profiles.values()) {
            for (String a : p.aliases) {
                profileNames.putIfAbsent(a, p);
            }
        }
    }

    /**
     * A hash by our name or a client's own name (exact), else by our name in any case; bare
     * {@code crc32} is ambiguous without a profile.
     */
    HashFn hash(String name) {
        Utf16.requireUnicode(name, "hash name");
        if ("crc32".equals(name)) {
            throw new AmbiguousHashException();
        }
        HashFn fn = hashNames.get(name);
        if (fn == null) {
            fn = hashFolded.get(asciiLower(name));
        }
        if (fn == null) {
            throw new UnknownHashException(name);
        }
        return fn;
    }

    /** A hash name as {@code p}'s client means it ({@code crc32} is the client's own CRC). */
    HashFn hash(Profile p, String name) {
        if ("crc32".equals(name) && p.crc32 != null) {
            return p.crc32;
        }
        return hash(name);
    }

    /** ASCII letters lowercased, every other character kept (names match in ASCII case only). */
    static String asciiLower(String s) {
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= 'A' && c[i] <= 'Z') {
                c[i] = (char) (c[i] + 32);
            }
        }
        return new String(c);
    }

    /** A profile by name or alias. */
    Profile profile(String name) {
        Utf16.requireUnicode(name, "profile name");
        Profile p = profileNames.get(name);
        if (p == null) {
            throw new UnknownProfileException(name);
        }
        return p;
    }

    /** Every profile name, in the spec's order. */
    List<String> profileNames() {
        return Collections.unmodifiableList(new ArrayList<>(profiles.keySet()));
    }

    /** Every canonical hash name, in the spec's order. */
    List<String> hashNames() {
        return Collections.unmodifiableList(hashOrder);
    }
}
