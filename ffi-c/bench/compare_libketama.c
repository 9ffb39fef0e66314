/* Per-key speed of the libketama API (ketama_roll + ketama_get_server), built twice from this
 * one file: against the original last.fm libketama and against our drop-in (libketama.so with
 * <libketama/ketama.h>). Prints ns per key (best of the rounds) and a checksum of every answer,
 * so the two runs can be checked to do the same work. ffi-c/bench/libketama_dropin.sh builds
 * and runs both.
 * Usage: compare_libketama SERVERS_FILE [keys=200000] [rounds=5] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ketama.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    ketama_continuum c;
    int nkeys = argc > 2 ? atoi(argv[2]) : 200000, rounds = argc > 3 ? atoi(argv[3]) : 5;
    if (argc < 2 || nkeys < 1 || rounds < 1) {
        fprintf(stderr, "usage: %s SERVERS_FILE [keys] [rounds]\n", argv[0]);
        return 2;
    }
    char (*keys)[32] = malloc((size_t)nkeys * sizeof *keys);
    if (!keys || !ketama_roll(&c, argv[1])) {
        fprintf(stderr, "ketama_roll failed: %s\n", ketama_error());
        return 1;
    }
    for (int i = 0; i < nkeys; i++) {
        snprintf(keys[i], sizeof keys[i], "user:%d:profile", i * 7919);
    }
    unsigned long sum = 0;
    for (int i = 0; i < nkeys; i++) {
        mcs *m = ketama_get_server(keys[i], c);
        sum = sum * 31 + m->point;
        for (const char *p = m->ip; *p; p++) {
            sum = sum * 31 + (unsigned char)*p;
        }
    }
    double best = 1e9;
    unsigned long sink = 0;
    for (int r = 0; r < rounds; r++) {
        double t = now();
        for (int i = 0; i < nkeys; i++) {
            sink += ketama_get_server(keys[i], c)->point;
        }
        t = now() - t;
        best = t < best ? t : best;
    }
    printf("%.1f ns/key checksum %lx (%lu)\n", best / nkeys * 1e9, sum, sink % 2);
    ketama_smoke(c);
    free(keys);
    return 0;
}
