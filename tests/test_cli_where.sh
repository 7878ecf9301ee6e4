#!/usr/bin/env bash
# test_cli_where.sh - `pqt cat --where`, `pqt head --where` and `pqt count` against DuckDB's
# answers: tests/data/where/expected.tsv holds, for 46 rules over two DuckDB-written files,
# the count, sum(id) and md5 of the surviving ids that DuckDB computed from a SQL condition
# with the same meaning (tests/data/make_where.mjs, which says how NaN is handled). Every
# printed line of a filtered cat must also be the unfiltered cat's line of that id (csv and
# jsonl), so the values are gathered right. Then the options around it (--limit, head,
# --rows, -c, one thread, stdin, no survivor, the table), the errors and their exit statuses,
# and --explain in text and JSON, whose counters must show the statistics pruning. Then
# expressions (issue 30) against Python's arithmetic over the unfiltered values, an int64
# overflow's message, and a constant expression pruning like its literal.
# Usage (ctest does this from the repository root): bash tests/test_cli_where.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_where.sh PATH_TO_PQT}
DIR=tests/data/where
MIXED=$DIR/mixed.parquet
SORTED=$DIR/sorted.parquet
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

expect_grep() { # expect_grep PATTERN STREAM(out|err) DESCRIPTION
    grep -q -e "$1" "$TMP/$2" || fail "$3: no '$1' in std$2: $(head -c 300 "$TMP/$2")"
}

expect_same() { # expect_same FILE_A FILE_B DESCRIPTION
    if ! cmp -s "$1" "$2"; then
        fail "$3: $1 and $2 differ"
        diff "$1" "$2" | head -10 >&2
    fi
}

