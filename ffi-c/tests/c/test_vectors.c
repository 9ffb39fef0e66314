/* Runs every shared vector file given on the command line through the C API
 * (include/ketama.h + -lketama) and reports per file. Exit 0 only when every file passes. */
#include <ketama.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static int streq(const char *a, size_t alen, const json *b) {
    return b != NULL && b->type == JSON_STRING && alen == b->len && memcmp(a, b->str, alen) == 0;
}

static void show(const char *s, size_t len) {
    size_t i;
    putchar('"');
    for (i = 0; i < len && i < 60; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f) {
            printf("\\x%02x", ch);
        } else {
            putchar(ch);
        }
    }
    printf(len > 60 ? "...\"" : "\"");
}

typedef struct {
    size_t keys, bad;
} tally;

static void miss(tally *t, const json *key, const char *expected, const char *got) {
    if (t->bad++ < 3) {
        printf("    key ");
        show(key->str, key->len);
        printf(": expected %s, got %s\n", expected, got);
    }
}

static const char *hash_arg(const json *v) {
    const json *h = json_get(v, "hash");
    return (h != NULL && h->type == JSON_STRING) ? h->str : NULL;
}

/* Kind "hash": with a "profile", the hash as that client's ring computes it (keys it refuses
 * give KETAMA_STATUS_KEY_REJECTED = null); without one, the bare function. */
static int run_hash(const json *v, const json *keys, const json *expect, tally *t) {
    size_t i;
    const char *name = hash_arg(v);
    const json *profile = json_get(v, "profile");
    ketama_ring *ring = NULL;
    if (profile != NULL && profile->type == JSON_STRING) {
        ketama_status st = ketama_ring_create(profile->str, name, &ring);
        if (st != KETAMA_STATUS_OK) {
            printf("    cannot create ring %s/%s: %s\n", profile->str, name ? name : "(default)", ketama_status_str((int)st));
            return -1;
        }
    }
    for (i = 0; i < keys->count; i++) {
        const json *k = &keys->items[i], *e = &expect->items[i];
        uint32_t h = 0;
        char want[32], got[64];
        ketama_status st = ring != NULL ? ketama_ring_key_hash(ring, k->str, k->len, &h)
                                        : ketama_hash(name, k->str, k->len, &h);
        t->keys++;
        if (e->type == JSON_NULL) {
            strcpy(want, "null");
        } else {
            sprintf(want, "%.0f", e->number);
        }
        if (st == KETAMA_STATUS_KEY_REJECTED) {
            strcpy(got, "null");
        } else if (st != KETAMA_STATUS_OK) {
            sprintf(got, "status %d", (int)st);
        } else {
            sprintf(got, "%lu", (unsigned long)h);
        }
        if (strcmp(want, got) != 0) {
            miss(t, k, want, got);
        }
    }
    ketama_ring_free(ring);
    return 0;
}

static int build_ring(const json *v, ketama_ring **ring_out) {
    const json *profile = json_get(v, "profile"), *servers = json_get(v, "servers");
    const char **labels, **names;
    size_t *label_lens, *name_lens, i;
    uint32_t *weights;
    ketama_ring *ring = NULL;
    ketama_status st;
    if (profile == NULL || profile->type != JSON_STRING || servers == NULL || servers->type != JSON_ARRAY) {
        printf("    malformed vector file (profile/servers)\n");
        return -1;
    }
    st = ketama_ring_create(profile->str, hash_arg(v), &ring);
    if (st != KETAMA_STATUS_OK) {
        printf("    ketama_ring_create(%s, %s): %s\n", profile->str, hash_arg(v) ? hash_arg(v) : "NULL",
               ketama_status_str((int)st));
        return -1;
    }
    labels = (const char **)calloc(servers->count + 1, sizeof *labels);
    names = (const char **)calloc(servers->count + 1, sizeof *names);
    label_lens = (size_t *)calloc(servers->count + 1, sizeof *label_lens);
    name_lens = (size_t *)calloc(servers->count + 1, sizeof *name_lens);
    weights = (uint32_t *)calloc(servers->count + 1, sizeof *weights);
    for (i = 0; i < servers->count; i++) {
        const json *s = &servers->items[i];
        const json *label = json_get(s, "label"), *w = json_get(s, "weight"), *name = json_get(s, "name");
        labels[i] = label ? label->str : NULL;
        label_lens[i] = label ? label->len : 0;
        weights[i] = (w && w->type == JSON_NUMBER) ? (uint32_t)w->number : 1;
        if (name && name->type == JSON_STRING) {
            names[i] = name->str;
            name_lens[i] = name->len;
        }
    }
    st = ketama_ring_add_many(ring, labels, label_lens, weights, names, name_lens, servers->count, NULL);
    free(labels);
    free(names);
    free(label_lens);
    free(name_lens);
    free(weights);
    if (st != KETAMA_STATUS_OK) {
        printf("    ketama_ring_add_many: %s\n", ketama_status_str((int)st));
        ketama_ring_free(ring);
        return -1;
    }
    /* the file's "options" object: hash_tag, prefix_key, hash_with_prefix */
    {
        const json *o = json_get(v, "options");
        if (o != NULL && o->type == JSON_OBJECT) {
            const json *tag = json_get(o, "hash_tag"), *prefix = json_get(o, "prefix_key"),
                       *hwp = json_get(o, "hash_with_prefix");
            st = ketama_ring_set_options(
                ring, (tag && tag->type == JSON_STRING) ? tag->str : NULL, tag ? tag->len : 0,
                (prefix && prefix->type == JSON_STRING) ? prefix->str : NULL, prefix ? prefix->len : 0,
                (hwp && hwp->type == JSON_BOOL) ? (int)hwp->number : 0);
            if (st != KETAMA_STATUS_OK) {
                printf("    ketama_ring_set_options: %s\n", ketama_status_str((int)st));
                ketama_ring_free(ring);
                return -1;
            }
        }
    }
    *ring_out = ring;
    return 0;
}

