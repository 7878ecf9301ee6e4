#!/usr/bin/env bash
# test_cli.sh - the `pqt` command-line tool: help, exit statuses, error lines, schema and
# meta on parquet-testing files, and `pqt cat` output against expected text in tests/cli/
# that tests/cli/make_expected.mjs derived from DuckDB (an independent reader).
# Usage (ctest does this from the repository root): bash tests/test_cli.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli.sh PATH_TO_PQT}
DATA=tests/data/parquet-testing/data
PLAIN=$DATA/alltypes_plain.parquet
CAT=examples/catalogue.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: run pqt, keeping stdout, stderr and the exit status.
run() {
    "$PQT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
}

expect_rc() { # expect_rc WANT DESCRIPTION
    [ "$rc" -eq "$1" ] || fail "$2: exit status $rc, want $1 (stderr: $(head -c 300 "$TMP/err"))"
}

expect_out() { # expect_out FILE DESCRIPTION: stdout equals FILE
    if ! cmp -s "$TMP/out" "$1"; then
        fail "$2: output differs from $1"
        diff "$1" "$TMP/out" | head -20 >&2
    fi
}

expect_grep() { # expect_grep PATTERN STREAM(out|err) DESCRIPTION
    grep -q -e "$1" "$TMP/$2" || fail "$3: no '$1' in std$2"
}

# ---- help and usage ----
run --help
expect_rc 0 "pqt --help"
expect_grep "usage: pqt" out "pqt --help"
for cmd in schema meta cat; do
    run "$cmd" --help
    expect_rc 0 "pqt $cmd --help"
    expect_grep "usage: pqt $cmd" out "pqt $cmd --help"
    [ -s "$TMP/err" ] && fail "pqt $cmd --help wrote to stderr"
    run "$cmd" --no-such-option "$PLAIN"
    expect_rc 2 "pqt $cmd --no-such-option"
    expect_grep "no-such-option" err "pqt $cmd --no-such-option"
    run "$cmd"
    expect_rc 2 "pqt $cmd without FILE"
done
run frobnicate "$PLAIN"
expect_rc 2 "unknown command"
run cat "$PLAIN" --format xml
expect_rc 2 "cat --format xml"
run cat "$PLAIN" --rows 3-4
expect_rc 2 "cat --rows 3-4"
run cat "$PLAIN" --limit
expect_rc 2 "cat --limit without a value"

# ---- errors: one line on stderr naming the file, exit 1 ----
for cmd in schema meta cat; do
    run "$cmd" "$TMP/missing.parquet"
    expect_rc 1 "pqt $cmd on a missing file"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "pqt $cmd on a missing file: stderr is not one line"
    expect_grep "^pqt: $TMP/missing.parquet: " err "pqt $cmd on a missing file"
    [ -s "$TMP/out" ] && fail "pqt $cmd on a missing file wrote to stdout"
done
printf 'PAR1 not a parquet file' >"$TMP/bad.parquet"
run meta "$TMP/bad.parquet"
expect_rc 1 "pqt meta on a corrupt file"
expect_grep "^pqt: $TMP/bad.parquet: " err "pqt meta on a corrupt file"

# ---- schema ----
run schema "$PLAIN"
expect_rc 0 "schema alltypes_plain"
expect_grep "11 columns" out "schema alltypes_plain"
for col in id bool_col tinyint_col smallint_col int_col bigint_col float_col double_col \
    date_string_col string_col timestamp_col; do
    grep -Eq "^  $col +optional .* $col +[a-z]" "$TMP/out" || fail "schema alltypes_plain: column $col"
done
grep -Eq "^  bigint_col +optional +INT64 +bigint_col +int64$" "$TMP/out" ||
    fail "schema alltypes_plain: bigint_col line"
grep -Eq "string_col +binary$" "$TMP/out" || fail "schema: plain BYTE_ARRAY is binary"
run schema "$DATA/nested_maps.snappy.parquet"
grep -Eq "^  a +optional +MAP +a +unreadable \(map with nested keys or values\)$" "$TMP/out" ||
    fail "schema: unreadable map"
run cat "$DATA/nested_maps.snappy.parquet" --format csv --limit 1
[ "$(head -1 "$TMP/out")" = "b,c" ] || fail "cat leaves out unreadable columns: $(head -1 "$TMP/out")"
run schema "$CAT"
expect_rc 0 "schema catalogue"
run schema --measure "$CAT"
grep -Eq "^  mag +optional +LIST +mag +vector<float32>$" "$TMP/out" || fail "schema catalogue: mag"
grep -Eq "^      element +optional +FLOAT$" "$TMP/out" || fail "schema catalogue: mag element"
grep -Eq "^  obs_date +optional +INT32 +DATE +obs_date +date32$" "$TMP/out" ||
    fail "schema catalogue: obs_date"

