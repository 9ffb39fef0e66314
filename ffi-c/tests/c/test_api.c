/* Every entry point of include/ketama.h, every error status, the panic boundary, threads. */
#include <ketama.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Test hook exported by the library but absent from the header on purpose. */
ketama_status ketama_test_force_panic(int really);

#include "check.h"

#define EXPECT(call, status) CHECK((call) == (status))
#define S(str) (str), strlen(str)

static ketama_ring *make(const char *profile, const char *hash) {
    ketama_ring *r = NULL;
    EXPECT(ketama_ring_create(profile, hash, &r), KETAMA_STATUS_OK);
    CHECK(r != NULL);
    return r;
}

static void test_statuses(void) {
    int s;
    EXPECT(strcmp(ketama_status_str(KETAMA_STATUS_OK), "ok"), 0);
    for (s = 0; s <= KETAMA_STATUS_BAD_OPTION; s++) {
        const char *m = ketama_status_str(s);
        CHECK(m != NULL && strlen(m) > 0 && strcmp(m, "unknown status") != 0);
    }
    EXPECT(strcmp(ketama_status_str(KETAMA_STATUS_BAD_OPTION + 1), "unknown status"), 0);
    EXPECT(strcmp(ketama_status_str(-1), "unknown status"), 0);
    EXPECT(strcmp(ketama_status_str(1000), "unknown status"), 0);
    EXPECT(strcmp(ketama_version(), KETAMA_VERSION), 0);
    {
        char v[32];
        sprintf(v, "%d.%d.%d", KETAMA_VERSION_MAJOR, KETAMA_VERSION_MINOR, KETAMA_VERSION_PATCH);
        EXPECT(strcmp(v, ketama_version()), 0);
    }
}

static void test_create_errors(void) {
    ketama_ring *r = (ketama_ring *)&r; /* sentinel: must stay untouched on failure */
    ketama_ring *const sentinel = r;
    EXPECT(ketama_ring_create(NULL, NULL, &r), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_create("libketama", NULL, NULL), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_create("no-such-client", NULL, &r), KETAMA_STATUS_UNKNOWN_PROFILE);
    EXPECT(ketama_ring_create("libmemcached", "no_such_hash", &r), KETAMA_STATUS_UNKNOWN_HASH);
    EXPECT(ketama_ring_create("libmemcached", "\xff\xfe", &r), KETAMA_STATUS_INVALID_UTF8);
    EXPECT(ketama_ring_create("lib\xc3", NULL, &r), KETAMA_STATUS_INVALID_UTF8);
    CHECK(r == sentinel);
    /* crc32 is resolved by profiles that know it, ambiguous for ketama_hash */
    r = make("twemproxy", "crc32");
    ketama_ring_free(r);
    r = make("php-memcached", NULL);
    ketama_ring_free(r);
    r = make("spymemcached", "FNV1A_32_HASH");
    ketama_ring_free(r);
    ketama_ring_free(NULL);
}

static void test_hash(void) {
    uint32_t h = 7;
    EXPECT(ketama_hash("md5", S("apple"), &h), KETAMA_STATUS_OK);
    EXPECT(h, 3195025439u);
    EXPECT(ketama_hash("KETAMA_HASH", S("apple"), &h), KETAMA_STATUS_OK);
    EXPECT(h, 3195025439u);
    EXPECT(ketama_hash("one_at_a_time", S("apple"), &h), KETAMA_STATUS_OK);
    EXPECT(h, 2297466611u);
    EXPECT(ketama_hash("md5", NULL, 0, &h), KETAMA_STATUS_OK); /* empty key, NULL allowed */
    h = 7;
    EXPECT(ketama_hash("crc32", S("apple"), &h), KETAMA_STATUS_AMBIGUOUS_HASH);
    EXPECT(ketama_hash("nope", S("apple"), &h), KETAMA_STATUS_UNKNOWN_HASH);
    EXPECT(ketama_hash(NULL, S("apple"), &h), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_hash("md5", NULL, 3, &h), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_hash("md5", S("apple"), NULL), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_hash("\xff", S("apple"), &h), KETAMA_STATUS_INVALID_UTF8);
    CHECK(h == 7);
}

