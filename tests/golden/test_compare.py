#!/usr/bin/env python3
"""Self-test of compare.py on hand-made cases. Run: python3 tests/golden/test_compare.py"""
import contextlib
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

EXPECTED = (
    '{"i":9007199254740993,"f":1.100000023841858,"d":0.1,"s":"h\\u00e9\\"llo","b":true,'
    '"n":null,"nan":"NaN","inf":"-Infinity","l":[1,null,3],"fl":[0.5,"NaN"],"t":"2009-03-01T00:00:00.000000Z"}\n'
    '{"i":-1,"f":3.0,"d":-0.0,"s":"","b":false,"n":null,"nan":1.5,"inf":"Infinity","l":[],"fl":null,"t":null}\n'
)

failures = 0


def run(name, actual, want_diffs, summary=None, expected=EXPECTED):
    global failures
    with tempfile.TemporaryDirectory() as d:
        e = os.path.join(d, "e.jsonl")
        a = os.path.join(d, "a.jsonl")
        with open(e, "w", encoding="utf-8") as fh:
            fh.write(expected)
        with open(a, "w", encoding="utf-8") as fh:
            fh.write(actual)
        s = None
        if summary is not None:
            s = os.path.join(d, "s.json")
            with open(s, "w", encoding="utf-8") as fh:
                json.dump(summary, fh)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            n = compare.compare_files(e, a, s)
    ok = (n > 0) == want_diffs
    print("%s %s (%d differences)" % ("ok  " if ok else "FAIL", name, n))
    if not ok:
        failures += 1
        print("    " + out.getvalue().replace("\n", "\n    "))


def sub(old, new, text=EXPECTED):
    assert old in text, old
    return text.replace(old, new, 1)


# identical, and equivalent spellings
run("identical", EXPECTED, False)
run("other whitespace and escapes", sub('"s":"h\\u00e9\\"llo"', '"s" : "hé\\"llo"').replace(",", ", "), False)
run("float printed with 17 digits", sub("1.100000023841858", "1.1000000238418579"), False)
run("FLOAT printed as float32 (%.9g)", sub("1.100000023841858", "1.10000002"), False)
run("float-valued integer printed 3", sub('"f":3.0', '"f":3'), False)
run("-0.0 vs 0", sub('"d":-0.0', '"d":0'), False)
run("float within 1e-12", sub('"d":0.1', '"d":0.10000000000000002'), False)
run("no trailing newline", EXPECTED.rstrip("\n"), False)
# differences
run("integer off by one beyond 2^53", sub("9007199254740993", "9007199254740992"), True)
run("integer printed as float", sub('"i":-1', '"i":-1.0'), True)
run("float off by 1e-9", sub('"d":0.1', '"d":0.1000000001'), True)
run("string differs", sub('"s":""', '"s":" "'), True)
run("bool vs int", sub('"b":true', '"b":1'), True)
run("null vs 0", sub('"n":null', '"n":0', ), True)
run("NaN as bare token", sub('"nan":"NaN"', '"nan":NaN'), True)
run("Infinity sign", sub('"inf":"-Infinity"', '"inf":"Infinity"'), True)
run("array element", sub('"l":[1,null,3]', '"l":[1,0,3]'), True)
run("array length", sub('"l":[]', '"l":[null]'), True)
run("empty array vs null", sub('"l":[]', '"l":null'), True)
run("timestamp lacks Z", sub("00.000000Z", "00.000000"), True)
run("keys reordered", sub('"i":-1,"f":3.0', '"f":3.0,"i":-1'), True)
run("key missing", sub('"n":null,"nan":1.5', '"nan":1.5'), True)
run("extra key", sub('"t":null}', '"t":null,"x":1}'), True)
run("struct as nested object", sub('"t":null}', '"t":{"a":null}}'), True)
run("row missing", EXPECTED.split("\n")[0] + "\n", True)
run("extra row", EXPECTED + "{}\n", True)
run("not json", sub('"t":null}', '"t":null'), True)
run("empty objects", "{}\n{}\n", False, expected="{}\n{}\n")
run("empty objects count", "{}\n", True, expected="{}\n{}\n")

# summaries: expected holds the first row, the summary covers both
full = EXPECTED.split("\n")[:2]
summary = compare.make_summary(full)
head = full[0] + "\n"
run("summary match", EXPECTED, False, summary=summary, expected=head)
run("summary: float column printed differently", sub('"f":3.0', '"f":3.0000000000001'), False,
    summary=summary, expected=head)
run("summary: second row value differs", sub('"i":-1', '"i":-2'), True, summary=summary, expected=head)
run("summary: second row string differs", sub('"s":""', '"s":"x"'), True, summary=summary, expected=head)
run("summary: same-length string differs (crc)", sub('"inf":"Infinity"', '"inf":"Infinitz"'), True,
    summary=summary, expected=head)
run("summary: row missing", head, True, summary=summary, expected=head)
run("summary: bool flipped", sub('"b":false', '"b":true'), True, summary=summary, expected=head)
run("summary: list element", sub('"l":[]', '"l":[4]'), True, summary=summary, expected=head)

print("test_compare: %s" % ("all passed" if not failures else "%d FAILED" % failures))
sys.exit(1 if failures else 0)
