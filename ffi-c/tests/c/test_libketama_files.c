/* The hostile libketama servers files of tests/dropin/libketama-files.json through
 * ketama_roll(), checked against what the real libketama did with each
 * (tests/vectors/dropin/libketama-files.json) and against the answer both drop-ins must give
 * (the same cases run through Python's ketama.Continuum in python/tests/test_libketama_files.py).
 * Args: the cases file, then the recorded file. */
#define _POSIX_C_SOURCE 200809L
#include <ketama_compat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json.h"

#include "check.h"

void ketama_md5_digest(char *in_string, unsigned char md5pword[16]);

/* The bytes of a case's file (`text` or `hex`), malloc'd; *len receives their length. */
static char *content(const json *c, size_t *len) {
    const json *text = json_get(c, "text"), *hex = json_get(c, "hex");
    char *out;
    size_t i;
    if (text) {
        *len = text->len;
        out = malloc(text->len + 1);
        memcpy(out, text->str, text->len);
        return out;
    }
    *len = hex->len / 2;
    out = malloc(*len + 1);
    for (i = 0; i < *len; i++) {
        unsigned int b;
        sscanf(hex->str + 2 * i, "%2x", &b);
        out[i] = (char)b;
    }
    return out;
}

/* Where case number `i` lives: a file written under `dir`, or what its `path` names. */
static void place(const json *c, const char *dir, size_t i, char *path) {
    const json *kind = json_get(c, "path");
    if (!kind) {
        size_t len;
        char *data = content(c, &len);
        FILE *f;
        sprintf(path, "%s/servers-%zu", dir, i);
        f = fopen(path, "wb");
        CHECK(f != NULL && fwrite(data, 1, len, f) == len);
        fclose(f);
        free(data);
    } else if (strcmp(kind->str, "directory") == 0) {
        sprintf(path, "%s/servers-%zu.d", dir, i);
        CHECK(mkdir(path, 0700) == 0);
    } else if (strcmp(kind->str, "fifo") == 0) {
        sprintf(path, "%s/servers-%zu.fifo", dir, i);
        CHECK(mkfifo(path, 0600) == 0);
    } else if (strcmp(kind->str, "missing") == 0) {
        sprintf(path, "%s/no-such-servers", dir);
    } else {
        strcpy(path, kind->str);
    }
}

/* `ip` as libketama's mcs.ip holds it (at most 22 bytes), in hex. */
static void ip_hex(const char *ip, char *out) {
    size_t i;
    for (i = 0; i < 22 && ip[i]; i++) {
        sprintf(out + 2 * i, "%02x", (unsigned char)ip[i]);
    }
    out[2 * i] = 0;
}

/* MD5 of every point as "<point> <ip>\n" (the recorded points_md5), in hex. */
static void points_md5(ketama_continuum c, char *out) {
    mcs *points = c->array;
    size_t cap = (size_t)c->numpoints * 40 + 1, n = 0;
    char *text = malloc(cap);
    unsigned char d[16];
    int i;
    for (i = 0; i < c->numpoints; i++) {
        n += (size_t)sprintf(text + n, "%u %.22s\n", points[i].point, points[i].ip);
    }
    text[n] = 0;
    ketama_md5_digest(text, d);
    for (i = 0; i < 16; i++) {
        sprintf(out + 2 * i, "%02x", d[i]);
    }
    free(text);
}

/* The drop-in's error for `want` (FILE replaced by `path`). */
static void expected_error(const char *want, const char *path, char *out) {
    const char *at = strstr(want, "FILE");
    if (!at) {
        strcpy(out, want);
        return;
    }
    sprintf(out, "%.*s%s%s", (int)(at - want), want, path, at + 4);
}

