/* Speed of libketama's ketama_ring_lookup() beside the real libmemcached's
 * memcached_generate_hash() on the same weighted ketama ring (php-memcached's
 * OPT_LIBKETAMA_COMPATIBLE), same servers, same keys, in one run; reported as a ratio.
 * Every answer is also compared, so the two are timed doing the same work.
 *   cc -O2 compare_libmemcached.c $(pkg-config --cflags --libs ketama) -lmemcached
 * Usage: compare_libmemcached [servers=50] [keys=200000] [rounds=5] */
#include <libmemcached/memcached.h>
#include <ketama.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 50, nkeys = argc > 2 ? atoi(argv[2]) : 200000;
    int rounds = argc > 3 ? atoi(argv[3]) : 5, i, r, mismatches = 0;
    char (*keys)[32] = malloc((size_t)nkeys * sizeof *keys);
    char (*labels)[32] = malloc((size_t)n * sizeof *labels);
    memcached_st *memc = memcached_create(NULL);
    ketama_ring *ring = NULL;
    double best_lm = 1e9, best_k = 1e9;
    unsigned long sink = 0;
    if (n < 1 || n > 100 || nkeys < 1 || rounds < 1 || !keys || !labels || !memc) {
        fprintf(stderr, "usage: %s [servers 1..100] [keys] [rounds]\n", argv[0]);
        return 2;
    }
    memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    if (ketama_ring_create("php-memcached", NULL, &ring) != KETAMA_STATUS_OK) return 1;
    for (i = 0; i < n; i++) {
        char host[24];
        snprintf(host, sizeof host, "10.0.%d.%d", i / 200, i % 200 + 1);
        snprintf(labels[i], sizeof labels[i], "%s:%d", host, 11211 + i % 2);
        memcached_server_add_with_weight(memc, host, (in_port_t)(11211 + i % 2), (uint32_t)(1 + i % 3));
        ketama_ring_add(ring, labels[i], strlen(labels[i]), (uint32_t)(1 + i % 3));
    }
    for (i = 0; i < nkeys; i++) snprintf(keys[i], sizeof keys[i], "user:%d:profile", i * 7919);
    for (i = 0; i < nkeys; i++) {
        const char *label;
        size_t len;
        uint32_t idx = memcached_generate_hash(memc, keys[i], strlen(keys[i]));
        ketama_ring_lookup(ring, keys[i], strlen(keys[i]), &label, &len);
        if (strcmp(label, labels[idx]) != 0) mismatches++;
    }
    for (r = 0; r < rounds; r++) {
        double t0 = now(), t1, t2;
        for (i = 0; i < nkeys; i++) sink += memcached_generate_hash(memc, keys[i], strlen(keys[i]));
        t1 = now();
        for (i = 0; i < nkeys; i++) {
            const char *label;
            size_t len;
            ketama_ring_lookup(ring, keys[i], strlen(keys[i]), &label, &len);
            sink += len;
        }
        t2 = now();
        if (t1 - t0 < best_lm) best_lm = t1 - t0;
        if (t2 - t1 < best_k) best_k = t2 - t1;
    }
    printf("servers %d, keys %d, best of %d rounds (sink %lu)\n", n, nkeys, rounds, sink % 10);
    printf("libmemcached memcached_generate_hash: %7.1f ns/key\n", best_lm / nkeys * 1e9);
    printf("libketama ketama_ring_lookup:         %7.1f ns/key\n", best_k / nkeys * 1e9);
    printf("ratio libmemcached / ketama:          %7.2fx\n", best_lm / best_k);
    printf("answers differing: %d of %d\n", mismatches, nkeys);
    ketama_ring_free(ring);
    memcached_free(memc);
    free(keys);
    free(labels);
    return mismatches != 0;
}
