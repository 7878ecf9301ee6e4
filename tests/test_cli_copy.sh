#!/usr/bin/env bash
# test_cli_copy.sh - `pqt copy IN OUT` (issue 14): a --where/--columns/--rows copy holds exactly
# the rows and columns `pqt cat` prints for the same options on the source (csv, every value),
# keeps the source's physical and logical types (pqt schema's type columns), --sort orders the
# rows as `pqt cat --sort` does, an existing OUT is refused (exit 1, OUT untouched) unless
# --force, a bad option is a usage error (exit 2) that writes nothing, and no temporary file
# is left behind. --progress writes the progress line (final state: every row) even to a
# file; without it nothing reaches a non-terminal stderr.
# Usage (ctest does this from the repository root): bash tests/test_cli_copy.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_copy.sh PATH_TO_PQT}
SRC=examples/catalogue.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

same_cat() { # same_cat NAME OUT CAT-OPTIONS...: OUT's rows are the source's under the options
    local name=$1 out=$2
    shift 2
    "$PQT" cat "$SRC" --format csv "$@" >"$TMP/want.csv" || fail "$name: pqt cat of the source failed"
    local cols
    cols=$(head -1 "$TMP/want.csv")
    "$PQT" cat "$out" --format csv -c "$cols" >"$TMP/got.csv" || fail "$name: pqt cat of the copy failed"
    cmp -s "$TMP/want.csv" "$TMP/got.csv" || fail "$name: rows differ: $(diff "$TMP/want.csv" "$TMP/got.csv" | head -3)"
    [ "$(wc -l <"$TMP/got.csv")" -gt 1 ] || fail "$name: no rows copied"
}

"$PQT" copy "$SRC" "$TMP/all.parquet" || fail "plain copy exited $?"
same_cat all "$TMP/all.parquet"
# the schema's type columns (physical, logical, column kind) are the source's
"$PQT" schema "$SRC" | tail -n +4 | awk '{print $1, $2, $3, $4}' >"$TMP/s1"
"$PQT" schema "$TMP/all.parquet" | tail -n +4 | awk '{print $1, $2, $3, $4}' >"$TMP/s2"
cmp -s "$TMP/s1" "$TMP/s2" || fail "schema differs: $(diff "$TMP/s1" "$TMP/s2" | head -4)"

"$PQT" copy "$SRC" "$TMP/sub.parquet" --where 'mass > 1e11' --columns id,mass,survey,mag \
    --codec snappy --page-version 2 --row-group-rows 50 || fail "subset copy exited $?"
same_cat subset "$TMP/sub.parquet" --where 'mass > 1e11' -c id,mass,survey,mag
[ "$("$PQT" count "$TMP/sub.parquet")" = "$("$PQT" count "$SRC" -w 'mass > 1e11')" ] || fail "subset count"
"$PQT" meta "$TMP/sub.parquet" | grep -q 'SNAPPY' || fail "subset copy is not snappy"

"$PQT" copy "$SRC" "$TMP/rows.parquet" --rows 101:600 --no-dictionary --crc || fail "rows copy exited $?"
same_cat rows "$TMP/rows.parquet" --rows 101:600

"$PQT" copy "$SRC" "$TMP/sorted.parquet" --sort '-mass' --columns id,mass || fail "sorted copy exited $?"
same_cat sorted "$TMP/sorted.parquet" --sort '-mass' -c id,mass

# an existing OUT: refused, untouched; --force replaces it
cp "$TMP/rows.parquet" "$TMP/keep.parquet"
"$PQT" copy "$SRC" "$TMP/rows.parquet" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || fail "existing OUT: exit $rc, want 1"
grep -q 'exists' "$TMP/err" || fail "existing OUT: message '$(cat "$TMP/err")'"
cmp -s "$TMP/rows.parquet" "$TMP/keep.parquet" || fail "existing OUT was changed"
"$PQT" copy "$SRC" "$TMP/rows.parquet" --force || fail "--force exited $?"
same_cat force "$TMP/rows.parquet"

# the progress line: --progress forces it into a file (the last state shows every row, then
# the line is blanked); without it, stderr not being a terminal, nothing is printed
total=$("$PQT" count "$SRC")
"$PQT" copy "$SRC" "$TMP/prog.parquet" --progress --row-group-rows 100 2>"$TMP/prog.err" || fail "--progress exited $?"
tr '\r' '\n' <"$TMP/prog.err" | grep -qx "pqt copy: $total / $total rows (100%), [0-9.]* MB" ||
    fail "--progress: no final line with $total rows: $(od -c "$TMP/prog.err" | head -3)"