/* Compares a successful roll with libketama's recorded continuum and answers. */
static void same_as_recorded(const char *name, ketama_continuum c, const json *rec, const json *keys) {
    const json *expect = json_get(rec, "expect_hex");
    char md5[33], hex[64];
    size_t k, wrong = 0;
    points_md5(c, md5);
    CHECK(c->numpoints == (int)json_get(rec, "numpoints")->number);
    CHECK(strcmp(md5, json_get(rec, "points_md5")->str) == 0);
    for (k = 0; k < keys->count; k++) {
        mcs *m = ketama_get_server(keys->items[k].str, c);
        ip_hex(m ? m->ip : "", hex);
        wrong += strcmp(hex, expect->items[k].str) != 0;
    }
    CHECK(wrong == 0);
    if (c->numpoints != (int)json_get(rec, "numpoints")->number || wrong) {
        fprintf(stderr, "  case \"%s\": %d points, %zu keys differ from libketama's\n", name,
                c->numpoints, wrong);
    }
}

static void run_case(const json *c, const json *rec, const json *keys, const char *path) {
    const char *name = json_get(c, "name")->str, *outcome = json_get(rec, "outcome")->str;
    const json *dropin = json_get(c, "dropin"), *why = json_get(c, "why");
    ketama_continuum cont = NULL;
    int ok = ketama_roll(&cont, (char *)path);
    if (dropin->type == JSON_STRING) { /* "same": libketama's continuum, bit for bit */
        CHECK(strcmp(outcome, "ok") == 0 && why == NULL);
        CHECK(ok == 1);
        if (ok == 1) {
            same_as_recorded(name, cont, rec, keys);
        } else {
            fprintf(stderr, "  case \"%s\": refused: %s\n", name, ketama_error());
        }
    } else if (json_get(dropin, "error")) {
        char want[512];
        expected_error(json_get(dropin, "error")->str, path, want);
        CHECK(ok == 0 && strcmp(ketama_error(), want) == 0);
        if (ok != 0 || strcmp(ketama_error(), want) != 0) {
            fprintf(stderr, "  case \"%s\": got %d \"%s\", wanted \"%s\"\n", name, ok, ketama_error(), want);
        }
        /* where libketama did not refuse the file too, the case says why we differ */
        CHECK(strcmp(outcome, "refused") == 0 || why != NULL);
    } else { /* {"ok": true}: accepted where libketama crashed */
        CHECK(why != NULL && strcmp(outcome, "ok") != 0);
        CHECK(ok == 1 && cont->numpoints == (int)json_get(c, "points")->number);
    }
    ketama_smoke(cont);
}

int main(int argc, char **argv) {
    size_t len, i;
    char *text;
    json cases, recorded;
    const json *list, *recs, *keys;
    char dir[64] = "/tmp/ketama-files-XXXXXX";
    char (*paths)[256];
    struct timespec settle = {0, 300 * 1000000L};
    if (argc != 3) {
        fprintf(stderr, "usage: %s tests/dropin/libketama-files.json tests/vectors/dropin/libketama-files.json\n", argv[0]);
        return 2;
    }
    text = json_read_file(argv[1], &len);
    if (!text || json_parse(text, len, &cases) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    free(text);
    text = json_read_file(argv[2], &len);
    if (!text || json_parse(text, len, &recorded) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[2]);
        return 2;
    }
    free(text);
    list = json_get(&cases, "cases");
    recs = json_get(&recorded, "cases");
    keys = json_get(&cases, "keys");
    CHECK(list->count == recs->count);
    CHECK(mkdtemp(dir) != NULL);
    paths = calloc(list->count, sizeof *paths);
    for (i = 0; i < list->count; i++) {
        place(&list->items[i], dir, i, paths[i]);
    }
    /* ketama_roll reads a file once it has not changed for 200 ms */
    nanosleep(&settle, NULL);
    for (i = 0; i < list->count && i < recs->count; i++) {
        CHECK(strcmp(json_get(&list->items[i], "name")->str, json_get(&recs->items[i], "name")->str) == 0);
        run_case(&list->items[i], json_get(&recs->items[i], "libketama"), keys, paths[i]);
        if (strncmp(paths[i], dir, strlen(dir)) == 0) {
            remove(paths[i]);
        }
    }
    rmdir(dir);
    free(paths);
    printf("libketama files: %zu cases, %d checks, %d failed\n", list->count, checks, failures);
    json_free(&cases);
    json_free(&recorded);
    return failures ? 1 : 0;
}
