#!/usr/bin/env python3
"""run_example.py - run one Fortran program of fortran/ in a scratch directory and judge it.

    run_example.py --exe PROGRAM [--data SRC[=NAME]]... [--env K=V]...
                   [--expected FILE --name NAME] [--match REGEX] [--fail REGEX] [--http-server]

--data copies SRC into the scratch directory (as NAME when given): the example programs open
"big.parquet", "catalogue.maml" and so on by bare name, and two of them want different
catalogue.maml files. With --expected, the line of FILE starting with NAME lists what the
program must print: its number tokens, in order, equal the expected numbers (relative 1e-12,
a float printed by list-directed output is rounded), and every other expected token (kg, T)
appears among its tokens. A program that checks itself prints "FAIL" for each failed check
and exits non-zero; any "FAIL" token fails the test. --match: the output must match REGEX
(a warning the program cannot see itself). With --fail the program must exit
non-zero with output matching REGEX (an `error stop` path). --http-server serves the scratch
directory with tests/remote/http_server.py for the program's run (its URL in PQT_TEST_BASE),
and the test fails unless the program fetched byte ranges from it.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'remote',
                      'http_server.py')


def start_server(root, env):
    """tests/remote/http_server.py on root; its process and log path, PQT_TEST_BASE set."""
    log = os.path.join(root, 'requests.jsonl')
    srv = subprocess.Popen([sys.executable, SERVER, '--root', root, '--log', log],
                           stdout=subprocess.PIPE, text=True)
    line = srv.stdout.readline()
    if not line.startswith('PORT '):
        srv.kill()
        raise SystemExit('FAILED: the test server did not start')
    env['PQT_TEST_BASE'] = 'http://127.0.0.1:' + line.split()[1]
    return srv, log


def number(tok):
    try:
        return float(tok)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--exe', required=True)
    ap.add_argument('--data', action='append', default=[])
    ap.add_argument('--env', action='append', default=[])
    ap.add_argument('--expected')
    ap.add_argument('--name')
    ap.add_argument('--match')
    ap.add_argument('--fail')
    ap.add_argument('--http-server', action='store_true')
    a = ap.parse_args()

    env = dict(os.environ)
    for kv in a.env:
        k, v = kv.split('=', 1)
        env[k] = v
    with tempfile.TemporaryDirectory(prefix='pqt-fortran-') as tmp:
        for d in a.data:
            src, _, name = d.partition('=')
            shutil.copy(src, os.path.join(tmp, name or os.path.basename(src)))
        srv = log = None
        if a.http_server:
            srv, log = start_server(tmp, env)
        try:
            p = subprocess.run([os.path.abspath(a.exe)], cwd=tmp, env=env, capture_output=True,
                               text=True, timeout=600)
        finally:
            if srv:
                srv.kill()
                srv.wait()
        ranged = 0
        if log:
            with open(log) as f:
                ranged = sum('"status": 206' in line for line in f)
    out = p.stdout + p.stderr
    if a.http_server and ranged < 2:
        sys.stdout.write(out)
        print(f'FAILED: {ranged} range requests reached the test server')
        return 1
    sys.stdout.write(out)

    if a.fail:
        if p.returncode == 0:
            print(f'FAILED: expected a non-zero exit (error stop), got 0')
            return 1
        if not re.search(a.fail, out):
            print(f'FAILED: the output does not match {a.fail!r}')
            return 1
        print(f'ok: exit {p.returncode}, message matches {a.fail!r}')
        return 0

    if p.returncode != 0:
        print(f'FAILED: exit status {p.returncode}')
        return 1
    toks = out.split()
    if 'FAIL' in toks:
        print('FAILED: the program reported a failed check')
        return 1
    if a.match and not re.search(a.match, out):
        print(f'FAILED: the output does not match {a.match!r}')
        return 1
    if not a.expected:
        return 0
    want = None
    with open(a.expected) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == a.name:
                want = parts[1:]
    if want is None:
        print(f'FAILED: no line for {a.name} in {a.expected}')
        return 1
    got_nums = [x for x in (number(t) for t in toks) if x is not None]
    want_nums = [x for x in (number(t) for t in want) if x is not None]
    bad = len(got_nums) != len(want_nums) or any(
        abs(g - w) > 1e-12 * max(abs(w), 1.0) for g, w in zip(got_nums, want_nums))
    missing = [t for t in want if number(t) is None and t not in toks]
    if bad or missing:
        print(f'FAILED: expected {want} (numbers {want_nums}), got numbers {got_nums}'
              + (f', missing {missing}' if missing else ''))
        return 1
    print(f'ok: {a.name} printed {want}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
