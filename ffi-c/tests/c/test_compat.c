/* The libketama-compatible API (include/ketama_compat.h): file quirks, errors, reload on
 * mtime change, printing, and the libketama-*.json vectors (recorded from the real
 * libketama) through ketama_roll/ketama_get_server. Args: vector files to replay. */
#define _POSIX_C_SOURCE 200809L
#include <ketama_compat.h>

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json.h"

#include "check.h"

static char path[64];

/* Writes `text` to the temp file and moves its mtime by `shift` seconds. */
static void write_file(const char *text, long shift) {
    FILE *f = fopen(path, "wb");
    struct timespec ts[2];
    fputs(text, f);
    fclose(f);
    ts[0].tv_sec = ts[1].tv_sec = time(NULL) + shift;
    ts[0].tv_nsec = ts[1].tv_nsec = 0;
    utimensat(AT_FDCWD, path, ts, 0);
}

/* Rolls `text`; returns the continuum (or NULL) and the result in *ok. */
static ketama_continuum roll(const char *text, long shift, int *ok) {
    ketama_continuum c = NULL;
    write_file(text, shift);
    *ok = ketama_roll(&c, path);
    return c;
}

static void expect_error(const char *text, const char *reason, long shift) {
    int ok;
    char want[256];
    ketama_continuum c = roll(text, shift, &ok);
    CHECK(ok == 0);
    sprintf(want, "%s (line ", reason);
    CHECK(strncmp(ketama_error(), want, strlen(want)) == 0);
    if (strncmp(ketama_error(), want, strlen(want)) != 0) {
        fprintf(stderr, "  got error \"%s\", wanted \"%s...\"\n", ketama_error(), want);
    }
    CHECK(c != NULL && c->numpoints == 0 && c->array == NULL);
    ketama_smoke(c);
}

static int numpoints(const char *text, long shift) {
    int ok, n;
    ketama_continuum c = roll(text, shift, &ok);
    CHECK(ok == 1);
    CHECK(strcmp(ketama_error(), "") == 0);
    n = c ? c->numpoints : -1;
    ketama_smoke(c);
    return n;
}

static void test_layout(void) {
    CHECK(sizeof(mcs) == 28);
    CHECK(offsetof(mcs, ip) == 4);
    CHECK(offsetof(continuum, numpoints) == 0);
    CHECK(offsetof(continuum, array) == 2 * sizeof(void *));
}