# ---- meta ----
run meta "$PLAIN"
expect_rc 0 "meta alltypes_plain"
expect_grep "^rows: 8$" out "meta alltypes_plain"
expect_grep "^row groups: 1$" out "meta alltypes_plain"
# alltypes_plain.parquet is not compressed; its .snappy sibling is.
expect_grep "codec UNCOMPRESSED, encodings RLE,PLAIN_DICTIONARY,PLAIN, 8 values" out "meta codec"
run meta "$DATA/alltypes_plain.snappy.parquet"
expect_grep "codec SNAPPY" out "meta alltypes_plain.snappy"
run meta "$CAT"
expect_rc 0 "meta catalogue"
expect_grep "^row group 2: rows 501..1000 (500 rows)" out "meta catalogue row groups"
expect_grep "codec ZSTD" out "meta catalogue codec"
expect_grep "statistics: min 1, max 500, nulls 0" out "meta catalogue id statistics"
expect_grep "statistics: min \"DES\", max \"SDSS\", nulls 0, distinct 4" out "meta string stats"
expect_grep "statistics: min 2015-01-04, max 2019-02-09, nulls 0" out "meta date statistics"
run meta "$DATA/int32_decimal.parquet"
expect_grep "statistics: min 1.00, max 24.00, nulls 0" out "meta decimal statistics"
run meta "$DATA/binary_truncated_min_max.parquet"
expect_grep 'statistics: min "Al" (not exact), max "Kf" (not exact), nulls 0' out "meta inexact stats"
expect_grep 'statistics: min 0x416c (not exact), max 0xffff0102, nulls 0' out "meta binary stats"
run meta "$DATA/data_index_bloom_encoding_stats.parquet"
expect_grep "page index: yes, bloom filter: yes" out "meta page index and bloom filter"
expect_grep "^  writer.model.name = avro$" out "meta key-value metadata"

# ---- cat: jsonl against DuckDB-derived text ----
run cat "$PLAIN" --format jsonl --limit 2
expect_rc 0 "cat --limit 2"
expect_out tests/cli/alltypes_plain_limit2.jsonl "cat jsonl --limit 2"
run cat "$PLAIN" --format jsonl --rows 3:4
expect_rc 0 "cat --rows 3:4"
expect_out tests/cli/alltypes_plain_rows3-4.jsonl "cat jsonl --rows 3:4"
run cat "$PLAIN" --format=jsonl --rows=3:8 --limit=2
expect_out tests/cli/alltypes_plain_rows3-4.jsonl "cat --opt=value forms"

run cat "$DATA/list_columns.parquet" --format jsonl
expect_out tests/cli/list_columns.jsonl "cat jsonl lists"

# ---- cat: csv and table ----
run cat "$PLAIN" --format csv --limit 1
expect_rc 0 "cat csv"
[ "$(head -1 "$TMP/out")" = "id,bool_col,tinyint_col,smallint_col,int_col,bigint_col,float_col,double_col,date_string_col,string_col,timestamp_col" ] ||
    fail "cat csv header: $(head -1 "$TMP/out")"
[ "$(sed -n 2p "$TMP/out")" = "4,true,0,0,0,0,0.0,0.0,30332f30312f3039,30,2009-03-01T00:00:00.000000000" ] ||
    fail "cat csv row: $(sed -n 2p "$TMP/out")"
