/* The tiny check harness the C tests share: CHECK counts and reports, never aborts. */
#ifndef KETAMA_TEST_CHECK_H
#define KETAMA_TEST_CHECK_H

#include <stdio.h>

static int failures = 0, checks = 0;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        checks++;                                                                   \
        if (!(cond)) {                                                              \
            failures++;                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

#endif
