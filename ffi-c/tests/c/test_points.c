/* ketama_ring_create_points(): a ring rebuilt from another ring's own points places every key,
 * walks and lists its points as the original does, for every profile with a 32-bit continuum;
 * a hand-made ring follows the profile's search and tie rules; bad input gets its status and
 * changes are refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ketama.h"

#define SERVERS 5
#define KEYS 400

static const char *labels[SERVERS] = {"10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211",
                                      "cache-a.example:11211", "10.0.0.5:11212"};
static size_t lens[SERVERS];

/* Same labels for the same keys (lookup and a 3-server walk). */
static void same_places(const ketama_ring *a, const ketama_ring *b, const char *profile) {
    char key[32];
    for (int i = 0; i < KEYS; i++) {
        int n = snprintf(key, sizeof key, "key:%d", i);
        const char *la = NULL, *lb = NULL;
        size_t na = 0, nb = 0;
        ketama_status sa = ketama_ring_lookup(a, key, (size_t)n, &la, &na);
        ketama_status sb = ketama_ring_lookup(b, key, (size_t)n, &lb, &nb);
        CHECK(sa == sb);
        if (sa == KETAMA_STATUS_OK && sb == KETAMA_STATUS_OK && !(na == nb && memcmp(la, lb, na) == 0)) {
            fprintf(stderr, "%s: %s differs\n", profile, key);
            CHECK(0);
        }
        /* the caller's own key hash through ketama_ring_lookup_hash: the same walk */
        uint32_t h = 0, idx[3];
        size_t got = 0;
        if (ketama_ring_key_hash(a, key, (size_t)n, &h) == KETAMA_STATUS_OK) {
            ketama_status sh = ketama_ring_lookup_hash(b, h, 3, idx, &got);
            CHECK(sh == sa || sa == KETAMA_STATUS_KEY_REJECTED);
            if (sh == KETAMA_STATUS_OK && sa == KETAMA_STATUS_OK && got > 0) {
                const char *l = NULL;
                size_t ll = 0;
                CHECK(ketama_ring_server(b, idx[0], &l, &ll, NULL) == KETAMA_STATUS_OK);
                CHECK(ll == na && memcmp(l, la, na) == 0);
            }
        }
        const char *wa[3], *wb[3];
        size_t wla[3], wlb[3], ca = 0, cb = 0;
        sa = ketama_ring_lookup_n(a, key, (size_t)n, 3, wa, wla, &ca);
        sb = ketama_ring_lookup_n(b, key, (size_t)n, 3, wb, wlb, &cb);
        CHECK(sa == sb && ca == cb);
        for (size_t j = 0; j < ca && j < cb; j++) {
            CHECK(wla[j] == wlb[j] && memcmp(wa[j], wb[j], wla[j]) == 0);
        }
    }
}

/* Returns 1 if the profile has a continuum that could be given back. */
static int round_trip(const char *profile) {
    ketama_ring *built = NULL;
    if (ketama_ring_create(profile, NULL, &built) != KETAMA_STATUS_OK) {
        return 0;
    }
    int ok = ketama_ring_add_many(built, labels, lens, NULL, NULL, NULL, SERVERS, NULL) == KETAMA_STATUS_OK;
    size_t count = 0;
    if (ok) {
        CHECK(ketama_ring_point_count(built, &count) == KETAMA_STATUS_OK);
    }
    if (!ok || count == 0) {
        ketama_ring_free(built);
        return 0;
    }
    uint32_t *pos = malloc(count * sizeof *pos), *own = malloc(count * sizeof *own);
    size_t got = 0;
    CHECK(pos && own && ketama_ring_points(built, pos, own, count, &got) == KETAMA_STATUS_OK && got == count);
    ketama_ring *given = NULL;
    ketama_status st = ketama_ring_create_points(profile, NULL, labels, lens, SERVERS, pos, own, count, &given, NULL);
    if (st == KETAMA_STATUS_NOT_A_CONTINUUM) {
        /* uhashring's 128-bit ring: its 32-bit points cannot say where keys go */
        CHECK(strcmp(profile, "uhashring") == 0);
    } else if (strcmp(profile, "folsom") == 0) {
        /* signed search: ketama_ring_points reports stored (sign-flipped) values; give back the
         * signed bit patterns */
        CHECK(st == KETAMA_STATUS_OK);
        ketama_ring_free(given);
        for (size_t i = 0; i < count; i++) {
            pos[i] ^= 0x80000000u;
        }
        CHECK(ketama_ring_create_points(profile, NULL, labels, lens, SERVERS, pos, own, count, &given, NULL) ==
              KETAMA_STATUS_OK);
        same_places(built, given, profile);
        ketama_ring_free(given);
    } else {
        CHECK(st == KETAMA_STATUS_OK);
        same_places(built, given, profile);
        uint32_t *pos2 = malloc(count * sizeof *pos2), *own2 = malloc(count * sizeof *own2);
        size_t got2 = 0;
        CHECK(pos2 && own2 && ketama_ring_points(given, pos2, own2, count, &got2) == KETAMA_STATUS_OK);
        CHECK(got2 == count && memcmp(pos, pos2, count * sizeof *pos) == 0 &&
              memcmp(own, own2, count * sizeof *own) == 0);
        free(pos2);
        free(own2);
        ketama_ring_free(given);
    }
    free(pos);
    free(own);
    ketama_ring_free(built);
    return 1;
}

