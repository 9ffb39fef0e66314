/* The shared bad-input matrix (tests/bad-input.json) through the C API: each case
 * returns its status (NULL arguments and SIZE_MAX lengths included), never crashes, and a
 * failed call leaves the ring as it was (servers and points compared before and after).
 * The same table is read by the Rust, Python and PHP tests.
 * The error names are spec/errors.json's (whose statuses and texts must be the library's).
 *   test_bad_input [tests/bad-input.json [spec/errors.json]] */
#include <ketama.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"

/* A byte string of the table (string, {"hex"} or {"repeat","times","then"}), malloc'd with a
 * NUL after its `*len` bytes. */
static char *bytes_of(const json *v, size_t *len) {
    if (v->type == JSON_STRING) {
        char *s = malloc(v->len + 1);
        memcpy(s, v->str, v->len + 1);
        *len = v->len;
        return s;
    }
    const json *hex = json_get(v, "hex");
    if (hex) {
        size_t n = hex->len / 2;
        char *s = malloc(n + 1);
        for (size_t i = 0; i < n; i++) {
            unsigned b;
            sscanf(hex->str + 2 * i, "%2x", &b);
            s[i] = (char)b;
        }
        s[n] = 0;
        *len = n;
        return s;
    }
    const json *rep = json_get(v, "repeat"), *then = json_get(v, "then");
    size_t times = (size_t)json_get(v, "times")->number, tl = then ? then->len : 0;
    size_t n = rep->len * times + tl;
    char *s = malloc(n + 1);
    for (size_t i = 0; i < times; i++) memcpy(s + i * rep->len, rep->str, rep->len);
    if (then) memcpy(s + rep->len * times, then->str, tl);
    s[n] = 0;
    *len = n;
    return s;
}

typedef struct {
    char **labels;
    size_t *lens;
    uint32_t *weights;
    size_t count;
} server_list;

static server_list servers_of(const json *v) {
    server_list l = {0};
    const json *count = json_get(v, "count");
    size_t n = count ? (size_t)count->number : v->count;
    l.labels = calloc(n + 1, sizeof(char *));
    l.lens = calloc(n + 1, sizeof(size_t));
    l.weights = calloc(n + 1, sizeof(uint32_t));
    l.count = n;
    for (size_t i = 0; i < n; i++) {
        if (count) {
            const char *f = json_get(v, "format")->str, *at = strstr(f, "{i}");
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s%zu%s", (int)(at - f), f, i + 1, at + 3);
            l.lens[i] = strlen(buf);
            l.labels[i] = malloc(l.lens[i] + 1);
            memcpy(l.labels[i], buf, l.lens[i] + 1);
            l.weights[i] = 1;
        } else {
            const json *e = &v->items[i];
            l.weights[i] = 1;
            if (e->type == JSON_ARRAY) {
                l.weights[i] = (uint32_t)e->items[1].number;
                e = &e->items[0];
            }
            l.labels[i] = bytes_of(e, &l.lens[i]);
        }
    }
    return l;
}

static void servers_free(server_list *l) {
    for (size_t i = 0; i < l->count; i++) free(l->labels[i]);
    free(l->labels);
    free(l->lens);
    free(l->weights);
}

/* The ring's servers (label, weight) and points, serialized for comparison. */
static char *snapshot(const struct ketama_ring *r, size_t *len) {
    size_t n = 0, pts = 0, cap = 64, at = 0;
    ketama_ring_server_count(r, &n);
    ketama_ring_point_count(r, &pts);
    for (size_t i = 0; i < n; i++) {
        const char *l;
        size_t ll;
        uint32_t w;
        ketama_ring_server(r, i, &l, &ll, &w);
        cap += ll + 16;
    }
    cap += pts * 8;
    char *buf = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        const char *l;
        size_t ll;
        uint32_t w;
        ketama_ring_server(r, i, &l, &ll, &w);
        memcpy(buf + at, &ll, sizeof ll);
        memcpy(buf + at + sizeof ll, &w, sizeof w);
        memcpy(buf + at + sizeof ll + sizeof w, l, ll);
        at += sizeof ll + sizeof w + ll;
    }
    if (pts) {
        uint32_t *pos = malloc(pts * 4), *own = malloc(pts * 4);
        size_t got = 0;
        ketama_ring_points(r, pos, own, pts, &got);
        memcpy(buf + at, pos, got * 4);
        memcpy(buf + at + got * 4, own, got * 4);
        at += got * 8;
        free(pos);
        free(own);
    }
    *len = at;
    return buf;
}

/* Every failure status by name: spec/errors.json (generated from ffi-c/src/status.rs and
 * core/src/error.rs), read by main. */
static const json *ERRORS;

static int status_of(const json *name) {
    if (!name || name->type == JSON_NULL) return KETAMA_STATUS_OK;
    for (size_t i = 0; i < ERRORS->count; i++)
        if (strcmp(json_get(&ERRORS->items[i], "name")->str, name->str) == 0)
            return (int)json_get(&ERRORS->items[i], "status")->number;
    fprintf(stderr, "unknown error name %s\n", name->str);
    return -1;
}

/* The library's own table is spec/errors.json's: each status's text is its message, and a
 * value past the list is unknown. */
