#!/usr/bin/env bash
# test_cli_copy_partition.sh - `pqt copy IN OUT --partition-by survey,year` (issue 31): the
# hive dataset written from tests/data/partition_input.parquet has exactly the files DuckDB
# read (tests/data/partition_truth.tsv, from tests/data/make_partition_truth.mjs: DuckDB's
# read_parquet(OUT/**/*.parquet, hive_partitioning = true) per file), each with DuckDB's row
# count, sum(id), sum(mag) and count(mag), and without the key columns; the survey and year
# DuckDB decoded from each folder name select exactly that many rows of the input (so the
# names' percent-encoding and nulls decode back to the values); _metadata holds every row
# group and row; --where and --columns work with it; struct leaves stay in their group with
# each partition's values; a non-empty OUT, a float key and too
# many partitions fail (exit 1) leaving nothing, --force and a lone --max-partitions are usage
# errors (exit 2). No node at run time.
# Usage (ctest does this from the repository root): bash tests/test_cli_copy_partition.sh PQT
set -u
PQT=${1:?usage: test_cli_copy_partition.sh PATH_TO_PQT}
IN=tests/data/partition_input.parquet
TRUTH=tests/data/partition_truth.tsv
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

OUT=$TMP/ds
"$PQT" copy "$IN" "$OUT" --partition-by survey,year || fail "copy --partition-by exited $?"
(cd "$OUT" && find . -name '*.parquet' | sed 's|^\./||' | LC_ALL=C sort) >"$TMP/got_files"
tail -n +2 "$TRUTH" | cut -f1 | LC_ALL=C sort >"$TMP/want_files"
cmp -s "$TMP/want_files" "$TMP/got_files" ||
    fail "files differ from DuckDB's: $(diff "$TMP/want_files" "$TMP/got_files" | head -4)"

total=0
while IFS=$'\t' read -r file survey year n sum_id sum_mag n_mag; do
    [ "$file" = file ] && continue
    f=$OUT/$file
    got=$("$PQT" count "$f") || fail "$file: pqt count failed"
    [ "$got" = "$n" ] || fail "$file: $got rows, DuckDB read $n"
    total=$((total + n))
    "$PQT" cat "$f" --format csv >"$TMP/part.csv" || fail "$file: pqt cat failed"
    head -1 "$TMP/part.csv" | grep -Eq '(^|,)(survey|year)(,|$)' && fail "$file: holds a key column"
    sums=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
mags = [float(r["mag"]) for r in rows if r["mag"] not in ("", "null", "NULL")]
s = sum(mags)
print(sum(int(r["id"]) for r in rows), int(s) if s == int(s) else s, len(mags))' "$TMP/part.csv")
    [ "$sums" = "$sum_id $sum_mag $n_mag" ] || fail "$file: sums $sums, DuckDB $sum_id $sum_mag $n_mag"
    # the folder's values as DuckDB decoded them select the partition's rows in the input
    ws="survey = '$survey'"
    [ "$survey" = NULL ] && ws="survey is null"
    wy="year = $year"
    [ "$year" = NULL ] && wy="year is null"
    got=$("$PQT" count "$IN" --where "$ws and $wy") || fail "$file: pqt count of the input failed"
    [ "$got" = "$n" ] || fail "$file: the input has $got rows where $ws and $wy, the file $n"
done <"$TRUTH"
[ "$total" = 200 ] || fail "the files hold $total rows, the input 200"

# _metadata: every file's row group (one each), every row; _common_metadata: no rows
"$PQT" meta "$OUT/_metadata" >"$TMP/meta.txt" || fail "pqt meta _metadata failed"
grep -q '^rows: 200$' "$TMP/meta.txt" || fail "_metadata: $(grep '^rows' "$TMP/meta.txt")"
nfiles=$(wc -l <"$TMP/want_files")
grep -q "^row groups: $nfiles\$" "$TMP/meta.txt" || fail "_metadata: $(grep '^row groups' "$TMP/meta.txt"), want $nfiles"
"$PQT" meta "$OUT/_common_metadata" | grep -q '^rows: 0$' || fail "_common_metadata has rows"

