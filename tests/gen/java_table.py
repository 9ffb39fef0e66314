"""Java's profile and hash tables, generated from spec/profiles.json at gen time (the port
reads no JSON at run time): `Profile.java` (the knob enums, the fields of a row and their
constructor) and `SpecTable.java` (the option limits, the hash rows and one constructor call
per profile row, in the spec's order)."""

from __future__ import annotations

from common import header, quoted, screaming
from knobs import NAMES, java_enums

SOURCE = "spec/profiles.json"
DIR = "java/core/src/main/java/org/ketama"

# The fields of a row: (Java type, name, doc, value from the spec row). The values keep the
# spec's meaning; a field the row's kind does not have gets the neutral value named here.
FIELDS = [
    ("String", "name", "the profile's name", lambda p: quoted(p["name"])),
    ("List<String>", "aliases", "other names that select it", lambda p: strings(p["aliases"])),
    ("String", "description", "one line", lambda p: quoted(p["description"])),
    ("HashFn", "defaultHash", "the hash used when none is chosen", lambda p: hash_fn(p["default_hash"])),
    ("HashFn", "crc32", "what {@code crc32} means for this client, or null", lambda p: hash_fn(p["crc32"])),
    ("Node", "node", "{@code node}", lambda p: enum("node", p["node"])),
    ("boolean", "names", "{@code names}", lambda p: boolean(p["names"])),
    ("Strings", "strings", "{@code strings}", lambda p: enum("strings", p["strings"])),
    ("CountKind", "countKind", "{@code count.kind}", lambda p: enum("count", p["count"]["kind"])),
    ("long", "countStrings", "{@code count.strings} (fixed and per-weight counts), else 0",
     lambda p: f"{p['count'].get('strings', 0)}L"),
    ("Formula", "formula", "{@code count.formula} (relative counts), else null",
     lambda p: enum("formula", p["count"].get("formula"))),
    ("Points", "points", "{@code points.kind}", lambda p: enum("points", p["points"]["kind"])),
    ("int", "per", "{@code points.per} (md5 words), else 1", lambda p: str(p["points"].get("per", 1))),
    ("Placement", "placement", "{@code placement.kind}", lambda p: enum("placement", p["placement"]["kind"])),
    ("Shape", "shape", "{@code layout.kind}: core's resolved shape, what lookups dispatch on",
     lambda p: enum("layout", p["layout"]["kind"])),
    ("Bound", "bound", "{@code layout.bound}: the continuum's search bound, or null without one",
     lambda p: enum("bound", p["layout"]["bound"])),
    ("boolean", "weighted", "{@code placement.weighted}", lambda p: boolean(p["placement"].get("weighted", False))),
    ("boolean", "high15", "{@code placement.high15}", lambda p: boolean(p["placement"].get("high15", False))),
    ("boolean", "oldCompat", "{@code placement.old_compat}",
     lambda p: boolean(p["placement"].get("old_compat", False))),
    ("Join", "join", "{@code placement.join} (hash_rendezvous), else null",
     lambda p: enum("join", p["placement"].get("join"))),
    ("ScoreTies", "scoreTies", "{@code placement.ties} (hash_rendezvous), else null",
     lambda p: enum("score_ties", p["placement"].get("ties"))),
    ("Ties", "ties", "{@code ties}", lambda p: enum("ties", p["ties"])),
    ("ZeroWeight", "zeroWeight", "{@code zero_weight}", lambda p: enum("zero_weight", p["zero_weight"])),
    ("Rewrite", "rewrite", "{@code key.kind}", lambda p: enum("key", p["key"]["kind"])),
    ("int", "truncateBytes", "{@code key.bytes} (truncate), else 0", lambda p: str(p["key"].get("bytes", 0))),
    ("byte[]", "keyPrefix", "the UTF-8 of {@code key.prefix} (prefix), else null",
     lambda p: utf8(p["key"].get("prefix"))),
    ("KeyTag", "keyTag", "{@code key_tag.kind}", lambda p: enum("key_tag", p["key_tag"]["kind"])),
    ("TagRule", "tagRule", "{@code key_tag.rule}, else null (no tags)",
     lambda p: enum("tag_rule", p["key_tag"].get("rule"))),
    ("boolean", "singleShortcut", "{@code single_shortcut}", lambda p: boolean(p["single_shortcut"])),
    ("Set<HashFn>", "emptyKeyRejected", "{@code empty_key_rejected}",
     lambda p: hash_set(p["empty_key_rejected"])),
    ("boolean", "emptyRefused", "{@code key_limits.empty}", lambda p: boolean(p["key_limits"]["empty"])),
    ("long", "maxLen", "{@code key_limits.max_len}, or -1 for no limit",
     lambda p: f"{-1 if p['key_limits']['max_len'] is None else p['key_limits']['max_len']}L"),
    ("Chars", "chars", "{@code key_limits.chars}", lambda p: enum("chars", p["key_limits"]["chars"])),
    ("Order", "order", "{@code order}", lambda p: enum("order", p["order"])),
    ("Failover", "failover", "{@code failover.kind}", lambda p: enum("failover", p["failover"]["kind"])),
    ("long", "firstTag", "{@code failover.first_tag} (rehash), else 0",
     lambda p: f"{p['failover'].get('first_tag', 0)}L"),
    ("boolean", "boundedByServers", "{@code failover.bounded_by_servers} (rehash)",
     lambda p: boolean(p["failover"].get("bounded_by_servers", False))),
    ("long", "tries",
     "{@code failover.tries}: lookups in all (rehash_key, rehash_key_dash, rehash_hash, rehash_sum), else 0",
     lambda p: f"{p['failover'].get('tries', 0)}L"),
    ("Removal", "removal", "{@code removal}", lambda p: enum("removal", p["removal"])),
    ("boolean", "optHashTag", "{@code options.hash_tag}: the client takes a hash tag's delimiters",
     lambda p: boolean(p["options"]["hash_tag"])),
    ("boolean", "optPrefixKey", "{@code options.prefix_key}: the client has libmemcached's key prefix",
     lambda p: boolean(p["options"]["prefix_key"])),
    ("boolean", "isRing", "{@code is_ring}: the placement searches a continuum", lambda p: boolean(p["is_ring"])),
]


