#!/usr/bin/env python3
"""Compare pqt's `cat --format jsonl` output with an expected jsonl file (stdlib only).

    compare.py EXPECTED.jsonl ACTUAL.jsonl [--summary S.json] [--rel-tol 1e-12]
    compare.py --make-summary FULL.jsonl            (prints the summary JSON to stdout)

Row by row: the same keys in the same order; integers, strings, booleans and null exactly
(an integer must stay an integer); floats within --rel-tol relative difference, or equal after
rounding both to float32 when the expected value is a float32 value (so a FLOAT column printed
with 9 significant digits passes); "NaN"/"Infinity"/"-Infinity" are strings and compare
exactly; arrays elementwise. Without --summary both files must have the same number of rows.
With --summary (written for files longer than the expected jsonl) only the first
len(EXPECTED) rows are compared row by row, and the summary of *all* ACTUAL rows must match
S.json. Prints the first 10 differences (row numbers are 0-based) and exits 1 on any.
"""
import json
import math
import struct
import sys
import zlib
from fractions import Fraction

MAX_SHOWN = 10


class Diffs:
    def __init__(self):
        self.n = 0

    def add(self, msg):
        if self.n < MAX_SHOWN:
            print(msg)
        self.n += 1


def parse_line(line):
    """One jsonl row -> list of (key, value) pairs, order kept."""
    obj = json.loads(line, object_pairs_hook=lambda pairs: pairs)
    if not isinstance(obj, list):
        raise ValueError("row is not a JSON object")
    return obj


def read_rows(path):
    with open(path, "r", encoding="utf-8") as fh:
        text = fh.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def to_f32(x):
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except (OverflowError, struct.error):
        return None


def show(v):
    return json.dumps(v) if not isinstance(v, list) else json.dumps(v)[:200]


def float_close(e, a, rel):
    if e == a:
        return True
    if math.isnan(a) or math.isinf(a):
        return False
    if abs(e - a) <= rel * max(abs(e), abs(a)):
        return True
    e32 = to_f32(e)
    return e32 is not None and e32 == e and to_f32(a) == e


def values_equal(e, a, rel):
    """True if actual value a matches expected value e."""
    if isinstance(e, bool) or isinstance(a, bool):
        return type(e) is type(a) and e == a
    if e is None or a is None:
        return e is None and a is None
    if isinstance(e, str) or isinstance(a, str):
        return isinstance(e, str) and isinstance(a, str) and e == a
    if isinstance(e, int):
        # integers are exact and must be printed as integers
        return isinstance(a, int) and e == a
    if isinstance(e, float):
        return isinstance(a, (int, float)) and float_close(e, float(a), rel)
    if isinstance(e, list):
        # pairs lists from parse_line are lists of tuples; JSON arrays are lists of values
        return (isinstance(a, list) and len(a) == len(e)
                and all(values_equal(x, y, rel) for x, y in zip(e, a)))
    return False


def plain(v):
    """Undo object_pairs_hook for display and nested values (objects are not in the contract)."""
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, tuple):
        return [plain(x) for x in v]
    return v


def compare_row(r, exp, act, rel, diffs):
    ek = [k for k, _ in exp]
    ak = [k for k, _ in act]
    if ek != ak:
        missing = [k for k in ek if k not in ak]
        extra = [k for k in ak if k not in ek]
        detail = []
        if missing:
            detail.append("missing %s" % missing)
        if extra:
            detail.append("unexpected %s" % extra)
        if not detail:
            detail.append("order %s, expected %s" % (ak, ek))
        diffs.add("row %d: keys differ: %s" % (r, "; ".join(detail)))
    av = {}
    for k, v in act:
        av.setdefault(k, v)
    for k, v in exp:
        if k not in av:
            continue
        if not values_equal(v, av[k], rel):
            diffs.add("row %d key %s: expected %s, actual %s" % (r, json.dumps(k), show(plain(v)), show(plain(av[k]))))


# ------------------------------------------------------------------------------------------
# Summary: per column, over all rows. Array elements count individually.

def new_col():
    return {"non_null": 0, "n_int": 0, "int_sum": 0, "n_float": 0, "float_sum": 0.0,
            "abs_sum": 0.0, "n_str": 0, "str_bytes": 0, "str_crc": 0, "n_true": 0,
            "n_false": 0, "n_lists": 0, "n_elems": 0}


def add_scalar(c, v, fsum_parts):
    if isinstance(v, bool):
        c["n_true" if v else "n_false"] += 1
    elif isinstance(v, int):
        c["n_int"] += 1
        c["int_sum"] += v
        c["abs_sum"] += abs(float(v))
    elif isinstance(v, float):
        c["n_float"] += 1
        fsum_parts.append(v)
        c["abs_sum"] += abs(v)
    elif isinstance(v, str):
        b = v.encode("utf-8")
        c["n_str"] += 1
        c["str_bytes"] += len(b)
        c["str_crc"] = (c["str_crc"] + zlib.crc32(b)) % (1 << 32)


