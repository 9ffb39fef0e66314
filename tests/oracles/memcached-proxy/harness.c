/* Drives memcached's own proxy hashing code (proxy_ring_hash.c, proxy_jump_hash.c,
 * proxy_xxhash.c, md5.c and xxhash.h of the memcached release, compiled alone against
 * Debian's Lua 5.4) exactly as mcp.pool() uses it: the dist module's new(backends, options)
 * builds the selector, the pool's key hasher (XXH3_64bits_withSeed, seed 0, unless
 * options.hash) hashes the key, the selector returns the backend's position.
 * stdin, per job: "J <mode> <hash>" (mode jump|default|ketama|twemproxy|evcache; hash
 * xxh3|md5), "S <addr> <port>" per backend, "K <hex key>" per key, "E".
 * stdout per job: "R", one decimal position per key, "D". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proxy.h"

int mcplib_open_dist_ring_hash(lua_State *L);
int mcplib_open_dist_jump_hash(lua_State *L);
int mcplib_open_hash_xxhash(lua_State *L);

static int unhex(const char *s, char *out) {
    int n = 0;
    while (s[0] && s[1] && s[0] != '\n') {
        unsigned v;
        sscanf(s, "%2x", &v);
        out[n++] = (char)v;
        s += 2;
    }
    return n;
}

int main(void) {
    static char line[8192], key[4096];
    char mode[32] = "", hash[32] = "";
    char addrs[2048][128];
    char ports[2048][16];
    int n = 0;
    lua_State *L = NULL;
    struct proxy_hash_caller *phc = NULL;
    struct proxy_hash_func *hf = NULL;
    while (fgets(line, sizeof line, stdin)) {
        if (line[0] == 'J') {
            sscanf(line, "J %31s %31s", mode, hash);
            n = 0;
            phc = NULL;
        } else if (line[0] == 'S') {
            sscanf(line, "S %127s %15s", addrs[n], ports[n]);
            n++;
        } else if (line[0] == 'K' || line[0] == 'E') {
            if (phc == NULL) {
                if (L) lua_close(L);
                L = luaL_newstate();
                if (strcmp(mode, "jump") == 0) {
                    mcplib_open_dist_jump_hash(L);
                } else {
                    mcplib_open_dist_ring_hash(L);
                }
                int mod = lua_gettop(L);
                lua_getfield(L, mod, "hash");
                hf = lua_touserdata(L, -1);
                lua_pop(L, 1);
                lua_getfield(L, mod, "new");
                lua_createtable(L, n, 0);
                for (int i = 0; i < n; i++) {
                    lua_createtable(L, 0, 3);
                    lua_pushinteger(L, i + 1);
                    lua_setfield(L, -2, "id");
                    lua_pushstring(L, addrs[i]);
                    lua_setfield(L, -2, "addr");
                    lua_pushstring(L, ports[i]);
                    lua_setfield(L, -2, "port");
                    lua_rawseti(L, -2, i + 1);
                }
                int nargs = 1;
                if (strcmp(mode, "jump") != 0 && strcmp(mode, "default") != 0) {
                    lua_createtable(L, 0, 1);
                    lua_pushstring(L, mode);
                    lua_setfield(L, -2, "omode");
                    nargs = 2;
                } else if (strcmp(mode, "default") == 0) {
                    lua_createtable(L, 0, 1);
                    lua_pushstring(L, "default");
                    lua_setfield(L, -2, "omode");
                    nargs = 2;
                }
                lua_call(L, nargs, 2);
                phc = lua_touserdata(L, -1);
                lua_pop(L, 1); /* keep the userdata alive */
                puts("R");
            }
            if (line[0] == 'E') {
                puts("D");
                continue;
            }
            int len = unhex(line + 2, key);
            uint64_t h = (strcmp(hash, "md5") == 0 && hf) ? hf->func(key, len, 0)
                                                         : XXH3_64bits_withSeed(key, len, 0);
            printf("%u\n", phc->selector_func(h, phc->ctx));
        }
    }
    return 0;
}
