"""Drives Django's PyMemcacheCache (several LOCATIONs: pymemcache's HashClient) and writes
django-pymemcache-*.json. Nothing connects: the answer is the server of
`cache._cache._get_client(cache.make_and_validate_key(key))`, the two steps `cache.get(key)`
runs before it talks to a server.
"""

import django
from django.conf import settings

import common as C

GEN = "tests/oracles/pyclients/django_oracle.py"


def spec(s):
    host = "[%s]" % s["host"] if ":" in s["host"] else s["host"]
    return "%s:%d" % (host, s["port"])


def main():
    sets = C.sets_unweighted()
    settings.configure(CACHES={
        name: {"BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
               "LOCATION": [spec(s) for s in servers]}
        for name, servers in sets
    })
    django.setup()
    from django.core.cache import caches
    from django.core.cache.backends.base import InvalidCacheKey
    from pymemcache.exceptions import MemcacheIllegalInputError

    keys = C.keys()
    for name, servers in sets:
        cache = caches[name]
        hc = cache._cache
        by_id = {id(c): i for i, c in enumerate(hc.clients.values())}
        assert len(by_id) == len(servers)
        expect = []
        for k in keys:
            try:
                made = cache.make_and_validate_key(k)
                client = hc._get_client(made)
            except (InvalidCacheKey, MemcacheIllegalInputError):
                expect.append(None)
                continue
            expect.append(servers[by_id[id(client)]]["label"])
        source = ("Django %s with %s (PyPI, CPython %s): CACHES BACKEND "
                  "'django.core.cache.backends.memcached.PyMemcacheCache', LOCATION = a list of "
                  "'host:port' strings ('[v6]:port' for IPv6), no KEY_PREFIX, VERSION 1, default "
                  "KEY_FUNCTION (':1:' + key), OPTIONS default (allow_unicode_keys=True); "
                  "expect = the server of cache._cache._get_client(cache.make_and_validate_key(key)) "
                  "as cache.get(key) does; null = InvalidCacheKey or MemcacheIllegalInputError" % (
                      django.get_version(), C.versions("pymemcache"), C.PY))
        C.write("django-pymemcache-%s.json" % name, source, GEN, "django-pymemcache", servers,
                keys, expect)


if __name__ == "__main__":
    main()
