/*
 * ketama_compat.h: the original last.fm libketama C API, served by libketama.so from ketama.
 *
 * Installed twice: as <ketama_compat.h>, and as <libketama/ketama.h> so that a libketama-era
 * program that says `#include <ketama.h>` builds unchanged with
 *     cc prog.c $(pkg-config --cflags --libs ketama-compat)
 *
 * Same continuum and the same answers as libketama for the same server file (one
 * "address<TAB or SPACE>memory" per line), but no System V shared memory or semaphore, no
 * 512 KiB limit. Each process parses the file once per modification time; a changed file
 * is reloaded by ketama_roll() and, at most once a second, by ketama_get_server(), once it
 * has stayed unchanged for 200 ms (a file still being written is not used: the previous
 * continuum stays; ketama_roll() waits up to 2 s for it). Change the file by writing a new
 * one and rename()-ing it over the old one: an in-place rewrite that pauses longer than
 * 200 ms can be read half-written.
 * Quirks of libketama's parser are kept (the memory token's last character is dropped, so
 * the file must end with a newline; a repeated address gets its own points); inputs
 * libketama mishandles are refused with a message in ketama_error() (a negative memory, one
 * above 4294967295, a last line of blanks only, a path that is not a regular file): see
 * docs/libketama-files.md. Not provided: union semun and MC_SHMSIZE's meaning (kept as a value).
 * ketama_error() is per thread. Hand-written (the layout is libketama's); the C tests check
 * the struct sizes.
 */
#ifndef KETAMA_COMPAT_H
#define KETAMA_COMPAT_H

/* libketama's segment size; unused here (no shared memory), kept for source compatibility. */
#define MC_SHMSIZE 524288

#ifdef __cplusplus
extern "C" {
#endif

/* qsort comparator type, as libketama declared it. */
typedef int (*compfn)(const void *, const void *);

/* One point on the circle. `ip` is NUL-terminated unless the address is 22 or 23 characters
 * long (up to 23 are accepted, as libketama accepts them); in this implementation a 23rd
 * character follows `ip` in the record's padding, and then a zero byte, so `ip` always reads
 * as the whole address. */
typedef struct {
    unsigned int point;
    char ip[22];
} mcs;

/* One line of the server file (not used by the functions; kept for source compatibility). */
typedef struct {
    char addr[22];
    unsigned long memory;
} serverinfo;

/* The continuum: `array` holds `numpoints` mcs in ascending order of `point`; `modtime`
 * points to the file's modification time (a time_t). Treat as read-only. */
typedef struct {
    int numpoints;
    void *modtime;
    void *array;
} continuum;

typedef continuum *ketama_continuum;

/* Builds the continuum for a server file into *contptr. Returns 1 on success, 0 on failure
 * (reason in ketama_error()). Free *contptr with ketama_smoke() when it was set. */
int ketama_roll(ketama_continuum *contptr, char *filename);

/* Frees a continuum and the mcs it handed out. NULL is a no-op. */
void ketama_smoke(ketama_continuum contptr);

/* The point for a key (a NUL-terminated string): the first point at or after
 * ketama_hashi(key), wrapping around. NULL for an empty continuum. Valid until
 * ketama_smoke(), across any number of reloads: it points to a record kept for each
 * distinct (address, point) the file has had (memory grows only with addresses or weight
 * shares never seen before), not into `array`, which follows the current file. */
mcs *ketama_get_server(char *key, ketama_continuum cont);

/* Prints "Numpoints in continuum: N" and then "ip (point)" per point to stdout. */
void ketama_print_continuum(ketama_continuum c);

/* -1, 0 or 1 comparing a->point with b->point. */
int ketama_compare(mcs *a, mcs *b);

/* First little-endian 32-bit word of the MD5 of a NUL-terminated string. */
unsigned int ketama_hashi(char *inString);

/* MD5 of a NUL-terminated string into 16 bytes. */
void ketama_md5_digest(char *inString, unsigned char md5pword[16]);

/* The last ketama_roll() error of this thread ("" after success). */
char *ketama_error(void);

#ifdef __cplusplus
}
#endif

#endif /* KETAMA_COMPAT_H */
