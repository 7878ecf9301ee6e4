# tests/remote/corpus_same.sh - sourced by tests/test_remote.sh and tests/test_remote_s3.sh:
# every corpus file read from a server equals the local read (`pqt cat --format jsonl`, the
# exit status, the message with the URL in place of the path). The caller defines PQT, tmp,
# TIMEOUT, pass and fail, and serves parquet-testing's data/ and bad_data/ and tests/data as
# data/, bad_data/ and ours/ below the prefix it passes.

# same_as_local LOCAL-PATH URL HOW: one file
same_as_local() {
    local f=$1 u=$2 how=$3
    "${TIMEOUT[@]}" "$PQT" cat "$f" --format jsonl >"$tmp/a" 2>"$tmp/ea"
    local ra=$?
    "${TIMEOUT[@]}" "$PQT" cat "$u" --format jsonl >"$tmp/b" 2>"$tmp/eb"
    local rb=$?
    sed -i "s|$f|FILE|g" "$tmp/ea"
    sed -i "s|$u|FILE|g" "$tmp/eb"
    if [ $ra != $rb ]; then
        fail "$u" "exit $ra locally, $rb over $how: $(head -c 300 "$tmp/eb")"
    elif ! cmp -s "$tmp/a" "$tmp/b"; then
        fail "$u" "the jsonl differs"
    elif ! cmp -s "$tmp/ea" "$tmp/eb"; then
        fail "$u" "the messages differ: $(head -c 200 "$tmp/ea") / $(head -c 200 "$tmp/eb")"
    else
        pass
    fi
}

# corpus_same PREFIX HOW: every corpus file below PREFIX; sets nfiles
corpus_same() {
    local prefix=$1 how=$2 f
    nfiles=0
    for f in tests/data/parquet-testing/data/*.parquet; do
        same_as_local "$f" "$prefix/data/$(basename "$f")" "$how"
        nfiles=$((nfiles + 1))
    done
    for f in tests/data/parquet-testing/bad_data/*.parquet; do
        same_as_local "$f" "$prefix/bad_data/$(basename "$f")" "$how"
        nfiles=$((nfiles + 1))
    done
    for f in tests/data/*.parquet; do
        same_as_local "$f" "$prefix/ours/$(basename "$f")" "$how"
        nfiles=$((nfiles + 1))
    done
    [ $nfiles -gt 80 ] || fail "corpus" "only $nfiles files found"
}