# Every line of a filtered output ($1) is the line of the same id in the full output ($2);
# fmt csv (id is the first field) or jsonl ({"id":N,...). Prints "lines mismatches".
same_lines() {
    awk -v fmt="$3" '
        function id(s) {
            if (fmt == "csv") { sub(/,.*/, "", s); return s }
            sub(/^\{"id":/, "", s); sub(/,.*/, "", s); return s
        }
        NR == FNR { if (fmt == "jsonl" || FNR > 1) line[id($0)] = $0; else head = $0; next }
        fmt == "csv" && FNR == 1 { if ($0 != head) bad++; next }
        { n++; if (line[id($0)] != $0) bad++ }
        END { print n + 0, bad + 0 }' "$2" "$1"
}

# ---- the unfiltered outputs every filtered line is compared with ----
for f in mixed sorted; do
    "$PQT" cat "$DIR/$f.parquet" -f csv >"$TMP/$f.csv" || fail "pqt cat $f.parquet -f csv"
    "$PQT" cat "$DIR/$f.parquet" -f jsonl >"$TMP/$f.jsonl" || fail "pqt cat $f.parquet -f jsonl"
done

# ---- every rule of expected.tsv: count, ids (set, order, sum) and the lines printed ----
ncases=0
while IFS=$'\t' read -r want_n want_sum want_md5 file rule1 rule2; do
    [ "${want_n:0:1}" = "#" ] && continue
    ncases=$((ncases + 1))
    args=(--where "$rule1")
    [ -n "${rule2:-}" ] && args+=(-w "$rule2")
    what="$file ${args[*]}"

    run count "$DIR/$file" "${args[@]}"
    expect_rc 0 "count $what"
    [ "$(cat "$TMP/out")" = "$want_n" ] || fail "count $what: $(cat "$TMP/out"), DuckDB $want_n"

    run cat "$DIR/$file" "${args[@]}" -f csv
    expect_rc 0 "cat $what"
    [ -s "$TMP/err" ] && fail "cat $what wrote to stderr: $(head -c 200 "$TMP/err")"
    tail -n +2 "$TMP/out" | cut -d, -f1 >"$TMP/ids"
    md5=$(md5sum <"$TMP/ids" | cut -d' ' -f1)
    sum=$(awk '{ s += $1 } END { printf "%d", s }' "$TMP/ids")
    [ "$md5" = "$want_md5" ] || fail "cat $what: ids differ from DuckDB's ($(wc -l <"$TMP/ids") rows, want $want_n)"
    [ "$sum" = "$want_sum" ] || fail "cat $what: sum(id) $sum, DuckDB $want_sum"
    base=${file%.parquet}
    read -r n bad < <(same_lines "$TMP/out" "$TMP/$base.csv" csv)
    [ "$n" = "$want_n" ] && [ "$bad" = 0 ] ||
        fail "cat $what -f csv: $n lines, $bad not the unfiltered line of their id"

    run cat "$DIR/$file" "${args[@]}" -f jsonl
    read -r n bad < <(same_lines "$TMP/out" "$TMP/$base.jsonl" jsonl)
    [ "$rc" = 0 ] && [ "$n" = "$want_n" ] && [ "$bad" = 0 ] ||
        fail "cat $what -f jsonl: status $rc, $n lines, $bad not the unfiltered line of their id"
done <"$DIR/expected.tsv"
[ "$ncases" -ge 40 ] || fail "expected.tsv: only $ncases cases read"

# ---- the options around --where (truth: the filtered output checked above) ----
R='v /= 0' # 5876 of 6000 rows, NaN kept: every row group, every column kind
"$PQT" cat "$MIXED" -w "$R" -f csv >"$TMP/r.csv"
run cat "$MIXED" -w "$R" -f csv -n 25
head -n 26 "$TMP/r.csv" >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "cat --where -n 25 (the first 25 survivors)"
run head "$MIXED" -f csv --where "$R"
head -n 11 "$TMP/r.csv" >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "head --where (the first 10 survivors)"
run cat "$MIXED" -w "$R" -f csv --rows 1000:4500
# in mixed.parquet id is the row number: survivors inside the slice are those ids
awk -F, 'NR == 1 || ($1 >= 1000 && $1 <= 4500)' "$TMP/r.csv" >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "cat --where --rows 1000:4500 (the rules apply within the slice)"
run count "$MIXED" -w "$R" --rows 1000:4500
[ "$(cat "$TMP/out")" = "$(($(wc -l <"$TMP/want") - 1))" ] || fail "count --where --rows 1000:4500: $(cat "$TMP/out")"
run cat "$MIXED" -w "$R" -f csv --rows 2040:2060 -n 5
awk -F, 'NR == 1 || ($1 >= 2040 && $1 <= 2060)' "$TMP/r.csv" | head -n 6 >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "cat --where --rows across a row group boundary, -n 5"
PQT_CAT_ONE_THREAD=1 "$PQT" cat "$MIXED" -w "$R" -f csv >"$TMP/one.csv"
expect_same "$TMP/r.csv" "$TMP/one.csv" "cat --where on one thread"
"$PQT" cat "$MIXED" -f jsonl -c "id,lst, s,st.name" >"$TMP/cols.jsonl"
run cat "$MIXED" -w "$R" -f jsonl -c "id,lst, s,st.name"
read -r n bad < <(same_lines "$TMP/out" "$TMP/cols.jsonl" jsonl)
[ "$n" = 5876 ] && [ "$bad" = 0 ] || fail "cat --where -c id,lst,s,st.name: $n lines, $bad wrong"
run cat - -w "$R" -f csv <"$MIXED"
expect_same "$TMP/r.csv" "$TMP/out" "cat - --where (standard input)"
run count - -w "$R" <"$MIXED"
[ "$(cat "$TMP/out")" = 5876 ] || fail "count - --where: $(cat "$TMP/out")"

# a rule every row passes (statistics prove it): the unfiltered output, slices included
run cat "$MIXED" -w 'id >= 1' -f csv
expect_same "$TMP/mixed.csv" "$TMP/out" "cat --where passing every row"
"$PQT" cat "$MIXED" --rows 2000:2100 -f jsonl >"$TMP/want"
run cat "$MIXED" --rows 2000:2100 -f jsonl -w 'id >= 1' --explain
expect_same "$TMP/want" "$TMP/out" "cat --rows --where passing every row"
expect_grep "every row passes by statistics" err "cat --explain of a rule every row passes"

# the table: every survivor, the row count line, and the terminal preview
run cat "$MIXED" -w 'g == 3' -c id,g,s
expect_rc 0 "cat --where (table)"
[ "$(tail -n 1 "$TMP/out")" = "534 rows" ] || fail "cat --where table: last line '$(tail -n 1 "$TMP/out")'"
[ "$(($(wc -l <"$TMP/out") - 4))" = 534 ] || fail "cat --where table: $(wc -l <"$TMP/out") lines"
awk 'NR > 3 && NF >= 2 && $2 != 3 && $2 != "rows"' "$TMP/out" | grep -q . && fail "cat --where table: a row with g /= 3"
PQT_ISATTY=1 COLUMNS=200 "$PQT" cat "$MIXED" -w 'g == 3' -c id,g >"$TMP/out" 2>"$TMP/err"
grep -q '^534 rows, 20 shown' "$TMP/out" || fail "cat --where on a terminal: no '534 rows, 20 shown'"
[ "$(awk 'NR == 4 { print $1 }' "$TMP/out")" = 3 ] || fail "cat --where on a terminal: first row not id 3"

# no survivor: csv is the header, jsonl nothing, the table says 0 rows, count 0
run cat "$MIXED" -w 'id > 999999' -f csv
expect_rc 0 "cat --where keeping nothing"
head -n 1 "$TMP/mixed.csv" >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "cat --where keeping nothing -f csv (the header)"
run cat "$MIXED" -w 'id > 999999' -f jsonl
[ "$rc" = 0 ] && [ ! -s "$TMP/out" ] || fail "cat --where keeping nothing -f jsonl: status $rc, $(wc -c <"$TMP/out") bytes"
run cat "$MIXED" -w 'id > 999999'
[ "$rc" = 0 ] && [ "$(tail -n 1 "$TMP/out")" = "0 rows" ] || fail "cat --where keeping nothing (table): $(tail -n 1 "$TMP/out")"

# ---- errors ----
run cat "$MIXED" -w 'v > 1 b > 2' -f csv
expect_rc 2 "a rule that does not parse"
expect_grep "at character 7" err "a rule that does not parse"
expect_grep "usage: pqt cat" err "a rule that does not parse"
[ -s "$TMP/out" ] && fail "a rule that does not parse printed rows"
run count "$MIXED" --where 'id >'
expect_rc 2 "count: a rule that does not parse"
expect_grep "missing a value" err "count: a rule that does not parse"
run head /no/such/file -w '(id > 1'
expect_rc 2 "head: a bad rule is found before the file is opened"
run cat "$MIXED" -w 'gg == 3'
expect_rc 1 "cat: a column the file lacks"
expect_grep "did you mean 'g'" err "cat: a column the file lacks"
expect_grep "^pqt: $MIXED: unknown column" err "cat: a column the file lacks (one line naming the file once)"
run count "$MIXED" -w 'id > 1' -w 's > 5'
expect_rc 1 "count: a string column against a number"
expect_grep "column 's' is string" err "count: a string column against a number"
run cat "$MIXED" -w 'lst == 3' -f csv
expect_rc 1 "cat: a list column in a rule"
run count "$MIXED" -w
expect_rc 2 "count -w without a rule"
run count "$MIXED" --explain xml
expect_rc 2 "count --explain xml"
run count "$MIXED" --explain=yaml
expect_rc 2 "count --explain=yaml"
run count "$MIXED" --rows 5:x
expect_rc 2 "count --rows 5:x"
run count "$MIXED" --rows 5:7000
expect_rc 1 "count --rows past the end"
expect_grep "6000 rows" err "count --rows past the end"
run count
expect_rc 2 "count without FILE"

# ---- count without rules, help ----
run count "$MIXED"
[ "$rc" = 0 ] && [ "$(cat "$TMP/out")" = 6000 ] || fail "count: $(cat "$TMP/out")"
run count "$SORTED" --rows 101:
[ "$(cat "$TMP/out")" = 20380 ] || fail "count --rows 101: $(cat "$TMP/out")"
run count --help
expect_rc 0 "count --help"
expect_grep "usage: pqt count" out "count --help"
for key in count row_groups_pruned_stats pages_decompressed dictionary_pages_read; do
    expect_grep "$key" out "count --help names the JSON key $key"
done
run help count
expect_grep "usage: pqt count" out "pqt help count"
run --help
expect_grep "count FILE" out "pqt --help lists count"
run cat --help
expect_grep "where RULE" out "cat --help"

# ---- --explain ----
RANGE='id >= 5001 and id <= 5100' # row group 3 of 10 (rows 4097..6144) holds them all
run count "$SORTED" -w "$RANGE" --explain
expect_rc 0 "count --explain"
[ "$(head -n 1 "$TMP/out")" = 100 ] || fail "count --explain: first line $(head -n 1 "$TMP/out")"
[ -z "$(sed -n 2p "$TMP/out")" ] || fail "count --explain: no blank line after the count"
# runs of equal verdicts are one line, counts summed (2048 rows a row group)
grep -qx 'row groups 1-2: pruned by statistics (id >= 5001 and id <= 5100), 4096 rows skipped' "$TMP/out" &&
    grep -qx 'row groups 4-10: pruned by statistics (id >= 5001 and id <= 5100), 14336 rows skipped' "$TMP/out" ||
    fail "count --explain: row groups 1-2 and 4-10 pruned, one line each"
grep -q '^counters: 10 row groups (9 pruned by statistics, 0 by the page index, 0 by dictionaries, 0 by bloom filters; 0 kept whole); ' "$TMP/out" ||
    fail "count --explain: the counters line"
grep -q '^row group 3: filtered, 100 of 2048' "$TMP/out" || fail "count --explain: row group 3's verdict"
run count "$SORTED" --explain text -w "$RANGE"
[ "$(head -n 1 "$TMP/out")" = 100 ] || fail "count --explain text FILE"

run count "$SORTED" -w "$RANGE" --explain json
expect_rc 0 "count --explain json"
python3 - "$TMP/out" <<'EOF' || fail "count --explain json: see above"
import json, sys
doc = json.load(open(sys.argv[1]))  # one object, nothing else on stdout
want = {"count": 100, "rows_unfiltered": 20480, "row_groups": 10, "row_groups_pruned_stats": 9,
        "row_groups_all": 0}
keys = ["count", "row_groups", "row_groups_pruned_stats", "pages", "pages_skipped",
        "pages_decompressed", "dictionary_pages_read", "values_decoded", "bytes_read",
        "values_decoded_by_column", "plan"]
bad = [k for k in keys if k not in doc]
bad += ["%s=%r (want %r)" % (k, doc.get(k), v) for k, v in want.items() if doc.get(k) != v]
for k in keys[1:9]:
    if not isinstance(doc.get(k), int) or doc[k] < 0:
        bad.append("%s is not a count" % k)
# the filter column of the one row group read, and nothing of the payload columns x and s
cols = doc.get("values_decoded_by_column", {})
if set(cols) - {"id"}:
    bad.append("payload columns decoded: %r" % cols)
if cols.get("id", 0) > 2048 or doc.get("values_decoded", 0) > 2048:
    bad.append("more than one row group of id decoded: %r" % doc.get("values_decoded"))
if doc.get("pages_decompressed", 0) < 1:
    bad.append("no data page decompressed")
if doc["plan"].count("pruned by statistics") != 9:
    bad.append("plan: %r" % doc["plan"])
if bad:
    print("count --explain json:", "; ".join(map(str, bad)), file=sys.stderr)
    sys.exit(1)
EOF
run count "$MIXED" --explain json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["count"] == 6000 and d["values_decoded"] == 0 and d["row_groups_pruned_stats"] == 0 else 1)' "$TMP/out" ||
    fail "count --explain json without rules: $(head -c 300 "$TMP/out")"

