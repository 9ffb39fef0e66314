/* A libketama-era program, unchanged in spirit from libketama's own test driver: it includes
 * <ketama.h> (our compat header, found through `pkg-config --cflags ketama-compat`), rolls
 * the bundled server file and prints, for keys "0".."999999", the key hash, the chosen point
 * and its address. The MD5 of the output must be libketama's published
 * 5672b131391f5aa2b280936aec1eea74 (docs/client-notes.md section 5). */
#include <ketama.h>
#include <stdio.h>

int main(int argc, char **argv) {
    ketama_continuum c;
    int i;
    if (argc < 2) {
        printf("Usage: %s <ketama.servers file>\n", argv[0]);
        return 1;
    }
    if (!ketama_roll(&c, argv[1])) {
        fprintf(stderr, "ketama_roll: %s\n", ketama_error());
        return 1;
    }
    printf("%s\n", ketama_error());
    for (i = 0; i < 1000000; i++) {
        char k[16];
        unsigned int kh;
        mcs *m;
        sprintf(k, "%d", i);
        kh = ketama_hashi(k);
        m = ketama_get_server(k, c);
        printf("%u %u %s\n", kh, m->point, m->ip);
    }
    ketama_smoke(c);
    return 0;
}
