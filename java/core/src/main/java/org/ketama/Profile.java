package org.ketama;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One client family as a row of knobs, read from the embedded spec ({@code profiles[]}): the
 * names and values are the spec's, and every behaviour below is selected by them alone.
 */
final class Profile {
    /** How a server becomes its node string ({@code node}). */
    enum Node { LABEL, OMIT_DEFAULT_PORT, SLASH_LABEL, JAVA_SPY, JAVA_XMC, JAVA_NGINX, BARE, JAVA_HOST_NAME, HOST_PORT, JAVA_HOST_NAME_PORT, NGINX_HOST_NUL_PORT, HOST_THEN_PORT, HOST_SLASH_HOST_PORT, JAVA_EVCACHE }

    /** How point string {@code i} of node string {@code S} is spelled ({@code strings}). */
    enum Strings { DASH, PREFIX, CONCAT, BARE, COLON }

    /** The per-server string count rule ({@code count.kind}). */
    enum CountKind { FIXED, PER_WEIGHT, RELATIVE }

    /** The relative-weight formulas ({@code count.formula}). */
    enum Formula { LIBKETAMA, LIBMEMCACHED, NODE_HASHRING, INTEGER_DIV, DALLI, WHALIN }

    /** How point strings become positions ({@code points.kind}). */
    enum Points { MD5_WORDS, KEY_HASH, JAVA_KETAMA, MD5_WIDE, CRC32_CHAIN, MURMUR3_CHAIN, SHA1_WORD, XXH3_WORD }

    /** Which algorithm places a key ({@code placement.kind}). */
    enum Placement { RING, PECL_BUCKETS, MODULA, JAVA_ABS_MODULO, FURC, JUMP, RENDEZVOUS, MAGLEV, JUMP_XXH3, HASH_RENDEZVOUS }

    /** How a scored rendezvous joins node string S and key K ({@code placement.join}). */
    enum Join { NODE_DASH_KEY, KEY_NODE }

    /** Who wins equal scored-rendezvous scores ({@code placement.ties}). */
    enum ScoreTies { GREATER_NODE, GREATER_NODE_HASH }

    /** Bytes a client refuses in a key ({@code key_limits.chars}). */
    enum Chars { ANY, CONTROLS, CONTROLS_DEL, PY_WHITESPACE, PY_WHITESPACE_ASCII, PYTHON_MEMCACHED }

    /** The comparison on a sorted ring ({@code placement.bound}). */
    enum Bound { LOWER_BOUND, UPPER_BOUND, LOWER_BOUND_ZERO_LAST, FLOOR, FLOOR_WRAP, LOWER_BOUND_SIGNED }

    /** Who owns a position several servers share ({@code ties}). */
    enum Ties { EARLIER_WINS, LATER_WINS, SORTED_LIST }

    /** What weight 0 means ({@code zero_weight}). */
    enum ZeroWeight { AS_ONE, AS_IS, REJECT }

    /** How the key is rewritten before hashing ({@code key.kind}). */
    enum Rewrite { NONE, PECL_SANITIZE, TRUNCATE, DALLI_DIGEST, URL_ENCODE, PY_BYTES_REPR, PREFIX }

    /** The order servers are kept in ({@code order}). */
    enum Order { GIVEN, NODE_LENGTH_THEN_BYTES }

    /** The failover sequence ({@code failover.kind}). */
    enum Failover { WALK, REHASH, REHASH_KEY, REHASH_KEY_DASH, REHASH_HASH, REHASH_KEY_UNTRIED, STAY }

    final String name;
    final List<String> aliases;
    final String description;
    final HashFn defaultHash;
    /** What {@code crc32} means for this client, or null. */
    final HashFn crc32;
    final Node node;
    final boolean names;
    final Strings strings;
    final CountKind countKind;
    /** {@code count.strings} for fixed and per-weight counts. */
    final long countStrings;
    final Formula formula;
    final Points points;
    /** {@code points.per} for md5 words. */
    final int per;
    final Placement placement;
    final Bound bound;
    final boolean weighted;
    final boolean high15;
    final boolean oldCompat;
    /** For {@code hash_rendezvous}: the join and the tie rule, else null. */
    final Join join;
    final ScoreTies scoreTies;
    final Ties ties;
    final ZeroWeight zeroWeight;
    final Rewrite rewrite;
    final int truncateBytes;
    /** The bytes a {@code prefix} rewrite puts in front of the key (UTF-8), else null. */
    final byte[] keyPrefix;
    final boolean singleShortcut;
    final Set<HashFn> emptyKeyRejected;
    final boolean emptyRefused;
    /** Longest key accepted, or -1 for no limit. */
    final long maxLen;
    final Chars chars;
    final Order order;
    final Failover failover;
    final long firstTag;
    final boolean boundedByServers;
    /** Lookups in all for {@code rehash_key} / {@code rehash_key_dash} / {@code rehash_hash}, else 0. */
    final long tries;
    /** The client has twemproxy's {@code hash_tag}. */
    final boolean optHashTag;
    /** The client has libmemcached's key prefix (hashed or not). */
    final boolean optPrefixKey;

