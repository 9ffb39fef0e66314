/* Side-by-side speed of our libketama drop-in (include/ketama_compat.h) and the original
 * last.fm libketama on the same server file and keys, in one process; part of
 * bench/compare.sh when it is given the original's build (LIBKETAMA_ORIG).
 *
 *   libketama ORIGINAL.so OURS.so SERVERS [KEYS]
 *
 * Both libraries export the same names (ketama_roll, ketama_get_server, ...), so each is
 * opened with dlopen(RTLD_LOCAL) and called through its own function pointers. A server file
 * of SERVERS equal lines (`10.a.b.c:11211<TAB>100`) is written to a temporary directory; keys
 * are `user:N:profile`. Every key's `mcs` (point and address) is compared first (a
 * difference exits 1). Output: one line `c_libketama_get_server SERVERS anchor_ns ours_ns`,
 * the best round of 1,000 keys, original and ours alternating in each round. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* libketama's public types (the original's ketama.h and ours agree; checked in our tests) */
typedef struct {
    unsigned int point;
    char ip[22];
} mcs;
typedef struct {
    int numpoints;
    void *modtime;
    void *array;
} continuum;
typedef continuum *ketama_continuum;

typedef struct {
    const char *path;
    int (*roll)(ketama_continuum *, char *);
    void (*smoke)(ketama_continuum);
    mcs *(*get_server)(char *, ketama_continuum);
    char *(*error)(void);
    ketama_continuum cont;
} lib;

static volatile uintptr_t sink;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void open_lib(lib *l, const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "libketama: %s\n", dlerror());
        exit(2);
    }
    l->path = path;
    *(void **)&l->roll = dlsym(h, "ketama_roll");
    *(void **)&l->smoke = dlsym(h, "ketama_smoke");
    *(void **)&l->get_server = dlsym(h, "ketama_get_server");
    *(void **)&l->error = dlsym(h, "ketama_error");
    if (!l->roll || !l->smoke || !l->get_server || !l->error) {
        fprintf(stderr, "libketama: %s lacks the libketama API\n", path);
        exit(2);
    }
}

static double run(lib *l, char **keys, int from, int count) {
    uintptr_t s = 0;
    int i;
    double t = now();
    for (i = from; i < from + count; i++) s += (uintptr_t)l->get_server(keys[i], l->cont);
    t = now() - t;
    sink += s;
    return t / count * 1e9;
}

int main(int argc, char **argv) {
    lib orig, ours;
    int servers, nkeys, i, r, chunk = 1000;
    char dir[] = "/tmp/ketama-bench-XXXXXX", file[64], **keys;
    FILE *f;
    double best_orig = 1e18, best_ours = 1e18, start;
    if (argc < 4) {
        fprintf(stderr, "usage: libketama ORIGINAL.so OURS.so SERVERS [KEYS]\n");
        return 2;
    }
    open_lib(&orig, argv[1]);
    open_lib(&ours, argv[2]);
    servers = atoi(argv[3]);
    nkeys = argc > 4 ? atoi(argv[4]) : 20000;
    if (mkdtemp(dir) == NULL) return 2;
    snprintf(file, sizeof file, "%s/servers", dir);
    f = fopen(file, "w");
    if (f == NULL) return 2;
    for (i = 0; i < servers; i++) fprintf(f, "10.%d.%d.%d:11211\t100\n", i / 62500, i / 250 % 250, i % 250 + 1);
    fclose(f);
    if (!orig.roll(&orig.cont, file) || !ours.roll(&ours.cont, file)) {
        fprintf(stderr, "libketama: ketama_roll failed: %s / %s\n", orig.error(), ours.error());
        return 2;
    }
    keys = malloc(sizeof *keys * (size_t)nkeys);
    for (i = 0; i < nkeys; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "user:%d:profile", i);
        keys[i] = strdup(buf);
    }
    for (i = 0; i < nkeys; i++) {
        mcs *a = orig.get_server(keys[i], orig.cont), *b = ours.get_server(keys[i], ours.cont);
        if (a == NULL || b == NULL || a->point != b->point || strncmp(a->ip, b->ip, sizeof a->ip) != 0) {
            fprintf(stderr, "libketama: answers differ for %s (%d servers)\n", keys[i], servers);
            return 1;
        }
    }
    start = now();
    for (r = 0; r < 2 * (nkeys / chunk) || now() - start < 0.3; r++) {
        int from = (r % (nkeys / chunk)) * chunk;
        double a = run(&orig, keys, from, chunk), o = run(&ours, keys, from, chunk);
        if (a < best_orig) best_orig = a;
        if (o < best_ours) best_ours = o;
    }
    printf("c_libketama_get_server\t%d\t%.1f\t%.1f\n", servers, best_orig, best_ours);
    orig.smoke(orig.cont);
    ours.smoke(ours.cont);
    unlink(file);
    rmdir(dir);
    for (i = 0; i < nkeys; i++) free(keys[i]);
    free(keys);
    return 0;
}
