# tests/remote/harness.sh - sourced by tests/test_remote.sh and tests/test_remote_s3.sh: the
# test server started on the corpus, the pass/fail tally, and the check that every corpus
# file read from the server equals the local read (`pqt cat --format jsonl`, the exit
# status, the message with the URL in place of the path). The caller sets PQT.

npass=0
nfail=0
pass() { npass=$((npass + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; nfail=$((nfail + 1)); }
TIMEOUT=()
command -v timeout >/dev/null && TIMEOUT=(timeout 120)

# remote_start NAME DIR [server options...]: tmp (removed at exit), root, parquet-testing's
# data/ and bad_data/ and tests/data linked as data/, bad_data/ and ours/ below root/DIR, and
# tests/remote/http_server.py serving root (log: $tmp/log) on port; exits 77 without python3
# and 1 naming NAME when the server does not start.
remote_start() {
    local name=$1 dir=$2
    shift 2
    command -v python3 >/dev/null || { echo "$name: python3 not found" >&2; exit 77; }
    tmp=$(mktemp -d)
    root=$tmp/root
    mkdir -p "$root/$dir"
    ln -s "$PWD/tests/data/parquet-testing/data" "$root/$dir/data"
    ln -s "$PWD/tests/data/parquet-testing/bad_data" "$root/$dir/bad_data"
    ln -s "$PWD/tests/data" "$root/$dir/ours"
    python3 tests/remote/http_server.py --root "$root" --log "$tmp/log" "$@" >"$tmp/port" \
        2>"$tmp/srv.err" &
    srv=$!
    trap 'kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
    for _ in $(seq 50); do grep -q PORT "$tmp/port" 2>/dev/null && break; sleep 0.1; done
    port=$(awk '/^PORT/ {print $2}' "$tmp/port")
    [ -n "$port" ] || { echo "$name: the server did not start: $(cat "$tmp/srv.err")"; exit 1; }
}

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