    Profile(Map<String, Object> p, Spec spec) {
        name = str(p, "name");
        List<String> al = new ArrayList<>();
        for (Object o : list(p, "aliases")) {
            al.add((String) o);
        }
        aliases = Collections.unmodifiableList(al);
        description = str(p, "description");
        defaultHash = spec.canonical(str(p, "default_hash"));
        crc32 = p.get("crc32") == null ? null : spec.canonical(str(p, "crc32"));
        node = word(Node.class, str(p, "node"));
        names = bool(p, "names");
        strings = word(Strings.class, str(p, "strings"));
        Map<String, Object> count = obj(p, "count");
        countKind = word(CountKind.class, str(count, "kind"));
        countStrings = countKind == CountKind.RELATIVE ? 0 : num(count, "strings");
        formula = countKind == CountKind.RELATIVE ? word(Formula.class, str(count, "formula")) : null;
        Map<String, Object> pts = obj(p, "points");
        points = word(Points.class, str(pts, "kind"));
        per = points == Points.MD5_WORDS ? (int) num(pts, "per") : 1;
        Map<String, Object> pl = obj(p, "placement");
        placement = word(Placement.class, str(pl, "kind"));
        bound = placement == Placement.RING ? word(Bound.class, str(pl, "bound")) : null;
        weighted = pl.containsKey("weighted") && bool(pl, "weighted");
        high15 = pl.containsKey("high15") && bool(pl, "high15");
        oldCompat = pl.containsKey("old_compat") && bool(pl, "old_compat");
        join = placement == Placement.HASH_RENDEZVOUS ? word(Join.class, str(pl, "join")) : null;
        scoreTies = placement == Placement.HASH_RENDEZVOUS ? word(ScoreTies.class, str(pl, "ties")) : null;
        ties = word(Ties.class, str(p, "ties"));
        zeroWeight = word(ZeroWeight.class, str(p, "zero_weight"));
        Map<String, Object> key = obj(p, "key");
        rewrite = word(Rewrite.class, str(key, "kind"));
        truncateBytes = rewrite == Rewrite.TRUNCATE ? (int) num(key, "bytes") : 0;
        keyPrefix = rewrite == Rewrite.PREFIX ? str(key, "prefix").getBytes(java.nio.charset.StandardCharsets.UTF_8) : null;
        singleShortcut = bool(p, "single_shortcut");
        Set<HashFn> rej = EnumSet.noneOf(HashFn.class);
        for (Object o : list(p, "empty_key_rejected")) {
            rej.add(spec.canonical((String) o));
        }
        emptyKeyRejected = Collections.unmodifiableSet(rej);
        Map<String, Object> lim = obj(p, "key_limits");
        emptyRefused = bool(lim, "empty");
        maxLen = lim.get("max_len") == null ? -1 : num(lim, "max_len");
        // `chars` names the refused bytes; an older spec had the boolean `blanks` (= controls)
        chars = lim.containsKey("chars") ? word(Chars.class, str(lim, "chars")) : bool(lim, "blanks") ? Chars.CONTROLS : Chars.ANY;
        order = word(Order.class, str(p, "order"));
        Map<String, Object> fo = obj(p, "failover");
        failover = word(Failover.class, str(fo, "kind"));
        firstTag = failover == Failover.REHASH ? num(fo, "first_tag") : 0;
        boundedByServers = failover == Failover.REHASH && bool(fo, "bounded_by_servers");
        tries = failover == Failover.REHASH_KEY || failover == Failover.REHASH_KEY_DASH
                || failover == Failover.REHASH_HASH ? num(fo, "tries") : 0;
        Map<String, Object> opt = obj(p, "options");
        optHashTag = bool(opt, "hash_tag");
        optPrefixKey = bool(opt, "prefix_key");
    }

    /** Whether this profile builds a continuum of points. */
    boolean isRing() {
        return placement == Placement.RING || placement == Placement.PECL_BUCKETS;
    }

    /** Resolves a hash name as this client means it ({@code crc32} is the client's own CRC). */
    HashFn hashFromName(Spec spec, String hashName) {
        if ("crc32".equals(hashName) && crc32 != null) {
            return crc32;
        }
        return spec.hash(hashName);
    }

    static <E extends Enum<E>> E word(Class<E> type, String w) {
        try {
            return Enum.valueOf(type, w.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the spec names a " + type.getSimpleName() + " this port does not know: " + w, e);
        }
    }

    static String str(Map<String, Object> m, String k) {
        Object o = m.get(k);
        if (!(o instanceof String)) {
            throw new IllegalStateException("spec: field " + k + " is not a string");
        }
        return (String) o;
    }

    static boolean bool(Map<String, Object> m, String k) {
        Object o = m.get(k);
        if (!(o instanceof Boolean)) {
            throw new IllegalStateException("spec: field " + k + " is not a boolean");
        }
        return (Boolean) o;
    }

    static long num(Map<String, Object> m, String k) {
        Object o = m.get(k);
        if (!(o instanceof Long)) {
            throw new IllegalStateException("spec: field " + k + " is not an integer");
        }
        return (Long) o;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> obj(Map<String, Object> m, String k) {
        Object o = m.get(k);
        if (!(o instanceof Map)) {
            throw new IllegalStateException("spec: field " + k + " is not an object");
        }
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Map<String, Object> m, String k) {
        Object o = m.get(k);
        if (!(o instanceof List)) {
            throw new IllegalStateException("spec: field " + k + " is not an array");
        }
        return (List<Object>) o;
    }
}
