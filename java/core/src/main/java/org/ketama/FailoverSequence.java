package org.ketama;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The servers after a key's primary, as server indexes: the next distinct servers in the order
 * the client's structure yields them, and each client's own failover sequence (rehash walks,
 * dalli's, pecl memcache's and python-memcached's rehashes, whalin's search for untried servers,
 * the primary alone), shown one server at a time to a visitor that may stop it. One per ring.
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
        if (profile.isRing && layout.biased.length > 0) {
            int start = lookup.walkStart(k);
            int len = layout.biased.length;
            boolean backwards = profile.bound == Profile.Bound.FLOOR || profile.bound == Profile.Bound.FLOOR_WRAP;
            // A client keeping its points in a map (later wins) holds only each tie's winner:
            // every point of a run of equal positions is the winner's, the first of the run.
            boolean later = profile.ties == Profile.Ties.LATER_WINS;
            for (int step = 0; step < len && out.size() < want; step++) {
                int p = backwards ? (int) (((long) start + len - step % len) % len) : (int) (((long) start + step) % len);
                if (later) {
                    p = lookup.firstOfRun(p);
                }
                int owner = layout.owners[p];
                if (!out.contains(owner)) {
                    out.add(owner);
                }
            }
        } else if (profile.placement == Profile.Placement.HASH_RENDEZVOUS) {
            while (out.size() < want) {
                out.add(lookup.scoredBest(k, out));
            }
        } else if (profile.shape == Profile.Shape.MIXED) {
            long h = hash.apply64(k, 0, k.length);
            while (out.size() < want) {
                out.add(lookup.mixedBest(h, out));
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
        } else if (!profile.isRing) {
            for (int step = 1; step < entries.length && out.size() < want; step++) {
                int i = (first + step) % entries.length;
                if (!out.contains(i)) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    /** spymemcached's {@code getSequence}: the primary and 6 rehashes. */
    private static final int SPY_SEQUENCE = 7;

    /** How many servers the client tries for one key before it gives up. */
    int limit() {
        switch (profile.failover) {
            case WALK:
            case REHASH_KEY_UNTRIED:
                return entries.length;
            case REHASH:
                return profile.boundedByServers ? entries.length + 1 : SPY_SEQUENCE;
            case REHASH_DOUBLED:
                return entries.length + 1;
            case STAY:
                return 1;
            default:
                return (int) profile.tries;
        }
    }

    /** The client's own failover sequence for {@code key}, {@code n} entries, primary first. */
    List<Integer> sequence(byte[] key, int n) {
        List<Integer> out = new ArrayList<>();
        each(key, n, i -> {
            out.add(i);
            return false;
        });
        return out;
    }

    /**
     * The first server of the client's failover sequence for {@code key} (up to {@link #limit}
     * tries) that is not in {@code dead}, or -1 when the client gives up. The sequence stops
     * at that server, as the client does.
     */
    int alive(byte[] key, List<Integer> dead) {
        int[] found = {-1};
        each(key, limit(), i -> {
            if (dead.contains(i)) {
                return false;
            }
            found[0] = i;
            return true;
        });
        return found[0];
    }

    /**
     * Shows {@code stop} the key's failover sequence, at most {@code n} servers, one at a time,
     * until it returns true.
     */
    private void each(byte[] key, int n, IntPredicate stop) {
        int first = ring.index(key);
        if (n <= 0 || stop.test(first)) {
            return;
        }
        switch (profile.failover) {
            case REHASH_KEY:
            case REHASH_KEY_DASH:
            case REHASH_HASH:
            case REHASH_SUM:
                rehashTries(key, (int) Math.min(n, profile.tries), stop);
                return;
            case REHASH_DOUBLED:
                rehashTries(key, Math.min(n, entries.length + 1), stop);
                return;
            case REHASH_KEY_UNTRIED:
                rehashUntried(key, first, Math.min(n, entries.length), stop);
                return;
            case STAY:
                return;
            case REHASH:
                if (profile.isRing) {
                    rehashWalk(key, (profile.boundedByServers ? Math.min(n, entries.length + 1) : n) - 1, stop);
                    return;
                }
                break;
            default:
                break;
        }
        List<Integer> rest = indexesN(key, n);
        for (int i = 1; i < rest.size(); i++) {
            if (stop.test(rest.get(i))) {
                return;
            }
        }
    }

    /**
     * spymemcached and xmemcached: {@code hv = (hv + H(str(t) + key)) mod 2^32} for t from the
     * profile's first tag, each looked up on the continuum (servers may repeat), {@code rehashes}
     * times after the key's own server.
     */
    private void rehashWalk(byte[] key, int rehashes, IntPredicate stop) {
        byte[] k = ring.prepare(key);
        int hv = Keys.hash(hash, k);
        long t = profile.firstTag;
        int[] v = layout.biased;
        for (int r = 0; r < rehashes; r++, t++) {
            byte[] tag = Long.toString(t).getBytes(StandardCharsets.US_ASCII);
            byte[] tagged = Arrays.copyOf(tag, tag.length + k.length);
            System.arraycopy(k, 0, tagged, tag.length, k.length);
            hv += hash.apply(tagged, 0, tagged.length);
            int p = layout.index.lowerBound(hv ^ MIN);
            if (stop.test(layout.ownerAt(p == v.length ? 0 : p))) {
                return;
            }
        }
    }

    /**
     * whalin ({@code rehash_key_untried}): after the key's own server {@code first},
     * {@code decimal(t) + key} for t = 0, 1, ... placed as a key, each server shown the first
     * time it comes up, until {@code n} servers have been.
     */
    private void rehashUntried(byte[] key, int first, int n, IntPredicate stop) {
        List<Integer> shown = new ArrayList<>();
        shown.add(first);
        byte[] k = ring.prepare(key);
        for (int t = 0; shown.size() < n && t < UNTRIED_REHASH_CAP; t++) {
            byte[] tag = Integer.toString(t).getBytes(StandardCharsets.US_ASCII);
            byte[] tagged = Arrays.copyOf(tag, tag.length + k.length);
            System.arraycopy(k, 0, tagged, tag.length, k.length);
            int i = lookup.locatePrepared(tagged);
            if (!shown.contains(i)) {
                shown.add(i);
                if (stop.test(i)) {
                    return;
                }
            }
        }
    }

    /**
     * dalli ({@code rehash_key}: lookup t >= 1 hashes {@code decimal(t - 1) + key}), pecl memcache
     * ({@code rehash_key_dash}: lookup t >= 1 hashes {@code key + "-" + decimal(t - 1)}),
     * python-memcached ({@code rehash_hash}: {@code h(t + 1) = H(decimal(h(t)) + decimal(t))}),
     * Cache::Memcached ({@code rehash_sum}: {@code h += H(decimal(t) + key)} for t from 1) and
     * Enyim ({@code rehash_doubled}: {@code h = 2 H(decimal(t - 1) + key)}): {@code n} lookups
     * in all, each hash placed as the key's own hash is; a one-server ring with the
     * single-server shortcut has nowhere else to go.
     */
    private void rehashTries(byte[] key, int n, IntPredicate stop) {
        if (profile.singleShortcut && entries.length == 1) {
            return;
        }
        byte[] k = ring.prepare(key);
        int h = Keys.hash(hash, k);
        for (int t = 0; t < n - 1; t++) {
            byte[] tagged;
            Profile.Failover f = profile.failover;
            if (f == Profile.Failover.REHASH_KEY || f == Profile.Failover.REHASH_SUM || f == Profile.Failover.REHASH_DOUBLED) {
                byte[] tag = Integer.toString(f == Profile.Failover.REHASH_SUM ? t + 1 : t).getBytes(StandardCharsets.US_ASCII);
                tagged = Arrays.copyOf(tag, tag.length + k.length);
                System.arraycopy(k, 0, tagged, tag.length, k.length);
            } else if (profile.failover == Profile.Failover.REHASH_KEY_DASH) {
                byte[] tag = ("-" + t).getBytes(StandardCharsets.US_ASCII);
                tagged = Arrays.copyOf(k, k.length + tag.length);
                System.arraycopy(tag, 0, tagged, k.length, tag.length);
            } else {
                tagged = (Long.toString(h & 0xFFFFFFFFL) + t).getBytes(StandardCharsets.US_ASCII);
            }
            int th = hash.apply(tagged, 0, tagged.length);
            h = f == Profile.Failover.REHASH_SUM ? h + th : f == Profile.Failover.REHASH_DOUBLED ? th * 2 : th;
            if (stop.test(lookup.locateHash(h))) {
                return;
            }
        }
    }
}