static void rules_and_errors(void) {
    const char *two[2] = {"a:1", "b:1"};
    size_t two_lens[2] = {3, 3};
    /* flexihash: first point > hash, later server wins a shared position; crc32a key hash */
    uint32_t pos[3] = {0x80000000u, 0x40000000u, 0x80000000u}, own[3] = {0, 1, 1};
    ketama_ring *r = NULL;
    CHECK(ketama_ring_create_points("flexihash", "crc32a", two, two_lens, 2, pos, own, 3, &r, NULL) == KETAMA_STATUS_OK);
    uint32_t p[3], o[3];
    size_t n = 0;
    CHECK(ketama_ring_points(r, p, o, 3, &n) == KETAMA_STATUS_OK && n == 3);
    CHECK(p[0] == 0x40000000u && o[0] == 1 && p[1] == 0x80000000u && o[1] == 1 && o[2] == 0);
    /* every key: first point above its crc32a hash, wrapping */
    char key[16];
    for (int i = 0; i < 50; i++) {
        int len = snprintf(key, sizeof key, "k%d", i);
        uint32_t h = 0;
        CHECK(ketama_hash("crc32a", key, (size_t)len, &h) == KETAMA_STATUS_OK);
        const char *label = NULL;
        size_t ll = 0;
        CHECK(ketama_ring_lookup(r, key, (size_t)len, &label, &ll) == KETAMA_STATUS_OK);
        /* b owns 0x40000000 and wins the tie at 0x80000000: every hash goes to b */
        CHECK(ll == 3 && memcmp(label, "b:1", 3) == 0);
    }
    uint32_t idx[2];
    /* first > 0x40000000 is b's tie win; a's only point is that tie's loser, which
     * flexihash's map does not hold: no walk meets a */
    CHECK(ketama_ring_lookup_hash(r, 0x40000000u, 2, idx, &n) == KETAMA_STATUS_OK && n == 1);
    CHECK(idx[0] == 1);
    CHECK(ketama_ring_lookup_hash(r, 1, 2, NULL, &n) == KETAMA_STATUS_NULL_ARGUMENT);
    /* changes are refused, the ring stays as it was */
    CHECK(ketama_ring_add(r, "c:1", 3, 1) == KETAMA_STATUS_FIXED_POINTS);
    CHECK(ketama_ring_remove(r, "a:1", 3) == KETAMA_STATUS_FIXED_POINTS);
    CHECK(ketama_ring_set_weight(r, "a:1", 3, 2) == KETAMA_STATUS_FIXED_POINTS);
    {
        const char *more[2] = {"c:1", "d:1"};
        size_t more_lens[2] = {3, 3}, failed = 77;
        CHECK(ketama_ring_add_many(r, more, more_lens, NULL, NULL, NULL, 2, &failed) == KETAMA_STATUS_FIXED_POINTS);
        CHECK(failed == 77); /* no server to blame: not written */
        CHECK(ketama_ring_add_many(r, more, more_lens, NULL, NULL, NULL, 0, NULL) == KETAMA_STATUS_FIXED_POINTS);
        CHECK(ketama_ring_point_count(r, &n) == KETAMA_STATUS_OK && n == 3);
    }
    size_t servers = 0;
    CHECK(ketama_ring_server_count(r, &servers) == KETAMA_STATUS_OK && servers == 2);
    ketama_ring_free(r);

    /* bad input: nothing written to *ring_out */
    r = NULL;
    uint32_t bad_owner[1] = {2};
    CHECK(ketama_ring_create_points("libketama", NULL, two, two_lens, 2, pos, bad_owner, 1, &r, NULL) ==
          KETAMA_STATUS_INDEX_OUT_OF_RANGE);
    CHECK(ketama_ring_create_points("libketama", NULL, two, two_lens, 2, pos, own, 0, &r, NULL) == KETAMA_STATUS_EMPTY_RING);
    CHECK(ketama_ring_create_points("libketama", NULL, two, two_lens, 0, pos, own, 0, &r, NULL) == KETAMA_STATUS_EMPTY_RING);
    CHECK(ketama_ring_create_points("modula", NULL, two, two_lens, 2, pos, own, 3, &r, NULL) == KETAMA_STATUS_NOT_A_CONTINUUM);
    CHECK(ketama_ring_create_points("nope", NULL, two, two_lens, 2, pos, own, 3, &r, NULL) == KETAMA_STATUS_UNKNOWN_PROFILE);
    CHECK(ketama_ring_create_points("libketama", "nope", two, two_lens, 2, pos, own, 3, &r, NULL) ==
          KETAMA_STATUS_UNKNOWN_HASH);
    const char *dup[2] = {"a:1", "a:1"};
    size_t failed = 77;
    CHECK(ketama_ring_create_points("libketama", NULL, dup, two_lens, 2, pos, own, 3, &r, &failed) ==
          KETAMA_STATUS_DUPLICATE_SERVER);
    CHECK(failed == 1);
    const char *bad_label[2] = {"a:1", "b:x"};
    CHECK(ketama_ring_create_points("libketama", NULL, bad_label, two_lens, 2, pos, own, 3, &r, &failed) ==
          KETAMA_STATUS_BAD_LABEL);
    CHECK(failed == 1);
    failed = 77;
    CHECK(ketama_ring_create_points("libketama", NULL, two, two_lens, 2, pos, bad_owner, 1, &r, &failed) ==
          KETAMA_STATUS_INDEX_OUT_OF_RANGE);
    CHECK(failed == 77);
    CHECK(ketama_ring_create_points("libketama", NULL, NULL, two_lens, 2, pos, own, 3, &r, NULL) ==
          KETAMA_STATUS_NULL_ARGUMENT);
    CHECK(ketama_ring_create_points("libketama", NULL, two, two_lens, 2, NULL, own, 3, &r, NULL) ==
          KETAMA_STATUS_NULL_ARGUMENT);
    CHECK(ketama_ring_create_points("libketama", NULL, two, two_lens, 2, pos, own, 3, NULL, NULL) ==
          KETAMA_STATUS_NULL_ARGUMENT);
    CHECK(r == NULL);
    size_t big = ((size_t)1 << 23) + 1;
    uint32_t *many = calloc(big, sizeof *many);
    if (many) {
        CHECK(ketama_ring_create_points("libketama", NULL, two, two_lens, 2, many, many, big, &r, NULL) ==
              KETAMA_STATUS_TOO_MANY_POINTS);
        free(many);
    }
    CHECK(r == NULL);
}

int main(void) {
    size_t i, rings = 0;
    const char *p;
    for (i = 0; i < SERVERS; i++) {
        lens[i] = strlen(labels[i]);
    }
    for (i = 0; (p = ketama_profile_name(i)) != NULL; i++) {
        rings += (size_t)round_trip(p);
    }
    CHECK(rings >= 15);
    rules_and_errors();
    printf("ring from points over %zu continuum profiles: %d checks, %d failed\n", rings, checks, failures);
    return failures != 0;
}
