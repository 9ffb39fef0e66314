/* Stepwise changes equal fresh builds, through the C library, for every profile it lists:
 * servers added one at a time (some named, two with the same name so their points collide),
 * removed, re-added and re-weighted give the same continuum, point for point and owner for
 * owner, and the same server for every key, as one ketama_ring_add_many of the final list.
 * Each profile runs with its default hash and with the 15-bit "crc" hash, whose tiny space
 * forces equal points on the profiles that hash point strings with the key hash. */
#include <ketama.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 12
#define MAXP 200000

static const char *names[N] = {NULL, "alpha", NULL, "dup", NULL, "dup", "beta", NULL, NULL, "gamma", NULL, NULL};

static void label_of(int i, char *out) { sprintf(out, "10.0.%d.%d:%d", i / 200, i % 200 + 1, 11211 + i % 3); }

/* Labels of a ring's servers, in server order. */
static size_t servers_of(const ketama_ring *r, const char **labels, size_t *lens, uint32_t *weights) {
    size_t n = 0, i;
    CHECK(ketama_ring_server_count(r, &n) == KETAMA_STATUS_OK);
    for (i = 0; i < n; i++) CHECK(ketama_ring_server(r, i, &labels[i], &lens[i], &weights[i]) == KETAMA_STATUS_OK);
    return n;
}

static uint32_t pa[MAXP], pb[MAXP], oa[MAXP], ob[MAXP];

static void compare(const char *profile, const char *hash, ketama_ring *a, ketama_ring *b) {
    size_t na = 0, nb = 0, i, bad = 0;
    const char *la, *lb;
    size_t lla, llb;
    char key[32];
    CHECK(ketama_ring_points(a, pa, oa, MAXP, &na) == KETAMA_STATUS_OK);
    CHECK(ketama_ring_points(b, pb, ob, MAXP, &nb) == KETAMA_STATUS_OK);
    if (na != nb) {
        fprintf(stderr, "%s/%s: %zu points stepwise, %zu fresh\n", profile, hash ? hash : "-", na, nb);
        CHECK(na == nb);
        return;
    }
    for (i = 0; i < na && bad < 3; i++) {
        size_t l1, l2;
        const char *s1, *s2;
        CHECK(ketama_ring_server(a, oa[i], &s1, &l1, NULL) == KETAMA_STATUS_OK);
        CHECK(ketama_ring_server(b, ob[i], &s2, &l2, NULL) == KETAMA_STATUS_OK);
        if (pa[i] != pb[i] || l1 != l2 || memcmp(s1, s2, l1) != 0) {
            fprintf(stderr, "%s/%s: point %zu: %u %s vs %u %s\n", profile, hash ? hash : "-", i, pa[i], s1, pb[i], s2);
            bad++;
        }
    }
    CHECK(bad == 0);
    for (i = 0; i < 2000; i++) {
        ketama_status sa, sb;
        sprintf(key, "user:%zu:profile", i);
        sa = ketama_ring_lookup(a, key, strlen(key), &la, &lla);
        sb = ketama_ring_lookup(b, key, strlen(key), &lb, &llb);
        CHECK(sa == sb);
        if (sa == KETAMA_STATUS_OK && sb == KETAMA_STATUS_OK && (lla != llb || memcmp(la, lb, lla) != 0)) {
            fprintf(stderr, "%s/%s: key %s: %s vs %s\n", profile, hash ? hash : "-", key, la, lb);
            CHECK(0);
            break;
        }
    }
}

static void run(const char *profile, const char *hash) {
    ketama_ring *a = NULL, *b = NULL;
    char labels[N][32];
    const char *fl[N + 2], *fn[N + 2];
    size_t fll[N + 2], fnl[N + 2], n, i, j;
    uint32_t fw[N + 2];
    int removable = strcmp(profile, "flexihash") != 0; /* flexihash removal unsets shared positions: not a fresh build, by design */
    if (ketama_ring_create(profile, hash, &a) != KETAMA_STATUS_OK) return; /* hash not offered */
    CHECK(ketama_ring_create(profile, hash, &b) == KETAMA_STATUS_OK);
    for (i = 0; i < N; i++) {
        label_of((int)i, labels[i]);
        CHECK(ketama_ring_add_named(a, labels[i], strlen(labels[i]), (uint32_t)(1 + i % 4), names[i],
                                    names[i] ? strlen(names[i]) : 0) == KETAMA_STATUS_OK);
    }
    if (removable) {
        CHECK(ketama_ring_remove(a, labels[3], strlen(labels[3])) == KETAMA_STATUS_OK);
        CHECK(ketama_ring_remove(a, labels[0], strlen(labels[0])) == KETAMA_STATUS_OK);
        CHECK(ketama_ring_add_named(a, labels[3], strlen(labels[3]), 2, "dup", 3) == KETAMA_STATUS_OK);
    }
    CHECK(ketama_ring_set_weight(a, labels[7], strlen(labels[7]), 3) == KETAMA_STATUS_OK);
    /* the final list, in a's server order, with names as they were given */
    n = servers_of(a, fl, fll, fw);
    for (i = 0; i < n; i++) {
        fn[i] = NULL;
        fnl[i] = 0;
        for (j = 0; j < N; j++)
            if (fll[i] == strlen(labels[j]) && memcmp(fl[i], labels[j], fll[i]) == 0) {
                fn[i] = names[j];
                fnl[i] = names[j] ? strlen(names[j]) : 0;
            }
    }
    CHECK(ketama_ring_add_many(b, fl, fll, fw, fn, fnl, n, NULL) == KETAMA_STATUS_OK);
    compare(profile, hash, a, b);
    ketama_ring_free(a);
    ketama_ring_free(b);
}

int main(void) {
    size_t i, profiles = 0;
    const char *p;
    for (i = 0; (p = ketama_profile_name(i)) != NULL; i++) {
        run(p, NULL);
        run(p, "crc");
        profiles++;
    }
    CHECK(profiles >= 28);
    CHECK(ketama_profile_name(profiles) == NULL);
    printf("stepwise = fresh over %zu profiles: %d checks, %d failed\n", profiles, checks, failures);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
