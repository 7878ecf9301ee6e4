#!/usr/bin/env bash
# test_write_struct_corpus.sh - `pqt copy` of files with struct columns (issue 14): the copy
# reads back identically by pqt (every value, as JSON lines) and, for files pqt reads whole,
# its schema tree (node names, nesting, repetition, physical and logical types, the columns
# pqt reads) is the source's. Sources: the parquet-testing corpus files with structs
# (nested_structs.rust: 216 leaves in nested structs; nullable/nonnullable.impala: structs
# beside maps and lists of lists, left out by --skip-unreadable; nulls.snappy: a struct of a null
# leaf; repeated_primitive_no_list: lists in a struct) and tests/data/struct_nulls.parquet
# (DuckDB: nulls at every level), also copied with --where/--sort and --columns.
# Usage (ctest does this from the repository root): bash tests/test_write_struct_corpus.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_write_struct_corpus.sh PATH_TO_PQT}
DATA=tests/data/parquet-testing/data
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# same_rows NAME SRC OUT [CAT OPTIONS for the source...]
same_rows() {
    local name=$1 src=$2 out=$3
    shift 3
    "$PQT" cat --format jsonl "$src" "$@" >"$TMP/want" 2>/dev/null || fail "$name: pqt cat of the source failed"
    "$PQT" cat --format jsonl "$out" >"$TMP/got" 2>/dev/null || fail "$name: pqt cat of the copy failed"
    [ -s "$TMP/want" ] || fail "$name: no rows"
    cmp -s "$TMP/want" "$TMP/got" || fail "$name: rows differ: $(diff "$TMP/want" "$TMP/got" | head -3)"
}

# the tree below the root: node, repetition, physical, logical, column (file line, header
# and root name left out: pqt names its root "schema")
tree() { "$PQT" schema "$1" | tail -n +4 | sed -E 's/([^ ])  +/\1 /g; s/ +$//'; }

n=0
for f in nested_structs.rust nullable.impala nonnullable.impala nulls.snappy repeated_primitive_no_list; do
    n=$((n + 1))
    "$PQT" copy "$DATA/$f.parquet" "$TMP/$n.parquet" --skip-unreadable 2>"$TMP/copy_err" ||
        fail "$f: pqt copy exited $?"
    # a MAP's fields are left out of a copy, with a warning (docs/writing.md)
    case $f in
    nullable.impala) same_rows "$f" "$DATA/$f.parquet" "$TMP/$n.parquet" \
        --columns id,int_array,nested_struct.A,nested_struct.b ;;
    nonnullable.impala) same_rows "$f" "$DATA/$f.parquet" "$TMP/$n.parquet" \
        --columns ID,Int_Array,nested_Struct.a,nested_Struct.B ;;
    *) same_rows "$f" "$DATA/$f.parquet" "$TMP/$n.parquet" ;;
    esac
    case $f in *impala)
        grep -qi "map.key' is not written: writing MAP columns is not supported" "$TMP/copy_err" ||
            fail "$f: copy does not warn about its map: $(cat "$TMP/copy_err")"
        # without --skip-unreadable the map makes the copy an error, and nothing is written
        rm -f "$TMP/$n.strict.parquet"
        m=int_map.key
        [ "$f" = nonnullable.impala ] && m=Int_Map.key
        if "$PQT" copy "$DATA/$f.parquet" "$TMP/$n.strict.parquet" -c "$m" 2>"$TMP/copy_err"; then
            fail "$f: a copy losing its map exited 0"
        fi
        grep -q "cannot be written: writing MAP columns is not supported" "$TMP/copy_err" ||
            fail "$f: strict copy message: $(cat "$TMP/copy_err")"
        [ ! -e "$TMP/$n.strict.parquet" ] || fail "$f: a failed copy left $n.strict.parquet" ;;
    esac
    case $f in nested_structs.rust | nulls.snappy)
        cmp -s <(tree "$DATA/$f.parquet") <(tree "$TMP/$n.parquet") ||
            fail "$f: schema differs: $(diff <(tree "$DATA/$f.parquet") <(tree "$TMP/$n.parquet") | head -4)" ;;
    esac
done
# the struct groups really are groups: nested_structs.rust's leaves are inside them
[ "$("$PQT" schema "$TMP/1.parquet" | grep -c '^    [A-Za-z_]')" -eq 216 ] ||
    fail "nested_structs.rust: the copy's 216 leaves are not inside groups"

SRC=tests/data/struct_nulls.parquet
"$PQT" copy "$SRC" "$TMP/s.parquet" || fail "struct_nulls: pqt copy exited $?"
same_rows struct_nulls "$SRC" "$TMP/s.parquet"
cmp -s <(tree "$SRC") <(tree "$TMP/s.parquet") || fail "struct_nulls: schema differs"
"$PQT" copy "$SRC" "$TMP/w.parquet" --where 'id >= 3' --sort -id || fail "struct_nulls --where: exited $?"
same_rows "struct_nulls --where --sort" "$SRC" "$TMP/w.parquet" --where 'id >= 3' --sort -id
"$PQT" copy "$SRC" "$TMP/c.parquet" --columns s.t.x,z,s.b || fail "struct_nulls --columns: exited $?"
same_rows "struct_nulls --columns" "$SRC" "$TMP/c.parquet" --columns s.b,s.t.x,z
# s keeps only b and t {x}, in the file's order, before z
want=$'s optional\nb optional\nt optional\nx optional\nz optional'
got=$("$PQT" schema "$TMP/c.parquet" | tail -n +4 | awk '{print $1, $2}')
[ "$got" = "$want" ] || fail "struct_nulls --columns: tree is $(echo $got)"

if [ "$failures" -gt 0 ]; then
    echo "test_write_struct_corpus: $failures failure(s)" >&2
    exit 1
fi
echo "test_write_struct_corpus: ok"
