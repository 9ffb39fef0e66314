/* Reads keys back through libketama.so: the ring names the server, a plain socket asks it.
 *
 *   c_reader PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]
 *
 * Without DEAD_LABEL the key is read from ketama_ring_lookup()'s server; with it,
 * ketama_ring_failover(key, 7) is walked to the first server that is not DEAD_LABEL. A hit is
 * the value "w:" + key. Prints "hits=N total=M", then each missed key on its own line.
 * Connects to loopback addresses (127.0.0.0/8) only; every socket operation has a 5 s timeout. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <ketama.h>

#define MAX_SERVERS 64
#define SEQ 7

struct server {
    char label[64];
    FILE *io;
};

static struct server servers[MAX_SERVERS];
static size_t nservers;

static void die(const char *what) {
    fprintf(stderr, "c_reader: %s\n", what);
    exit(2);
}

static FILE *connect_to(const char *label) {
    const char *colon = strrchr(label, ':');
    char host[64];
    size_t hl = colon == NULL ? 0 : (size_t)(colon - label);
    if (colon == NULL || hl >= sizeof host || strncmp(label, "127.", 4) != 0) die("loopback servers only");
    memcpy(host, label, hl);
    host[hl] = '\0';
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(colon + 1));
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1 || (ntohl(a.sin_addr.s_addr) >> 24) != 127) die("loopback servers only");
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return NULL; /* a stopped server: its keys miss */
    }
    FILE *f = fdopen(fd, "r+");
    if (f == NULL) die("fdopen");
    return f;
}

static struct server *server_of(const char *label, size_t len) {
    for (size_t i = 0; i < nservers; i++) {
        if (strlen(servers[i].label) == len && memcmp(servers[i].label, label, len) == 0) return &servers[i];
    }
    return NULL;
}

/* 1 when the server holds key with value "w:" + key. */
static int fetch(struct server *s, const char *key) {
    if (s->io == NULL) return 0;
    char line[1024];
    if (fprintf(s->io, "get %s\r\n", key) < 0 || fflush(s->io) != 0) die("send");
    if (fgets(line, sizeof line, s->io) == NULL) die("no reply");
    if (strncmp(line, "END", 3) == 0) return 0;
    unsigned flags;
    size_t len;
    char k[300];
    if (sscanf(line, "VALUE %299s %u %zu", k, &flags, &len) != 3 || len > 600) die("bad VALUE line");
    char value[640];
    if (fread(value, 1, len + 2, s->io) != len + 2) die("short value");
    value[len] = '\0';
    if (fgets(line, sizeof line, s->io) == NULL || strncmp(line, "END", 3) != 0) die("no END");
    return strcmp(k, key) == 0 && strncmp(value, "w:", 2) == 0 && strcmp(value + 2, key) == 0;
}

int main(int argc, char **argv) {
    if (argc < 4) die("usage: c_reader PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]");
    const char *dead = argc > 4 ? argv[4] : NULL;
    struct ketama_ring *ring = NULL;
    if (ketama_ring_create(argv[1], NULL, &ring) != KETAMA_STATUS_OK) die("ketama_ring_create");
    FILE *f = fopen(argv[2], "r");
    if (f == NULL) die("servers file");
    char line[1024];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0') continue;
        if (nservers == MAX_SERVERS || strlen(line) >= sizeof servers[0].label) die("too many servers");
        strcpy(servers[nservers].label, line);
        if (ketama_ring_add(ring, line, strlen(line), 1) != KETAMA_STATUS_OK) die("ketama_ring_add");
        servers[nservers].io = (dead != NULL && strcmp(dead, line) == 0) ? NULL : connect_to(line);
        nservers++;
    }
    fclose(f);
    f = fopen(argv[3], "r");
    if (f == NULL) die("keys file");
    size_t total = 0, hits = 0, nmissed = 0, cap = 1024;
    char **missed = malloc(cap * sizeof *missed);
    if (missed == NULL) die("malloc");
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0') continue;
        total++;
        const char *labels[SEQ];
        size_t lens[SEQ], count = 0;
        struct server *s = NULL;
        if (dead == NULL) {
            if (ketama_ring_lookup(ring, line, strlen(line), &labels[0], &lens[0]) != KETAMA_STATUS_OK) die("lookup");
            s = server_of(labels[0], lens[0]);
        } else {
            if (ketama_ring_failover(ring, line, strlen(line), SEQ, labels, lens, &count) != KETAMA_STATUS_OK) die("failover");
            for (size_t i = 0; i < count && s == NULL; i++) {
                if (!(strlen(dead) == lens[i] && memcmp(dead, labels[i], lens[i]) == 0)) s = server_of(labels[i], lens[i]);
            }
        }
        if (s != NULL && fetch(s, line)) {
            hits++;
        } else {
            if (nmissed == cap) {
                cap *= 2;
                char **m = realloc(missed, cap * sizeof *missed);
                if (m == NULL) die("realloc");
                missed = m;
            }
            missed[nmissed] = strdup(line);
            if (missed[nmissed++] == NULL) die("strdup");
        }
    }
    fclose(f);
    printf("hits=%zu total=%zu\n", hits, total);
    for (size_t i = 0; i < nmissed; i++) {
        printf("%s\n", missed[i]);
        free(missed[i]);
    }
    free(missed);
    for (size_t i = 0; i < nservers; i++) {
        if (servers[i].io != NULL) fclose(servers[i].io);
    }
    ketama_ring_free(ring);
    return 0;
}