[ "$(tail -c 1 "$TMP/prog.err" | od -An -c | tr -d ' ')" = '\r' ] || fail "--progress: the line is not cleared at the end"
"$PQT" copy "$SRC" "$TMP/quiet.parquet" --where 'mass > 1e11' 2>"$TMP/quiet.err" || fail "copy exited $?"
[ ! -s "$TMP/quiet.err" ] || fail "a copy printed to a non-terminal stderr: $(head -c 200 "$TMP/quiet.err")"
"$PQT" copy "$SRC" "$TMP/q2.parquet" --progress --quiet 2>"$TMP/q2.err" || fail "--quiet exited $?"
[ ! -s "$TMP/q2.err" ] || fail "--quiet after --progress printed: $(head -c 200 "$TMP/q2.err")"

# columns pqt cannot read (issue 28): a copy that would lose one is an error naming it (exit 1,
# nothing written) unless --skip-unreadable, which warns and copies the rest (exit 0); a
# --columns list that leaves it out copies without a word; one that names it is an error
MAPS=tests/data/parquet-testing/data/nested_maps.snappy.parquet
"$PQT" copy "$MAPS" "$TMP/maps.parquet" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || fail "unreadable column: exit $rc, want 1"
[ "$(cat "$TMP/err")" = "pqt: $MAPS: pqt cannot read column 'a': a copy would lose it (--skip-unreadable copies the rest)" ] ||
    fail "unreadable column: message '$(cat "$TMP/err")'"
[ ! -e "$TMP/maps.parquet" ] || fail "unreadable column: OUT written"
"$PQT" copy "$MAPS" "$TMP/maps.parquet" --skip-unreadable 2>"$TMP/err"
rc=$?
[ $rc = 0 ] || fail "--skip-unreadable: exit $rc, want 0"
[ "$(cat "$TMP/err")" = "pqt: $MAPS: warning: column 'a' left out: pqt cannot read its type" ] ||
    fail "--skip-unreadable: message '$(cat "$TMP/err")'"
[ "$("$PQT" cat "$TMP/maps.parquet" -f csv | head -1)" = "b,c" ] || fail "--skip-unreadable: columns $("$PQT" cat "$TMP/maps.parquet" -f csv | head -1)"
"$PQT" copy "$MAPS" "$TMP/maps2.parquet" -c b 2>"$TMP/err" || fail "-c without the unreadable column: exit $?"
[ ! -s "$TMP/err" ] || fail "-c without the unreadable column printed: $(cat "$TMP/err")"
"$PQT" copy "$MAPS" "$TMP/maps3.parquet" -c b,a --skip-unreadable 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || fail "-c naming the unreadable column: exit $rc, want 1"
[ "$(cat "$TMP/err")" = "pqt: $MAPS: pqt cannot read column 'a': leave it out of --columns" ] ||
    fail "-c naming the unreadable column: message '$(cat "$TMP/err")'"
[ ! -e "$TMP/maps3.parquet" ] || fail "-c naming the unreadable column: OUT written"
PLAIN=tests/data/parquet-testing/data/alltypes_plain.parquet
# plain BYTE_ARRAY columns are binary now: a copy keeps them, value for value
"$PQT" copy "$PLAIN" "$TMP/plain.parquet" 2>"$TMP/err" || fail "binary columns: copy exit $?"
[ "$("$PQT" cat "$TMP/plain.parquet" -f jsonl)" = "$("$PQT" cat "$PLAIN" -f jsonl)" ] ||
    fail "binary columns: the copy's rows differ"
IMP=tests/data/parquet-testing/data/nonnullable.impala.parquet
"$PQT" copy "$IMP" "$TMP/imp.parquet" 2>"$TMP/err"
[ $? = 1 ] || fail "four unreadable columns: want exit 1"
[ "$(cat "$TMP/err")" = "pqt: $IMP: pqt cannot read columns 'int_array_array', 'int_map_array', 'nested_Struct.c.D', 'nested_Struct.G': a copy would lose them (--skip-unreadable copies the rest)" ] ||
    fail "four unreadable columns: message '$(cat "$TMP/err")'"
[ ! -e "$TMP/imp.parquet" ] || fail "four unreadable columns: OUT written"