# with --where and --columns: the keys need not be listed
"$PQT" copy "$IN" "$TMP/w" --partition-by survey --where 'year = 2020' --columns id ||
    fail "copy --where --columns --partition-by exited $?"
got=$("$PQT" cat "$TMP/w/survey=gaia/part-0.parquet" --format csv | head -1)
[ "$got" = id ] || fail "--columns id: the file's columns are '$got'"
want=$("$PQT" count "$IN" --where "year = 2020 and survey = 'gaia'")
got=$("$PQT" count "$TMP/w/survey=gaia/part-0.parquet")
[ "$got" = "$want" ] || fail "--where: gaia has $got rows, want $want"
[ -e "$TMP/w/survey=x%3Dy/part-0.parquet" ] || fail "--where: no survey=x%3Dy folder"

# struct leaves stay in their struct, and each partition holds its rows' values
S=tests/data/struct_nulls.parquet
"$PQT" copy "$S" "$TMP/st" --partition-by z || fail "struct copy --partition-by exited $?"
n=0
for z in z1 z2 z4 z5 z6 NULL; do
    if [ $z = NULL ]; then f="$TMP/st/z=__HIVE_DEFAULT_PARTITION__/part-0.parquet" w="z is null"
    else f="$TMP/st/z=$z/part-0.parquet" w="z = '$z'"; fi
    "$PQT" cat "$S" --format csv -c id,s.a,s.b,s.t.x,s.l --where "$w" >"$TMP/want.csv"
    "$PQT" cat "$f" --format csv >"$TMP/got.csv" || fail "struct: $f unreadable"
    cmp -s "$TMP/want.csv" "$TMP/got.csv" || fail "struct $z: $(diff "$TMP/want.csv" "$TMP/got.csv" | head -3)"
    n=$((n + 1))
done
"$PQT" schema "$TMP/st/z=z5/part-0.parquet" | grep -Eq '^  s +optional' || fail "struct: no group s"

# failures leave nothing
mkdir "$TMP/full" && touch "$TMP/full/keep"
"$PQT" copy "$IN" "$TMP/full" --partition-by survey 2>"$TMP/err"
[ $? = 1 ] || fail "non-empty OUT: want exit 1"
grep -q 'not empty' "$TMP/err" || fail "non-empty OUT: message $(cat "$TMP/err")"
[ "$(ls "$TMP/full")" = keep ] || fail "non-empty OUT changed: $(ls "$TMP/full")"
"$PQT" copy "$IN" "$TMP/f1" --partition-by mag 2>"$TMP/err"
[ $? = 1 ] || fail "float key: want exit 1"
grep -q "'mag' is float64" "$TMP/err" || fail "float key: message $(cat "$TMP/err")"
"$PQT" copy "$IN" "$TMP/f2" --partition-by survey,year --max-partitions 27 2>"$TMP/err"
[ $? = 1 ] || fail "too many partitions: want exit 1"
grep -q '28 partitions' "$TMP/err" || fail "too many partitions: message $(cat "$TMP/err")"
"$PQT" copy "$IN" "$TMP/f3" --partition-by survey --force 2>/dev/null
[ $? = 2 ] || fail "--force with --partition-by: want exit 2"
"$PQT" copy "$IN" "$TMP/f4" --max-partitions 3 2>/dev/null
[ $? = 2 ] || fail "--max-partitions alone: want exit 2"
for d in f1 f2 f3 f4; do [ ! -e "$TMP/$d" ] || fail "$d: a failed copy left OUT"; done
ls -A "$TMP" | grep -q 'tmp-' && fail "a temporary directory was left: $(ls -A "$TMP")"

if [ $failures -gt 0 ]; then
    echo "test_cli_copy_partition: $failures failure(s)"
    exit 1
fi
echo "test_cli_copy_partition: ok"
