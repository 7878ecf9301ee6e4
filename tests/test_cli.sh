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
grep -Eq "string_col +unreadable \(" "$TMP/out" || fail "schema: unreadable binary column"
run schema "$DATA/nested_maps.snappy.parquet"
grep -Eq "^  a +optional +MAP +a +unreadable \(MAP\)$" "$TMP/out" || fail "schema: unreadable map"
run cat "$DATA/nested_maps.snappy.parquet" --format csv --limit 1
[ "$(head -1 "$TMP/out")" = "b,c" ] || fail "cat leaves out unreadable columns: $(head -1 "$TMP/out")"
run schema "$CAT"
expect_rc 0 "schema catalogue"
grep -Eq "^  mag +optional +LIST +mag +vector<float32>$" "$TMP/out" || fail "schema catalogue: mag"
grep -Eq "^      element +optional +FLOAT$" "$TMP/out" || fail "schema catalogue: mag element"
grep -Eq "^  obs_date +optional +INT32 +DATE +obs_date +date$" "$TMP/out" ||
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
[ "$(head -1 "$TMP/out")" = "id,bool_col,tinyint_col,smallint_col,int_col,bigint_col,float_col,double_col,timestamp_col" ] ||
    fail "cat csv header: $(head -1 "$TMP/out")"
[ "$(sed -n 2p "$TMP/out")" = "4,true,0,0,0,0,0,0,2009-03-01T00:00:00.000000000" ] ||
    fail "cat csv row: $(sed -n 2p "$TMP/out")"
run cat "$CAT" --format csv --columns quality,mag,name --rows 7:7
[ "$(cat "$TMP/out")" = 'quality,mag,name
,"[18.563146591186523,18.813146591186523,19.063146591186523,19.313146591186523,19.563146591186523]",obj-00007' ] ||
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
expect_grep "no column 'nope' in $PLAIN" err "cat --columns nope"
run cat "$PLAIN" --columns string_col
expect_rc 1 "cat --columns on an unreadable column"
expect_grep "BYTE_ARRAY" err "cat --columns on an unreadable column names its type"
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
grep -Eq '^1234567890123456789 +5000  v10000 +tail$' "$TMP/out" || fail "table cut the late wide id: $(tail -2 "$TMP/out" | head -1)"
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
    read -r st peak cpu_full <<<"$($LIMITS run "$PQT" cat "$BIG" --format csv)"
    checks=$((checks + 1))
    [ "$st" -eq 0 ] || fail "cat of $BIG: exit status $st"
    [ "$peak" -lt 65536 ] || fail "cat of $BIG: peak RSS $peak KB, want < 64 MB"
    # A reader that stops early ends pqt at once, quietly and with status 0, even with
    # SIGPIPE ignored (then the write fails with EPIPE).
    read -r st peak cpu err line <<<"$($LIMITS head1 "$PQT" cat "$BIG" --format csv)"
    checks=$((checks + 1))
    [ "$st" -eq 0 ] && [ "$err" -eq 0 ] && [ "$line" = "id,s" ] ||
        fail "cat | head -1 with SIGPIPE ignored: status $st, $err bytes on stderr, line '$line'"
    [ "$peak" -lt 65536 ] || fail "cat | head -1: peak RSS $peak KB"
    awk -v a="$cpu" -v b="$cpu_full" 'BEGIN { exit !(a * 4 < b) }' ||
        fail "cat | head -1 with SIGPIPE ignored took $cpu s of CPU, the whole file $cpu_full s"
fi
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

echo "test_cli: $checks runs, $failures failure(s)"
[ "$failures" -eq 0 ]