static int run_locate(const json *v, const json *keys, const json *expect, tally *t) {
    ketama_ring *ring = NULL;
    size_t i;
    const char **ks, **many;
    size_t *klens, *many_lens;
    ketama_status many_st;
    if (build_ring(v, &ring) != 0) {
        return -1;
    }
    /* Batch lookups must agree with single ones. */
    ks = (const char **)calloc(keys->count + 1, sizeof *ks);
    klens = (size_t *)calloc(keys->count + 1, sizeof *klens);
    many = (const char **)calloc(keys->count + 1, sizeof *many);
    many_lens = (size_t *)calloc(keys->count + 1, sizeof *many_lens);
    for (i = 0; i < keys->count; i++) {
        ks[i] = keys->items[i].str;
        klens[i] = keys->items[i].len;
    }
    many_st = ketama_ring_lookup_many(ring, ks, klens, keys->count, many, many_lens);
    for (i = 0; i < keys->count; i++) {
        const json *k = &keys->items[i], *e = &expect->items[i];
        const char *label = NULL;
        size_t len = 0;
        char got[300];
        ketama_status st = ketama_ring_lookup(ring, k->str, k->len, &label, &len);
        t->keys++;
        if (st == KETAMA_STATUS_OK) {
            snprintf(got, sizeof got, "\"%.*s\"", (int)len, label);
        } else {
            snprintf(got, sizeof got, "%s (status %d)", ketama_status_str((int)st), (int)st);
        }
        if (e->type == JSON_NULL) {
            if (st != KETAMA_STATUS_NO_SERVER && st != KETAMA_STATUS_KEY_REJECTED) {
                miss(t, k, "null", got);
                continue;
            }
        } else if (st != KETAMA_STATUS_OK || !streq(label, len, e)) {
            char want[300];
            snprintf(want, sizeof want, "\"%s\"", e->type == JSON_STRING ? e->str : "?");
            miss(t, k, want, got);
            continue;
        }
        if (many_st != KETAMA_STATUS_OK || many[i] != (st == KETAMA_STATUS_OK ? label : NULL) ||
            many_lens[i] != (st == KETAMA_STATUS_OK ? len : 0)) {
            miss(t, k, "lookup_many == lookup", "a different answer");
        }
        {
            /* ketama_ring_lookup_index: the same server by index, or minus the same status */
            int64_t at = ketama_ring_lookup_index(ring, k->str, k->len);
            const char *by_index = NULL;
            size_t by_index_len = 0;
            if (st == KETAMA_STATUS_OK) {
                if (at < 0 || ketama_ring_server(ring, (size_t)at, &by_index, &by_index_len, NULL) !=
                                  KETAMA_STATUS_OK || by_index != label) {
                    miss(t, k, "lookup_index == lookup", "a different server");
                }
            } else if (at != -(int64_t)st) {
                miss(t, k, "lookup_index == -status", "a different answer");
            }
            /* ketama_ring_lookup_str (NUL-terminated key): (length << 32) | the same index, or
             * minus the same status; a key holding a NUL byte is looked up to it */
            {
                size_t seen = strlen(k->str);
                int64_t want = seen == k->len ? at : ketama_ring_lookup_index(ring, k->str, seen);
                int64_t s = ketama_ring_lookup_str(ring, k->str);
                if (want >= 0 ? s != ((int64_t)seen << 32 | want) : s != want) {
                    miss(t, k, "lookup_str == (len << 32) | lookup_index", "a different answer");
                }
            }
        }
    }
    {
        /* ketama_ring_lookup_joined: the keys joined by NUL (when none holds one), the labels
         * joined by NUL out, empty for the refused keys */
        size_t total = 0, cap = 0, out_len = 0, refused = 0, at = 0, nul_free = keys->count > 0;
        char *joined, *out;
        for (i = 0; i < keys->count; i++) {
            total += keys->items[i].len + 1;
            cap += 300;
            if (memchr(keys->items[i].str, 0, keys->items[i].len) != NULL) nul_free = 0;
        }
        joined = (char *)malloc(total + 1);
        out = (char *)malloc(cap + 1);
        for (i = 0; nul_free && i < keys->count; i++) {
            if (i > 0) joined[at++] = 0;
            memcpy(joined + at, keys->items[i].str, keys->items[i].len);
            at += keys->items[i].len;
        }
        /* one empty key alone is no key for the joined form */
        if (nul_free && at > 0) {
            size_t want_refused = 0, pos = 0;
            ketama_status st = ketama_ring_lookup_joined(ring, joined, at, 0, out, cap, &out_len, &refused);
            if (st != KETAMA_STATUS_OK) {
                miss(t, &keys->items[0], "lookup_joined ok", ketama_status_str((int)st));
            }
            for (i = 0; st == KETAMA_STATUS_OK && i < keys->count; i++) {
                const char *label = NULL;
                size_t len = 0, end = pos;
                ketama_status one = ketama_ring_lookup(ring, keys->items[i].str, keys->items[i].len, &label, &len);
                while (end < out_len && out[end] != 0) end++;
                if (one != KETAMA_STATUS_OK) {
                    want_refused++;
                    len = 0;
                }
                if (end - pos != len || (len > 0 && memcmp(out + pos, label, len) != 0)) {
                    miss(t, &keys->items[i], "lookup_joined == lookup", "a different label");
                }
                pos = end + 1;
            }
            if (st == KETAMA_STATUS_OK && (refused != want_refused || pos != out_len + 1)) {
                miss(t, &keys->items[0], "lookup_joined: every key, refusals counted", "a different count");
            }
        }
        free(joined);
        free(out);
    }
    free(ks);
    free(klens);
    free(many);
    free(many_lens);
    ketama_ring_free(ring);
    return 0;
}

