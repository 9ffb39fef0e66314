/* Side-by-side speed of libketama (our C API) and the real libmemcached 1.1.4 on the same
 * ring, same servers, same keys, in one process; part of bench/compare.sh.
 *
 *   compare lookup SERVERS KEYS   ketama_ring_lookup / _lookup_many / _lookup_packed /
 *                                 _lookup_index beside memcached_generate_hash, on the
 *                                 unweighted one_at_a_time ring (profile libmemcached) and the
 *                                 weighted md5 ring (libmemcached-weighted = php-memcached)
 *   compare build SERVERS         a fresh build, one server added, one removed (our C API)
 *
 * Output: one tab-separated line per measurement, `path servers anchor_ns ours_ns`
 * (anchor `-` where there is none: Debian's libmemcached 1.1.4 aborts on the 101st server of
 * a consistent ring, an assertion left on; docs/client-notes.md). Every answer is compared with libmemcached's first; a
 * difference exits 1. Each timed call computes its answer (keys differ, nothing is cached
 * by the program). Times are the best round: anchor and ours alternate in each round, so
 * both see the same machine load. */
#include <ketama.h>
#include <libmemcached/memcached.h>

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

static volatile uint64_t sink; /* keeps the answers alive */

typedef struct {
    int nkeys;
    int from, count; /* the chunk of keys a timed run takes */
    char **keys;
    size_t *lens;
    char *packed; /* every key back to back, for ketama_ring_lookup_packed */
    size_t *packed_at; /* where key i starts in `packed` */
    const char **labels_out;
    size_t *label_lens_out;
    uint32_t *idx_out;
    memcached_st *memc;
    ketama_ring *ring;
} bench;

static void run_libmemcached(bench *b) {
    uint64_t s = 0;
    int i;
    for (i = b->from; i < b->from + b->count; i++) s += memcached_generate_hash(b->memc, b->keys[i], b->lens[i]);
    sink += s;
}

static void run_lookup(bench *b) {
    uint64_t s = 0;
    int i;
    for (i = b->from; i < b->from + b->count; i++) {
        const char *label;
        size_t len;
        if (ketama_ring_lookup(b->ring, b->keys[i], b->lens[i], &label, &len) == KETAMA_STATUS_OK) s += len;
    }
    sink += s;
}

static void run_lookup_index(bench *b) {
    uint64_t s = 0;
    int i;
    for (i = b->from; i < b->from + b->count; i++) s += (uint64_t)ketama_ring_lookup_index(b->ring, b->keys[i], b->lens[i]);
    sink += s;
}

static void run_lookup_many(bench *b) {
    ketama_ring_lookup_many(b->ring, (const char *const *)b->keys + b->from, b->lens + b->from, (size_t)b->count,
                            b->labels_out, b->label_lens_out);
    sink += b->label_lens_out[b->count - 1];
}

static void run_lookup_packed(bench *b) {
    ketama_ring_lookup_packed(b->ring, b->packed + b->packed_at[b->from], b->lens + b->from, (size_t)b->count,
                              b->idx_out);
    sink += b->idx_out[b->count - 1];
}

/* Best ns/key of `anchor` and `ours` over many short runs of CHUNK keys each (the next
 * chunk of the key set each round), alternating, for about `budget` seconds: on a loaded
 * machine the shortest run is the one nobody interrupted. */
#define CHUNK 1000
static void race(bench *b, void (*anchor)(bench *), void (*ours)(bench *), double budget, double *a_ns,
                 double *o_ns) {
    double best_a = 1e30, best_o = 1e30, start = now();
    int r, chunks = (b->nkeys + CHUNK - 1) / CHUNK;
    for (r = 0; r < 2 * chunks || (now() - start < budget && r < 100000); r++) {
        double t0, t1, t2;
        b->from = r % chunks * CHUNK;
        b->count = b->nkeys - b->from < CHUNK ? b->nkeys - b->from : CHUNK;
        t0 = now();
        if (anchor) anchor(b);
        t1 = now();
        ours(b);
        t2 = now();
        if ((t1 - t0) / b->count < best_a) best_a = (t1 - t0) / b->count;
        if ((t2 - t1) / b->count < best_o) best_o = (t2 - t1) / b->count;
    }
    *a_ns = anchor ? best_a * 1e9 : -1;
    *o_ns = best_o * 1e9;
}

