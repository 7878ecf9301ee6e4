#!/usr/bin/env bash
# test_cli_output.sh - what `pqt cat`, `schema` and `meta` print, checked against expected
# text written by hand from the files' generators (tests/data/make_*.mjs, whose comments
# list every value): duplicate top-level names, nested structs in jsonl, type labels, nulls
# against the string "null", negative times, format names, typed statistics, --explain and
# `pqt stats`.
# Usage (ctest does this from the repository root): bash tests/test_cli_output.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_output.sh PATH_TO_PQT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0
export LC_ALL=C PQT_ISATTY=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

run() {
    "$PQT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
}

# expect WHAT FILE: FILE ($TMP/out or $TMP/err) is exactly stdin
expect() {
    cat >"$TMP/want"
    if ! cmp -s "$2" "$TMP/want"; then
        fail "$1: output differs:"
        diff "$TMP/want" "$2" | head -20 >&2
    fi
}

status() { [ "$rc" -eq "$1" ] || fail "$2: status $rc, want $1 ($(head -2 "$TMP/err"))"; }

# ---- 1. duplicate top-level names (tests/data/make_dup_names.mjs): a, a, a_1, s{b}, s{c}
D=tests/data/dup_names.parquet
run cat "$D" -f csv
status 0 "dup csv"
expect "dup names: csv header uses the unique names" "$TMP/out" <<'X'
a,a_2,a_1,s.b,s_1.c
1,10,100,7,x
2,20,,,
X
expect "dup names: a note on stderr" "$TMP/err" <<X
pqt: $D: note: top-level field 2 is a second 'a': read as 'a_2'
pqt: $D: note: top-level field 5 is a second 's': read as 's_1'
X
run cat "$D" -c a_2,s_1.c,a -f csv
status 0 "dup by name"
expect "dup names: every column reachable by name" "$TMP/out" <<'X'
a_2,s_1.c,a
10,x,1
20,,2
X
run schema "$D"
expect "dup names: schema notes" "$TMP/out" <<X
$D: 2 rows, 1 row group, 5 columns (5 readable)
node           repetition  physical    logical  column  kind
duckdb_schema  required
  a            optional    INT32       INT_32   a       int32
  a            optional    INT32       INT_32   a_2     int32
  a_1          optional    INT32       INT_32   a_1     int32
  s            optional
    b          optional    INT32       INT_32   s.b     int32
  s            optional
    c          optional    BYTE_ARRAY  UTF8     s_1.c   string
note: top-level field 2 is a second 'a': read as 'a_2'
note: top-level field 5 is a second 's': read as 's_1'
X
run schema "$D" -f json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = [(n["name"], n["column"], n["read_name"]) for n in d["nodes"][1:]]
want = [("a", "a", "a"), ("a", "a_2", "a_2"), ("a_1", "a_1", "a_1"), ("s", None, "s"),
        ("b", "s.b", "b"), ("s", None, "s_1"), ("c", "s_1.c", "c")]
sys.exit(0 if got == want else "schema json: %r" % got)' "$TMP/out" || fail "dup names: schema json read_name"

# ---- 3. structs nest in jsonl (tests/data/make_struct_nulls.mjs lists the rows); a null
# struct shows as its members' nulls (the reader does not expose struct validity)
S=tests/data/struct_nulls.parquet
run cat "$S" -f jsonl
status 0 "struct jsonl"
expect "structs nest" "$TMP/out" <<'X'
{"id":1,"s":{"a":1,"b":"x","t":{"x":1.5},"l":[1,2]},"z":"z1"}
{"id":2,"s":{"a":null,"b":null,"t":{"x":null},"l":null},"z":"z2"}
{"id":3,"s":{"a":null,"b":"y","t":{"x":null},"l":null},"z":null}
{"id":4,"s":{"a":null,"b":null,"t":{"x":null},"l":[]},"z":"z4"}
{"id":5,"s":{"a":5,"b":null,"t":{"x":5.5},"l":[null,3]},"z":"z5"}
{"id":6,"s":{"a":null,"b":null,"t":{"x":null},"l":null},"z":"z6"}
X
run cat "$S" -f jsonl -c s.t.x,id,s.b,z,s.a -n 1
expect "a struct's members come together at the first one's place" "$TMP/out" <<'X'
{"s":{"t":{"x":1.5},"b":"x","a":1},"id":1,"z":"z1"}
X
run cat "$S" -f jsonl -c s.t.x,id,s.b -n 1 --dotted-keys
expect "--dotted-keys: flat keys in the order asked" "$TMP/out" <<'X'
{"s.t.x":1.5,"id":1,"s.b":"x"}
X
run cat "$D" -f jsonl
expect "renamed structs nest under their new names" "$TMP/out" <<'X'
{"a":1,"a_2":10,"a_1":100,"s":{"b":7},"s_1":{"c":"x"}}
{"a":2,"a_2":20,"a_1":null,"s":{"b":null},"s_1":{"c":null}}
X
run cat "$S" -f jsonl -w 'id == 5' -s -id -c z,s.a
expect "nesting with --where and --sort" "$TMP/out" <<'X'
{"z":"z5","s":{"a":5}}
X

