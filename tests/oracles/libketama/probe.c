/* Drives the real libketama (github.com/RJ/ketama libketama/) over one servers file for
 * tests/oracles/libketama/record.py. Usage: probe SERVERS_FILE KEYS_FILE, KEYS_FILE holding one
 * key per line in hex. Prints, each byte string in hex:
 *   ROLL <ketama_roll's return>
 *   ERROR <ketama_error()>
 * and after a successful roll
 *   POINTS <numpoints>
 *   P <point> <ip, at most 22 bytes: libketama's mcs.ip>   (one per point, ascending)
 *   K <ip of ketama_get_server(key)>                        (one per key) */
#include <ketama.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex(const char *s, size_t max) {
    size_t i;
    for (i = 0; i < max && s[i]; i++) {
        printf("%02x", (unsigned char)s[i]);
    }
}

static size_t unhex(const char *line, char *out) {
    size_t n = 0;
    unsigned int b;
    while (line[0] && line[1] && sscanf(line, "%2x", &b) == 1) {
        out[n++] = (char)b;
        line += 2;
    }
    out[n] = 0;
    return n;
}

int main(int argc, char **argv) {
    ketama_continuum c = NULL;
    static char line[8192], key[4096];
    FILE *keys;
    int ok, i;
    if (argc != 3) {
        fprintf(stderr, "usage: %s SERVERS_FILE KEYS_FILE\n", argv[0]);
        return 2;
    }
    ok = ketama_roll(&c, argv[1]);
    printf("ROLL %d\nERROR ", ok);
    hex(ketama_error(), 255);
    printf("\n");
    fflush(stdout);
    if (ok) {
        mcs *points = c->array;
        printf("POINTS %d\n", c->numpoints);
        for (i = 0; i < c->numpoints; i++) {
            printf("P %u ", points[i].point);
            hex(points[i].ip, 22);
            printf("\n");
        }
        keys = fopen(argv[2], "r");
        while (keys && fgets(line, sizeof line, keys)) {
            mcs *m;
            line[strcspn(line, "\n")] = 0;
            unhex(line, key);
            m = ketama_get_server(key, c);
            printf("K ");
            hex(m->ip, 22);
            printf("\n");
        }
        if (keys) {
            fclose(keys);
        }
    }
    fflush(stdout);
    if (c) {
        ketama_smoke(c);
    }
    return 0;
}
