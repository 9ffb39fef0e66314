package org.ketama;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedded spec ({@code org/ketama/profiles.json}, a copy of the repository's
 * {@code spec/profiles.json}): the hash table, the profile table and the error vocabulary,
 * loaded once.
 */
final class Spec {
    /** The resource the spec is read from. */
    static final String RESOURCE = "/org/ketama/profiles.json";

    private static volatile Spec instance;

    /** Exact names and client aliases -> function. */
    private final Map<String, HashFn> hashNames = new HashMap<>();
    /** Canonical names only, in the spec's order. */
    private final List<String> hashOrder = new ArrayList<>();
    /** Canonical names lowercased, for names matched in any case. */
    private final Map<String, HashFn> hashFolded = new HashMap<>();
    private final Map<String, Profile> profiles = new LinkedHashMap<>();
    private final Map<String, Profile> profileNames = new HashMap<>();
    private final Map<String, String> messages = new HashMap<>();
    /** The spec's {@code options} limits: {@code hash_tag} bytes, longest prefix, longest hashed prefix + key. */
    final int hashTagBytes;
    final int prefixKeyMaxBytes;
    final int prefixedKeyMaxBytes;

    /** The spec, parsed on first use. */
    static Spec get() {
        Spec s = instance;
        if (s == null) {
            synchronized (Spec.class) {
                s = instance;
                if (s == null) {
                    s = new Spec(read());
                    instance = s;
                }
            }
        }
        return s;
    }

    static String read() {
        try (InputStream in = Spec.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the ketama jar lacks " + RESOURCE);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
            }
            return new String(out.toByteArray(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    Spec(String text) {
        Map<String, Object> doc = (Map<String, Object>) Json.parse(text);
        Map<String, Object> lim = Profile.obj(doc, "options");
        hashTagBytes = (int) Profile.num(lim, "hash_tag_bytes");
        prefixKeyMaxBytes = (int) Profile.num(lim, "prefix_key_max_bytes");
        prefixedKeyMaxBytes = (int) Profile.num(lim, "prefixed_key_max_bytes");
        for (Object o : Profile.list(doc, "errors")) {
            Map<String, Object> e = (Map<String, Object>) o;
            messages.put(Profile.str(e, "name"), Profile.str(e, "message"));
        }
        for (Object o : Profile.list(doc, "hashes")) {
            Map<String, Object> h = (Map<String, Object>) o;
            String name = Profile.str(h, "name");
            HashFn fn = HashFn.byCanonical(name);
            if (fn == null) {
                throw new IllegalStateException("the spec names a hash this port does not have: " + name);
            }
            hashOrder.add(name);
            hashNames.put(name, fn);
            hashFolded.put(asciiLower(name), fn);
            for (Object a : Profile.list(h, "aliases")) {
                hashNames.put((String) a, fn);
            }
        }
        for (Object o : Profile.list(doc, "profiles")) {
            Profile p = new Profile((Map<String, Object>) o, this);
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

    /** The function with this canonical name (the spec's own references). */
    HashFn canonical(String name) {
        HashFn fn = hashNames.get(name);
        if (fn == null || !fn.canonical.equals(name)) {
            throw new IllegalStateException("the spec refers to an unlisted hash: " + name);
        }
        return fn;
    }

    /**
     * A hash by our name or a client's own name (exact), else by our name in any case; bare
     * {@code crc32} is ambiguous without a profile.
     */
    HashFn hash(String name) {
        if ("crc32".equals(name)) {
            throw KetamaException.of("AmbiguousHash");
        }
        HashFn fn = hashNames.get(name);
        if (fn == null) {
            fn = hashFolded.get(asciiLower(name));
        }
        if (fn == null) {
            throw KetamaException.of("UnknownHash", name);
        }
        return fn;
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
        Profile p = profileNames.get(name);
        if (p == null) {
            throw KetamaException.of("UnknownProfile", name);
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

    /** The error's text from the spec's vocabulary. */
    String message(String errorName) {
        String m = messages.get(errorName);
        return m == null ? errorName : m;
    }
}