run cat "$SORTED" -w "$RANGE" -f csv --explain
expect_rc 0 "cat --explain"
"$PQT" cat "$SORTED" -w "$RANGE" -f csv >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "cat --explain leaves stdout as it was"
[ "$(grep -c '^row groups.*pruned by statistics' "$TMP/err")" = 2 ] || fail "cat --explain: the plan on stderr"
grep -q '^counters: 10 row groups (9 pruned by statistics' "$TMP/err" || fail "cat --explain: the counters"

# ---- SQL spellings: the counts DuckDB gave for the rules they stand for (expected.tsv) ----
run count "$MIXED" -w "s like 'δέ%'"
expect_rc 0 "count like"
[ "$(cat "$TMP/out")" = 583 ] || fail "count s like 'δέ%': $(cat "$TMP/out"), DuckDB 583 (s starts_with \"δέ\")"
run count "$MIXED" -w "s LIKE 'zeta,%'" --explain
[ "$(head -n 1 "$TMP/out")" = 584 ] || fail "count s LIKE 'zeta,%': $(head -n 1 "$TMP/out"), DuckDB 584"
expect_grep 's starts_with "zeta,"' out "--explain of a prefix LIKE"
run count "$MIXED" -w "s = '東京-5'"
[ "$(cat "$TMP/out")" = 45 ] || fail "count s = '東京-5': $(cat "$TMP/out"), DuckDB 45"
run count "$MIXED" -w "s like 'a%' escape 'ab'"
expect_rc 2 "a bad ESCAPE is a usage error"
expect_grep "escape takes one character in quotes" err "a bad ESCAPE"

