#!/usr/bin/env python3
"""cli_limits.py - resource measurements for tests/test_cli.sh (the `pqt cat` output tests).

  cli_limits.py run CMD...       run CMD, stdout to /dev/null: prints "STATUS PEAK_KB CPU_S"
  cli_limits.py head1 CMD...     run CMD with SIGPIPE ignored and stdout a pipe; read one line,
                                 close the pipe, wait: prints "STATUS PEAK_KB CPU_S ERR_BYTES LINE"
  cli_limits.py width FILE       display width of every line of FILE, East Asian wide and
                                 fullwidth characters 2 cells, combining marks 0 (unicodedata)

PEAK_KB is the child's peak resident set (ru_maxrss), CPU_S its user + system time, both from
wait4 on that one child.
"""
import os
import signal
import subprocess
import sys
import unicodedata


def wait_child(p):
    """Exit status (or -signal), peak KB and CPU seconds of exactly this child (wait4: other
    children of this interpreter, if any, do not count)."""
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = 0  # reaped here; keep Popen from waiting again
    st = os.waitstatus_to_exitcode(status)
    return st, ru.ru_maxrss, ru.ru_utime + ru.ru_stime


def cmd_run(argv):
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    st, peak, cpu = wait_child(p)
    print(st, peak, "%.3f" % cpu)


def cmd_head1(argv):
    # restore_signals=False: the child inherits SIGPIPE ignored, as under `trap '' PIPE`.
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         restore_signals=False)
    line = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    st, peak, cpu = wait_child(p)
    print(st, peak, "%.3f" % cpu, len(err), line.decode("utf-8", "replace").rstrip("\n"))


def cells(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch) or ch in "\u200b\u200d\ufe0f":
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def cmd_width(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            print(cells(line.rstrip("\n")))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    {"run": cmd_run, "head1": cmd_head1}.get(sys.argv[1], lambda a: cmd_width(a[0]))(sys.argv[2:])
