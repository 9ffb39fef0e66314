"""Deterministic key material for the libmemcached / php-memcached vector files: keys come
from SHA-256 counter streams (the same on every machine and Python version), never from
`random`. Imported by generate.py; stdlib only.
"""

import hashlib

class Stream:
    """SHA-256 counter stream: the same numbers on every machine and Python version."""

    def __init__(self, seed):
        self.seed, self.ctr, self.buf = seed.encode(), 0, b""

    def u32(self):
        if len(self.buf) < 4:
            self.buf += hashlib.sha256(self.seed + b"/" + str(self.ctr).encode()).digest()
            self.ctr += 1
        v, self.buf = int.from_bytes(self.buf[:4], "little"), self.buf[4:]
        return v

    def below(self, n):
        return self.u32() % n


ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:.-/|#@"
UNI_RANGES = [(0x00A0, 0x00FF), (0x0100, 0x017F), (0x0391, 0x03C9), (0x0410, 0x044F),
              (0x05D0, 0x05EA), (0x0900, 0x097F), (0x3041, 0x3096), (0x4E00, 0x9FFF),
              (0xAC00, 0xD7A3), (0xFF01, 0xFF5E), (0x1F300, 0x1F5FF), (0x1F600, 0x1F64F),
              (0x1F900, 0x1F9FF), (0x20000, 0x2A6DF)]


def rand_ascii(st, lo, hi):
    return "".join(ASCII[st.below(len(ASCII))] for _ in range(lo + st.below(hi - lo + 1)))


def rand_unicode(st):
    out = []
    for _ in range(1 + st.below(10)):
        if st.below(3) == 0:
            out.append(ASCII[st.below(len(ASCII))])
        else:
            a, b = UNI_RANGES[st.below(len(UNI_RANGES))]
            out.append(chr(a + st.below(b - a + 1)))
    return "".join(out)


WORDS = ["apple", "banana", "cherry", "foo", "bar", "baz", "qux", "hello", "hello world!",
         "memcached", "ketama", "libmemcached", "user", "session", "cache", "test", "key",
         "VDEAAAAA", "a", "b", "z", "A", "0", "1", "-1", "42", "11211", "10.0.1.1",
         "10.0.1.1-0", "user:1234:profile", "session:abcdef0123456789", "product/9876/price",
         "The quick brown fox jumps over the lazy dog", "a b", "tab\tkey", "line\nfeed",
         "semi;colon", "quote\"key", "back\\slash", "~!@#$%^&*()_+{}|:<>?"]
NON_ASCII = ["é", "café", "été", "naïve", "Ωmega", "Привет", "日本語", "中文键", "한국어",
             "😀", "emoji😀x", "🔑🗝️", "ÿ", "\u0080", "\u00a0", "\u07ff", "\u0800", "\uffef",
             "\U00010000", "\U0010fffd", "ß", "Straße", "ü" * 7, "€100", "ñandú", "👍🏽",
             "👨‍👩‍👧‍👦", "ユーザー:1", "clé:été:😀", "\u00e9t\u00e9"]


def long_keys():
    """250-byte keys (the longest libmemcached accepts) and one 251-byte key."""
    ks = ["a" * 250, "x" * 249 + "y", "é" * 125, "日" * 83 + "a", "😀" * 62 + "ab",
          "".join(str(i % 10) for i in range(250)),
          ("key:" + hashlib.sha256(b"long").hexdigest() * 4)[:250]]
    for k in ks:
        assert len(k.encode()) == 250, (k, len(k.encode()))
    return ks + ["b" * 251]


def fixed_keys():
    ks = list(WORDS) + list(NON_ASCII)
    ks += [str(i) for i in range(0, 100)]
    ks += ["key:%d" % i for i in range(0, 50)]
    ks += ["user:%d" % (i * 7919) for i in range(20)]
    ks += long_keys()
    ks.append("")
    return ks


def hash_keys():
    """Keys for kind=hash files: every tail length, every Latin-1 code point, ..."""
    ks = ["", "apple", "hello world!", "123456789", "café", "emoji😀x", "été"]
    alpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    ks += [alpha[:n] for n in range(1, 63)]
    ks += [chr(c) for c in range(0x20, 0x7F)]
    ks += [chr(c) for c in range(0x80, 0x100)]  # 2-byte UTF-8: bytes 0xC2/0xC3 + 0x80..0xBF
    ks += ["x" + chr(c) + "yz" for c in range(0x80, 0x100, 5)]
    ks += fixed_keys()
    ks += ["a" * n for n in (100, 128, 200, 249, 250, 251, 255, 256, 300)]
    st = Stream("libhashkit-hash-keys")
    ks += [rand_ascii(st, 1, 48) for _ in range(1200)]
    ks += [rand_unicode(st) for _ in range(600)]
    return dedup(ks)


def dedup(ks):
    seen, out = set(), []
    for k in ks:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def _fill(ks, n, st, make):
    ks = dedup(ks)
    seen = set(ks)
    i = 0
    while len(ks) < n:
        i += 1
        k = make(st, i)
        if k not in seen:
            seen.add(k)
            ks.append(k)
    return ks[:n]


def locate_keys(n, seed, unicode_share=8):
    def make(st, i):
        if i % unicode_share == 0:
            return rand_unicode(st)
        if i % 3 == 0:
            return "%s:%d" % (rand_ascii(st, 2, 8), st.u32())
        return rand_ascii(st, 1, 32)
    return _fill(fixed_keys(), n, Stream("locate-keys:" + seed), make)


def short_keys(n, seed):
    """Short keys for the 10,000-key php-memcached file (size budget)."""
    return _fill(fixed_keys()[:200], n, Stream("short-keys:" + seed),
                 lambda st, i: rand_unicode(st)[:3] if i % 10 == 0 else rand_ascii(st, 1, 10))


def hexlines(keys):
    return "".join(k.encode("utf-8").hex() + "\n" for k in keys)


def prefix_keys(n, seed, plen):
    """Keys around OPT_PREFIX_KEY's rules for a prefix of plen bytes: NUL bytes (hashed through
    strncpy), the lengths where prefix + key passes 250 bytes, bytes the text protocol forbids."""
    ks = ["a\x00b", "\x00", "ab\x00", "\x00ab", "a\x00", "a", "ab", "x\x00yz", "x",
          "a b", "a\tb", "a\nb", "a\rb", "\x01", "\x7f", "é", "日本語", "😀", "p:", "p:a", "",
          "k" * 249, "k" * 250, "k" * 251, "é" * 125]
    for d in range(-3, 4):
        m = 250 - plen + d
        if 0 < m <= 251:
            ks += ["y" * m, "z" * (m - 1) + "\x00" if m > 1 else "\x00"]
    return _fill(dedup(ks) + fixed_keys(), n, Stream("prefix-keys:" + seed),
                 lambda st, i: rand_unicode(st) if i % 8 == 0 else rand_ascii(st, 1, 32))