static void test_quirks(void) {
    long t = -1000; /* every file gets a new mtime */
    /* the bundled 8-server file has 1264 points (docs/client-notes.md 3.1) */
    CHECK(numpoints("10.0.1.1:11211\t600\n10.0.1.2:11211\t300\n10.0.1.3:11211\t200\n"
                    "10.0.1.4:11211\t350\n10.0.1.5:11211\t1000\n10.0.1.6:11211\t800\n"
                    "10.0.1.7:11211\t950\n10.0.1.8:11211\t100\n", t++) == 1264);
    /* comments, blank lines, spaces, CRLF */
    CHECK(numpoints("# servers\n\n10.0.0.1:11211 100\r\n10.0.0.2:11211\t100\r\n", t++) == 320);
    /* last line without newline: "100" reads as 10 (its last character is dropped) */
    CHECK(numpoints("10.0.0.1:11211\t100\n10.0.0.2:11211\t100", t++) == 40 * 2 * 10 / 110 * 4 + 40 * 2 * 100 / 110 * 4);
    /* 22- and 23-character addresses are accepted (as libketama) and their ip reads back
     * whole (the 23rd character is in the record's padding, then a zero byte) */
    {
        int ok;
        ketama_continuum c = roll("abcdefghijklmnop:11211\t1\n", t++, &ok);
        mcs *m;
        CHECK(ok == 1);
        m = ketama_get_server("k", c);
        CHECK(m != NULL && strlen(m->ip) == 22 && strcmp(m->ip, "abcdefghijklmnop:11211") == 0);
        ketama_smoke(c);
        c = roll("abcdefghijklmnopq:11211\t1\n", t++, &ok);
        CHECK(ok == 1);
        m = ketama_get_server("k", c);
        CHECK(m != NULL && strlen(m->ip) == 23 && strcmp(m->ip, "abcdefghijklmnopq:11211") == 0);
        ketama_smoke(c);
    }
    expect_error("10.0.0.1:11211\t5", "Invalid memory value", t++);
    expect_error("10.0.0.1:11211\t0\n", "Invalid memory value", t++);
    expect_error("10.0.0.1:11211\t-5\n", "Invalid memory value", t++);
    expect_error("10.0.0.1:11211\tabc\n", "Invalid memory value", t++);
    expect_error("10.0.0.1:11211\t99999999999\n", "Memory value above 4294967295", t++);
    expect_error("10.0.0.1:11211\n", "Unable to find delimiter", t++);
    expect_error("   ", "Unable to find delimiter", t++);
    expect_error("abcdefghijklmnopqr:11211\t1\n", "Address longer than 23 characters", t++);
    {
        int ok;
        char want[128];
        ketama_continuum c = roll("# nothing\n", t++, &ok);
        CHECK(ok == 0);
        sprintf(want, "No valid server definitions in file %s", path);
        CHECK(strcmp(ketama_error(), want) == 0);
        ketama_smoke(c);
    }
    {
        ketama_continuum c = (ketama_continuum)&c;
        CHECK(ketama_roll(&c, "/nonexistent/ketama.servers") == 0);
        CHECK(strcmp(ketama_error(), "Invalid filename specified: /nonexistent/ketama.servers") == 0);
        CHECK(c == (ketama_continuum)&c); /* untouched, as libketama */
        CHECK(ketama_roll(NULL, path) == 0);
        CHECK(ketama_roll(&c, NULL) == 0);
    }
    ketama_smoke(NULL);
    CHECK(ketama_get_server("k", NULL) == NULL);
}

static void test_functions(void) {
    unsigned char d[16];
    mcs a, b;
    CHECK(ketama_hashi("apple") == 3195025439u);
    ketama_md5_digest("apple", d);
    /* md5("apple") = 1f3870be274f6c49b3e31a0c6728957f */
    CHECK(d[0] == 0x1f && d[1] == 0x38 && d[2] == 0x70 && d[3] == 0xbe && d[15] == 0x7f);
    a.point = 1;
    b.point = 2;
    CHECK(ketama_compare(&a, &b) == -1 && ketama_compare(&b, &a) == 1 && ketama_compare(&a, &a) == 0);
    CHECK(ketama_compare(NULL, &a) == 0);
    CHECK(ketama_hashi(NULL) == 0);
}

static void pause_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static void test_reload(void) {
    int ok;
    ketama_continuum c = roll("10.0.0.1:11211\t100\n", -500, &ok);
    mcs *before, *after;
    CHECK(ok == 1 && c->numpoints == 160);
    CHECK(*(long long *)c->modtime == (long long)(time(NULL) - 500) ||
          *(long long *)c->modtime == (long long)(time(NULL) - 501));
    before = ketama_get_server("key", c);
    CHECK(before != NULL && strcmp(before->ip, "10.0.0.1:11211") == 0);
    /* same mtime: ketama_roll reuses; new mtime: ketama_get_server reloads within a second */
    write_file("10.0.0.9:11211\t100\n10.0.0.8:11211\t100\n", -400);
    sleep(1);
    (void)ketama_get_server("key", c);
    pause_ms(1100);
    after = ketama_get_server("key", c);
    CHECK(c->numpoints == 320);
    CHECK(after != NULL && strncmp(after->ip, "10.0.0.", 7) == 0 && strcmp(after->ip, "10.0.0.1:11211") != 0);
    CHECK(strcmp(before->ip, "10.0.0.1:11211") == 0); /* old mcs still valid */
    /* a broken file keeps the last good continuum */
    write_file("broken\n", -300);
    pause_ms(1100);
    after = ketama_get_server("key", c);
    CHECK(after != NULL && c->numpoints == 320);
    CHECK(strncmp(ketama_error(), "Unable to find delimiter", 24) == 0);
    ketama_smoke(c);
}