# ---- a limit stops reading: -n N without --sort ----
# s = 'r' || id, so 's ends_with "7"' keeps ids 7, 17, ... in every row group (statistics
# settle none); the first 300 end at id 2997, in row group 2 (rows 2049..4096). One thread,
# so no row group is read ahead and the plan is the same every run.
OMP_NUM_THREADS=1 run cat "$SORTED" -w 's ends_with "7"' -c id -n 300 -f csv --explain
expect_rc 0 "cat -n 300 --where"
awk 'BEGIN { print "id"; for (i = 7; i <= 2997; i += 10) print i }' >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "cat -n 300 --where: the first 300 survivors"
grep -qx 'limit 300 reached in row group 2 of 10: row groups 3-10 not read' "$TMP/err" ||
    fail "cat -n 300 --explain: the limit line: $(cat "$TMP/err")"
grep -qx 'row groups 3-10: after the limit, not read' "$TMP/err" ||
    fail "cat -n 300 --explain: row groups 3-10 not read: $(cat "$TMP/err")"
grep -qx 'not read after the limit: 8 row groups' "$TMP/err" ||
    fail "cat -n 300 --explain: the counter: $(cat "$TMP/err")"
# choosing the rows decoded s in row groups 1 and 2 only
grep -q '^counters: 10 row groups .*; 4096 values decoded, ' "$TMP/err" ||
    fail "cat -n 300 --explain: values decoded: $(grep '^counters' "$TMP/err")"
