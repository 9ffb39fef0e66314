"""Keys for the sharding-client oracles (jedis, go-redis, finagle, enyim): the common key list of
the other client families (families.keys), plus hash-tag shapes, non-BMP and long keys, and a few
thousand random keys. Deterministic; the empty key is included once.

Nothing here computes a placement: every `expect` comes from a real client's driver.
Standard library only.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import families as F  # noqa: E402

# Hash-tag shapes: where `{` and `}` sit decides what a client hashes (first non-empty `{...}`,
# a regex `\{(.+?)\}`, or nothing), so each shape below separates some pair of rules.
TAG_KEYS = [
    "{}", "a{}b", "{}{42}", "{a}{b}", "{a{b", "{{x}}", "{x}}", "user:{42}:profile",
    "user:{42}:friends", "{42}", "42", "{user1000}.following", "{user1000}.followers",
    "user1000", "foo{bar}baz", "bar", "foo{}{bar}", "a{}{b}", "b", "{", "}", "}{", "}{a}", "{a",
    "a}", "{}}", "{{}}", "{{}", "{}{}", "{ }", " ", "{\t}", "{a}", "a", "a{b}c{d}e", "{x}",
    "x", "{" * 10 + "x" + "}" * 10, "{a\nb}", "x{a\nb}y{c}", "{\n}", "{\r}z", "{\u0085}z{q}",
    "{\u2028}", "{a\u2029b}{c}", "{é}", "é", "{😀}", "😀", "x{日本}y", "日本", "{𝄞x}tail",
    "{}{}{z}", "{{{", "}}}", "{}{", "x{}", "{k}" + "v" * 300, "{" + "t" * 300 + "}suffix",
    "pre{fix", "pre}fix{", "{tag}rest", "tag", "{tag}", "{tag}other", "other{tag}",
    "{:}", ":", "{user:1}:cart", "{user:1}:orders", "user:1",
]

# Non-BMP characters: 4-byte UTF-8, a surrogate pair in Java/.NET strings.
NON_BMP_KEYS = [
    "😀", "𝄞", "𠜎𠜱𠝹", "a😀b", "\U00010000", "\U0010ffff", "\U0001f600" * 3, "key:\U0001f4a9",
    "\U0001d11e\U0001d11f", "mixed-é-日-😀-𝄞", "😀" * 100, "x" * 63 + "😀", "\U000e0001tag",
]

LONG_KEYS = ["L" * 1000, "x" * 4096, "é" * 600, "日本語" * 300, "😀" * 300,
             "0123456789" * 300, "k" * 251, "k" * 255, "k" * 256, "k" * 257]


def _random_keys(count, seed):
    """Random keys: ASCII words, printable ASCII with braces, and UTF-8 from every plane."""
    rng = random.Random(seed)
    ascii_alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    printable = ascii_alnum + "!#$%&'()*+,-./:;<=>?@[]^_`{|}~"

    def uni_char():
        r = rng.random()
        if r < 0.4:
            return chr(rng.randrange(0x21, 0x7f))
        if r < 0.6:
            return chr(rng.randrange(0xa0, 0x800))
        if r < 0.85:
            c = rng.randrange(0x800, 0x10000)
            return chr(c) if not 0xd800 <= c <= 0xdfff else "\ufffd"
        return chr(rng.randrange(0x10000, 0x110000))

    out = []
    for i in range(count):
        form = i % 5
        n = rng.randrange(1, 48)
        if form == 0:
            out.append("".join(rng.choice(ascii_alnum) for _ in range(n)))
        elif form == 1:
            out.append("".join(rng.choice(printable) for _ in range(n)))
        elif form == 2:
            out.append("".join(uni_char() for _ in range(n)))
        elif form == 3:
            out.append("%s:{%d}:%s" % (rng.choice(["user", "sess", "cart"]), rng.randrange(10 ** 6),
                                        rng.choice(["a", "b", "profile"])))
        else:
            out.append("%016x" % rng.getrandbits(64))
    return out


def keys(random_count=2000, seed=20261201):
    """families.keys() (about 1,000 keys) + tag shapes + non-BMP + long + random keys."""
    out, seen = [], set()
    for k in F.keys() + TAG_KEYS + NON_BMP_KEYS + LONG_KEYS + _random_keys(random_count, seed):
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def printable_keys(all_keys):
    """Keys without a byte <= 0x20 or 0x7f (what memcached text-protocol clients accept)."""
    return [k for k in all_keys if not any(ord(c) <= 0x20 or ord(c) == 0x7f for c in k)]
