/*
 * lmoracle: drives the real libmemcached / libhashkit (Debian 1.1.4) for the ketama test vectors.
 * Part of tests/oracles/libmemcached/ (see README.md there). Compiled by generate.sh with
 *   cc lmoracle.c $(pkg-config --cflags --libs libmemcached) -lhashkit
 * (Debian ships no libhashkit.pc; -lhashkit is what libhashkit-dev provides).
 *
 * Keys are read from stdin, one per line, hex-encoded (an empty line is the empty key), so any
 * byte sequence can be given.
 *
 *   lmoracle has                 -> "<algo> <0|1>" per HASHKIT_HASH_* (libhashkit_has_algorithm)
 *   lmoracle hash <algo>         -> one u32 per key: libhashkit_digest(key, len, algo); also checks
 *                                   that a hashkit_st with hashkit_set_function(algo) agrees
 *   lmoracle locate <opsfile>    -> runs the ops (behaviour sets, server adds) on a memcached_st
 *                                   in file order, prints "info ..." then per key
 *                                   "<host>\t<port>" from memcached_server_by_key, or "null"
 *
 * ops file lines:
 *   behavior <NAME> <value>      NAME = DISTRIBUTION | KETAMA | KETAMA_WEIGHTED | HASH | KETAMA_HASH
 *                                       | SORT_HOSTS
 *   add <host> <port>            memcached_server_add
 *   addw <host> <port> <weight>  memcached_server_add_with_weight
 */
#include <libmemcached/memcached.h>
#include <libhashkit-1.0/hashkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Same layout as the private struct in libmemcached 1.1.4 src/libmemcached/continuum.hpp; only
 * read, to report the highest ring point (lets the generator add keys that wrap around). */
struct memcached_continuum_item_st {
  uint32_t index;
  uint32_t value;
};

static int unhex(const char *s, size_t n, char *out) {
  if (n % 2) return -1;
  for (size_t i = 0; i < n / 2; i++) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1) return -1;
    out[i] = (char) v;
  }
  return (int) (n / 2);
}

/* reads one hex line from stdin into key; returns length, -1 at EOF */
static long read_key(char *line, size_t cap, char *key) {
  if (!fgets(line, (int) cap, stdin)) return -1;
  size_t n = strlen(line);
  while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
  int k = unhex(line, n, key);
  if (k < 0) {
    fprintf(stderr, "bad hex key line: %s\n", line);
    exit(3);
  }
  return k;
}

static int behavior_by_name(const char *name, memcached_behavior_t *out) {
  static const struct { const char *n; memcached_behavior_t b; } t[] = {
    {"DISTRIBUTION", MEMCACHED_BEHAVIOR_DISTRIBUTION},
    {"KETAMA", MEMCACHED_BEHAVIOR_KETAMA},
    {"KETAMA_WEIGHTED", MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED},
    {"HASH", MEMCACHED_BEHAVIOR_HASH},
    {"KETAMA_HASH", MEMCACHED_BEHAVIOR_KETAMA_HASH},
    {"SORT_HOSTS", MEMCACHED_BEHAVIOR_SORT_HOSTS},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!strcmp(name, t[i].n)) { *out = t[i].b; return 0; }
  return -1;
}

int main(int argc, char **argv) {
  static char line[8192], key[4096];
  if (argc >= 2 && !strcmp(argv[1], "has")) {
    for (int a = HASHKIT_HASH_DEFAULT; a < HASHKIT_HASH_CUSTOM; a++)
      printf("%d %d\n", a, libhashkit_has_algorithm((hashkit_hash_algorithm_t) a) ? 1 : 0);
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "hash")) {
    hashkit_hash_algorithm_t algo = (hashkit_hash_algorithm_t) atoi(argv[2]);
    hashkit_st *hk = hashkit_create(NULL);
    hashkit_return_t hrc = hashkit_set_function(hk, algo);
    if (hrc != HASHKIT_SUCCESS)
      fprintf(stderr, "note: hashkit_set_function(%d) failed: %s\n", (int) algo,
              hashkit_strerror(hk, hrc));
    long n;
    while ((n = read_key(line, sizeof line, key)) >= 0) {
      uint32_t v = libhashkit_digest(key, (size_t) n, algo);
      if (hrc == HASHKIT_SUCCESS) {
        uint32_t w = hashkit_digest(hk, key, (size_t) n);
        if (v != w) {
          fprintf(stderr, "libhashkit_digest %u != hashkit_digest %u\n", v, w);
          return 4;
        }
      }
      printf("%u\n", v);
    }
    hashkit_free(hk);
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "locate")) {
    FILE *ops = fopen(argv[2], "r");
    if (!ops) { perror(argv[2]); return 2; }
    memcached_st *memc = memcached_create(NULL);
    char op[64], a1[1100], a2[64], a3[64];
    while (fgets(line, sizeof line, ops)) {
      int k = sscanf(line, "%63s %1099s %63s %63s", op, a1, a2, a3);
      if (k <= 0) continue;
      memcached_return_t rc;
      if (!strcmp(op, "behavior") && k == 3) {
        memcached_behavior_t b;
        if (behavior_by_name(a1, &b)) { fprintf(stderr, "unknown behavior %s\n", a1); return 2; }
        rc = memcached_behavior_set(memc, b, strtoull(a2, NULL, 10));
      } else if (!strcmp(op, "add") && k == 3) {
        rc = memcached_server_add(memc, a1, (in_port_t) atoi(a2));
      } else if (!strcmp(op, "addw") && k == 4) {
        rc = memcached_server_add_with_weight(memc, a1, (in_port_t) atoi(a2),
                                              (uint32_t) strtoul(a3, NULL, 10));
      } else {
        fprintf(stderr, "bad op line: %s", line);
        return 2;
      }
      if (memcached_failed(rc)) {
        fprintf(stderr, "op failed (%s): %s", memcached_strerror(memc, rc), line);
        return 5;
      }
    }
    fclose(ops);
    uint32_t npoints = memc->ketama.continuum_points_counter;
    int consistent = memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION)
                     != MEMCACHED_DISTRIBUTION_MODULA;
    long long maxpoint = consistent && npoints && memc->ketama.continuum
                         ? (long long) memc->ketama.continuum[npoints - 1].value : -1;
    printf("info points=%u maxpoint=%lld servers=%u distribution=%llu ketama_weighted=%llu hash=%llu "
           "ketama_hash=%llu\n",
           npoints, maxpoint, memcached_server_count(memc),
           (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION),
           (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED),
           (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_HASH),
           (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_KETAMA_HASH));
    long n;
    while ((n = read_key(line, sizeof line, key)) >= 0) {
      memcached_return_t rc = MEMCACHED_SUCCESS; /* only written on failure */
      const memcached_instance_st *inst = memcached_server_by_key(memc, key, (size_t) n, &rc);
      if (!inst || memcached_failed(rc)) {
        printf("null\n");
      } else {
        printf("%s\t%u\n", memcached_server_name(inst), (unsigned) memcached_server_port(inst));
      }
    }
    memcached_free(memc);
    return 0;
  }
  fprintf(stderr, "usage: lmoracle has | hash <algo> | locate <opsfile>  (keys: hex lines on stdin)\n");
  return 2;
}