# ---- 5. types named as the file declares them (tests/data/make_labels.mjs: TINYINT,
# UINTEGER, DECIMAL(38,10), DECIMAL(9,3)[], TIMESTAMPTZ, DATE, TIME, VARCHAR), the read kind
# beside them in schema; one name in schema, cat and meta
L=tests/data/labels.parquet
run schema "$L"
expect "schema names the file's types" "$TMP/out" <<X
$L: 3 rows, 1 row group, 10 columns (10 readable)
node           repetition  physical                  logical                 column  kind
duckdb_schema  required
  id           optional    INT32                     INT_32                  id      int32
  i8           optional    INT32                     INT_8                   i8      int8 (read as int32)
  u32          optional    INT32                     UINT_32                 u32     uint32 (read as int64)
  d38          optional    FIXED_LEN_BYTE_ARRAY(16)  DECIMAL(38,10)          d38     decimal(38,10) (read as float64)
  ld           optional                              LIST                    ld      list<decimal(9,3)> (read as list<float64>)
    list       repeated
      element  optional    INT32                     DECIMAL(9,3)
  ts           optional    INT64                     TIMESTAMP(MICROS,true)  ts      timestamp[us, UTC]
  dt           optional    INT32                     DATE                    dt      date32
  tm           optional    INT64                     TIME(MICROS,false)      tm      time[us]
  s            optional    BYTE_ARRAY                UTF8                    s       string
  s2           optional    BYTE_ARRAY                UTF8                    s2      string
X
run schema "$L" -f json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = [(c["path"], c["kind"], c["type"]) for c in d["columns"]]
want = [("id", "int32", "int32"), ("i8", "int32", "int8"), ("u32", "int64", "uint32"),
        ("d38", "float64", "decimal(38,10)"), ("ld", "list<float64>", "list<decimal(9,3)>"),
        ("ts", "timestamp", "timestamp[us, UTC]"), ("dt", "date", "date32"),
        ("tm", "time", "time[us]"), ("s", "string", "string"), ("s2", "string", "string")]
sys.exit(0 if got == want else "schema json types: %r" % got)' "$TMP/out" || fail "schema json: type"
run cat "$L" -c i8,u32,d38,ld,ts,dt -n 0
expect "cat's header names the same types" "$TMP/out" <<'X'
i8    u32     d38             ld                  ts                  dt
int8  uint32  decimal(38,10)  list<decimal(9,3)>  timestamp[us, UTC]  date32
----  ------  --------------  ------------------  ------------------  ------
showing 0 of 3 rows
X
run meta "$L"
grep '^  [a-z]' "$TMP/out" >"$TMP/chunks"
expect "meta names the same types" "$TMP/chunks" <<'X'
  id: int32 (INT32 INT_32)
  i8: int8 (INT32 INT_8)
  u32: uint32 (INT32 UINT_32)
  d38: decimal(38,10) (FIXED_LEN_BYTE_ARRAY DECIMAL(38,10))
  ld.list.element: decimal(9,3) (INT32 DECIMAL(9,3))
  ts: timestamp[us, UTC] (INT64 TIMESTAMP(MICROS,true))
  dt: date32 (INT32 DATE)
  tm: time[us] (INT64 TIME(MICROS,false))
  s: string (BYTE_ARRAY UTF8)
  s2: string (BYTE_ARRAY UTF8)
X

# ---- 4. a null and the string "null" differ: the table prints NULL for a null; csv an
# empty field for a null and "" for an empty string (labels.parquet: s = 'null', NULL, '')
run cat "$L" -c id,s,ld
expect "table: NULL for nulls, strings as they are" "$TMP/out" <<'X'
   id  s       ld
int32  string  list<decimal(9,3)>
-----  ------  -------------------
    1  null    [1.500,null,-2.250]
    2  NULL    NULL
    3          []
