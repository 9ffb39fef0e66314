/* The part of memcached's proxy.h that its hashing files use (the oracle's own stand-in:
 * the real proxy.h pulls in the whole server). Layouts as in memcached's proxy.h. */
#ifndef PROXY_H
#define PROXY_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#define XXH_INLINE_ALL
#include "xxhash.h"

typedef uint64_t (*key_hash_func)(const void *key, size_t len, uint64_t seed);
struct proxy_hash_func {
    key_hash_func func;
};
typedef uint32_t (*hash_selector_func)(uint64_t hash, void *ctx);
struct proxy_hash_caller {
    hash_selector_func selector_func;
    void *ctx;
};
#endif