static void test_ring(void) {
    ketama_ring *r = make("libketama", NULL);
    const char *label = NULL, *labels[4];
    size_t len = 99, lens[4], count = 99, i, n;
    uint32_t w = 0, points[2000];
    uint32_t owners[2000];
    const char *keys[3] = {"a", "b", "c"};
    size_t key_lens[3] = {1, 1, 1};

    /* empty ring */
    EXPECT(ketama_ring_lookup(r, S("k"), &label, &len), KETAMA_STATUS_EMPTY_RING);
    CHECK(label == NULL && len == 99);
    EXPECT(ketama_ring_lookup_index(r, S("k")), -(int64_t)KETAMA_STATUS_EMPTY_RING);
    EXPECT(ketama_ring_lookup_str(r, "k"), -(int64_t)KETAMA_STATUS_EMPTY_RING);
    {
        char out[10];
        size_t out_len = 7, refused = 7;
        EXPECT(ketama_ring_lookup_joined(r, S("a\nb"), '\n', out, sizeof out, &out_len, &refused),
               KETAMA_STATUS_EMPTY_RING);
        CHECK(out_len == 7 && refused == 7);
    }
    EXPECT(ketama_ring_lookup_n(r, S("k"), 2, labels, lens, &count), KETAMA_STATUS_EMPTY_RING);
    EXPECT(ketama_ring_lookup_many(r, keys, key_lens, 3, labels, lens), KETAMA_STATUS_EMPTY_RING);
    {
        uint32_t idx[3] = {7, 7, 7};
        EXPECT(ketama_ring_lookup_packed(r, "abc", key_lens, 3, idx), KETAMA_STATUS_EMPTY_RING);
        CHECK(idx[0] == 7 && idx[2] == 7);
    }
    EXPECT(ketama_ring_server_count(r, &n), KETAMA_STATUS_OK);
    EXPECT(n, 0u);

    /* adding */
    EXPECT(ketama_ring_add(r, S("10.0.1.1:11211"), 600), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(r, S("10.0.1.2:11211"), 300), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(r, S("10.0.1.1:11211"), 1), KETAMA_STATUS_DUPLICATE_SERVER);
    EXPECT(ketama_ring_add(r, S("10.0.1.3:notaport"), 1), KETAMA_STATUS_BAD_LABEL);
    EXPECT(ketama_ring_add(r, S(""), 1), KETAMA_STATUS_BAD_LABEL);
    EXPECT(ketama_ring_add(r, S("10.0.1.\xff:1"), 1), KETAMA_STATUS_INVALID_UTF8);
    EXPECT(ketama_ring_add(r, NULL, 0, 1), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_add(NULL, S("10.0.1.9:1"), 1), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_add_named(r, S("10.0.1.3:11211"), 200, "\xff", 1), KETAMA_STATUS_INVALID_UTF8);
    EXPECT(ketama_ring_add_named(r, S("10.0.1.3:11211"), 200, NULL, 0), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_server_count(r, &n), KETAMA_STATUS_OK);
    EXPECT(n, 3u);

    /* lookups (libketama: the golden pairs from docs/client-notes.md section 5 need the 8-server file;
     * here just consistency) */
    EXPECT(ketama_ring_lookup(r, S("user:1"), &label, &len), KETAMA_STATUS_OK);
    CHECK(label != NULL && len == 14 && label[len] == '\0' && strncmp(label, "10.0.1.", 7) == 0);
    EXPECT(ketama_ring_lookup(r, NULL, 0, &label, &len), KETAMA_STATUS_OK); /* empty key */
    EXPECT(ketama_ring_lookup(r, NULL, 1, &label, &len), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup(r, S("k"), NULL, &len), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup(r, S("k"), &label, NULL), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup(NULL, S("k"), &label, &len), KETAMA_STATUS_NULL_ARGUMENT);

    /* lookup by index: the server ketama_ring_lookup names, or minus a status */
    for (i = 0; i < 200; i++) {
        char key[32];
        const char *l2;
        size_t n2;
        int64_t at;
        snprintf(key, sizeof key, "user:%u:profile", (unsigned)i);
        EXPECT(ketama_ring_lookup(r, S(key), &label, &len), KETAMA_STATUS_OK);
        at = ketama_ring_lookup_index(r, S(key));
        CHECK(at >= 0 && at < 3);
        EXPECT(ketama_ring_server(r, (size_t)at, &l2, &n2, NULL), KETAMA_STATUS_OK);
        CHECK(l2 == label && n2 == len);
    }
    CHECK(ketama_ring_lookup_index(r, NULL, 0) >= 0); /* empty key */
    EXPECT(ketama_ring_lookup_index(r, NULL, 1), -(int64_t)KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup_index(NULL, S("k")), -(int64_t)KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup_index(r, "k", SIZE_MAX), -(int64_t)KETAMA_STATUS_KEY_REJECTED);
    /* lookup_str: NUL-terminated key, (length << 32) | index */
    {
        int64_t at = ketama_ring_lookup_index(r, S("user:7:profile"));
        CHECK(at >= 0);
        EXPECT(ketama_ring_lookup_str(r, "user:7:profile"), (int64_t)14 << 32 | at);
        EXPECT(ketama_ring_lookup_str(r, "user:7:profile\0tail"), (int64_t)14 << 32 | at);
    }
    CHECK(ketama_ring_lookup_str(r, "") == ketama_ring_lookup_index(r, NULL, 0));
    EXPECT(ketama_ring_lookup_str(r, NULL), -(int64_t)KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup_str(NULL, "k"), -(int64_t)KETAMA_STATUS_NULL_ARGUMENT);

    EXPECT(ketama_ring_lookup_n(r, S("user:1"), 4, labels, lens, &count), KETAMA_STATUS_OK);
    EXPECT(count, 3u);
    EXPECT(ketama_ring_lookup(r, S("user:1"), &label, &len), KETAMA_STATUS_OK);
    CHECK(labels[0] == label);
    CHECK(labels[1] != labels[0] && labels[2] != labels[1] && labels[2] != labels[0]);
    EXPECT(ketama_ring_lookup_n(r, S("user:1"), 0, NULL, NULL, &count), KETAMA_STATUS_OK);
    EXPECT(count, 0u);
    EXPECT(ketama_ring_lookup_n(r, S("user:1"), 2, NULL, lens, &count), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup_n(r, S("user:1"), 2, labels, lens, NULL), KETAMA_STATUS_NULL_ARGUMENT);

    EXPECT(ketama_ring_lookup_many(r, keys, key_lens, 3, labels, lens), KETAMA_STATUS_OK);
    for (i = 0; i < 3; i++) {
        EXPECT(ketama_ring_lookup(r, keys[i], 1, &label, &len), KETAMA_STATUS_OK);
        CHECK(labels[i] == label && lens[i] == len);
    }
    EXPECT(ketama_ring_lookup_many(r, keys, NULL, 3, labels, lens), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_lookup_many(r, NULL, NULL, 0, NULL, NULL), KETAMA_STATUS_OK);

    /* packed lookups: keys back to back, server indexes out, same answers */
    {
        uint32_t idx[3] = {0, 0, 0};
        size_t packed_lens[3] = {1, 0, 2};
        const char *l2;
        size_t n2;
        EXPECT(ketama_ring_lookup_packed(r, "abc", packed_lens, 3, idx), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_lookup(r, "bc", 2, &label, &len), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_server(r, idx[2], &l2, &n2, NULL), KETAMA_STATUS_OK);
        CHECK(l2 == label);
        EXPECT(ketama_ring_lookup(r, "a", 1, &label, &len), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_server(r, idx[0], &l2, &n2, NULL), KETAMA_STATUS_OK);
        CHECK(l2 == label);
        EXPECT(ketama_ring_lookup_packed(r, NULL, packed_lens, 3, idx), KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_packed(r, "abc", NULL, 3, idx), KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_packed(r, "abc", packed_lens, 3, NULL), KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_packed(NULL, "abc", packed_lens, 3, idx), KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_packed(r, NULL, NULL, 0, NULL), KETAMA_STATUS_OK);
    }

    /* joined lookups: keys split at a separator byte in, labels joined by it out */
    {
        char out[200];
        size_t out_len = 77, refused = 77;
        const char *l0, *l1, *l2;
        size_t n0, n1, n2;
        char want[200];
        EXPECT(ketama_ring_lookup(r, S("user:1"), &l0, &n0), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_lookup(r, S("b"), &l1, &n1), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_lookup(r, NULL, 0, &l2, &n2), KETAMA_STATUS_OK); /* the empty key */
        snprintf(want, sizeof want, "%.*s\n%.*s\n%.*s", (int)n0, l0, (int)n1, l1, (int)n2, l2);
        EXPECT(ketama_ring_lookup_joined(r, S("user:1\nb\n"), '\n', out, sizeof out, &out_len, &refused),
               KETAMA_STATUS_OK);
        CHECK(out_len == strlen(want) && memcmp(out, want, out_len) == 0 && refused == 0);
        EXPECT(ketama_ring_lookup_joined(r, "user:1\0b", 8, 0, out, sizeof out, &out_len, &refused),
               KETAMA_STATUS_OK);
        CHECK(out_len == n0 + 1 + n1 && memcmp(out, l0, n0) == 0 && out[n0] == 0 && memcmp(out + n0 + 1, l1, n1) == 0);
        /* no key at all; too little room (nothing written); bad pointers */
        EXPECT(ketama_ring_lookup_joined(r, NULL, 0, 0, NULL, 0, &out_len, &refused), KETAMA_STATUS_OK);
        CHECK(out_len == 0 && refused == 0);
        out_len = 77;
        EXPECT(ketama_ring_lookup_joined(r, "user:1\0b", 8, 0, out, n0 + n1, &out_len, &refused),
               KETAMA_STATUS_INDEX_OUT_OF_RANGE);
        CHECK(out_len == 77);
        EXPECT(ketama_ring_lookup_joined(r, "user:1\0b", 8, 0, out, n0 + n1 + 1, &out_len, &refused),
               KETAMA_STATUS_OK);
        EXPECT(ketama_ring_lookup_joined(r, NULL, 3, 0, out, sizeof out, &out_len, &refused),
               KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_joined(r, S("k"), 0, NULL, 10, &out_len, &refused), KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_joined(r, S("k"), 0, out, sizeof out, NULL, &refused), KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_joined(r, S("k"), 0, out, sizeof out, &out_len, NULL), KETAMA_STATUS_NULL_ARGUMENT);
        EXPECT(ketama_ring_lookup_joined(NULL, S("k"), 0, out, sizeof out, &out_len, &refused),
               KETAMA_STATUS_NULL_ARGUMENT);
    }

    /* key hash, servers, points */
    EXPECT(ketama_ring_key_hash(r, S("apple"), &w), KETAMA_STATUS_OK);
    EXPECT(w, 3195025439u);
    EXPECT(ketama_ring_key_hash(r, S("apple"), NULL), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_server(r, 1, &label, &len, &w), KETAMA_STATUS_OK);
    CHECK(len == 14 && memcmp(label, "10.0.1.2:11211", 14) == 0 && w == 300);
    EXPECT(ketama_ring_server(r, 0, &label, &len, NULL), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_server(r, 3, &label, &len, &w), KETAMA_STATUS_INDEX_OUT_OF_RANGE);
    EXPECT(ketama_ring_point_count(r, &n), KETAMA_STATUS_OK);
    CHECK(n > 0 && n <= 3 * 160);
    EXPECT(ketama_ring_points(r, points, owners, 2000, &count), KETAMA_STATUS_OK);
    EXPECT(count, n);
    for (i = 1; i < count; i++) {
        CHECK(points[i - 1] <= points[i]);
        CHECK(owners[i] < 3);
    }
    EXPECT(ketama_ring_points(r, points, NULL, 5, &count), KETAMA_STATUS_OK);
    EXPECT(count, 5u);
    EXPECT(ketama_ring_points(r, NULL, NULL, 5, &count), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_point_count(r, NULL), KETAMA_STATUS_NULL_ARGUMENT);

    /* weights, removal; labels stay valid after changes */
    EXPECT(ketama_ring_lookup(r, S("user:1"), &label, &len), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_set_weight(r, S("10.0.1.2:11211"), 0), KETAMA_STATUS_BAD_WEIGHT);
    EXPECT(ketama_ring_set_weight(r, S("10.0.9.9:11211"), 5), KETAMA_STATUS_MISSING_SERVER);
    EXPECT(ketama_ring_set_weight(r, S("10.0.1.2:11211"), 5), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_remove(r, S("10.0.9.9:11211")), KETAMA_STATUS_MISSING_SERVER);
    EXPECT(ketama_ring_remove(r, S("\xff")), KETAMA_STATUS_INVALID_UTF8);
    EXPECT(ketama_ring_remove(r, NULL, 3), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_remove(r, S("10.0.1.1:11211")), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_remove(r, S("10.0.1.2:11211")), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_remove(r, S("10.0.1.3:11211")), KETAMA_STATUS_OK);
    CHECK(strncmp(label, "10.0.1.", 7) == 0 && label[len] == '\0'); /* still readable */
    {
        /* a label that comes back reuses its stored copy: same pointer, still valid */
        const char *again = NULL;
        size_t again_len = 0;
        char copy[64];
        memcpy(copy, label, len + 1);
        EXPECT(ketama_ring_add(r, label, len, 1), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_lookup(r, S("user:1"), &again, &again_len), KETAMA_STATUS_OK);
        CHECK(again == label && again_len == len && strcmp(again, copy) == 0);
        EXPECT(ketama_ring_remove(r, copy, len), KETAMA_STATUS_OK);
        CHECK(strcmp(label, copy) == 0);
    }
    EXPECT(ketama_ring_lookup(r, S("user:1"), &label, &len), KETAMA_STATUS_EMPTY_RING);
    EXPECT(ketama_ring_set_weight(NULL, S("x"), 1), KETAMA_STATUS_NULL_ARGUMENT);
    ketama_ring_free(r);
}