/* A rewrite that keeps the mtime is seen (ctime/size/content); touching the file
 * alone adds no copy; many content changes keep memory bounded (valgrind sees no leak). */
static void test_reload_content(void) {
    int ok, i;
    mcs *held[10];
    char held_ip[10][23];
    unsigned int held_point[10];
    ketama_continuum c = roll("10.0.0.1:11211\t100\n", -500, &ok);
    mcs *m;
    CHECK(ok == 1 && c->numpoints == 160);
    /* same size, same mtime, other content */
    write_file("10.0.0.2:11211\t100\n", -500);
    pause_ms(1100);
    m = ketama_get_server("key", c);
    CHECK(m != NULL && strcmp(m->ip, "10.0.0.2:11211") == 0);
    /* touched only: same continuum (same array) */
    {
        void *array = c->array;
        write_file("10.0.0.2:11211\t100\n", -100);
        pause_ms(1100);
        (void)ketama_get_server("key", c);
        CHECK(c->array == array);
        /* the file's own mtime (what write_file set), not the clock: exact under any load */
        struct stat st;
        CHECK(stat(path, &st) == 0);
        CHECK(*(long long *)c->modtime == (long long)st.st_mtime);
    }
    /* ketama_roll with the same mtime but new content gets the new content */
    {
        ketama_continuum d = roll("10.0.0.3:11211\t100\n", -100, &ok);
        CHECK(ok == 1);
        m = ketama_get_server("key", d);
        CHECK(m != NULL && strcmp(m->ip, "10.0.0.3:11211") == 0);
        ketama_smoke(d);
    }
    /* more content changes than the copies of c->array kept: still serves the newest, and
     * every mcs * handed out on the way stays valid until smoke (a libketama-era program
     * may cache them; valgrind and the string checks catch a freed one) */
    for (i = 0; i < 10; i++) {
        char text[64];
        sprintf(text, "10.0.1.%d:11211\t100\n10.0.2.1:11211\t%d\n", i, 100 + i);
        write_file(text, -50);
        pause_ms(1010);
        m = ketama_get_server("key", c);
        CHECK(m != NULL && strncmp(m->ip, "10.0.", 5) == 0);
        held[i] = ketama_get_server("key-held", c);
        CHECK(held[i] != NULL);
        strcpy(held_ip[i], held[i] ? held[i]->ip : "");
        held_point[i] = held[i] ? held[i]->point : 0;
    }
    CHECK(c->numpoints > 300);
    for (i = 0; i < 10; i++) {
        CHECK(strcmp(held[i]->ip, held_ip[i]) == 0 && held[i]->point == held_point[i]);
    }
    ketama_smoke(c);
}

/* Not a regular file: refused at once with a message saying what it is. */
static void test_not_regular(void) {
    ketama_continuum c = NULL;
    char fifo[64] = "/tmp/ketama-fifo-XXXXXX", dir[64] = "/tmp/ketama-dir-XXXXXX";
    int fd = mkstemp(fifo);
    close(fd);
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(ketama_roll(&c, fifo) == 0);
    CHECK(strstr(ketama_error(), "is a FIFO") != NULL);
    unlink(fifo);
    CHECK(mkdtemp(dir) != NULL);
    CHECK(ketama_roll(&c, dir) == 0);
    CHECK(strstr(ketama_error(), "is a directory") != NULL);
    rmdir(dir);
    CHECK(ketama_roll(&c, "/dev/zero") == 0);
    CHECK(strstr(ketama_error(), "is a device") != NULL);
    CHECK(ketama_roll(&c, "/nonexistent/servers") == 0);
    CHECK(strncmp(ketama_error(), "Invalid filename specified", 26) == 0);
}

