# SPDX-License-Identifier: Apache-2.0
"""bench/arrow_report.py RAW.jsonl - the Markdown table of bench/arrow_run.sh: per cell the
stream modes' median over DuckDB's own read, with the range min(mode)/max(duckdb) -
max(mode)/min(duckdb), the peak memory of each mode, and whether the three results agree."""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
cells = {}
for r in rows:
    cells.setdefault((r["workload"], r["file"].rsplit("/", 1)[-1], r["threads"]), {})[r["mode"]] = r


def ratio(m, d):
    return (f"{m['median_ms'] / d['median_ms']:.2f} "
            f"({m['min_ms'] / d['max_ms']:.2f}–{m['max_ms'] / d['min_ms']:.2f})")


def close(a, b):
    xs, ys = a.split("|"), b.split("|")
    return len(xs) == len(ys) and all(
        abs(float(x) - float(y)) <= 1e-9 * max(1.0, abs(float(x))) for x, y in zip(xs, ys))


print("| workload | file | threads | DuckDB read_parquet | resident stream ÷ DuckDB | goal ≤ 0.8 |"
      " lazy stream ÷ DuckDB | MB held above DuckDB loaded: DuckDB's read / resident columns + stream / lazy stream |"
      " results |")
print("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- |")
for (wl, f, t), m in sorted(cells.items()):
    d, res, lazy = m.get("duckdb"), m.get("resident"), m.get("lazy")
    if not (d and res and lazy):
        continue
    goal = "met" if res["median_ms"] / d["median_ms"] <= 0.8 else "not met"
    agree = "agree" if close(d["result"], res["result"]) and close(d["result"], lazy["result"]) \
        else f"DIFFER: {d['result']} / {res['result']} / {lazy['result']}"
    mb = lambda kb: f"{kb / 1024:.0f}"  # noqa: E731
    above = lambda r: r["maxrss_kb"] - r["maxrss_base_kb"]  # noqa: E731
    print(f"| {wl} | {f} | {t} | {d['median_ms']:.1f} ms ({d['min_ms']:.1f}–{d['max_ms']:.1f}) | "
          f"{ratio(res, d)} | {goal} | {ratio(lazy, d)} | {mb(above(d))} / "
          f"{mb(res['maxrss_before_kb'] - res['maxrss_base_kb'])} + "
          f"{mb(res['maxrss_kb'] - res['maxrss_before_kb'])} / {mb(above(lazy))} | {agree} |")
