/* ketama_raw_ring_* (continua over raw node names) and the (ptr, len) forms of the calls
 * that also take NUL-terminated names (ketama_ring_create_len, _create_points_len,
 * ketama_hash_len). */
#define _POSIX_C_SOURCE 200809L
#include <ketama.h>
#include <ketama_compat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define EXPECT(call, status) CHECK((call) == (status))
#define S(str) (str), strlen(str)

static const char *const three[] = {"10.0.0.1:11211", "10.0.0.1:11211", "\xff\xfe:1"};
static const size_t three_lens[] = {14, 14, 4};

static ketama_raw_ring *raw(const char *profile, const char *hash, const char *const *names,
                            const size_t *lens, const uint32_t *counts, size_t n, int counted) {
    ketama_raw_ring *r = NULL;
    size_t hash_len = hash ? strlen(hash) : 0;
    ketama_status s = counted
        ? ketama_raw_ring_create_counted(S(profile), hash, hash_len, names, lens, counts, n, &r, NULL)
        : ketama_raw_ring_create(S(profile), hash, hash_len, names, lens, counts, n, &r, NULL);
    EXPECT(s, KETAMA_STATUS_OK);
    CHECK(r != NULL);
    return r;
}

/* libketama: repeated names each get their points, and the continuum is ketama_roll's. */
static void test_libketama_like_roll(void) {
    static const uint32_t weights[] = {100, 100, 50};
    ketama_raw_ring *r = raw("libketama", NULL, three, three_lens, weights, 3, 0);
    size_t servers = 0, points = 0, count = 0, i, pos = 99;
    uint32_t *positions, *owners;
    char path[] = "/tmp/ketama-raw-XXXXXX";
    int fd = mkstemp(path), ok;
    ketama_continuum c = NULL;
    mcs *array;
    EXPECT(ketama_raw_ring_size(r, &servers, &points), KETAMA_STATUS_OK);
    CHECK(servers == 3 && points == 4 * (48 + 48 + 24));
    positions = malloc(points * sizeof *positions);
    owners = malloc(points * sizeof *owners);
    EXPECT(ketama_raw_ring_points(r, positions, owners, points, &count), KETAMA_STATUS_OK);
    CHECK(count == points);
    /* the same file through the libketama API */
    CHECK(write(fd, "10.0.0.1:11211\t100\n10.0.0.1:11211\t100\n\xff\xfe:1\t50\n", 46) == 46);
    close(fd);
    sleep(1); /* ketama_roll reads a file once it has not changed for 200 ms */
    ok = ketama_roll(&c, path);
    CHECK(ok == 1 && c->numpoints == (int)points);
    array = c->array;
    for (i = 0; ok && i < points; i++) {
        CHECK(array[i].point == positions[i]);
        CHECK(strcmp(array[i].ip, three[owners[i]]) == 0);
    }
    /* the key lands where ketama_get_server puts it */
    for (i = 0; ok && i < 200; i++) {
        char key[16];
        int64_t who;
        mcs *m;
        sprintf(key, "k%zu", i);
        who = ketama_raw_ring_lookup_index(r, S(key));
        m = ketama_get_server(key, c);
        CHECK(who >= 0 && who < 3 && strcmp(m->ip, three[who]) == 0);
        EXPECT(ketama_raw_ring_key_position(r, S(key), &pos), KETAMA_STATUS_OK);
        CHECK(pos < points && positions[pos] == m->point);
    }
    ketama_smoke(c);
    unlink(path);
    free(positions);
    free(owners);
    ketama_raw_ring_free(r);
}

/* flexihash: string counts equal weights x 64, hashes by name, walks of distinct servers. */
static void test_counts_hash_and_walk(void) {
    static const char *const names[] = {"cache 1", "cache 2", "cache 3"};
    static const size_t lens[] = {7, 7, 7};
    static const uint32_t weights[] = {1, 2, 3}, strings[] = {64, 128, 192};
    ketama_raw_ring *a = raw("flexihash", "md5_be", names, lens, weights, 3, 0);
    ketama_raw_ring *b = raw("flexihash", "md5_be", names, lens, strings, 3, 1);
    uint32_t out[4];
    size_t i, n = 9;
    for (i = 0; i < 300; i++) {
        char key[16];
        sprintf(key, "object-%zu", i);
        CHECK(ketama_raw_ring_lookup_index(a, S(key)) == ketama_raw_ring_lookup_index(b, S(key)));
        EXPECT(ketama_raw_ring_lookup_n(a, S(key), 4, out, &n), KETAMA_STATUS_OK);
        CHECK(n == 3 && (int64_t)out[0] == ketama_raw_ring_lookup_index(a, S(key)));
        CHECK(out[0] != out[1] && out[1] != out[2] && out[0] != out[2]);
    }
    ketama_raw_ring_free(a);
    ketama_raw_ring_free(b);
    ketama_raw_ring_free(NULL);
}