def make_summary(lines):
    cols = {}
    parts = {}
    for line in lines:
        for k, v in parse_line(line):
            c = cols.get(k)
            if c is None:
                c = cols[k] = new_col()
                parts[k] = []
            if v is None:
                continue
            c["non_null"] += 1
            if isinstance(v, list):
                c["n_lists"] += 1
                c["n_elems"] += len(v)
                for x in v:
                    add_scalar(c, x, parts[k])
            else:
                add_scalar(c, v, parts[k])
    for k, c in cols.items():
        c["float_sum"] = math.fsum(parts[k])
    return {"rows": len(lines), "columns": cols}


EXACT_FIELDS = ("non_null", "n_str", "str_bytes", "str_crc", "n_true", "n_false", "n_lists", "n_elems")


def compare_summary(exp, act, diffs):
    if exp["rows"] != act["rows"]:
        diffs.add("summary: expected %d rows in total, actual %d" % (exp["rows"], act["rows"]))
    ek, ak = list(exp["columns"]), list(act["columns"])
    if ek != ak:
        diffs.add("summary: columns differ: expected %s, actual %s" % (ek, ak))
    for k in ek:
        e = exp["columns"][k]
        a = act["columns"].get(k)
        if a is None:
            continue
        for f in EXACT_FIELDS:
            if e[f] != a[f]:
                diffs.add("summary column %s: %s expected %s, actual %s" % (json.dumps(k), f, e[f], a[f]))
        # Numbers: exact when the expected column holds only integers; otherwise the total is
        # compared relative to the sum of magnitudes (a float column may be printed 3 or 3.0).
        if e["n_int"] + e["n_float"] != a["n_int"] + a["n_float"]:
            diffs.add("summary column %s: expected %d numbers, actual %d"
                      % (json.dumps(k), e["n_int"] + e["n_float"], a["n_int"] + a["n_float"]))
        if e["n_float"] == 0:
            if a["n_float"] != 0 or e["int_sum"] != a["int_sum"]:
                diffs.add("summary column %s: integer sum expected %d, actual %s%s"
                          % (json.dumps(k), e["int_sum"], a["int_sum"],
                             " (and %d floats)" % a["n_float"] if a["n_float"] else ""))
        else:
            te = Fraction(e["int_sum"]) + Fraction(e["float_sum"])
            ta = Fraction(a["int_sum"]) + Fraction(a["float_sum"])
            scale = max(e["abs_sum"], a["abs_sum"], 1e-300)
            if abs(float(te - ta)) > 1e-9 * scale:
                diffs.add("summary column %s: numeric sum expected %r, actual %r"
                          % (json.dumps(k), float(te), float(ta)))


# ------------------------------------------------------------------------------------------

def compare_files(expected_path, actual_path, summary_path=None, rel=1e-12):
    diffs = Diffs()
    exp_lines = read_rows(expected_path)
    act_lines = read_rows(actual_path)
    summary = None
    if summary_path:
        with open(summary_path, "r", encoding="utf-8") as fh:
            summary = json.load(fh)
        if len(act_lines) < len(exp_lines):
            diffs.add("actual has %d rows, expected at least %d" % (len(act_lines), len(exp_lines)))
    elif len(act_lines) != len(exp_lines):
        diffs.add("row count: expected %d, actual %d" % (len(exp_lines), len(act_lines)))
    for r in range(min(len(exp_lines), len(act_lines))):
        exp = parse_line(exp_lines[r])
        try:
            act = parse_line(act_lines[r])
        except ValueError as err:
            diffs.add("row %d: actual is not a JSON object (%s): %s" % (r, err, act_lines[r][:200]))
            continue
        compare_row(r, exp, act, rel, diffs)
    if summary is not None:
        try:
            act_summary = make_summary(act_lines)
        except ValueError as err:
            diffs.add("summary: actual output is not valid jsonl (%s)" % err)
        else:
            compare_summary(summary, act_summary, diffs)
    if diffs.n > MAX_SHOWN:
        print("... %d differences in all" % diffs.n)
    return diffs.n


def main(argv):
    args = argv[1:]
    if len(args) == 2 and args[0] == "--make-summary":
        s = make_summary(read_rows(args[1]))
        sys.stdout.write(json.dumps(s, indent=1) + "\n")
        return 0
    summary = None
    rel = 1e-12
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--summary" and i + 1 < len(args):
            summary = args[i + 1]
            i += 2
        elif args[i] == "--rel-tol" and i + 1 < len(args):
            rel = float(args[i + 1])
            i += 2
        else:
            pos.append(args[i])
            i += 1
    if len(pos) != 2:
        sys.stderr.write(__doc__)
        return 2
    n = compare_files(pos[0], pos[1], summary, rel)
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
