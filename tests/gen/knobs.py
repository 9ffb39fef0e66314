"""The knob vocabulary (spec/profiles.json "knobs") as each port's constants: Go types and
constants with their name tables (`go/knobs_gen.go`), Java enums (in the generated
`Profile.java`, java_table.py), and a frozen JavaScript table (`js/lib/knobs.js`).

A new value of an existing knob needs no change here: it becomes one more constant. A new
knob needs its line in NAMES (its Go type and constant prefix, its Java enum)."""

from __future__ import annotations

from common import camel, header, screaming, single_quoted

SOURCE = "spec/profiles.json"

# knob -> (Go type, Go constant prefix, Java enum, what it is)
NAMES = {
    "node": ("nodeForm", "node", "Node", "how a server becomes its node string"),
    "strings": ("stringForm", "str", "Strings", "how point string i of node string S is spelled"),
    "count": ("countKind", "count", "CountKind", "the per-server string count rule (count.kind)"),
    "formula": ("formula", "formula", "Formula", "the relative-weight formula (count.formula)"),
    "points": ("pointKind", "points", "Points", "how point strings become positions (points.kind)"),
    "placement": ("placeKind", "place", "Placement", "the algorithm that places a key (placement.kind)"),
    "bound": ("boundKind", "bound", "Bound", "the comparison a continuum is searched by"),
    "join": ("joinRule", "join", "Join", "how a scored rendezvous joins node string and key"),
    "score_ties": ("scoreTies", "score", "ScoreTies", "who wins equal scored-rendezvous scores"),
    "layout": ("layoutKind", "layout", "Shape", "core's resolved data shape of the rings (layout.kind)"),
    "ties": ("tieRule", "ties", "Ties", "who owns a position several servers share"),
    "zero_weight": ("zeroRule", "zero", "ZeroWeight", "what weight 0 means"),
    "key": ("keyRule", "key", "Rewrite", "how the key is rewritten before hashing (key.kind)"),
    "key_tag": ("tagKind", "tag", "KeyTag", "the client's hash tags (key_tag.kind)"),
    "tag_rule": ("tagRule", "rule", "TagRule", "how a hash tag is found in a key (key_tag.rule)"),
    "chars": ("keyChars", "chars", "Chars", "the bytes a client refuses in a key (key_limits.chars)"),
    "order": ("orderRule", "order", "Order", "the order servers are kept in"),
    "failover": ("failRule", "fail", "Failover", "the client's failover sequence (failover.kind)"),
    "removal": ("removalRule", "removal", "Removal", "what removing a server does"),
    "input": ("inputKind", "input", "Input", "how a hash reads the key's bytes (hashes[].input)"),
}


def files(spec: dict) -> dict[str, str]:
    knobs = spec["knobs"]
    missing = sorted(set(knobs) - set(NAMES))
    if missing:
        raise SystemExit(f"tests/gen/knobs.py: name the new knobs {missing} in NAMES")
    return {"go/knobs_gen.go": go(knobs), "js/lib/knobs.js": js(knobs)}


def go_const(knob: str, value: str) -> str:
    return NAMES[knob][1] + camel(value)


def go(knobs: dict[str, list[str]]) -> str:
    lines = [header("//", SOURCE).rstrip(), "", "package ketama"]
    for knob in NAMES:
        typ, _, _, what = NAMES[knob]
        values = knobs[knob]
        lines += [
            "",
            f'// {typ} is a value of the spec\'s "{knob}" knob: {what} (spec/README.md).',
            "// The zero value is no value.",
            f"type {typ} int",
            "",
            "const (",
            f"\t_ {typ} = iota",
            *[f"\t{go_const(knob, v)}" for v in values],
            ")",
            "",
            f"// {typ}Names are the spec's names of the constants, by value.",
            f"var {typ}Names = []string{{",
            '\t"",',
            *[f'\t"{v}",' for v in values],
            "}",
        ]
    return "\n".join(lines) + "\n"


def java_enums(knobs: dict[str, list[str]]) -> list[str]:
    """The enums of the generated Profile.java, indented as its members."""
    lines = []
    for knob in NAMES:
        _, _, enum, what = NAMES[knob]
        values = ", ".join(screaming(v) for v in knobs[knob])
        lines += [
            f"    /** The spec's {{@code {knob}}} knob: {what}. */",
            f"    enum {enum} {{ {values} }}",
            "",
        ]
    return lines


def js(knobs: dict[str, list[str]]) -> str:
    lines = [
        "'use strict';",
        header("//", SOURCE).rstrip(),
        "// The knob vocabulary: every value of each knob, as the spec names them (spec/README.md,",
        "// \"knobs\"). A profile whose knob has a value outside these is refused at load.",
        "",
        "module.exports = Object.freeze({",
    ]
    for knob in NAMES:
        values = ", ".join(single_quoted(v) for v in knobs[knob])
        lines.append(f"  {knob}: Object.freeze([{values}]),")
    lines.append("});")
    return "\n".join(lines) + "\n"