static void test_raw_errors(void) {
    static const uint32_t weights[] = {1, 0, 1};
    ketama_raw_ring *r = (ketama_raw_ring *)&r;
    size_t blamed = 99, n;
    uint32_t out[2];
    EXPECT(ketama_raw_ring_create(S("nope"), NULL, 0, three, three_lens, weights, 3, &r, NULL),
           KETAMA_STATUS_UNKNOWN_PROFILE);
    EXPECT(ketama_raw_ring_create(S("modula"), NULL, 0, three, three_lens, weights, 3, &r, NULL),
           KETAMA_STATUS_NOT_A_CONTINUUM);
    EXPECT(ketama_raw_ring_create(S("libketama"), NULL, 0, three, three_lens, weights, 0, &r, NULL),
           KETAMA_STATUS_EMPTY_RING);
    EXPECT(ketama_raw_ring_create(S("libketama"), NULL, 0, three, three_lens, weights, 3, &r, &blamed),
           KETAMA_STATUS_BAD_WEIGHT);
    CHECK(blamed == 1);
    EXPECT(ketama_raw_ring_create(S("libketama"), S("nope"), three, three_lens, weights, 3, &r, NULL),
           KETAMA_STATUS_UNKNOWN_HASH);
    EXPECT(ketama_raw_ring_create(S("libketama"), NULL, 0, three, three_lens, weights, 3, NULL, NULL),
           KETAMA_STATUS_NULL_ARGUMENT);
    CHECK(r == (ketama_raw_ring *)&r); /* nothing written on failure */
    /* a server without points, then no point at all */
    r = raw("flexihash", NULL, three, three_lens, weights + 1, 1, 1);
    CHECK(ketama_raw_ring_lookup_index(r, S("k")) == -(int64_t)KETAMA_STATUS_NO_SERVER);
    EXPECT(ketama_raw_ring_lookup_n(r, S("k"), 2, out, &n), KETAMA_STATUS_NO_SERVER);
    ketama_raw_ring_free(r);
    CHECK(ketama_raw_ring_lookup_index(NULL, S("k")) == -(int64_t)KETAMA_STATUS_NULL_ARGUMENT);
}

/* The (ptr, len) names need no NUL and give what the NUL-terminated calls give. */
static void test_len_forms(void) {
    const char *names = "libketamamd5xx";
    ketama_ring *a = NULL, *b = NULL, *c = NULL;
    const char *const labels[] = {"10.0.0.1:11211", "10.0.0.2:11211"};
    const size_t label_lens[] = {14, 14};
    const uint32_t positions[] = {10, 20}, owners[] = {0, 1};
    const char *la, *lb;
    size_t na, nb;
    uint32_t h1 = 0, h2 = 1;
    EXPECT(ketama_ring_create("libketama", "md5", &a), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_create_len(names, 9, names + 9, 3, &b), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(a, S("10.0.0.1:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(b, S("10.0.0.1:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(a, S("10.0.0.2:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(b, S("10.0.0.2:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_lookup(a, S("user:1"), &la, &na), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_lookup(b, S("user:1"), &lb, &nb), KETAMA_STATUS_OK);
    CHECK(na == nb && strcmp(la, lb) == 0);
    EXPECT(ketama_ring_create_len(names, 10, NULL, 0, &c), KETAMA_STATUS_UNKNOWN_PROFILE);
    EXPECT(ketama_ring_create_len(NULL, 0, NULL, 0, &c), KETAMA_STATUS_NULL_ARGUMENT);
    CHECK(c == NULL);
    EXPECT(ketama_ring_create_points_len(names, 9, NULL, 0, labels, label_lens, 2, positions,
                                         owners, 2, &c, NULL),
           KETAMA_STATUS_OK);
    EXPECT(ketama_ring_lookup_hash(c, 15, 1, &h1, &na), KETAMA_STATUS_OK);
    CHECK(na == 1 && h1 == 1);
    EXPECT(ketama_hash("md5", S("apple"), &h1), KETAMA_STATUS_OK);
    EXPECT(ketama_hash_len(names + 9, 3, S("apple"), &h2), KETAMA_STATUS_OK);
    CHECK(h1 == h2 && h1 == 3195025439u);
    EXPECT(ketama_hash_len(names + 9, 4, S("apple"), &h2), KETAMA_STATUS_UNKNOWN_HASH);
    EXPECT(ketama_hash_len(NULL, 0, S("apple"), &h2), KETAMA_STATUS_NULL_ARGUMENT);
    ketama_ring_free(a);
    ketama_ring_free(b);
    ketama_ring_free(c);
}

int main(void) {
    test_libketama_like_roll();
    test_counts_hash_and_walk();
    test_raw_errors();
    test_len_forms();
    printf("raw rings and (ptr, len) names: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