run head "$SORTED" -w 's ends_with "7"' -c id -f csv
awk 'BEGIN { print "id"; for (i = 7; i <= 97; i += 10) print i }' >"$TMP/want"
expect_same "$TMP/want" "$TMP/out" "head --where: the first 10 survivors"
# a limit beyond the survivors reads every row group
OMP_NUM_THREADS=1 run cat "$SORTED" -w 'id > 20470 or id < 3' -c id -n 100 -f csv --explain
[ "$(sed 1d "$TMP/out" | tr '\n' ' ')" = "1 2 20471 20472 20473 20474 20475 20476 20477 20478 20479 20480 " ] ||
    fail "cat -n 100 beyond the survivors: $(tr '\n' ' ' <"$TMP/out")"
grep -qx 'limit 100: every row group was needed' "$TMP/err" ||
    fail "cat -n 100 --explain: $(cat "$TMP/err")"
run count "$SORTED" -w "$RANGE" --explain json
python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["row_groups_not_read_limit"] == 0 else 1)' "$TMP/out" ||
    fail "count --explain json: row_groups_not_read_limit: $(head -c 300 "$TMP/out")"

# ---- expressions (issue 30): survivors against Python's arithmetic over the unfiltered values
# (float32 values re-rounded to float32; IEEE: log10(0) = -inf, of a negative NaN; a zero
# divisor null; null and NaN comparisons false). Each case: the rule, then a Python condition
# over id, g, v, f (None for null; a TypeError from a null drops the row, so an 'or' spells
# Kleene logic out).
cat >"$TMP/expr_truth.py" <<'PY'
import csv, math, struct, sys
def num(s, f32=False):
    if s == "": return None
    x = float(s)
    return struct.unpack("f", struct.pack("f", x))[0] if f32 and math.isfinite(x) else x