/* Runs ketama_print_continuum(c) with stdout captured; returns the malloc'd output. */
static char *capture_print(ketama_continuum c) {
    char out_path[64] = "/tmp/ketama-print-XXXXXX";
    int fd = mkstemp(out_path), saved;
    size_t len;
    char *text;
    fflush(stdout);
    saved = dup(1);
    dup2(fd, 1);
    printf("C-side ");
    ketama_print_continuum(c);
    printf("after\n");
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    text = json_read_file(out_path, &len);
    unlink(out_path);
    return text;
}

static void test_print(void) {
    int ok, lines = 0;
    const char *p;
    char *out;
    ketama_continuum c = roll("10.0.0.1:11211\t100\n", -200, &ok);
    CHECK(ok == 1);
    out = capture_print(c);
    CHECK(out != NULL && strncmp(out, "C-side Numpoints in continuum: 160\n10.0.0.1:11211 (", 51) == 0);
    for (p = out; p && *p; p++) {
        lines += *p == '\n';
    }
    CHECK(lines == 162);
    CHECK(out != NULL && strcmp(out + strlen(out) - 6, "after\n") == 0);
    free(out);
    ketama_smoke(c);
    c = roll("bad\n", -100, &ok);
    out = capture_print(c);
    CHECK(out != NULL && strcmp(out, "C-side Numpoints in continuum: 0\nContinuum empty\nafter\n") == 0);
    free(out);
    ketama_smoke(c);
    ketama_print_continuum(NULL);
}

static int replay(const char *file) {
    size_t len, i, bad = 0;
    char *text = json_read_file(file, &len);
    json v;
    const json *servers, *keys, *expect;
    FILE *f;
    ketama_continuum c = NULL;
    if (text == NULL || json_parse(text, len, &v) != 0) {
        free(text);
        printf("FAIL %s: cannot parse\n", file);
        return 1;
    }
    free(text);
    servers = json_get(&v, "servers");
    keys = json_get(&v, "keys");
    expect = json_get(&v, "expect");
    f = fopen(path, "wb");
    for (i = 0; i < servers->count; i++) {
        fprintf(f, "%s\t%.0f\n", json_get(&servers->items[i], "label")->str,
                json_get(&servers->items[i], "weight")->number);
    }
    fclose(f);
    if (!ketama_roll(&c, path)) {
        printf("FAIL %s: ketama_roll: %s\n", file, ketama_error());
        ketama_smoke(c);
        json_free(&v);
        return 1;
    }
    for (i = 0; i < keys->count; i++) {
        mcs *m = ketama_get_server(keys->items[i].str, c);
        const json *e = &expect->items[i];
        if (m == NULL || e->type != JSON_STRING || strcmp(m->ip, e->str) != 0) {
            if (bad++ < 3) {
                printf("    key %s: expected %s, got %s\n", keys->items[i].str,
                       e->type == JSON_STRING ? e->str : "null", m ? m->ip : "NULL");
            }
        }
    }
    printf("%s compat %s (%lu keys, %lu wrong)\n", bad ? "FAIL" : "PASS", file, (unsigned long)keys->count,
           (unsigned long)bad);
    ketama_smoke(c);
    json_free(&v);
    return bad != 0;
}

int main(int argc, char **argv) {
    int i, fd, bad_files = 0;
    strcpy(path, "/tmp/ketama-compat-XXXXXX");
    fd = mkstemp(path);
    close(fd);
    test_layout();
    test_functions();
    test_quirks();
    test_reload();
    test_reload_content();
    test_not_regular();
    test_print();
    for (i = 1; i < argc; i++) {
        bad_files += replay(argv[i]);
    }
    unlink(path);
    printf("compat checks: %d, failures: %d, vector files failed: %d\n", checks, failures, bad_files);
    return failures == 0 && bad_files == 0 ? 0 : 1;
}