static int run_sequence(const json *v, const json *keys, const json *expect, tally *t) {
    ketama_ring *ring = NULL;
    const json *nv = json_get(v, "n");
    size_t n = nv ? (size_t)nv->number : 0, i, j;
    const char **labels = (const char **)calloc(n + 1, sizeof *labels);
    size_t *lens = (size_t *)calloc(n + 1, sizeof *lens);
    if (build_ring(v, &ring) != 0) {
        free(labels);
        free(lens);
        return -1;
    }
    for (i = 0; i < keys->count; i++) {
        const json *k = &keys->items[i], *e = &expect->items[i];
        size_t count = 0;
        ketama_status st = ketama_ring_failover(ring, k->str, k->len, n, labels, lens, &count);
        /* null: the client refuses the key (no sequence) */
        int ok = e->type == JSON_NULL ? st != KETAMA_STATUS_OK
                                      : st == KETAMA_STATUS_OK && e->type == JSON_ARRAY && count == e->count;
        t->keys++;
        for (j = 0; ok && e->type == JSON_ARRAY && j < count; j++) {
            ok = streq(labels[j], lens[j], &e->items[j]);
        }
        if (!ok) {
            char got[600] = "";
            size_t used = 0;
            if (st != KETAMA_STATUS_OK) {
                snprintf(got, sizeof got, "%s", ketama_status_str((int)st));
            }
            for (j = 0; st == KETAMA_STATUS_OK && j < count && used < 500; j++) {
                used += (size_t)snprintf(got + used, sizeof got - used, "%s%.*s", j ? "," : "", (int)lens[j], labels[j]);
            }
            miss(t, k, "the expected sequence", got);
        }
    }
    free(labels);
    free(lens);
    ketama_ring_free(ring);
    return 0;
}