3 rows
X
run cat "$L" -c id,s,ld -f csv
expect "csv: empty field for null, \"\" for the empty string" "$TMP/out" <<'X'
id,s,ld
1,null,"[1.500,null,-2.250]"
2,,
3,"","[]"
X
# a string that reads NULL is quoted in the table, and only there
run cat "$L" -c s2
expect "table: the string NULL quoted" "$TMP/out" <<'X'
s2
string
------
"NULL"
NULL
x
3 rows
X
run cat "$L" -c s2 -f jsonl
expect "jsonl: the string NULL and a null" "$TMP/out" <<'X'
{"s2":"NULL"}
{"s2":null}
{"s2":"x"}
X
run help cat
grep -q 'the table prints NULL' "$TMP/out" || fail "help cat: says how nulls print"

# ---- 2. a negative TIME (labels.parquet row 1 holds -13899000000 us = -03:51:39) prints
# wrapped modulo 24 hours, in every format and in meta's statistics; never a bare count
run cat "$L" -c tm -f jsonl
expect "negative time wraps (jsonl)" "$TMP/out" <<'X'
{"tm":"20:08:21.000000"}
{"tm":null}
{"tm":"12:00:00.000000"}
X
run cat "$L" -c tm -f csv
expect "negative time wraps (csv)" "$TMP/out" <<'X'
tm
20:08:21.000000

12:00:00.000000
X
run meta "$L"
grep -A2 '^  tm:' "$TMP/out" | tail -1 >"$TMP/stat"
expect "negative time wraps (meta statistics)" "$TMP/stat" <<'X'
    statistics: min 20:08:21.000000, max 12:00:00.000000, nulls 1
X

# ---- 6. format names in any case; tsv; json (one array)
run cat "$L" -c id,s,ld,tm -f TSV
status 0 "-f TSV"
printf 'id\ts\tld\ttm\n1\tnull\t[1.500,null,-2.250]\t20:08:21.000000\n2\t\t\t\n3\t\t[]\t12:00:00.000000\n' >"$TMP/tsv"
cmp -s "$TMP/out" "$TMP/tsv" || fail "tsv: $(cat -A "$TMP/out" | head -5)"
run cat "$L" -c id -f Csv -n 1
expect "-f Csv" "$TMP/out" <<'X'
id
1
X
# schema and meta take their format names in any case too
run schema "$L" -f JSON
status 0 "schema -f JSON"
[ "$(head -c 1 "$TMP/out")" = "{" ] || fail "schema -f JSON: $(head -c 80 "$TMP/out")"
run meta "$L" -f Json
status 0 "meta -f Json"
grep -q '"nrows": ' "$TMP/out" || fail "meta -f Json: $(head -c 80 "$TMP/out")"
run cat "$L" -c id,s,ld -f json
expect "json: one array of row objects" "$TMP/out" <<'X'
[{"id":1,"s":"null","ld":[1.500,null,-2.250]},
{"id":2,"s":null,"ld":null},
{"id":3,"s":"","ld":[]}
]
X
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if [r["id"] for r in d]==[1,2,3] else 1)' "$TMP/out" ||
    fail "json: not parsed by python"
run cat "$L" -c id -f json -w 'id > 5'
expect "json: no rows is []" "$TMP/out" <<'X'
[]
X
run cat "$S" -f JSON -s -id -n 2 -c id,s.a
expect "json with --sort: structs nest" "$TMP/out" <<'X'
[{"id":6,"s":{"a":null}},
{"id":5,"s":{"a":5}}
]
X
run cat "$L" -f xml
status 2 "-f xml"

# ---- 7. meta -f json: statistics as typed JSON values, numbers in their exact text
# (exact_values.parquet: tests/data/make_exact_values.mjs; labels.parquet above)
run meta tests/data/exact_values.parquet -f json
grep -E '^ *"(min|max)": ' "$TMP/out" | head -14 | sed 's/^ *//' >"$TMP/mm"
expect "meta json: typed integer and decimal statistics" "$TMP/mm" <<'X'
"min": 0,
"max": 18446744073709551615,
"min": 0,
"max": 4294967295,
"min": 0,
"max": 65535,
"min": 0,
"max": 255,
"min": -9999.99999,
"max": 1234.56789,
"min": -12.345,
"max": 999999999999999.999,
"min": -9999999999999999999999999999.9999999999,
"max": 9999999999999999999999999999.9999999999,
X
run meta "$L" -f json
grep -E '^ *"(min|max)": ' "$TMP/out" | sed 's/^ *//' | tail -10 >"$TMP/mm"
expect "meta json: timestamps, dates, times and strings as strings" "$TMP/mm" <<'X'
"min": "1969-12-31T23:59:59.500000Z",
"max": "2024-01-02T03:04:05.000000Z",
"min": "1970-01-01",
"max": "2024-02-29",
"min": "20:08:21.000000",
"max": "12:00:00.000000",
"min": "",
"max": "null",
"min": "NULL",
"max": "x",
X