def log10(x): return -math.inf if x == 0 else math.nan if x < 0 or x != x else math.log10(x)
cond = eval("lambda id, g, v, f: " + sys.argv[2])
ids = []
for row in csv.DictReader(open(sys.argv[1])):
    id_, g, v, f = num(row["id"]), num(row["g"]), num(row["v"]), num(row["f"], True)
    try:
        if cond(int(id_), g, v, f): ids.append(str(int(id_)))
    except TypeError:  # a null operand: unknown, dropped
        pass
print("\n".join(ids))
PY
"$PQT" cat "$MIXED" -f csv -c id,g,v,f >"$TMP/gvf.csv" || fail "pqt cat -c id,g,v,f"
while IFS='|' read -r rule py; do
    [ -z "$rule" ] && continue
    run cat "$MIXED" -w "$rule" -f csv -c id
    expect_rc 0 "cat --where '$rule'"
    tail -n +2 "$TMP/out" >"$TMP/got_ids"
    python3 "$TMP/expr_truth.py" "$TMP/gvf.csv" "$py" >"$TMP/want_ids"
    [ -s "$TMP/want_ids" ] || fail "'$rule': the truth keeps no row (a useless case)"
    expect_same "$TMP/want_ids" "$TMP/got_ids" "cat --where '$rule' against Python"
    run count "$MIXED" -w "$rule"
    [ "$(cat "$TMP/out")" = "$(grep -c . "$TMP/want_ids")" ] || fail "count --where '$rule': $(cat "$TMP/out")"
done <<'CASES'
g - v > 0.5|g - v > 0.5
-2.5 * log10(f) + 22.5 < 21|-2.5 * log10(f) + 22.5 < 21
v > f|v > f
id % 2 == 0|id % 2 == 0
id % 7 == 3 and g // 2 >= 3|id % 7 == 3 and int(g / 2) >= 3
abs(v) <= 10 or g * g * g > 700|(v is not None and abs(v) <= 10) or (g is not None and g * g * g > 700)
v / (g - 5) < -1|g != 5 and v / (g - 5) < -1
(id - 1) // 1000 == 2 and f is not null|int((id - 1) / 1000) == 2 and f is not None
CASES
run cat "$MIXED" -w 'id * 9223372036854775807 > 0' -f csv
expect_rc 1 "an int64 overflow in a rule"
expect_grep "id \* 9223372036854775807 overflows int64 (2 \* 9223372036854775807) at row 1 of the batch" err "an int64 overflow names its operands and row"
run count "$MIXED" -w 'g - v > 0.5' --explain
expect_grep '^  1\. g - v > 0\.5$' out "--explain shows the computed conjunct"
run count "$SORTED" -w '2 * 1000 >= id' --explain json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["count"] == 2000 and d["row_groups_pruned_stats"] == 9 else 1)' "$TMP/out" ||
    fail "2 * 1000 >= id prunes by statistics as id <= 2000 does: $(head -c 300 "$TMP/out")"

echo "test_cli_where: $checks runs, $ncases DuckDB cases, $failures failures"
[ "$failures" -eq 0 ]