run cat "$CAT" --format csv --columns quality,mag,name --rows 7:7
[ "$(cat "$TMP/out")" = 'quality,mag,name
,"[18.563147,18.813147,19.063147,19.313147,19.563147]",obj-00007' ] ||
    fail "cat csv null and array: $(cat "$TMP/out")"
run cat "$PLAIN"
expect_rc 0 "cat table"
expect_grep "^8 rows$" out "cat table footer"
[ "$(wc -l <"$TMP/out")" -eq 12 ] || fail "cat table: 3 header lines + 8 rows + footer"
run cat "$PLAIN" --limit 2
expect_grep "^showing 2 of 8 rows$" out "cat table --limit footer"
run cat "$PLAIN" --limit 0 --format jsonl
[ -s "$TMP/out" ] && fail "cat --limit 0 printed rows"

# ---- cat: column selection and row ranges ----
run cat "$PLAIN" --columns nope
expect_rc 1 "cat --columns nope"
[ "$(cat "$TMP/err")" = "pqt: $PLAIN: no column 'nope'" ] || fail "cat --columns nope: $(cat "$TMP/err")"
run cat "$DATA/nested_maps.snappy.parquet" --columns a
expect_rc 1 "cat --columns on an unreadable column"
expect_grep "nested keys or values" err "cat --columns on an unreadable column says why"
run cat "$PLAIN" --rows 5:9
expect_rc 1 "cat --rows past the end"
expect_grep "8 rows" err "cat --rows past the end"
run cat "$PLAIN" --format jsonl --columns double_col,id --rows 8:
[ "$(cat "$TMP/out")" = '{"double_col":10.1,"id":1}' ] || fail "cat --columns order / LO: $(cat "$TMP/out")"

# The catalogue has 2 row groups of 500 rows: a range across the boundary, and the whole file.
run cat "$CAT" --format jsonl --columns id,obs_date --rows 499:502
[ "$(cat "$TMP/out")" = '{"id":499,"obs_date":"2019-02-06"}
{"id":500,"obs_date":"2019-02-09"}
{"id":501,"obs_date":"2019-02-12"}
{"id":502,"obs_date":"2019-02-15"}' ] || fail "cat across row groups: $(cat "$TMP/out")"
run cat "$CAT" --format jsonl
expect_rc 0 "cat catalogue jsonl"
[ "$(wc -l <"$TMP/out")" -eq 1000 ] || fail "cat catalogue: not 1000 lines"
if command -v python3 >/dev/null; then
    python3 - "$TMP/out" <<'EOF' || fail "cat catalogue jsonl: not valid JSON with 11 keys per line"
import json, sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    row = json.loads(line)
    assert len(row) == 11 and row["id"] == n and len(row["mag"]) == 5, line
    assert (row["quality"] is None) == (n % 7 == 0), line
EOF
fi

# Page checksums: verified by default (a corrupt page is an error naming it), skipped with --no-crc.
CRC=tests/data/parquet-testing/data/datapage_v1-corrupt-checksum.parquet
run cat "$CRC" --format jsonl
expect_rc 1 "cat of a page with a bad CRC"
expect_grep "CRC32 mismatch" err "cat of a bad CRC names the mismatch"
run cat "$CRC" --format jsonl --no-crc
expect_rc 0 "cat --no-crc"
[ "$(wc -l <"$TMP/out")" -eq 5120 ] || fail "cat --no-crc: not 5120 rows"
# Old Impala files store strings as plain BYTE_ARRAY: --binary-as-string reads them
# (alltypes_plain's string_col is '0','1',... per parquet-testing's own description).
run cat "$PLAIN" --format jsonl --binary-as-string --columns string_col --limit 2
[ "$(cat "$TMP/out")" = '{"string_col":"0"}
{"string_col":"1"}' ] || fail "cat --binary-as-string: $(cat "$TMP/out")"

# ==== issue 8, "a CLI that never misleads" (commands, options, messages) ====
# Column typos: the library's message, with the closest name (DuckDB wrote "mass").
run cat "$CAT" --columns id,mas
expect_rc 1 "cat --columns typo"
[ "$(cat "$TMP/err")" = "pqt: $CAT: no column 'mas'; did you mean 'mass'?" ] ||
    fail "cat --columns typo: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "cat --columns typo wrote to stdout"
run cat "$CAT" --columns OBS_DATE
[ "$(cat "$TMP/err")" = "pqt: $CAT: no column 'OBS_DATE'; did you mean 'obs_date'?" ] ||
    fail "cat --columns case: $(cat "$TMP/err")"

# --columns: blanks around names are trimmed; an empty name is a usage error naming its place.
run cat "$CAT" --format csv --columns ' id ,	survey  ' --rows 1:2
expect_rc 0 "cat --columns with blanks"
[ "$(cat "$TMP/out")" = 'id,survey
1,DES
2,Gaia' ] || fail "cat --columns with blanks: $(cat "$TMP/out")"
for bad in 'id,,survey:2' 'id,:2' ',id:1' ' :1'; do
    run cat "$CAT" --columns "${bad%:*}"
    expect_rc 2 "cat --columns '${bad%:*}'"
    expect_grep "^pqt cat: empty column name (item ${bad##*:}) in --columns '${bad%:*}'" err \
        "cat --columns '${bad%:*}'"
done

# schema reads the footer only: with every data page zeroed it still answers (the LIST
# column's width is left unknown), and only --measure reads data (and says where it failed).
run schema "$CAT"
grep -Eq "^  mag +optional +LIST +mag +list<float32>, width unknown \(use --measure\)$" "$TMP/out" ||
    fail "schema catalogue without --measure: mag"
size=$(stat -c %s "$CAT")
flen=$(od -An -t u4 -j $((size - 8)) -N4 "$CAT" | tr -d ' ')
cp "$CAT" "$TMP/nodata.parquet"
dd if=/dev/zero of="$TMP/nodata.parquet" bs=1 seek=4 count=$((size - 8 - flen - 4)) conv=notrunc \
    status=none
run schema "$TMP/nodata.parquet"
expect_rc 0 "schema of a file whose data pages are zeroed"
expect_grep "11 columns (11 readable)" out "schema without data"
grep -Eq "^  mag .* list<float32>, width unknown \(use --measure\)$" "$TMP/out" ||
    fail "schema without data: mag"
run schema --format json "$TMP/nodata.parquet"
expect_rc 0 "schema --format json of a file whose data pages are zeroed"
run schema --measure "$TMP/nodata.parquet"
expect_rc 1 "schema --measure on zeroed data pages"
expect_grep "^pqt: $TMP/nodata.parquet: column 'mag', row group 1, page 1: corrupt page header" err \
    "schema --measure names the failed read"
[ -s "$TMP/out" ] && fail "schema --measure that failed wrote to stdout"
run meta "$TMP/nodata.parquet"
expect_rc 0 "meta of a file whose data pages are zeroed"

# schema and meta as JSON, checked against DuckDB's parquet_metadata / parquet_schema /
# parquet_kv_metadata of the same files (tests/cli/meta_truth.json, by make_meta_truth.mjs).
python3 - "$PQT" tests/cli/meta_truth.json <<'EOF' || fail "schema/meta --format json against DuckDB"
import decimal, json, math, subprocess, sys

pqt, truth = sys.argv[1], json.load(open(sys.argv[2], encoding="utf-8"))
bad, compared = [], 0

def doc(*args):
    r = subprocess.run([pqt, *args], capture_output=True)
    assert r.returncode == 0, (args, r.stderr)
    # one document: trailing text would fail here; decimals parse exactly
    return json.loads(r.stdout, parse_float=decimal.Decimal)

def same(what, got, want):
    global compared
    compared += 1
    if got != want:
        bad.append(f"{what}: pqt {got!r}, DuckDB {want!r}")

def stat_same(what, text, want, physical):
    """pqt's typed statistic (meta -f json) against DuckDB's stats_*_value text."""
    if want is None or text is None:
        return
    if isinstance(text, bool):
        return same(what, "true" if text else "false", want.lower())
    if isinstance(text, str) and physical in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        if text.endswith("…"):  # cut after 40 characters
            return same(what, want.startswith(text[:-1]), True)
        return same(what, text, want)
    if isinstance(text, (int, decimal.Decimal)) and physical not in ("FLOAT", "DOUBLE"):
        return same(what, decimal.Decimal(text), decimal.Decimal(want))
    text = str(text)
    if physical == "FLOAT":
        return same(what, math.isclose(float(text), float(want), rel_tol=1e-6), True)
    if physical == "DOUBLE":
        return same(what, float(text), float(want))
    same(what, text, want)

for path, t in truth.items():
    m = doc("meta", "--format", "json", path)
    same(f"{path} keys", list(m), ["file", "created_by", "nrows", "nrow_groups", "ncols",
                                   "nleaves", "row_groups", "key_value_metadata"])
    same(f"{path} created_by", m["created_by"], t["created_by"])
    same(f"{path} nrows", m["nrows"], t["num_rows"])
    same(f"{path} nrow_groups", m["nrow_groups"], t["num_row_groups"])
    first = 1
    for i, (rg, trg) in enumerate(zip(m["row_groups"], t["row_groups"])):
        w = f"{path} row group {i + 1}"
        same(f"{w} number", rg["row_group"], i + 1)
        same(f"{w} rows", (rg["first_row"], rg["last_row"], rg["nrows"]),
             (first, first + trg["num_rows"] - 1, trg["num_rows"]))
        first += trg["num_rows"]
        same(f"{w} nbytes", rg["nbytes"], trg["bytes"])
        if trg["compressed_bytes"]:
            same(f"{w} compressed_nbytes", rg["compressed_nbytes"], trg["compressed_bytes"])
        same(f"{w} chunks", len(rg["chunks"]), len(trg["chunks"]))
        same(f"{w} nleaves", m["nleaves"], len(trg["chunks"]))
        for c, tc in zip(rg["chunks"], trg["chunks"]):
            wc = f"{w} {tc['path']}"
            same(f"{wc} path", c["path"], tc["path"])
            same(f"{wc} physical", c["physical"], tc["type"])
            same(f"{wc} codec", c["codec"], tc["compression"])
            same(f"{wc} encodings", c["encodings"], tc["encodings"])
            same(f"{wc} sizes", (c["nvals"], c["compressed_nbytes"], c["uncompressed_nbytes"]),
                 (tc["num_values"], tc["total_compressed_size"], tc["total_uncompressed_size"]))
            st = c["statistics"]
            same(f"{wc} statistics keys", list(st), ["min", "max", "min_exact", "max_exact",
                                                    "null_count", "distinct_count", "nan_count"])
            if tc["null_count"] is not None:
                same(f"{wc} null_count", st["null_count"], tc["null_count"])
            same(f"{wc} distinct_count", st["distinct_count"], tc["distinct_count"])
            stat_same(f"{wc} min", st["min"], tc["min"], tc["type"])
            stat_same(f"{wc} max", st["max"], tc["max"], tc["type"])
            if tc["min"] is not None:
                same(f"{wc} has min", st["min"] is not None, True)
            same(f"{wc} bloom_filter", c["bloom_filter"], tc["bloom"])
    same(f"{path} key_value_metadata", m["key_value_metadata"], t["kv"])

    for measure in ([], ["--measure"]):
        s = doc("schema", "-f", "json", *measure, path)
        w = f"{path} schema{' --measure' if measure else ''}"
        same(f"{w} keys", list(s), ["file", "nrows", "nrow_groups", "ncols", "nreadable",
                                    "measured", "nodes", "columns"])
        same(f"{w} measured", s["measured"], bool(measure))
        same(f"{w} nrows", s["nrows"], t["num_rows"])
        same(f"{w} nodes", len(s["nodes"]), len(t["schema"]))
        for n, tn in zip(s["nodes"], t["schema"]):
            wn = f"{w} node {tn['name']}"
            same(f"{wn} name", n["name"], tn["name"])
            same(f"{wn} physical", n["physical"], tn["type"] or "")
            if tn["type_length"] is not None:
                same(f"{wn} type_length", n["type_length"], tn["type_length"])
            same(f"{wn} repetition", n["repetition"], (tn["repetition"] or "").lower())
            same(f"{wn} nchildren", n["nchildren"], tn["num_children"] or 0)
            lt = tn["logical_type"]
            stem = lt[:lt.index("Type")].upper() if lt and "Type" in lt else None
            ok = (n["logical"] == tn["converted_type"] or
                  (stem is not None and n["logical"].startswith(stem)) or
                  (n["logical"] == "" and tn["converted_type"] is None and lt is None))
            same(f"{wn} logical {n['logical']!r} ({tn['converted_type']}, {lt})", ok, True)
        cols = {c["path"]: c for c in s["columns"]}
        for col, ln in t["list_lengths"].items():
            c, wl = cols[col], f"{w} column {col}"
            fixed = ln["min"] == ln["max"] and ln["null_rows"] == 0
            if measure:
                same(f"{wl} width", c["width"], ln["min"] if fixed else 0)
                same(f"{wl} kind", c["kind"].split("<")[0], "vector" if fixed else "list")
            elif fixed:  # only the data can tell: the footer-only answer says it does not know
                same(f"{wl} width", c["width"], None)
                same(f"{wl} kind", c["kind"].split("<")[0], "list")
            else:  # ragged: the footer may settle it, never as a vector
                same(f"{wl} width", c["width"] in (None, 0), True)
                same(f"{wl} kind", c["kind"].split("<")[0], "list")

for b in bad[:20]:
    print("  " + b, file=sys.stderr)
if compared < 500:
    print(f"  only {compared} comparisons", file=sys.stderr)
sys.exit(1 if bad or compared < 500 else 0)
EOF

# head = cat --limit 10, with cat's options; -n changes the count. (The surveys of rows 1-3
# are those DuckDB reads: DES, Gaia, Euclid.)
run head "$CAT" -f csv
expect_rc 0 "head"
"$PQT" cat "$CAT" --format csv --limit 10 >"$TMP/cat10"
expect_out "$TMP/cat10" "head = cat --limit 10"
[ "$(wc -l <"$TMP/out")" -eq 11 ] || fail "head: not a header and 10 rows"
run head -n 3 -c 'id, survey' -f jsonl "$CAT"
[ "$(cat "$TMP/out")" = '{"id":1,"survey":"DES"}
{"id":2,"survey":"Gaia"}
{"id":3,"survey":"Euclid"}' ] || fail "head -n 3 -c: $(cat "$TMP/out")"
run head "$CAT"
expect_grep "^showing 10 of 1000 rows$" out "head table footer"
run head "$CAT" --rows 500:1000 -fjsonl -cid -n2
[ "$(cat "$TMP/out")" = '{"id":500}
{"id":501}' ] || fail "head --rows with attached short values: $(cat "$TMP/out")"
run head --help
expect_rc 0 "head --help"
expect_grep "^usage: pqt head" out "head --help"
run head
expect_rc 2 "head without FILE"
run head "$CAT" -n -1
expect_rc 2 "head -n -1"

# short options are the long ones: -c --columns, -n --limit, -f --format
run cat "$PLAIN" -f jsonl -n 2
expect_out tests/cli/alltypes_plain_limit2.jsonl "cat -f jsonl -n 2"
run cat "$PLAIN" -fjsonl -n2 --rows 3:8
expect_out tests/cli/alltypes_plain_rows3-4.jsonl "cat -fjsonl -n2"
run cat "$PLAIN" -f jsonl -c double_col,id --rows 8:
[ "$(cat "$TMP/out")" = '{"double_col":10.1,"id":1}' ] || fail "cat -c: $(cat "$TMP/out")"
run schema -f json "$PLAIN"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" || fail "schema -f json"
run meta -f json "$PLAIN"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" || fail "meta -f json"
run cat "$PLAIN" -n
expect_rc 2 "cat -n without a value"
expect_grep "missing value for '-n'" err "cat -n without a value"
run cat "$PLAIN" --no-crc=1
expect_rc 2 "a flag given a value"
run schema -f xml "$PLAIN"
expect_rc 2 "schema -f xml"
run meta --format=jsonl "$PLAIN"
expect_rc 2 "meta --format=jsonl"

# help CMD = CMD --help
for cmd in schema meta cat head; do
    "$PQT" "$cmd" --help >"$TMP/want"
    run help "$cmd"
    expect_rc 0 "help $cmd"
    expect_out "$TMP/want" "help $cmd = $cmd --help"
done
run help
expect_rc 0 "help"
expect_grep "^usage: pqt COMMAND" out "help"
run help frobnicate
expect_rc 2 "help of an unknown command"

# Every exit status the tool has (tools.h) is documented in pqt --help, and each happens.
run --help
codes=$(grep -o 'EXIT_[A-Z]* = [0-9]*' tools/tools.h | awk '{print $3}')
[ "$(echo "$codes" | wc -l)" -ge 3 ] || fail "exit statuses not found in tools/tools.h"
for code in $codes; do
    expect_grep "^  $code  [a-z]" out "pqt --help documents exit status $code"
done
run head "$CAT" -n 1 -f csv
expect_rc 0 "exit status 0"
run head "$TMP/missing.parquet"
expect_rc 1 "exit status 1 (a file that cannot be read)"
run head "$CAT" --bogus
expect_rc 2 "exit status 2 (a usage error)"
# ---- exact values (issue 8): tests/data/exact_values.parquet and its expected text come
# from DuckDB (tests/data/make_exact_values.mjs) ----
EXACT=tests/data/exact_values.parquet
run cat "$EXACT" --format jsonl
expect_rc 0 "cat exact values"
expect_out tests/cli/exact_values.jsonl "cat jsonl: uint64, unsigned ints, decimals, floats exactly"
# the same text in csv and table: row 5 holds 2^64-1, a DECIMAL(38,10), float32 1e-45
run cat "$EXACT" --format csv --rows 5:5 --columns u64,d38,d5,f32,f64
[ "$(sed -n 2p "$TMP/out")" = "18446744073709551615,12345678901234567890.1234567890,-9999.99999,1e-45,5e-324" ] ||
    fail "cat csv exact values: $(sed -n 2p "$TMP/out")"
run cat "$EXACT" --rows 5:5 --columns u64,d5,d18,f32,f64
grep -Eq "^18446744073709551615 +-9999.99999 +0.000 +1e-45 +5e-324$" "$TMP/out" ||
    fail "cat table exact values: $(sed -n 4p "$TMP/out")"
run cat "$EXACT" --format csv --rows 2:2 --columns d5,d18,f32
[ "$(sed -n 2p "$TMP/out")" = "-0.00012,-12.345,1.1" ] || fail "cat csv decimals/float32: $(sed -n 2p "$TMP/out")"
run schema "$EXACT"
grep -Eq "^  u64 +optional +INT64 +UINT_64 +u64 +uint64$" "$TMP/out" || fail "schema: UINT_64 is uint64"
# INT96 outside int64 nanoseconds (years 9999 and 290000): printed in microseconds, values
# as DuckDB and the corpus' int96_from_spark.md give them (tests/golden/expected/)
run cat "$DATA/int96_from_spark.parquet" --format jsonl
expect_rc 0 "cat int96_from_spark"
expect_out tests/golden/expected/int96_from_spark.parquet.jsonl "cat INT96 past 2262 in microseconds"
run cat "$DATA/int96_from_spark.parquet" --format jsonl --rows 1:2
[ "$(head -1 "$TMP/out")" = '{"a":"2024-01-01T20:34:56.123456000"}' ] ||
    fail "cat INT96 rows that fit keep nanoseconds: $(head -1 "$TMP/out")"
# unreadable columns picked implicitly: named on stderr with the reason, the rest prints, exit 0
run cat "$DATA/nested_maps.snappy.parquet" --format jsonl --limit 1
expect_rc 0 "cat with an unreadable column"
expect_grep "warning: column 'a' not shown: map with nested keys or values" err \
    "cat names the unreadable column"
expect_grep '^{"b":' out "cat prints the readable columns"
# plain BYTE_ARRAY is binary: base64 in jsonl, hex in csv and the table ('0' is 0x30)
run cat "$PLAIN" --format jsonl --columns string_col --limit 2
[ "$(cat "$TMP/out")" = '{"string_col":"MA=="}
{"string_col":"MQ=="}' ] || fail "cat binary as base64: $(cat "$TMP/out")"
run cat "$PLAIN" --format csv --columns string_col --limit 2
[ "$(cat "$TMP/out")" = 'string_col
30
31' ] || fail "cat binary as hex: $(cat "$TMP/out")"
# binary and maps as DuckDB wrote them (tests/data/make_kinds.mjs prints its own hex, base64
# and map text): a map is one list column per field, m.key and m.value
run cat tests/data/kinds_binary_map.parquet --format jsonl
[ "$(cat "$TMP/out")" = '{"id":1,"b":"YWIA/w==","m":{"key":["a","b"],"value":[1,2]},"n":{"key":[7],"value":["x"]}}
{"id":2,"b":null,"m":{"key":null,"value":null},"n":{"key":[],"value":[]}}
{"id":3,"b":"","m":{"key":[],"value":[]},"n":{"key":null,"value":null}}
{"id":4,"b":"AQ==","m":{"key":["c","d"],"value":[null,4]},"n":{"key":[8,9],"value":[null,"yz"]}}' ] ||
    fail "cat binary and maps (jsonl): $(cat "$TMP/out")"
run cat tests/data/kinds_binary_map.parquet --format csv --columns b
[ "$(cat "$TMP/out")" = 'b
616200ff

""
01' ] || fail "cat binary (csv): $(cat "$TMP/out")"
run cat "$PLAIN" --format jsonl --limit 1
[ -s "$TMP/err" ] && fail "cat of binary columns warns: $(cat "$TMP/err")"
# VARIANT: the value leaf prints as JSON next to its metadata leaf (tests/data/variant/NOTE.md
# lists the values parquet-testing's cases.json states for these files)
V=tests/data/variant
for want in '065 "1957-11-07T12:33:54.123456Z"' '069 -12345.6789' '072 9876543210.123456789' \
    '074 "CgsMDQ=="' '078 "1957-11-07T12:33:54.123456789Z"' '082 {"a":null,"d":"iceberg"}'; do
    n=${want%% *}
    run cat "$V/case-$n.parquet" --format jsonl --columns var.metadata,var.value
    [ "$(sed 's/.*"value"://; s/}}$//' "$TMP/out")" = "${want#* }" ] ||
        fail "cat variant case-$n: $(cat "$TMP/out")"
done
run cat "$V/case-082.parquet" --format csv --columns var.metadata,var.value
[ "$(sed -n 2p "$TMP/out")" = '11050001020304056162636465,"{""a"":null,""d"":""iceberg""}"' ] ||
    fail "cat variant csv: $(cat "$TMP/out")"
run cat "$V/case-004.parquet" --format jsonl
expect_rc 0 "cat of a shredded variant"
expect_grep "column 'var' not shown: shredded VARIANT" err "cat names the shredded variant"
run cat "$PLAIN" --format jsonl --limit 1 --binary-as-string
[ -s "$TMP/err" ] && fail "cat --binary-as-string still warns: $(cat "$TMP/err")"
run cat --help
expect_grep "exit status stays 0" out "cat --help documents the exit status with unreadable columns"
# meta statistics use the same float text
run meta "$EXACT"
expect_grep "statistics: min 1e-45, max 3.4028235e+38" out "meta float32 statistics"
expect_grep "statistics: min -9999999999999999999999999999.9999999999, max 9999999999999999999999999999.9999999999" out "meta DECIMAL(38,10) statistics"

# ---- cat output: never misleading, streamed, every write checked (issue 8) ----
# Fixtures by tests/data/make_cat_fixtures.mjs (DuckDB). Values checked against DuckDB's own
# text of them (the jsonl of pqt is tested against DuckDB above and in tests/golden).
WID=tests/data/cat_widths.parquet
BIG=tests/data/cat_big.parquet
LIMITS="python3 tests/cli_limits.py"
# A number is never cut: the first batch (4096 rows) sizes the columns, the last row's
# 19-digit id and row 9000's 24-character x come later and widen their columns.
PQT_ISATTY=0 run cat "$WID"
expect_rc 0 "cat table of a file with a late wide number"
grep -Eq '^1234567890123456789 +5000\.0  v10000 +tail$' "$TMP/out" || fail "table cut the late wide id: $(tail -2 "$TMP/out" | head -1)"
x9000=$("$PQT" cat "$WID" --format csv --rows 9000 | sed -n '2p' | cut -d, -f2)
grep -Eq "^ +9000  $x9000  v9000 " "$TMP/out" || fail "table cut x = $x9000: $(grep -E '^ +9000 ' "$TMP/out")"
grep '…' "$TMP/out" | grep -vq '^ *7 ' && fail "table elided something other than the long string"
# Strings are elided in the table only, with a visible marker; csv and jsonl keep them whole.
grep -Eq "^ +7  +3.5  a{31}…  tail$" "$TMP/out" || fail "table elision of a 100-character string"
a100=$(printf 'a%.0s' $(seq 100))
[ "$("$PQT" cat "$WID" --format csv --rows 7 | sed -n 2p)" = "7,3.5,$a100,tail" ] || fail "csv cut a string"
[ "$("$PQT" cat "$WID" --format jsonl --rows 7)" = "{\"id\":7,\"x\":3.5,\"s\":\"$a100\",\"t\":\"tail\"}" ] ||
    fail "jsonl cut a string"
# CJK and emoji take two cells: every line of the table has the same display width.
PQT_ISATTY=0 run cat "$WID" --columns s,id --rows 1:9
grep -q '日本語テキスト' "$TMP/out" || fail "table lost the CJK value"
head -n -1 "$TMP/out" >"$TMP/lines"
[ "$($LIMITS width "$TMP/lines" | sort -u | wc -l)" -eq 1 ] ||
    fail "table with CJK/emoji is not aligned: widths $($LIMITS width "$TMP/lines" | tr '\n' ' ')"
# A terminal (forced: ctest has none) gets the first and last 10 rows and how to see all.
PQT_ISATTY=1 COLUMNS=200 run cat "$WID"
expect_rc 0 "cat preview"
[ "$(wc -l <"$TMP/out")" -eq 25 ] || fail "preview: 3 header + 10 + gap + 10 + footer lines, got $(wc -l <"$TMP/out")"
[ "$(sed -n 4p "$TMP/out" | awk '{print $1}')" = 1 ] || fail "preview first row"
[ "$(sed -n 14p "$TMP/out" | tr -d ' ')" = "…………" ] || fail "preview gap row: $(sed -n 14p "$TMP/out")"
[ "$(sed -n 15p "$TMP/out" | awk '{print $1}')" = 9991 ] || fail "preview tail starts at 9991"
[ "$(sed -n 24p "$TMP/out" | awk '{print $1}')" = 1234567890123456789 ] || fail "preview last row"
expect_grep '^10000 rows, 20 shown .*--all' out "preview footer"
PQT_ISATTY=1 COLUMNS=200 run cat "$WID" --all
[ "$(wc -l <"$TMP/out")" -eq 10004 ] || fail "--all on a terminal prints every row"
PQT_ISATTY=1 COLUMNS=200 run cat "$WID" --limit 15
[ "$(wc -l <"$TMP/out")" -eq 19 ] || fail "--limit on a terminal prints the rows asked for"
PQT_ISATTY=0 COLUMNS=200 run cat "$WID"
[ "$(wc -l <"$TMP/out")" -eq 10004 ] || fail "a pipe gets every row"
# A wide table fits the terminal: columns that do not fit are named after it.
PQT_ISATTY=1 COLUMNS=40 run cat "$WID"
expect_grep '^2 columns not shown (wider than 40 cells): s, t; ' out "hidden columns line"
head -n -2 "$TMP/out" >"$TMP/lines"
[ "$($LIMITS width "$TMP/lines" | sort -n | tail -1)" -le 40 ] || fail "table wider than COLUMNS=40"
# Every write is checked: a full disk and a closed descriptor are errors (exit 1, one line).
for fmt in csv jsonl table; do
    "$PQT" cat "$WID" --format $fmt >/dev/full 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
    expect_rc 1 "cat --format $fmt > /dev/full"
    expect_grep '^pqt: cannot write the output: ' err "cat --format $fmt > /dev/full"
done
"$PQT" cat "$WID" --format csv >&- 2>"$TMP/err"
rc=$?
expect_rc 1 "cat with stdout closed"
# Memory is bounded by a batch, not by the row group (150 MB of text in one row group).
if ldd "$PQT" 2>/dev/null | grep -q libasan; then
    echo "test_cli: ASan build, memory bounds not checked"
else
    # The read's own memory: above what the program holds before reading anything. ru_maxrss
    # counts the Python that cli_limits.py forks the command from (~14 MB), so `pqt --version`
    # measures that floor, not pqt's start (checked below, in the libcurl section).
    read -r st base _ <<<"$($LIMITS run "$PQT" --version)"
    read -r st peak cpu_full <<<"$($LIMITS run "$PQT" cat "$BIG" --format csv)"
    checks=$((checks + 1))
    [ "$st" -eq 0 ] || fail "cat of $BIG: exit status $st"
    [ $((peak - base)) -lt 61440 ] ||
        fail "cat of $BIG: peak RSS $peak KB, $base KB before reading: want < 60 MB more"
    # A reader that stops early ends pqt at once, quietly and with status 0, even with
    # SIGPIPE ignored (then the write fails with EPIPE).
    read -r st peak cpu err line <<<"$($LIMITS head1 "$PQT" cat "$BIG" --format csv)"
    checks=$((checks + 1))
    [ "$st" -eq 0 ] && [ "$err" -eq 0 ] && [ "$line" = "id,s" ] ||
        fail "cat | head -1 with SIGPIPE ignored: status $st, $err bytes on stderr, line '$line'"
    [ $((peak - base)) -lt 61440 ] || fail "cat | head -1: peak RSS $peak KB ($base KB before)"
    # Half the full read's CPU: an early stop reads one batch, but CPU seconds of a short run
    # swing with the machine's load (0.105 s against 0.404 s seen with other builds running).
    awk -v a="$cpu" -v b="$cpu_full" 'BEGIN { exit !(a * 2 < b) }' ||
        fail "cat | head -1 with SIGPIPE ignored took $cpu s of CPU, the whole file $cpu_full s"
fi
# ---- libcurl is loaded on the first URL only (issue 35, src/remote/curl_api.c) ----
# A pqt held in the middle of a local read (its output a FIFO nobody reads) maps no libcurl.
# `pqt cat -` waiting for its input has loaded what every run loads and read nothing: its peak
# RSS (VmHWM) is a program's start-up cost: 4.0 MB measured here, 9.8 MB when libpqt linked
# libcurl. (cli_limits.py's ru_maxrss would count the Python the command is forked from.)
wait_asleep() { # wait_asleep PID: until PID runs pqt and sleeps (at most 10 s)
    for _ in $(seq 200); do
        grep -q libpqt "/proc/$1/maps" 2>/dev/null &&
            grep -q '^State:.*(sleeping)' "/proc/$1/status" 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}
mkfifo "$TMP/held_out" "$TMP/held_in"
"$PQT" cat "$BIG" --format csv >"$TMP/held_out" 2>/dev/null &
held=$!
exec 4<"$TMP/held_out"
read -r line <&4 # the header: the file is open and its first batch read
checks=$((checks + 1))
if wait_asleep $held; then
    grep -q libcurl "/proc/$held/maps" && fail "a local read mapped libcurl: $(grep -m1 libcurl "/proc/$held/maps")"
else
    fail "pqt cat $BIG into a FIFO never blocked"
fi
exec 4<&-
wait $held 2>/dev/null
"$PQT" cat - --format csv <"$TMP/held_in" >/dev/null 2>&1 &
held=$!
exec 4>"$TMP/held_in"
checks=$((checks + 1))
if wait_asleep $held; then
    grep -q libcurl "/proc/$held/maps" && fail "pqt at start mapped libcurl"
    hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$held/status")
    if ldd "$PQT" 2>/dev/null | grep -q libasan; then
        echo "test_cli: ASan build, start-up RSS not checked ($hwm KB)"
    elif [ "${hwm:-99999}" -ge 7168 ]; then
        fail "pqt at start: peak RSS $hwm KB, want < 7 MB (4.0 MB measured; a linked libcurl adds 6)"
    fi
else
    fail "pqt cat - never waited for its input"
fi
exec 4>&-
wait $held 2>/dev/null
# The table of corpus files, on a terminal and piped: nothing on stderr (under ASan+UBSan this
# catches a zero-length write on a fresh sink, nulls.snappy's first cell).
for f in "$DATA/nulls.snappy.parquet" "$DATA/int32_with_null_pages.parquet" "$DATA/list_columns.parquet"; do
    for tty in 0 1; do
        PQT_ISATTY=$tty COLUMNS=60 run cat "$f"
        expect_rc 0 "cat table $f (terminal $tty)"
        [ -s "$TMP/err" ] && fail "cat table $f (terminal $tty) wrote to stderr: $(head -c 200 "$TMP/err")"
    done
done
# The fast writers of csv and jsonl print what render_cell prints (PQT_CAT_GENERIC=1 sends
# every value through render_cell), over files with every kind.
for f in "$PLAIN" "$CAT" "$WID" "$DATA/alltypes_tiny_pages.parquet" "$DATA/list_columns.parquet" \
    "$DATA/nan_in_stats.parquet" "$DATA/int32_decimal.parquet" "$DATA/fixed_length_decimal.parquet" \
    "$DATA/int96_from_spark.parquet" "$DATA/float16_nonzeros_and_nans.parquet" \
    "$DATA/nullable.impala.parquet" "$DATA/null_list.parquet" "$DATA/repeated_primitive_no_list.parquet" \
    "$DATA/datapage_v2.snappy.parquet" "$DATA/byte_stream_split.zstd.parquet"; do
    [ -f "$f" ] || { fail "missing $f"; continue; }
    for fmt in csv jsonl; do
        "$PQT" cat "$f" --format $fmt >"$TMP/fast" 2>/dev/null
        PQT_CAT_GENERIC=1 "$PQT" cat "$f" --format $fmt >"$TMP/slow" 2>/dev/null
        checks=$((checks + 1))
        cmp -s "$TMP/fast" "$TMP/slow" || fail "cat --format $fmt $f: fast writer differs from render_cell"
    done
done

# ---- pqt cat - : Parquet from standard input (pqt_file_open_mem over the buffered bytes) ----
# The same rows as the file itself, which DuckDB's golden output checks (tests/golden).
STDIN_SRC=tests/data/parquet-testing/data/alltypes_plain.parquet
"$PQT" cat - --format jsonl <"$STDIN_SRC" >"$TMP/stdin.jsonl" 2>/dev/null
checks=$((checks + 1))
cmp -s "$TMP/stdin.jsonl" tests/golden/expected/alltypes_plain.parquet.jsonl ||
    fail "cat - differs from the golden output of the same file"
# through a pipe, with an INT96 file that reopens the input in another unit
cat tests/data/parquet-testing/data/int96_from_spark.parquet | "$PQT" cat - -f jsonl >"$TMP/stdin96.jsonl" 2>/dev/null
checks=$((checks + 1))
cmp -s "$TMP/stdin96.jsonl" tests/golden/expected/int96_from_spark.parquet.jsonl ||
    fail "cat - of int96_from_spark differs from its golden output"
printf 'not parquet' | "$PQT" cat - >"$TMP/out" 2>"$TMP/err"
rc=$?
checks=$((checks + 1))
expect_rc 1 "cat - of garbage"
expect_grep "^pqt: (stdin): " err "cat - names standard input"

echo "test_cli: $checks runs, $failures failure(s)"
[ "$failures" -eq 0 ]
