#!/usr/bin/env python3
"""Records what the real libketama does with each servers file of
tests/dropin/libketama-files.json into tests/vectors/dropin/libketama-files.json.

Run by generate.sh (which builds libketama and probe.c in a temporary folder):
    record.py PROBE LIBDIR SOURCE_DESCRIPTION
Each file is rolled by a fresh probe process with a 5 s limit: a crash is recorded with its
signal, a run past the limit as a hang (the process group is killed). The System V semaphore
and segment libketama keys by ftok(file, 'R') are removed after each case, also when the probe
crashed or hung before ketama_smoke removed them.
"""
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
inputs = os.path.join(root, "tests", "dropin", "libketama-files.json")
output = os.path.join(root, "tests", "vectors", "dropin", "libketama-files.json")
LIMIT_S = 5


def ftok_key(path):
    """libketama's ftok(path, 'R') key (glibc: inode low 16 bits, device low 8, 'R')."""
    st = os.stat(path)
    return (st.st_ino & 0xFFFF) | ((st.st_dev & 0xFF) << 16) | (ord("R") << 24)


def remove_ipc(key):
    for flag in ("-S", "-M"):
        subprocess.run(["ipcrm", flag, str(key)], capture_output=True, check=False)


def place(case, folder):
    """The path to roll for a case (a written file, or what `path` names)."""
    kind = case.get("path")
    if kind is None:
        data = bytes.fromhex(case["hex"]) if "hex" in case else case["text"].encode("utf-8")
        p = os.path.join(folder, "servers")
        with open(p, "wb") as f:
            f.write(data)
        return p
    if kind == "directory":
        p = os.path.join(folder, "servers.d")
        os.mkdir(p)
        return p
    if kind == "fifo":
        p = os.path.join(folder, "servers.fifo")
        os.mkfifo(p)
        return p
    if kind == "missing":
        return os.path.join(folder, "no-such-servers")
    return kind  # a device such as /dev/null


def run(probe, libdir, path, keys_file):
    env = {"LD_LIBRARY_PATH": libdir, "PATH": os.environ.get("PATH", "")}
    p = subprocess.Popen([probe, path, keys_file], stdout=subprocess.PIPE, env=env,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return {"outcome": "hang", "after_s": LIMIT_S}
    if p.returncode < 0:
        return {"outcome": "crash", "signal": signal.Signals(-p.returncode).name}
    lines = out.decode("ascii").splitlines()
    rec = {}
    points, expect = [], []
    for line in lines:
        tag, _, rest = line.partition(" ")
        if tag == "ROLL":
            rec["roll"] = int(rest)
        elif tag == "ERROR":
            rec["error_hex"] = rest
        elif tag == "POINTS":
            rec["numpoints"] = int(rest)
        elif tag == "P":
            point, _, ip = rest.partition(" ")
            points.append(b"%s %s\n" % (point.encode(), bytes.fromhex(ip)))
        elif tag == "K":
            expect.append(rest)
    return rec, points, expect


def main():
    probe, libdir, source = sys.argv[1:4]
    with open(inputs, encoding="utf-8") as f:
        doc = json.load(f)
    keys = doc["keys"]
    recorded = []
    with tempfile.TemporaryDirectory() as tmp:
        keys_file = os.path.join(tmp, "keys")
        with open(keys_file, "w") as f:
            f.write("".join(k.encode("utf-8").hex() + "\n" for k in keys))
        for i, case in enumerate(doc["cases"]):
            folder = os.path.join(tmp, str(i))
            os.mkdir(folder)
            path = place(case, folder)
            key = ftok_key(path) if os.path.exists(path) else None
            result = run(probe, libdir, path, keys_file)
            if key is not None:
                remove_ipc(key)
            if isinstance(result, dict):
                out = result
            else:
                rec, points, expect = result
                error = bytes.fromhex(rec["error_hex"]).decode("utf-8", "replace").replace(path, "FILE")
                if rec["roll"] == 1:
                    out = {"outcome": "ok", "numpoints": rec["numpoints"],
                           "points_md5": hashlib.md5(b"".join(points)).hexdigest(),
                           "expect_hex": expect}
                else:
                    out = {"outcome": "refused", "error": error}
            recorded.append({"name": case["name"], "libketama": out})
            print(f"{case['name']}: {out['outcome']}", file=sys.stderr)
    vec = {
        "kind": "libketama-files",
        "source": source,
        "about": "What the real libketama did with each servers file of tests/dropin/libketama-files.json "
                 "(same order): ok (numpoints; points_md5 = MD5 of every point as \"<point> <ip>\\n\", "
                 "ip = mcs.ip's bytes up to 22 or a NUL; expect_hex = ketama_get_server(key)->ip per key "
                 "of that file, hex), refused (ketama_error(), the path written FILE), crash (signal) or "
                 "hang (killed after the limit).",
        "cases": recorded,
    }
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with open(output, "w", encoding="utf-8") as f:
        f.write(json.dumps(vec, indent=1) + "\n")
    print(f"wrote {output}", file=sys.stderr)


if __name__ == "__main__":
    main()