def files(spec: dict) -> dict[str, str]:
    return {f"{DIR}/Profile.java": profile(spec["knobs"]), f"{DIR}/SpecTable.java": table(spec)}


def enum(knob: str, value: str | None) -> str:
    if value is None:
        return "null"
    return f"{NAMES[knob][2]}.{screaming(value)}"


def boolean(v: bool) -> str:
    return "true" if v else "false"


def strings(values: list[str]) -> str:
    return "List.of(" + ", ".join(quoted(v) for v in values) + ")"


def hash_fn(name: str | None) -> str:
    return "null" if name is None else f"HashFn.{screaming(name)}"


def hash_set(names: list[str]) -> str:
    if not names:
        return "EnumSet.noneOf(HashFn.class)"
    return "EnumSet.of(" + ", ".join(hash_fn(n) for n in names) + ")"


def utf8(s: str | None) -> str:
    return "null" if s is None else f"{quoted(s)}.getBytes(StandardCharsets.UTF_8)"


def profile(knobs: dict[str, list[str]]) -> str:
    params = ",\n".join(f"            {t} {n}" for t, n, _, _ in FIELDS)
    lines = [
        header("//", SOURCE).rstrip(),
        "package org.ketama;",
        "",
        "import java.util.List;",
        "import java.util.Set;",
        "",
        "/**",
        " * One client family as a row of knobs (the spec's {@code profiles[]}, rows in",
        " * {@link SpecTable}): the names and values are the spec's, and every behaviour of the port is",
        " * selected by them alone.",
        " */",
        "final class Profile {",
        *java_enums(knobs),
    ]
    for t, n, doc, _ in FIELDS:
        lines += [f"    /** {doc[:1].upper()}{doc[1:]}. */", f"    final {t} {n};"]
    lines += [
        "",
        "    /** A row, its fields in declaration order. */",
        f"    Profile(\n{params}) {{",
        *[f"        this.{n} = {n};" for _, n, _, _ in FIELDS],
        "    }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def wrap(args: list[str], indent: str, width: int = 110) -> list[str]:
    """Comma-separated arguments over lines of at most `width` columns."""
    lines, line = [], indent
    for i, a in enumerate(args):
        piece = a + ("," if i < len(args) - 1 else "")
        if line.strip() and len(line) + 1 + len(piece) > width:
            lines.append(line.rstrip())
            line = indent
        line += piece + " "
    lines.append(line.rstrip())
    return lines


def table(spec: dict) -> str:
    opts = spec["options"]
    lines = [
        header("//", SOURCE).rstrip(),
        "package org.ketama;",
        "",
        "import java.nio.charset.StandardCharsets;",
        "import java.util.EnumSet;",
        "import java.util.List;",
        *sorted(f"import org.ketama.Profile.{v[2]};" for v in NAMES.values()),
        "",
        "/** The spec's tables as Java data: the option limits, the hash rows and the profile rows. */",
        "final class SpecTable {",
        "    private SpecTable() {",
        "    }",
        "",
        "    /** {@code options.hash_tag_bytes}: a hash tag's exact length. */",
        f"    static final int HASH_TAG_BYTES = {opts['hash_tag_bytes']};",
        "    /** {@code options.prefix_key_max_bytes}: the longest key prefix. */",
        f"    static final int PREFIX_KEY_MAX_BYTES = {opts['prefix_key_max_bytes']};",
        "    /** {@code options.prefixed_key_max_bytes}: the longest prefix + key that is hashed. */",
        f"    static final int PREFIXED_KEY_MAX_BYTES = {opts['prefixed_key_max_bytes']};",
        "",
        "    /** One hash row: the function, the client names that select it, how it reads a key. */",
        "    static final class HashRow {",
        "        final HashFn fn;",
        "        final List<String> aliases;",
        "        final String input;",
        "        final String description;",
        "",
        "        HashRow(HashFn fn, List<String> aliases, String input, String description) {",
        "            this.fn = fn;",
        "            this.aliases = aliases;",
        "            this.input = input;",
        "            this.description = description;",
        "        }",
        "    }",
        "",
        "    /** The hash rows, in the spec's order. */",
        "    static final List<HashRow> HASHES = List.of(",
    ]
    for i, h in enumerate(spec["hashes"]):
        end = "," if i < len(spec["hashes"]) - 1 else ");"
        args = [hash_fn(h["name"]), strings(h["aliases"]), quoted(h["input"]), quoted(h["description"])]
        row = wrap(args, "            ")
        row[0] = "        new HashRow(" + row[0].lstrip()
        row[-1] += ")" + end
        lines += row
    lines += ["", "    /** The profile rows, in the spec's order. */", "    static List<Profile> profiles() {", "        return List.of("]
    for i, p in enumerate(spec["profiles"]):
        end = "," if i < len(spec["profiles"]) - 1 else ");"
        row = wrap([f(p) for _, _, _, f in FIELDS], "                ")
        row[0] = "            new Profile(" + row[0].lstrip()
        row[-1] += ")" + end
        lines += row
    lines += ["    }", "}"]
    return "\n".join(lines) + "\n"