# ---- 8. --explain: runs of equal verdicts on one line, then the counters. table_rg.parquet
# (tests/data/make_table_data.mjs): ids 1..10000 in row groups of 2048, so id > 9000 prunes
# row groups 1-4 (8192 rows) and keeps 1000 of the last 1808
R=tests/data/table_rg.parquet
run count "$R" -w 'id > 9000' --explain
sed -n '3,$p' "$TMP/out" | sed 's/, [0-9]* bytes read$//' >"$TMP/x"
expect "count --explain: runs and counters" "$TMP/x" <<'X'
filter: 1 conjunct, by cost (later row groups re-rank by measured selectivity):
  1. id > 9000
row groups 1-4: pruned by statistics (id > 9000), 8192 rows skipped
row group 5: filtered, 1000 of 1808 rows kept (conjuncts 1 evaluated; 0 pages pruned by the page index; selection: runs)
counters: 5 row groups (4 pruned by statistics, 0 by the page index, 0 by dictionaries, 0 by bloom filters; 0 kept whole); 1 pages (0 skipped, 1 decompressed, 0 dictionary pages); 1808 values decoded
X
run cat "$R" -w 'id > 9000' -c id -n 1 -f csv --explain
grep -c '^counters: 5 row groups (4 pruned by statistics' "$TMP/err" >"$TMP/x"
expect "cat --explain prints the counters" "$TMP/x" <<'X'
1
X

# ---- 9. pqt stats against the formulas of table_rg.parquet (tests/data/make_table_data.mjs),
# computed here by Python: whole file and with a rule
for rule in "" "id <= 100"; do
    if [ -z "$rule" ]; then run stats "$R" -f jsonl; else run stats "$R" -f JSONL -w "$rule"; fi
    status 0 "stats ${rule:-whole file}"
    python3 - "$TMP/out" "$rule" <<'PY' || fail "stats ${rule:-whole file}: see above"
import json, math, statistics, sys
got = [json.loads(l) for l in open(sys.argv[1])]
hi = 100 if sys.argv[2] else 10000
ids = range(1, hi + 1)
cols = {
    "id": ("int64", [i for i in ids]),
    "i32": ("int32", [None if i % 7 == 0 else 3 * i for i in ids]),
    "f32": ("float32", [i / 4 for i in ids]),
    "f64": ("float64", [None if i % 11 == 0 else math.nan if i % 13 == 0 else i * 0.5 for i in ids]),
    "s": ("string", [None if i % 5 == 0 else "s%d" % i for i in ids]),
    "vec": ("vector<float32>", [[i, i + 0.5, -i] for i in ids]),
    "lst": ("list<int32>", [None if i % 17 == 0 else [i + x for x in range(i % 3)] for i in ids]),
}
bad = []
if [g["column"] for g in got] != list(cols):
    bad.append("columns %r" % [g["column"] for g in got])
for g in got:
    ty, rows = cols[g["column"]]
    present = [r for r in rows if r is not None]
    elems = [e for r in present for e in (r if isinstance(r, list) else [r])]
    vals = [e for e in elems if not (isinstance(e, float) and math.isnan(e))]
    num = ty != "string"
    want = {"type": ty, "count": len(present), "nulls": len(rows) - len(present),
            "nans": len(elems) - len(vals) if ty.startswith(("float", "vector<float")) else None,
            "min": min(vals), "max": max(vals), "distinct": len(set(vals)), "distinct_exact": True,
            "mean": statistics.mean(vals) if num else None,
            "stddev": statistics.stdev(vals) if num else None}
    for k, v in want.items():
        x = g.get(k)
        ok = (math.isclose(x, v, rel_tol=1e-9) if isinstance(v, float) and x is not None
              else x == v)
        if not ok:
            bad.append("%s %s: pqt %r, want %r" % (g["column"], k, x, v))
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY
done
run stats "$L" -c s,s2,u32
expect "stats table: strings, NULL quoted, integers exact" "$TMP/out" <<'X'
column  type    count  nulls  min     max         distinct  mean   stddev
s       string      2      1          null               2   NULL         NULL
s2      string      2      1  "NULL"  x                  2   NULL         NULL
u32     uint32      2      1  0       4000000000         2  2e+09  2.82843e+09
X
run help stats
grep -q '^usage: pqt stats FILE' "$TMP/out" || fail "pqt help stats"

echo "test_cli_output: $checks runs, $failures failures"
[ "$failures" -eq 0 ]