/* kind "dead": the labels in "dead" are down; expect = where the client sends the key, null =
   it refuses the key or gives up. */
static int run_dead(const json *v, const json *keys, const json *expect, tally *t) {
    ketama_ring *ring = NULL;
    const json *dead = json_get(v, "dead"), *servers = json_get(v, "servers");
    uint32_t idx[64];
    size_t n_dead = 0, i, j;
    if (dead == NULL || servers == NULL || dead->count > 64 || build_ring(v, &ring) != 0) {
        return -1;
    }
    for (i = 0; i < dead->count; i++) {
        for (j = 0; j < servers->count; j++) {
            const json *l = json_get(&servers->items[j], "label");
            if (l != NULL && streq(dead->items[i].str, dead->items[i].len, l)) {
                idx[n_dead++] = (uint32_t)j;
                break;
            }
        }
    }
    if (n_dead != dead->count) {
        ketama_ring_free(ring);
        return -1;
    }
    for (i = 0; i < keys->count; i++) {
        const json *k = &keys->items[i], *e = &expect->items[i];
        const char *label = NULL;
        size_t len = 0;
        char got[300];
        ketama_status st = ketama_ring_lookup_alive(ring, k->str, k->len, idx, n_dead, &label, &len);
        int ok = e->type == JSON_NULL ? (st == KETAMA_STATUS_NO_SERVER || st == KETAMA_STATUS_KEY_REJECTED)
                                      : (st == KETAMA_STATUS_OK && streq(label, len, e));
        t->keys++;
        if (!ok) {
            char want[300];
            if (st == KETAMA_STATUS_OK) {
                snprintf(got, sizeof got, "\"%.*s\"", (int)len, label);
            } else {
                snprintf(got, sizeof got, "%s (status %d)", ketama_status_str((int)st), (int)st);
            }
            snprintf(want, sizeof want, "%s", e->type == JSON_STRING ? e->str : "null");
            miss(t, k, want, got);
        }
    }
    /* An index past the end is refused, not ignored. */
    {
        const char *label = NULL;
        size_t len = 0;
        uint32_t past = (uint32_t)servers->count;
        if (ketama_ring_lookup_alive(ring, "k", 1, &past, 1, &label, &len) != KETAMA_STATUS_INDEX_OUT_OF_RANGE) {
            miss(t, &keys->items[0], "INDEX_OUT_OF_RANGE for a dead index past the end", "another status");
        }
    }
    ketama_ring_free(ring);
    return 0;
}

int main(int argc, char **argv) {
    int i, files_ok = 0, files_bad = 0;
    for (i = 1; i < argc; i++) {
        size_t len = 0;
        char *text = json_read_file(argv[i], &len);
        json v;
        const json *kind, *keys, *expect;
        tally t = {0, 0};
        int rc = -1;
        const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        if (text == NULL || json_parse(text, len, &v) != 0) {
            printf("FAIL %s: cannot read or parse\n", base);
            free(text);
            files_bad++;
            continue;
        }
        free(text);
        kind = json_get(&v, "kind");
        keys = json_get(&v, "keys");
        expect = json_get(&v, "expect");
        if (keys == NULL || expect == NULL || keys->type != JSON_ARRAY || expect->type != JSON_ARRAY ||
            keys->count != expect->count) {
            printf("FAIL %s: keys/expect missing or of different lengths\n", base);
        } else if (kind == NULL || kind->type == JSON_NULL || strcmp(kind->str, "locate") == 0) {
            rc = run_locate(&v, keys, expect, &t);
        } else if (strcmp(kind->str, "hash") == 0) {
            rc = run_hash(&v, keys, expect, &t);
        } else if (strcmp(kind->str, "sequence") == 0) {
            rc = run_sequence(&v, keys, expect, &t);
        } else if (strcmp(kind->str, "dead") == 0) {
            rc = run_dead(&v, keys, expect, &t);
        } else {
            printf("    unknown kind %s\n", kind->str);
        }
        if (rc == 0 && t.bad == 0) {
            printf("PASS %s (%lu keys)\n", base, (unsigned long)t.keys);
            files_ok++;
        } else {
            printf("FAIL %s (%lu of %lu keys wrong)\n", base, (unsigned long)t.bad, (unsigned long)t.keys);
            files_bad++;
        }
        fflush(stdout);
        json_free(&v);
    }
    printf("vector files: %d passed, %d failed\n", files_ok, files_bad);
    return files_bad == 0 ? 0 : 1;
}
