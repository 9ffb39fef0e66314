/* Every bucket vector file (tests/vectors/buckets/, JSON) (recorded from Guava, hash4j, go-jump, go-maglev,
 * go-mpchash and the fliphash crate) through ketama_bucket(), plus its error statuses.
 * Usage: test_buckets FILE...   Prints one PASS/FAIL line per file and a closing summary. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"
#include "ketama.h"

static uint32_t call(const char *name, uint64_t input, uint32_t buckets, ketama_status *st) {
    uint32_t out = UINT32_MAX;
    *st = ketama_bucket(name, strlen(name), input, buckets, &out);
    return out;
}

static void errors(void) {
    ketama_status st;
    uint32_t b = call("guava", UINT64_C(2687259751451158933), 807, &st);
    CHECK(st == KETAMA_STATUS_OK && b == 195);
    b = call("jump", UINT64_C(2687259751451158933), 807, &st);
    CHECK(st == KETAMA_STATUS_OK && b == 576);
    b = call("fliphash", UINT64_MAX, 2147483647u, &st);
    CHECK(st == KETAMA_STATUS_OK && b < 2147483647u);
    b = call("nope", 1, 3, &st);
    CHECK(st == KETAMA_STATUS_UNKNOWN_ALGORITHM && b == UINT32_MAX);
    b = call("jump", 1, 0, &st);
    CHECK(st == KETAMA_STATUS_ZERO_BUCKETS && b == UINT32_MAX);
    b = call("jumpback", 1, 2147483648u, &st);
    CHECK(st == KETAMA_STATUS_TOO_MANY_BUCKETS && b == UINT32_MAX);
    b = call("mpchash-go", 1, 65537, &st);
    CHECK(st == KETAMA_STATUS_TOO_MANY_BUCKETS && b == UINT32_MAX);
    CHECK(ketama_bucket("jump", 4, 1, 3, NULL) == KETAMA_STATUS_NULL_ARGUMENT);
    CHECK(ketama_bucket(NULL, 4, 1, 3, &b) == KETAMA_STATUS_NULL_ARGUMENT);
    CHECK(ketama_bucket("\xff", 1, 1, 3, &b) == KETAMA_STATUS_INVALID_UTF8);
}

static int run_file(const char *path) {
    size_t len = 0;
    char *text = json_read_file(path, &len);
    json doc;
    if (!text || json_parse(text, len, &doc) != 0) {
        printf("FAIL %s: unreadable\n", path);
        free(text);
        return 1;
    }
    const json *algorithm = json_get(&doc, "algorithm");
    const json *cases = json_get(&doc, "cases");
    size_t bad = 0, n = 0;
    if (!algorithm || algorithm->type != JSON_STRING || !cases || cases->type != JSON_ARRAY) {
        printf("FAIL %s: not a bucket vector file\n", path);
        json_free(&doc);
        free(text);
        return 1;
    }
    for (size_t i = 0; i < cases->count; i++) {
        const json *c = &cases->items[i];
        if (c->type != JSON_ARRAY || c->count != 3 || c->items[0].type != JSON_STRING) {
            bad++;
            continue;
        }
        /* The Go tables are rebuilt per call (slow in a debug build): check a 1-in-16 sample. */
        int table = strcmp(algorithm->str, "maglev-go") == 0 || strcmp(algorithm->str, "mpchash-go") == 0;
        if (table && i % 16 != 0) continue;
        errno = 0;
        char *end = NULL;
        uint64_t input = strtoull(c->items[0].str, &end, 10);
        uint32_t buckets = (uint32_t)c->items[1].number;
        uint32_t want = (uint32_t)c->items[2].number;
        ketama_status st;
        uint32_t got = call(algorithm->str, input, buckets, &st);
        n++;
        if (errno != 0 || *end != '\0' || st != KETAMA_STATUS_OK || got != want) {
            if (bad < 5)
                fprintf(stderr, "%s: %s %s/%u: got %u (status %d), want %u\n", path, algorithm->str,
                        c->items[0].str, buckets, got, (int)st, want);
            bad++;
        }
    }
    printf("%s %s: %zu cases, %zu failed\n", bad || n == 0 ? "FAIL" : "PASS", path, n, bad);
    json_free(&doc);
    free(text);
    return bad || n == 0;
}

int main(int argc, char **argv) {
    int files_failed = 0;
    errors();
    for (int i = 1; i < argc; i++) files_failed += run_file(argv[i]);
    printf("bucket files: %d passed, %d failed; API checks: %d, %d failed\n", argc - 1 - files_failed,
           files_failed, checks, failures);
    return files_failed || failures || argc < 2;
}