static void test_add_many(void) {
    ketama_ring *r = make("twemproxy", NULL);
    const char *labels[3] = {"10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.1:11211"};
    const char *names[3] = {"alpha", NULL, "gamma"};
    size_t lens[3] = {14, 14, 14}, name_lens[3] = {5, 0, 5}, n = 9, failed = 99;
    uint32_t weights[3] = {1, 0, 1};
    /* twemproxy refuses weight 0; all or nothing */
    EXPECT(ketama_ring_add_many(r, labels, lens, weights, names, name_lens, 2, &failed), KETAMA_STATUS_BAD_WEIGHT);
    EXPECT(failed, 1u); /* the server to blame, by its index in labels */
    EXPECT(ketama_ring_server_count(r, &n), KETAMA_STATUS_OK);
    EXPECT(n, 0u);
    /* duplicates inside one batch: the later one is blamed */
    EXPECT(ketama_ring_add_many(r, labels, lens, NULL, names, name_lens, 3, &failed), KETAMA_STATUS_DUPLICATE_SERVER);
    EXPECT(failed, 2u);
    failed = 99;
    EXPECT(ketama_ring_add_many(r, labels, lens, NULL, names, name_lens, 2, &failed), KETAMA_STATUS_OK);
    EXPECT(failed, 99u); /* written only on failure */
    EXPECT(ketama_ring_server_count(r, &n), KETAMA_STATUS_OK);
    EXPECT(n, 2u);
    /* a duplicate of a server already on the ring, and a bad label: blamed by index */
    {
        const char *more[3] = {"10.0.0.3:11211", "10.0.0.4:11211", "10.0.0.2:11211"};
        const char *bad[2] = {"10.0.0.5:11211", "10.0.0.6:port"};
        size_t more_lens[3] = {14, 14, 14}, bad_lens[2] = {14, 13};
        EXPECT(ketama_ring_add_many(r, more, more_lens, NULL, NULL, NULL, 3, &failed), KETAMA_STATUS_DUPLICATE_SERVER);
        EXPECT(failed, 2u);
        EXPECT(ketama_ring_add_many(r, bad, bad_lens, NULL, NULL, NULL, 2, &failed), KETAMA_STATUS_BAD_LABEL);
        EXPECT(failed, 1u);
        EXPECT(ketama_ring_server_count(r, &n), KETAMA_STATUS_OK);
        EXPECT(n, 2u);
    }
    EXPECT(ketama_ring_add_many(r, labels, NULL, NULL, NULL, NULL, 1, NULL), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_add_many(NULL, labels, lens, NULL, NULL, NULL, 1, NULL), KETAMA_STATUS_NULL_ARGUMENT);
    EXPECT(ketama_ring_add_many(r, NULL, NULL, NULL, NULL, NULL, 0, NULL), KETAMA_STATUS_OK);
    ketama_ring_free(r);
}

