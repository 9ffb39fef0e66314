"""Draws ns/key against server count (log-log) from bench/compare.sh's rows, as SVG written by
hand (standard library only).

    python3 bench/chart.py bench/out/results.tsv out.svg

One line per implementation of a weighted md5 lookup (the php-memcached ring; uhashring's
ketama ring for Python): ours solid, the anchors dashed. libmemcached and php-memcached stop
at 100 servers: Debian's libmemcached 1.1.4 aborts on the 101st server of a consistent ring
(an assertion left on; docs/client-notes.md); uhashring too (bench/py/compare.py --anchor-max): its ring build is
quadratic.
"""

from __future__ import annotations

import math
import sys
from typing import Dict, List, Tuple

# (label, row name, take the anchor column?, colour, dashed?)
SERIES: List[Tuple[str, str, bool, str, bool]] = [
    ("C libmemcached memcached_generate_hash", "c_lookup_md5", True, "#7f7f7f", True),
    ("C ketama_ring_lookup", "c_lookup_md5", False, "#1f77b4", False),
    ("C ketama_ring_lookup_many", "c_lookup_many_md5", False, "#17becf", False),
    ("Python uhashring 2.5 get_node", "py_get", True, "#8c564b", True),
    ("Python Ring.get", "py_get", False, "#2ca02c", False),
    ("Python Ring.get_many", "py_get_many", False, "#98df8a", False),
    ("PHP php-memcached getServerByKey", "php_get", True, "#d62728", True),
    ("PHP Ketama\\Ring::get (FFI)", "php_get", False, "#9467bd", False),
    ("PHP Ketama\\Ring::getMany (FFI)", "php_get_many", False, "#e377c2", False),
]

W, H = 940, 520
LEFT, RIGHT, TOP, BOTTOM = 70, 360, 50, 60


def load(path: str) -> Tuple[Dict[str, str], Dict[Tuple[str, int], Tuple[str, str]]]:
    facts: Dict[str, str] = {}
    rows: Dict[Tuple[str, int], Tuple[str, str]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if not parts[0]:
                continue
            if parts[0].startswith("#"):
                facts[parts[0].lstrip("# ").strip()] = parts[1] if len(parts) > 1 else ""
            elif len(parts) == 4:
                rows[(parts[0], int(parts[1]))] = (parts[2], parts[3])
    return facts, rows


def esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main() -> int:
    facts, rows = load(sys.argv[1])
    sizes = sorted({n for (name, n) in rows if name in {s[1] for s in SERIES}})
    lines: List[Tuple[str, str, bool, List[Tuple[int, float]]]] = []
    for label, name, anchor, colour, dashed in SERIES:
        pts = []
        for n in sizes:
            r = rows.get((name, n))
            if r is None:
                continue
            cell = r[0] if anchor else r[1]
            if cell != "-":
                pts.append((n, float(cell)))
        if pts:
            lines.append((label, colour, dashed, pts))
    values = [v for *_, pts in lines for _, v in pts]
    if not values or not sizes:
        raise SystemExit("chart.py: no rows to draw")
    ylo = 10 ** math.floor(math.log10(min(values)))
    yhi = 10 ** math.ceil(math.log10(max(values)))
    xlo, xhi = math.log10(min(sizes)), math.log10(max(sizes))
    if xhi == xlo:
        xhi = xlo + 1
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(n: float) -> float:
        return LEFT + (math.log10(n) - xlo) / (xhi - xlo) * pw

    def y(v: float) -> float:
        return TOP + ph - (math.log10(v) - math.log10(ylo)) / (math.log10(yhi) - math.log10(ylo)) * ph

    out: List[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{W}" height="{H}" fill="white"/>',
        f'<text x="{LEFT}" y="22" font-size="15" font-weight="bold">ns per key (log) against servers (log): '
        "weighted md5 lookups</text>",
        f'<text x="{LEFT}" y="39" fill="#555">{esc(facts.get("date", ""))}, {esc(facts.get("machine", ""))}, '
        f'load average {esc(facts.get("load average before", "?"))}</text>',
    ]
    # grid: decades and their 2x, 5x on y; each size on x
    d = ylo
    while d <= yhi * 1.0001:
        for m in (1, 2, 5):
            v = d * m
            if v > yhi * 1.0001:
                break
            yy = y(v)
            out.append(f'<line x1="{LEFT}" y1="{yy:.1f}" x2="{LEFT + pw}" y2="{yy:.1f}" '
                       f'stroke="{"#ccc" if m == 1 else "#eee"}"/>')
            out.append(f'<text x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end">{v:,.0f}</text>')
        d *= 10
    for n in sizes:
        xx = x(n)
        out.append(f'<line x1="{xx:.1f}" y1="{TOP}" x2="{xx:.1f}" y2="{TOP + ph}" stroke="#ddd"/>')
        out.append(f'<text x="{xx:.1f}" y="{TOP + ph + 18}" text-anchor="middle">{n:,}</text>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 15}" text-anchor="middle">servers (equal weights)</text>')
    out.append(f'<text transform="translate(18,{TOP + ph / 2}) rotate(-90)" text-anchor="middle">ns per key</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
    for i, (label, colour, dashed, pts) in enumerate(lines):
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        path = " ".join(f"{'M' if j == 0 else 'L'}{x(n):.1f},{y(v):.1f}" for j, (n, v) in enumerate(pts))
        out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for n, v in pts:
            out.append(f'<circle cx="{x(n):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}">'
                       f"<title>{esc(label)}: {v:,.0f} ns/key at {n:,} servers</title></circle>")
        ly = TOP + 10 + i * 20
        lx = LEFT + pw + 15
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 28}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{lx + 34}" y="{ly + 4}">{esc(label)}</text>')
    note_y = TOP + 10 + len(lines) * 20 + 14
    for j, t in enumerate(["dashed: the anchors; solid: ketama",
                           "libmemcached, php-memcached: 100 servers at most",
                           "(Debian's build aborts on the 101st: an assertion)",
                           "uhashring: 100 servers at most (its ring build",
                           "is quadratic: about 20 s for 1,000 servers)"]):
        out.append(f'<text x="{LEFT + pw + 15}" y="{note_y + j * 16}" fill="#555">{esc(t)}</text>')
    out.append("</svg>")
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
