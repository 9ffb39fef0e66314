/* A tiny JSON reader, just enough for the files in tests/vectors (strict RFC 8259 input;
 * strings decoded to UTF-8 with their byte length, so "\u0000" survives). */
#ifndef KETAMA_TEST_JSON_H
#define KETAMA_TEST_JSON_H

#include <stddef.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json {
    json_type type;
    double number;      /* JSON_NUMBER, JSON_BOOL (0/1) */
    char *str;          /* JSON_STRING: NUL-terminated copy */
    size_t len;         /* JSON_STRING: byte length (may contain NULs) */
    struct json *items; /* JSON_ARRAY / JSON_OBJECT values */
    char **keys;        /* JSON_OBJECT keys */
    size_t count;
} json;

/* Parses text; returns 0 on success, -1 on a syntax error. Free with json_free. */
int json_parse(const char *text, size_t len, json *out);
void json_free(json *v);
/* Object member by key, or NULL. */
const json *json_get(const json *obj, const char *key);
/* Reads a whole file (malloc'd, NUL-terminated); NULL on error. */
char *json_read_file(const char *path, size_t *len);

#endif