static void statuses_are_the_lists(void) {
    for (size_t i = 0; i < ERRORS->count; i++) {
        const json *e = &ERRORS->items[i];
        int st = (int)json_get(e, "status")->number;
        checks++;
        if (strcmp(ketama_status_str(st), json_get(e, "message")->str) != 0) {
            failures++;
            fprintf(stderr, "status %d (%s): the library says \"%s\"\n", st, json_get(e, "name")->str,
                    ketama_status_str(st));
        }
    }
    checks++;
    if (strcmp(ketama_status_str((int)ERRORS->count + 1), "unknown status") != 0) {
        failures++;
        fprintf(stderr, "status %d is past spec/errors.json but known to the library\n", (int)ERRORS->count + 1);
    }
}

static int runs_in_c(const json *c) {
    const json *langs = json_get(c, "langs");
    if (!langs) return 1;
    for (size_t i = 0; i < langs->count; i++)
        if (strcmp(langs->items[i].str, "c") == 0) return 1;
    return 0;
}

static int is(const json *v, const char *s) { return v && v->type == JSON_STRING && strcmp(v->str, s) == 0; }

/* Runs one case; returns the status of the call under test (or of ketama_ring_create). */
static int run(const json *c, const json *base) {
    const json *nul = json_get(c, "c_null"), *big = json_get(c, "c_len"), *op = json_get(c, "op");
    const json *pj = json_get(c, "profile"), *hj = json_get(c, "hash");
    size_t pl = 0, hl = 0;
    json dflt = {.type = JSON_STRING, .str = (char *)"libketama", .len = 9};
    char *profile = bytes_of(pj ? pj : &dflt, &pl);
    char *hash = hj && hj->type != JSON_NULL ? bytes_of(hj, &hl) : NULL;
    struct ketama_ring *r = NULL;
    int st = ketama_ring_create(is(nul, "profile") ? NULL : profile, hash, &r);
    free(profile);
    free(hash);
    if (st != KETAMA_STATUS_OK || is(op, "create")) {
        ketama_ring_free(r);
        return st;
    }
    const json *sj = json_get(c, "servers");
    server_list init = servers_of(sj ? sj : base);
    CHECK(ketama_ring_add_many(r, (const char *const *)init.labels, init.lens, init.weights, NULL, NULL,
                               init.count, NULL) == KETAMA_STATUS_OK);
    servers_free(&init);
    size_t before_len, after_len;
    char *before = snapshot(r, &before_len);
    const json *lj = json_get(c, "label"), *kj = json_get(c, "key"), *wj = json_get(c, "weight");
    size_t len = 0;
    char *text = lj ? bytes_of(lj, &len) : kj ? bytes_of(kj, &len) : NULL;
    const char *arg = is(nul, "label") || is(nul, "key") ? NULL : text;
    if (is(big, "label") || is(big, "key")) len = SIZE_MAX;
    uint32_t weight = wj ? (uint32_t)wj->number : 1;
    struct ketama_ring *rr = is(nul, "ring") ? NULL : r;
    if (is(op, "lookup")) {
        const char *label = NULL;
        size_t label_len = 0;
        st = ketama_ring_lookup(rr, arg, len, is(nul, "out") ? NULL : &label, &label_len);
    } else if (is(op, "add")) {
        st = ketama_ring_add(rr, arg, len, weight);
    } else if (is(op, "remove")) {
        st = ketama_ring_remove(rr, arg, len);
    } else if (is(op, "set_weight")) {
        st = ketama_ring_set_weight(rr, arg, len, weight);
    } else if (is(op, "add_many")) {
        server_list add = servers_of(json_get(c, "add"));
        st = ketama_ring_add_many(rr, (const char *const *)add.labels, add.lens, add.weights, NULL, NULL, add.count, NULL);
        servers_free(&add);
    } else {
        fprintf(stderr, "unknown op %s\n", op->str);
        st = -1;
    }
    free(text);
    char *after = snapshot(r, &after_len);
    if (st != KETAMA_STATUS_OK) {
        CHECK(before_len == after_len && memcmp(before, after, before_len) == 0);
    }
    free(before);
    free(after);
    ketama_ring_free(r);
    return st;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "tests/bad-input.json";
    const char *errors_path = argc > 2 ? argv[2] : "spec/errors.json";
    size_t len, errors_len;
    char *text = json_read_file(path, &len), *errors_text = json_read_file(errors_path, &errors_len);
    json t, errors;
    if (!text || json_parse(text, len, &t) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        return 2;
    }
    if (!errors_text || json_parse(errors_text, errors_len, &errors) != 0) {
        fprintf(stderr, "cannot read %s\n", errors_path);
        return 2;
    }
    ERRORS = json_get(&errors, "errors");
    statuses_are_the_lists();
    const json *cases = json_get(&t, "cases"), *base = json_get(&t, "base");
    int ran = 0;
    for (size_t i = 0; i < cases->count; i++) {
        const json *c = &cases->items[i];
        if (!runs_in_c(c) || is(json_get(c, "op"), "servers_file")) continue;
        const json *expect = json_get(c, "expect"), *e = expect ? json_get(expect, "c") : NULL;
        int want = status_of(e ? e : json_get(c, "error"));
        int got = run(c, base);
        checks++;
        if (got != want) {
            failures++;
            fprintf(stderr, "case %s: status %d (%s), expected %d (%s)\n", json_get(c, "id")->str, got,
                    ketama_status_str(got), want, ketama_status_str(want));
        }
        ran++;
    }
    json_free(&t);
    free(text);
    json_free(&errors);
    free(errors_text);
    printf("bad-input matrix: %d cases, %d checks, %d failed\n", ran, checks, failures);
    return failures == 0 && ran >= 30 ? 0 : 1;
}
