#!/usr/bin/env python3
"""Live oracles: pecl memcache (PHP) and twemproxy (nutcracker).

Neither client says which server a key goes to (pecl's findServer() does, and is checked here
against live storage on every key), so every key is stored through the client into real
memcached daemons listening on loopback (127.0.0.0/8 only), then each daemon is asked directly
(ASCII `get`) which keys it holds. Every key must be found on exactly one daemon, with this
vector's unique value, else the script fails.

Called by generate.sh (which owns the trap that kills every process listed in WORK/pids).
Only the Python standard library is used.
"""

import argparse
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the oracle
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from live_common import Procs  # noqa: E402
from live_pecl import run_pecl  # noqa: E402
from live_twemproxy import run_twemproxy  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", choices=["pecl", "twemproxy", "twemproxy-hash-tag"])
    a = ap.parse_args()
    procs = Procs(a.work)
    run_id = "%d-%d" % (os.getpid(), int(time.time()))
    try:
        if a.only in (None, "pecl"):
            run_pecl(procs, a.work, a.out, run_id)
        if a.only in (None, "twemproxy"):
            run_twemproxy(procs, a.work, a.out, run_id)
        if a.only in (None, "twemproxy-hash-tag"):
            run_twemproxy(procs, a.work, a.out, run_id, tags=True)
        procs.check_no_evictions()
    finally:
        procs.stop_all()


if __name__ == "__main__":
    main()
