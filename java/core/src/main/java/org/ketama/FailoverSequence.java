package org.ketama;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The servers after a key's primary, as server indexes: the next distinct servers in the order
 * the client's structure yields them, and each client's own failover sequence (rehash walks,
 * dalli's and python-memcached's rehashes, the primary alone). One per ring.
 */
final class FailoverSequence {
    private static final int MIN = Integer.MIN_VALUE;
    /**
     * The most rehashes {@code rehash_key_untried} makes for one key (the client has no bound:
     * a server owning no bucket would keep it searching forever).
     */
    private static final int UNTRIED_REHASH_CAP = 1 << 20;

    private final Ring ring;
    private final Profile profile;
    private final HashFn hash;
    private final Entry[] entries;
    private final Layout layout;
    private final Lookup lookup;

    FailoverSequence(Ring ring, Profile profile, HashFn hash, Entry[] entries, Layout layout, Lookup lookup) {
        this.ring = ring;
        this.profile = profile;
        this.hash = hash;
        this.entries = entries;
        this.layout = layout;
        this.lookup = lookup;
    }

    /**
     * Up to {@code n} distinct servers for {@code key}, primary first, in the order the
     * client's structure yields them.
     */
    List<Integer> indexesN(byte[] key, int n) {
        List<Integer> out = new ArrayList<>();
        int first = ring.index(key);
        int want = Math.min(Math.max(n, 0), entries.length);
        if (want == 0) {
            return out;
        }
        out.add(first);
        byte[] k = ring.prepare(key);
        if (profile.isRing() && layout.biased.length > 0) {
            int start = lookup.walkStart(k);
            int len = layout.biased.length;
            boolean backwards = profile.bound == Profile.Bound.FLOOR || profile.bound == Profile.Bound.FLOOR_WRAP;
            for (int step = 0; step < len && out.size() < want; step++) {
                int p = backwards ? (int) (((long) start + len - step % len) % len) : (int) (((long) start + step) % len);
                int owner = layout.owners[p];
                if (!out.contains(owner)) {
                    out.add(owner);
                }
            }
        } else if (profile.placement == Profile.Placement.HASH_RENDEZVOUS) {
            while (out.size() < want) {
                out.add(lookup.scoredBest(k, out));
            }
        } else if (profile.placement == Profile.Placement.RENDEZVOUS) {
            int h = Keys.hash(hash, k);
            while (out.size() < want) {
                try {
                    out.add(lookup.rendezvous(h, out));
                } catch (NoServerException e) {
                    break;
                }
            }
        } else if (!profile.isRing()) {
            for (int step = 1; step < entries.length && out.size() < want; step++) {
                int i = (first + step) % entries.length;
                if (!out.contains(i)) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    /** The client's own failover sequence for {@code key}, {@code n} entries, primary first. */
    List<Integer> sequence(byte[] key, int n) {
        if (profile.failover == Profile.Failover.REHASH_KEY || profile.failover == Profile.Failover.REHASH_KEY_DASH
                || profile.failover == Profile.Failover.REHASH_HASH) {
            return rehashTries(key, (int) Math.min(n, profile.tries));
        }
        if (profile.failover == Profile.Failover.REHASH_KEY_UNTRIED) {
            return rehashUntried(key, Math.min(n, entries.length));
        }
        if (profile.failover == Profile.Failover.STAY) {
            int first = ring.index(key);
            return n > 0 ? Collections.singletonList(first) : Collections.emptyList();
        }
        if (profile.failover != Profile.Failover.REHASH || !profile.isRing()) {
            return indexesN(key, n);
        }
        List<Integer> out = new ArrayList<>();
        if (profile.boundedByServers) {
            n = Math.min(n, entries.length + 1);
        }
        int first = ring.index(key);
        if (n <= 0) {
            return out;
        }
        out.add(first);
        byte[] k = ring.prepare(key);
        int hv = Keys.hash(hash, k);
        long t = profile.firstTag;
        int[] v = layout.biased;
        while (out.size() < n) {
            byte[] tag = Long.toString(t).getBytes(StandardCharsets.US_ASCII);
            byte[] tagged = Arrays.copyOf(tag, tag.length + k.length);
            System.arraycopy(k, 0, tagged, tag.length, k.length);
            hv += hash.apply(tagged, 0, tagged.length);
            int p = Layout.lowerBound(v, hv ^ MIN);
            out.add(layout.ownerAt(p == v.length ? 0 : p));
            t++;
        }
        return out;
    }

    /**
     * whalin ({@code rehash_key_untried}): the key's own server, then {@code decimal(t) + key}
     * for t = 0, 1, ... placed as a key, each server kept the first time it comes up, until
     * {@code n} servers.
     */
    private List<Integer> rehashUntried(byte[] key, int n) {
        List<Integer> out = new ArrayList<>();
        if (n <= 0) {
            return out;
        }
        out.add(ring.index(key));
        if (profile.singleShortcut && entries.length == 1) {
            return out;
        }
        byte[] k = ring.prepare(key);
        for (int t = 0; out.size() < n && t < UNTRIED_REHASH_CAP; t++) {
            byte[] tag = Integer.toString(t).getBytes(StandardCharsets.US_ASCII);
            byte[] tagged = Arrays.copyOf(tag, tag.length + k.length);
            System.arraycopy(k, 0, tagged, tag.length, k.length);
            int i = lookup.locatePrepared(tagged);
            if (!out.contains(i)) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * dalli ({@code rehash_key}: lookup t >= 1 hashes {@code decimal(t - 1) + key}), pecl memcache
     * ({@code rehash_key_dash}: lookup t >= 1 hashes {@code key + "-" + decimal(t - 1)}) and
     * python-memcached ({@code rehash_hash}: {@code h(t + 1) = H(decimal(h(t)) + decimal(t))}):
     * {@code n} lookups in all, each hash placed as the key's own hash is.
     */
    private List<Integer> rehashTries(byte[] key, int n) {
        List<Integer> out = new ArrayList<>();
        int first = ring.index(key);
        if (n <= 0) {
            return out;
        }
        out.add(first);
        if (profile.singleShortcut && entries.length == 1) {
            return out;
        }
        byte[] k = ring.prepare(key);
        int h = Keys.hash(hash, k);
        for (int t = 0; t < n - 1; t++) {
            byte[] tagged;
            if (profile.failover == Profile.Failover.REHASH_KEY) {
                byte[] tag = Integer.toString(t).getBytes(StandardCharsets.US_ASCII);
                tagged = Arrays.copyOf(tag, tag.length + k.length);
                System.arraycopy(k, 0, tagged, tag.length, k.length);
            } else if (profile.failover == Profile.Failover.REHASH_KEY_DASH) {
                byte[] tag = ("-" + t).getBytes(StandardCharsets.US_ASCII);
                tagged = Arrays.copyOf(k, k.length + tag.length);
                System.arraycopy(tag, 0, tagged, k.length, tag.length);
            } else {
                tagged = (Long.toString(h & 0xFFFFFFFFL) + t).getBytes(StandardCharsets.US_ASCII);
            }
            h = hash.apply(tagged, 0, tagged.length);
            out.add(lookup.locateHash(h));
        }
        return out;
    }
}
