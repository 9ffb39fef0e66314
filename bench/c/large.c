/* Large rings: our lookups beside a plain reference search over the same points, in one
 * process; part of bench/compare.sh.
 *
 *   large FAMILY SERVERS KEYS
 *
 * FAMILY is one profile per shape of continuum: md5 (libketama), oaat (libmemcached,
 * one_at_a_time), wide (uhashring, 128-bit positions), ties (xmemcached, tie runs). The
 * reference hashes each key with the ring's own key hash (`ketama_ring_key_hash`) and
 * searches the ring's points (`ketama_ring_points`) laid out in Eytzinger order (the sorted
 * points as a breadth-first binary tree), prefetching the 16 descendants four levels down
 * at every step: the classic branch-free search. For the wide family it searches the top
 * 32 bits of each 128-bit position (the first of equal tops), which is the same memory
 * traffic with less comparing.
 *
 * Output: one tab-separated line per measurement, `path servers reference_ns ours_ns`:
 * `large_FAMILY` (ketama_ring_lookup_index, one key per call) and `large_packed_FAMILY`
 * (ketama_ring_lookup_packed, 1,000 keys per call), each against the reference's single
 * lookup. Answers are compared first (ties may differ where positions collide: at most
 * 1 in 1,000 keys, else exit 1). Times: the best of alternating runs over 1,000-key chunks
 * of a KEYS-key set, each path on another chunk (so a large ring's lines are not cached
 * for it by the path before). */
#include <ketama.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile uint64_t sink;

/* The reference: Eytzinger values and owners, 1-based (slot 0 unused), and the owner of
 * the first point for a key past the last point. */
typedef struct {
    uint32_t *value, *owner;
    size_t n;
    uint32_t first_owner;
    int upper; /* first point > h (else >= h) */
    int wide;  /* key point: the top 32 bits of the 128-bit digest (byte-swapped word) */
} eytz;

static size_t eytz_fill(eytz *e, const uint32_t *sorted, const uint32_t *owners, size_t i, size_t k) {
    if (k <= e->n) {
        i = eytz_fill(e, sorted, owners, i, 2 * k);
        e->value[k] = sorted[i];
        e->owner[k] = owners[i];
        i = eytz_fill(e, sorted, owners, i + 1, 2 * k + 1);
    }
    return i;
}

static uint32_t eytz_lookup(const eytz *e, const ketama_ring *ring, const char *key, size_t len) {
    uint32_t h = 0;
    size_t k = 1;
    ketama_ring_key_hash(ring, key, len, &h);
    if (e->wide) h = __builtin_bswap32(h);
    while (k <= e->n) {
        __builtin_prefetch(e->value + 16 * k);
        k = 2 * k + (e->upper ? e->value[k] <= h : e->value[k] < h);
    }
    k >>= __builtin_ffsll((long long)~k);
    return k ? e->owner[k] : e->first_owner;
}

typedef struct {
    const char *name, *profile;
    int upper, wide;
} family;

static const family FAMILIES[] = {
    {"md5", "libketama", 0, 0},
    {"oaat", "libmemcached", 0, 0},
    {"wide", "uhashring", 1, 1},
    {"ties", "xmemcached", 0, 0},
};