static void test_profile_errors(void) {
    const char *label;
    size_t len;
    ketama_ring *r = make("xmemcached", "KETAMA_HASH");
    EXPECT(ketama_ring_add(r, S("10.0.0.1:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(r, S("10.0.0.2:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_lookup(r, "", 0, &label, &len), KETAMA_STATUS_KEY_REJECTED);
    EXPECT(ketama_ring_lookup_index(r, "", 0), -(int64_t)KETAMA_STATUS_KEY_REJECTED);
    EXPECT(ketama_ring_lookup_str(r, ""), -(int64_t)KETAMA_STATUS_KEY_REJECTED);
    {
        /* a refused key in a joined batch: an empty label, counted */
        char out[100];
        size_t out_len = 0, refused = 0;
        EXPECT(ketama_ring_lookup(r, S("k"), &label, &len), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_lookup_joined(r, "\0k", 2, 0, out, sizeof out, &out_len, &refused), KETAMA_STATUS_OK);
        CHECK(refused == 1 && out_len == 1 + len && out[0] == 0 && memcmp(out + 1, label, len) == 0);
    }
    ketama_ring_free(r);

    r = make("xmemcached-nginx", NULL);
    EXPECT(ketama_ring_add(r, S("cache1.example:11211"), 1), KETAMA_STATUS_UNSUPPORTED);
    ketama_ring_free(r);

    /* clients that read the key itself (or a 128-bit hash): a key hash alone places nothing */
    {
        const char *needs_key[] = {"mcrouter-ch3", "pymemcache", "uhashring"};
        for (size_t i = 0; i < sizeof needs_key / sizeof needs_key[0]; i++) {
            uint32_t idx[2];
            size_t count = 99;
            r = make(needs_key[i], NULL);
            EXPECT(ketama_ring_add(r, S("10.0.0.1:11211"), 1), KETAMA_STATUS_OK);
            EXPECT(ketama_ring_add(r, S("10.0.0.2:11211"), 1), KETAMA_STATUS_OK);
            EXPECT(ketama_ring_lookup_hash(r, 7, 2, idx, &count), KETAMA_STATUS_NEEDS_KEY);
            CHECK(count == 99);
            EXPECT(ketama_ring_lookup(r, S("k"), &label, &len), KETAMA_STATUS_OK);
            ketama_ring_free(r);
        }
    }

    /* the flexihash-seed class returns null for some keys (tests/vectors/flexihash-seed-one.json) */
    r = make("flexihash-seed", NULL);
    EXPECT(ketama_ring_add(r, S("10.0.0.1:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_lookup(r, S("apple"), &label, &len), KETAMA_STATUS_NO_SERVER);
    EXPECT(ketama_ring_lookup_index(r, S("apple")), -(int64_t)KETAMA_STATUS_NO_SERVER);
    ketama_ring_free(r);
}

/* A length whose byte range cannot exist (SIZE_MAX, or any length above PTRDIFF_MAX)
 * is refused with a status before a byte is read, never a segfault; the ring is unchanged. */
static void test_impossible_lengths(void) {
    const char *profiles[] = {"libketama", "jump", "modula", "spymemcached"};
    size_t i;
    uint32_t h = 7;
    EXPECT(ketama_hash("md5", "k", SIZE_MAX, &h), KETAMA_STATUS_KEY_REJECTED);
    EXPECT(ketama_hash("md5", "k", (size_t)PTRDIFF_MAX + 1, &h), KETAMA_STATUS_KEY_REJECTED);
    CHECK(h == 7);
    for (i = 0; i < sizeof profiles / sizeof *profiles; i++) {
        ketama_ring *r = make(profiles[i], NULL);
        const char *label = NULL;
        size_t len = 0, count = 0, n = 0;
        const char *labels[2];
        size_t lens[2];
        EXPECT(ketama_ring_add(r, S("10.0.0.1:11211"), 1), KETAMA_STATUS_OK);
        EXPECT(ketama_ring_lookup(r, "k", SIZE_MAX, &label, &len), KETAMA_STATUS_KEY_REJECTED);
        CHECK(label == NULL);
        EXPECT(ketama_ring_lookup_n(r, "k", SIZE_MAX, 2, labels, lens, &n), KETAMA_STATUS_KEY_REJECTED);
        EXPECT(ketama_ring_key_hash(r, "k", SIZE_MAX, &h), KETAMA_STATUS_KEY_REJECTED);
        EXPECT(ketama_ring_add(r, "10.0.0.2:11211", SIZE_MAX, 1), KETAMA_STATUS_BAD_LABEL);
        EXPECT(ketama_ring_remove(r, "10.0.0.1:11211", SIZE_MAX), KETAMA_STATUS_BAD_LABEL);
        EXPECT(ketama_ring_set_weight(r, "10.0.0.1:11211", SIZE_MAX, 2), KETAMA_STATUS_BAD_LABEL);
        EXPECT(ketama_ring_server_count(r, &count), KETAMA_STATUS_OK);
        EXPECT(count, 1);
        EXPECT(ketama_ring_lookup(r, S("k"), &label, &len), KETAMA_STATUS_OK);
        CHECK(len == strlen("10.0.0.1:11211") && memcmp(label, "10.0.0.1:11211", len) == 0);
        {
            uint32_t pos[1], srv[1];
            EXPECT(ketama_ring_points(r, pos, srv, SIZE_MAX, &count), KETAMA_STATUS_INDEX_OUT_OF_RANGE);
        }
        ketama_ring_free(r);
    }
}

static void test_panic(void) {
    EXPECT(ketama_test_force_panic(0), KETAMA_STATUS_OK);
    EXPECT(ketama_test_force_panic(1), KETAMA_STATUS_PANIC);
    /* the library still works afterwards */
    test_hash();
}

/* Readers look up while a writer adds and removes servers. */
static ketama_ring *shared;

static void *reader(void *arg) {
    int i;
    char key[32];
    (void)arg;
    for (i = 0; i < 3000; i++) {
        const char *label = NULL;
        size_t len = 0;
        ketama_status st;
        sprintf(key, "key-%d", i);
        st = ketama_ring_lookup(shared, key, strlen(key), &label, &len);
        CHECK(st == KETAMA_STATUS_OK);
        CHECK(st != KETAMA_STATUS_OK || (len >= 9 && memcmp(label, "10.0.0.", 7) == 0));
    }
    return NULL;
}

static void *writer(void *arg) {
    int i;
    char label[32];
    (void)arg;
    for (i = 0; i < 30; i++) {
        sprintf(label, "10.0.0.%d:11211", 100 + i % 5);
        if (ketama_ring_add(shared, label, strlen(label), 1) != KETAMA_STATUS_OK) {
            CHECK(ketama_ring_remove(shared, label, strlen(label)) == KETAMA_STATUS_OK);
        }
    }
    return NULL;
}

static void test_threads(void) {
    pthread_t t[4];
    int i;
    shared = make("libmemcached-weighted", NULL);
    EXPECT(ketama_ring_add(shared, S("10.0.0.1:11211"), 1), KETAMA_STATUS_OK);
    EXPECT(ketama_ring_add(shared, S("10.0.0.2:11211"), 1), KETAMA_STATUS_OK);
    for (i = 0; i < 3; i++) {
        pthread_create(&t[i], NULL, reader, NULL);
    }
    pthread_create(&t[3], NULL, writer, NULL);
    for (i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
    }
    ketama_ring_free(shared);
}

int main(void) {
    test_statuses();
    test_create_errors();
    test_hash();
    test_ring();
    test_add_many();
    test_profile_errors();
    test_impossible_lengths();
    test_panic();
    test_threads();
    printf("api checks: %d, failures: %d\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
