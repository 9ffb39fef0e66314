#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p;
    const char *end;
} cursor;

static void skip_ws(cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) {
        c->p++;
    }
}

static int parse_value(cursor *c, json *out, int depth);

static int hex4(cursor *c, unsigned *out) {
    unsigned v = 0;
    int i;
    if (c->end - c->p < 4) {
        return -1;
    }
    for (i = 0; i < 4; i++) {
        char ch = *c->p++;
        v <<= 4;
        if (ch >= '0' && ch <= '9') {
            v |= (unsigned)(ch - '0');
        } else if (ch >= 'a' && ch <= 'f') {
            v |= (unsigned)(ch - 'a' + 10);
        } else if (ch >= 'A' && ch <= 'F') {
            v |= (unsigned)(ch - 'A' + 10);
        } else {
            return -1;
        }
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *dst, unsigned cp) {
    if (cp < 0x80) {
        dst[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (char)(0xC0 | (cp >> 6));
        dst[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        dst[0] = (char)(0xE0 | (cp >> 12));
        dst[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        dst[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    dst[0] = (char)(0xF0 | (cp >> 18));
    dst[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    dst[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    dst[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static int parse_string(cursor *c, char **out, size_t *out_len) {
    const char *start;
    char *buf;
    size_t n = 0;
    if (c->p >= c->end || *c->p != '"') {
        return -1;
    }
    start = ++c->p;
    /* Decoded text is never longer than the source. */
    while (c->p < c->end && *c->p != '"') {
        if (*c->p == '\\') {
            c->p++;
        }
        c->p++;
    }
    if (c->p >= c->end) {
        return -1;
    }
    buf = (char *)malloc((size_t)(c->p - start) + 1);
    if (buf == NULL) {
        return -1;
    }
    c->p = start;
    while (*c->p != '"') {
        char ch = *c->p++;
        if (ch != '\\') {
            buf[n++] = ch;
            continue;
        }
        ch = *c->p++;
        switch (ch) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(c, &cp) != 0) {
                free(buf);
                return -1;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && c->end - c->p >= 6 && c->p[0] == '\\' && c->p[1] == 'u') {
                cursor save = *c;
                c->p += 2;
                if (hex4(c, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else {
                    *c = save;
                }
            }
            n += put_utf8(buf + n, cp);
            break;
        }
        default:
            free(buf);
            return -1;
        }
    }
    c->p++;
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return 0;
}

static int push(json *v, size_t *cap) {
    if (v->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        json *items = (json *)realloc(v->items, ncap * sizeof(json));
        if (items == NULL) {
            return -1;
        }
        v->items = items;
        if (v->type == JSON_OBJECT) {
            char **keys = (char **)realloc(v->keys, ncap * sizeof(char *));
            if (keys == NULL) {
                return -1;
            }
            v->keys = keys;
        }
        *cap = ncap;
    }
    return 0;
}

static int parse_container(cursor *c, json *out, int depth) {
    char close = *c->p == '[' ? ']' : '}';
    size_t cap = 0;
    out->type = close == ']' ? JSON_ARRAY : JSON_OBJECT;
    c->p++;
    skip_ws(c);
    if (c->p < c->end && *c->p == close) {
        c->p++;
        return 0;
    }
    for (;;) {
        if (push(out, &cap) != 0) {
            return -1;
        }
        if (out->type == JSON_OBJECT) {
            size_t klen;
            skip_ws(c);
            if (parse_string(c, &out->keys[out->count], &klen) != 0) {
                return -1;
            }
            skip_ws(c);
            if (c->p >= c->end || *c->p != ':') {
                free(out->keys[out->count]);
                return -1;
            }
            c->p++;
        }
        if (parse_value(c, &out->items[out->count], depth + 1) != 0) {
            if (out->type == JSON_OBJECT) {
                free(out->keys[out->count]);
            }
            return -1;
        }
        out->count++;
        skip_ws(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->end && *c->p == close) {
            c->p++;
            return 0;
        }
        return -1;
    }
}

static int parse_value(cursor *c, json *out, int depth) {
    memset(out, 0, sizeof *out);
    if (depth > 64) {
        return -1;
    }
    skip_ws(c);
    if (c->p >= c->end) {
        return -1;
    }
    switch (*c->p) {
    case '{':
    case '[':
        return parse_container(c, out, depth);
    case '"':
        out->type = JSON_STRING;
        return parse_string(c, &out->str, &out->len);
    case 'n':
        if (c->end - c->p >= 4 && memcmp(c->p, "null", 4) == 0) {
            c->p += 4;
            out->type = JSON_NULL;
            return 0;
        }
        return -1;
    case 't':
        if (c->end - c->p >= 4 && memcmp(c->p, "true", 4) == 0) {
            c->p += 4;
            out->type = JSON_BOOL;
            out->number = 1;
            return 0;
        }
        return -1;
    case 'f':
        if (c->end - c->p >= 5 && memcmp(c->p, "false", 5) == 0) {
            c->p += 5;
            out->type = JSON_BOOL;
            return 0;
        }
        return -1;
    default: {
        char *endp;
        out->type = JSON_NUMBER;
        out->number = strtod(c->p, &endp);
        if (endp == c->p) {
            return -1;
        }
        c->p = endp;
        return 0;
    }
    }
}

void json_free(json *v) {
    size_t i;
    if (v == NULL) {
        return;
    }
    for (i = 0; i < v->count; i++) {
        json_free(&v->items[i]);
        if (v->type == JSON_OBJECT) {
            free(v->keys[i]);
        }
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

int json_parse(const char *text, size_t len, json *out) {
    cursor c;
    c.p = text;
    c.end = text + len;
    if (parse_value(&c, out, 0) != 0) {
        json_free(out);
        return -1;
    }
    skip_ws(&c);
    if (c.p != c.end) {
        json_free(out);
        return -1;
    }
    return 0;
}

const json *json_get(const json *obj, const char *key) {
    size_t i;
    if (obj == NULL || obj->type != JSON_OBJECT) {
        return NULL;
    }
    for (i = 0; i < obj->count; i++) {
        if (strcmp(obj->keys[i], key) == 0) {
            return &obj->items[i];
        }
    }
    return NULL;
}

char *json_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        size_t got;
        if (cap - n < 65536) {
            char *nb = (char *)realloc(buf, cap + 65536 + 1);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap += 65536;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}