int main(int argc, char **argv) {
    const family *f = NULL;
    int servers, nkeys, i, r, chunks, differ = 0;
    size_t points = 0, total = 0, at = 0;
    ketama_ring *ring = NULL;
    eytz e;
    char **keys, *packed;
    size_t *lens, *packed_at;
    uint32_t *pos, *own, *out;
    double best_ref = 1e30, best_one = 1e30, best_packed = 1e30, start;
    if (argc != 4) {
        fprintf(stderr, "usage: %s md5|oaat|wide|ties SERVERS KEYS\n", argv[0]);
        return 2;
    }
    for (i = 0; i < (int)(sizeof FAMILIES / sizeof FAMILIES[0]); i++) {
        if (strcmp(argv[1], FAMILIES[i].name) == 0) f = &FAMILIES[i];
    }
    servers = atoi(argv[2]);
    nkeys = atoi(argv[3]);
    if (!f || servers < 1 || nkeys < 1000) return 2;
    if (ketama_ring_create(f->profile, NULL, &ring) != KETAMA_STATUS_OK) return 2;
    {
        const char **labels = calloc((size_t)servers, sizeof *labels);
        size_t *llens = calloc((size_t)servers, sizeof *llens);
        for (i = 0; i < servers; i++) {
            char label[40];
            snprintf(label, sizeof label, "10.%d.%d.%d:11211", i >> 16 & 255, i >> 8 & 255, i & 255);
            labels[i] = strdup(label);
            llens[i] = strlen(label);
        }
        if (ketama_ring_add_many(ring, labels, llens, NULL, NULL, NULL, (size_t)servers, NULL) != KETAMA_STATUS_OK) {
            return 2;
        }
        for (i = 0; i < servers; i++) free((void *)labels[i]);
        free(labels);
        free(llens);
    }
    ketama_ring_point_count(ring, &points);
    pos = malloc(points * sizeof *pos);
    own = malloc(points * sizeof *own);
    if (ketama_ring_points(ring, pos, own, points, &points) != KETAMA_STATUS_OK) return 2;
    e.n = points;
    e.value = calloc(points + 1, sizeof *e.value); /* a prefetch past the end does not fault */
    e.owner = calloc(points + 1, sizeof *e.owner);
    e.first_owner = own[0];
    e.upper = f->upper;
    e.wide = f->wide;
    eytz_fill(&e, pos, own, 0, 1);
    free(pos);
    free(own);

    keys = calloc((size_t)nkeys, sizeof *keys);
    lens = calloc((size_t)nkeys, sizeof *lens);
    packed_at = calloc((size_t)nkeys, sizeof *packed_at);
    out = calloc((size_t)nkeys, sizeof *out);
    for (i = 0; i < nkeys; i++) {
        char k[40];
        snprintf(k, sizeof k, "user:%d:profile", i);
        keys[i] = strdup(k);
        lens[i] = strlen(k);
        total += lens[i];
    }
    packed = malloc(total + 1);
    for (i = 0; i < nkeys; i++) {
        packed_at[i] = at;
        memcpy(packed + at, keys[i], lens[i]);
        at += lens[i];
    }
    ketama_ring_lookup_packed(ring, packed, lens, (size_t)nkeys, out);
    for (i = 0; i < nkeys; i++) {
        if ((int64_t)out[i] != ketama_ring_lookup_index(ring, keys[i], lens[i])) return 1;
        if (eytz_lookup(&e, ring, keys[i], lens[i]) != out[i]) differ++;
    }
    if (differ > nkeys / 1000) {
        fprintf(stderr, "large: %d of %d answers differ from the reference (%s, %d servers)\n", differ, nkeys,
                f->name, servers);
        return 1;
    }
    chunks = nkeys / 1000;
    start = now();
    for (r = 0; r < 2 * chunks || (now() - start < 0.6 && r < 100000); r++) {
        /* each path its own chunk, a third of the key set apart: none reads lines another
         * path just brought into the cache */
        int a = r % chunks * 1000, b = (r + chunks / 3) % chunks * 1000, c = (r + 2 * chunks / 3) % chunks * 1000, j;
        uint64_t s = 0;
        double t0, t1, t2, t3;
        t0 = now();
        for (j = a; j < a + 1000; j++) s += eytz_lookup(&e, ring, keys[j], lens[j]);
        t1 = now();
        for (j = b; j < b + 1000; j++) s += (uint64_t)ketama_ring_lookup_index(ring, keys[j], lens[j]);
        t2 = now();
        ketama_ring_lookup_packed(ring, packed + packed_at[c], lens + c, 1000, out);
        t3 = now();
        sink += s + out[999];
        if (t1 - t0 < best_ref) best_ref = t1 - t0;
        if (t2 - t1 < best_one) best_one = t2 - t1;
        if (t3 - t2 < best_packed) best_packed = t3 - t2;
    }
    printf("large_%s\t%d\t%.1f\t%.1f\n", f->name, servers, best_ref * 1e6, best_one * 1e6);
    printf("large_packed_%s\t%d\t%.1f\t%.1f\n", f->name, servers, best_ref * 1e6, best_packed * 1e6);
    for (i = 0; i < nkeys; i++) free(keys[i]);
    free(keys);
    free(lens);
    free(packed);
    free(packed_at);
    free(out);
    free(e.value);
    free(e.owner);
    ketama_ring_free(ring);
    return 0;
}