# OUT that is not a regular file (issue 28): a FIFO, a symbolic link (to a file or dangling)
# or a directory is refused, --force or not, and left as it was
mkfifo "$TMP/fifo"
for force in "" --force; do
    "$PQT" copy "$SRC" "$TMP/fifo" $force 2>"$TMP/err"
    rc=$?
    [ $rc = 1 ] || fail "FIFO OUT $force: exit $rc, want 1"
    [ "$(cat "$TMP/err")" = "pqt: $TMP/fifo: is a FIFO: pqt copy replaces only regular files (--force or not)" ] ||
        fail "FIFO OUT $force: message '$(cat "$TMP/err")'"
    [ -p "$TMP/fifo" ] || fail "FIFO OUT $force: the FIFO was replaced"
done
cp "$SRC" "$TMP/target.parquet"
ln -s target.parquet "$TMP/link.parquet"
ln -s nowhere.parquet "$TMP/dangling.parquet"
for link in link dangling; do
    for force in "" --force; do
        "$PQT" copy "$SRC" "$TMP/$link.parquet" -c id $force 2>"$TMP/err"
        rc=$?
        [ $rc = 1 ] || fail "symlink OUT ($link) $force: exit $rc, want 1"
        [ "$(cat "$TMP/err")" = "pqt: $TMP/$link.parquet: is a symbolic link: pqt copy replaces only regular files (name the link's target to replace that)" ] ||
            fail "symlink OUT ($link) $force: message '$(cat "$TMP/err")'"
        [ -L "$TMP/$link.parquet" ] || fail "symlink OUT ($link) $force: the link was replaced"
    done
done
cmp -s "$SRC" "$TMP/target.parquet" || fail "symlink OUT: its target changed"
[ ! -e "$TMP/nowhere.parquet" ] || fail "dangling symlink OUT: its target was created"
mkdir "$TMP/dir.parquet"
"$PQT" copy "$SRC" "$TMP/dir.parquet" --force 2>"$TMP/err"
[ $? = 1 ] || fail "directory OUT: want exit 1"
grep -qF "is a directory: pqt copy replaces only regular files" "$TMP/err" || fail "directory OUT: message '$(cat "$TMP/err")'"

# an interrupted copy (SIGINT, SIGTERM, SIGHUP) removes its temporary file and dies of the
# signal (issue 28). The copy is made slow (2.5 million rows in row groups of 1000, gzip at
# level 9); the signal is sent once the temporary file exists. Job control (set -m) keeps a
# background job's SIGINT from being ignored.
BIG=tests/data/table_big.parquet
for sig in INT TERM HUP; do
    rm -f "$TMP/int.parquet"
    set -m
    "$PQT" copy "$BIG" "$TMP/int.parquet" --row-group-rows 1000 --codec gzip --level 9 --crc 2>"$TMP/int.err" &
    pid=$!
    set +m
    seen=0
    for _ in $(seq 1 1000); do
        if compgen -G "$TMP/int.parquet.tmp-*" >/dev/null; then
            seen=1
            break
        fi
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
    done
    [ $seen = 1 ] && kill -$sig $pid
    wait $pid
    rc=$?
    if [ $seen = 0 ] || [ -e "$TMP/int.parquet" ]; then
        echo "SKIP: SIG$sig: the copy finished before the signal (exit $rc)"
        continue
    fi
    want=$((128 + $(kill -l $sig)))
    [ $rc = $want ] || fail "SIG$sig: exit $rc, want $want (the signal's)"
    left=$(compgen -G "$TMP/int.parquet.tmp-*")
    [ -z "$left" ] || fail "SIG$sig: the temporary file was left: $left"
done

# usage errors write nothing
"$PQT" copy "$SRC" "$TMP/bad.parquet" --codec lzo 2>/dev/null
rc=$?
[ $rc = 2 ] || fail "--codec lzo: exit $rc, want 2"
"$PQT" copy "$SRC" 2>/dev/null
[ $? = 2 ] || fail "missing OUT: want exit 2"
"$PQT" copy "$SRC" "$TMP/bad.parquet" --where 'nope > 1' 2>/dev/null
[ $? = 1 ] || fail "unknown column in --where: want exit 1"
[ ! -e "$TMP/bad.parquet" ] || fail "a failed copy left OUT"
ls "$TMP" | grep -q 'tmp-' && fail "a temporary file was left: $(ls "$TMP")"

if [ $failures -gt 0 ]; then
    echo "test_cli_copy: $failures failure(s)"
    exit 1
fi
echo "test_cli_copy: ok"