static void row(const char *path, int servers, double a, double o) {
    if (a < 0) {
        printf("%s\t%d\t-\t%.1f\n", path, servers, o);
    } else {
        printf("%s\t%d\t%.1f\t%.1f\n", path, servers, a, o);
    }
    fflush(stdout);
}

static void label_of(int i, char *host, size_t hn, char *label, size_t ln) {
    snprintf(host, hn, "10.%d.%d.%d", i / 62500, i / 250 % 250, i % 250 + 1);
    snprintf(label, ln, "%s:11211", host);
}

/* One ring (unweighted one_at_a_time or weighted md5) on both libraries, then the races. */
static int lookups(int weighted, int servers, int nkeys) {
    bench b;
    int i, with_anchor = servers <= 100, differ = 0;
    double a, o, budget = 0.35;
    const char *tag = weighted ? "md5" : "oaat";
    char path[64];
    size_t total = 0, at = 0;
    memset(&b, 0, sizeof b);
    b.nkeys = nkeys;
    b.keys = calloc((size_t)nkeys, sizeof *b.keys);
    b.lens = calloc((size_t)nkeys, sizeof *b.lens);
    b.labels_out = calloc((size_t)nkeys, sizeof *b.labels_out);
    b.label_lens_out = calloc((size_t)nkeys, sizeof *b.label_lens_out);
    b.idx_out = calloc((size_t)nkeys, sizeof *b.idx_out);
    for (i = 0; i < nkeys; i++) {
        char k[40];
        snprintf(k, sizeof k, "user:%d:profile", i);
        b.keys[i] = strdup(k);
        b.lens[i] = strlen(k);
        total += b.lens[i];
    }
    b.packed = malloc(total + 1);
    b.packed_at = calloc((size_t)nkeys, sizeof *b.packed_at);
    for (i = 0; i < nkeys; i++) {
        b.packed_at[i] = at;
        memcpy(b.packed + at, b.keys[i], b.lens[i]);
        at += b.lens[i];
    }
    if (ketama_ring_create(weighted ? "libmemcached-weighted" : "libmemcached", NULL, &b.ring) != KETAMA_STATUS_OK) {
        return 2;
    }
    {
        const char **labels = calloc((size_t)servers, sizeof *labels);
        size_t *lens = calloc((size_t)servers, sizeof *lens);
        if (with_anchor) {
            b.memc = memcached_create(NULL);
            if (weighted) {
                memcached_behavior_set(b.memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
            } else {
                memcached_behavior_set(b.memc, MEMCACHED_BEHAVIOR_DISTRIBUTION, MEMCACHED_DISTRIBUTION_CONSISTENT);
            }
        }
        for (i = 0; i < servers; i++) {
            char host[32], label[40];
            label_of(i, host, sizeof host, label, sizeof label);
            labels[i] = strdup(label);
            lens[i] = strlen(label);
            if (b.memc) {
                if (weighted) {
                    memcached_server_add_with_weight(b.memc, host, 11211, 1);
                } else {
                    memcached_server_add(b.memc, host, 11211);
                }
            }
        }
        if (ketama_ring_add_many(b.ring, labels, lens, NULL, NULL, NULL, (size_t)servers, NULL) != KETAMA_STATUS_OK) {
            return 2;
        }
        for (i = 0; i < servers; i++) free((void *)labels[i]);
        free(labels);
        free(lens);
    }
    /* Same answers first: libmemcached's index names the same server as ours. */
    ketama_ring_lookup_packed(b.ring, b.packed, b.lens, (size_t)nkeys, b.idx_out);
    for (i = 0; i < nkeys; i++) {
        int64_t at_index = ketama_ring_lookup_index(b.ring, b.keys[i], b.lens[i]);
        if (at_index != (int64_t)b.idx_out[i]) differ++;
        if (b.memc && memcached_generate_hash(b.memc, b.keys[i], b.lens[i]) != b.idx_out[i]) differ++;
    }
    if (differ) {
        fprintf(stderr, "compare: %d answers differ (%s, %d servers)\n", differ, tag, servers);
        return 1;
    }
    race(&b, with_anchor ? run_libmemcached : NULL, run_lookup, budget, &a, &o);
    snprintf(path, sizeof path, "c_lookup_%s", tag);
    row(path, servers, a, o);
    {
        double a2;
        race(&b, NULL, run_lookup_index, budget / 2, &a2, &o);
        snprintf(path, sizeof path, "c_lookup_index_%s", tag);
        row(path, servers, a, o);
    }
    if (weighted) {
        double a2;
        race(&b, NULL, run_lookup_many, budget / 2, &a2, &o);
        row("c_lookup_many_md5", servers, a, o);
        race(&b, NULL, run_lookup_packed, budget / 2, &a2, &o);
        row("c_lookup_packed_md5", servers, a, o);
    }
    for (i = 0; i < nkeys; i++) free(b.keys[i]);
    free(b.keys);
    free(b.lens);
    free(b.packed);
    free(b.packed_at);
    free((void *)b.labels_out);
    free(b.label_lens_out);
    free(b.idx_out);
    ketama_ring_free(b.ring);
    if (b.memc) memcached_free(b.memc);
    return 0;
}

/* A fresh build of `servers` equal servers (weighted md5 ring), and one server added to /
 * removed from it, through the C API; best of a few rounds, in ns. Each round builds a new
 * ring, then makes a few add / remove cycles on it (a ring in service changes more than
 * once; the first change after a build also pays for faulting in fresh memory, the later
 * ones write into the memory of the snapshot the previous change retired). */
static int build(int servers) {
    const char **labels = calloc((size_t)servers + 1, sizeof *labels);
    size_t *lens = calloc((size_t)servers + 1, sizeof *lens);
    double best_build = 1e30, best_add = 1e30, best_remove = 1e30, start = now();
    double first_add = 1e30, first_remove = 1e30; /* the first cycle after each build */
    int i, r, c;
    size_t extra = (size_t)servers, mid = (size_t)servers / 2;
    for (i = 0; i <= servers; i++) {
        char host[32], label[40];
        label_of(i, host, sizeof host, label, sizeof label);
        labels[i] = strdup(label);
        lens[i] = strlen(label);
    }
    for (r = 0; r < 3 || (now() - start < 1.0 && r < 50); r++) {
        ketama_ring *ring = NULL;
        double t0, t1;
        if (ketama_ring_create("libmemcached-weighted", NULL, &ring) != KETAMA_STATUS_OK) return 2;
        t0 = now();
        if (ketama_ring_add_many(ring, labels, lens, NULL, NULL, NULL, (size_t)servers, NULL) != KETAMA_STATUS_OK) return 2;
        t1 = now();
        if (t1 - t0 < best_build) best_build = t1 - t0;
        for (c = 0; c < 3; c++) {
            double t2, t3, t4;
            t2 = now();
            if (ketama_ring_add(ring, labels[extra], lens[extra], 1) != KETAMA_STATUS_OK) return 2;
            t3 = now();
            if (ketama_ring_remove(ring, labels[mid], lens[mid]) != KETAMA_STATUS_OK) return 2;
            t4 = now();
            if (t3 - t2 < best_add) best_add = t3 - t2;
            if (t4 - t3 < best_remove) best_remove = t4 - t3;
            if (c == 0 && t3 - t2 < first_add) first_add = t3 - t2;
            if (c == 0 && t4 - t3 < first_remove) first_remove = t4 - t3;
            /* back to `servers` servers for the next cycle */
            if (ketama_ring_add(ring, labels[mid], lens[mid], 1) != KETAMA_STATUS_OK) return 2;
            if (ketama_ring_remove(ring, labels[extra], lens[extra]) != KETAMA_STATUS_OK) return 2;
        }
        ketama_ring_free(ring);
    }
    /* anchor of a change: a fresh build of the ring it makes */
    row("build", servers, -1, best_build * 1e9);
    row("change_add", servers, best_build * 1e9, best_add * 1e9);
    row("change_remove", servers, best_build * 1e9, best_remove * 1e9);
    row("change_add_first", servers, best_build * 1e9, first_add * 1e9);
    row("change_remove_first", servers, best_build * 1e9, first_remove * 1e9);
    for (i = 0; i <= servers; i++) free((void *)labels[i]);
    free(labels);
    free(lens);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "lookup") == 0) {
        int servers = atoi(argv[2]), nkeys = atoi(argv[3]), rc;
        if (servers < 1 || nkeys < 1) return 2;
        rc = lookups(0, servers, nkeys);
        return rc ? rc : lookups(1, servers, nkeys);
    }
    if (argc == 3 && strcmp(argv[1], "build") == 0) {
        int servers = atoi(argv[2]);
        return servers < 2 ? 2 : build(servers);
    }
    fprintf(stderr, "usage: %s lookup SERVERS KEYS | build SERVERS\n", argv[0]);
    return 2;
}
