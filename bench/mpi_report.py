#!/usr/bin/env python3
"""bench/mpi_report.py RAW.jsonl: the Markdown table of `make bench-mpi` (bench/mpi_run.sh).

Each line is one configuration's runs (seconds of the slowest rank per run). A ratio is
median / median of the configuration it is compared with, with the range of the run ratios
(fastest against slowest and back) as min-max."""
import json
import statistics
import sys


def load(path):
    rows = [json.loads(line) for line in open(path) if line.strip().startswith("{")]
    return rows


def med(r):
    return statistics.median(r["seconds"])


def ratio(a, b):
    lo = min(a["seconds"]) / max(b["seconds"])
    hi = max(a["seconds"]) / min(b["seconds"])
    return f"{med(a) / med(b):.2f} ({lo:.2f}-{hi:.2f})"


def ms(r):
    s = r["seconds"]
    return f"{1000 * med(r):.0f} ({1000 * min(s):.0f}-{1000 * max(s):.0f})"


def main():
    rows = load(sys.argv[1])
    out = ["| what | ranks x threads | ms median (min-max) | footers read | ratio (min-max) |",
           "| --- | --- | --- | --- | --- |"]

    def find(**kw):
        for r in rows:
            if all(r.get(k) == v for k, v in kw.items()):
                return r
        return None

    for ds in ("hive1000", "hats"):
        one = find(data=ds, bench="open", ranks=1, every_rank=0)
        coll = next((r for r in rows if r.get("data") == ds and r.get("bench") == "open"
                     and r["ranks"] > 1 and r["every_rank"] == 0), None)
        each = next((r for r in rows if r.get("data") == ds and r.get("bench") == "open"
                     and r["ranks"] > 1 and r["every_rank"] == 1), None)
        if one:
            out.append(f"| open {ds}, one rank | 1 x 1 | {ms(one)} | {one['footers_read']} | 1 |")
        if coll and one:
            out.append(f"| open {ds}, collective | {coll['ranks']} x 1 | {ms(coll)} | "
                       f"{coll['footers_read']} | {ratio(coll, one)} of one rank |")
        if each and one:
            out.append(f"| open {ds}, every rank alone | {each['ranks']} x 1 | {ms(each)} | "
                       f"{each['footers_read']} | {ratio(each, one)} of one rank |")
    mpi = find(bench="w1", ranks=2)
    thr = find(bench="w1", ranks=1)
    if mpi and thr:
        same = all(abs(a - b) <= 1e-9 * max(1.0, abs(b)) for a, b in zip(mpi["sums"], thr["sums"]))
        out.append(f"| W1t snappy, 1 process | 1 x 2 | {ms(thr)} | 1 | 1 |")
        out.append(f"| W1t snappy, MPI | 2 x 1 | {ms(mpi)} | {mpi['footers_read']} | "
                   f"{ratio(mpi, thr)} of 1 x 2{'' if same else ' (SUMS DIFFER)'} |")
    wm = next((r for r in rows if r.get("bench") == "mpi_write" and not r.get("serial")), None)
    ws = next((r for r in rows if r.get("bench") == "mpi_write" and r.get("serial")), None)
    if wm and ws:
        out.append(f"| write, one process | 1 x 1 | {ms(ws)} | | 1 |")
        out.append(f"| write, shared file | {wm['ranks']} x 1 | {ms(wm)} | | "
                   f"{ratio(wm, ws)} of one process |")
    print("\n".join(out))


main()
