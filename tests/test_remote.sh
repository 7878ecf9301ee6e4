#!/usr/bin/env bash
# Reading over HTTP equals reading the file (docs/remote.md): every corpus file the golden and
# bad-data tests read, and every tests/data/*.parquet, printed by `pqt cat --format jsonl`
# from http://127.0.0.1 (tests/remote/http_server.py) is byte for byte the local output, with
# the same exit status and the same message (the URL in place of the path). Then the faults:
# each injected one is retried into the right bytes, or gives the right message.
#   bash tests/test_remote.sh PATH_TO_PQT        (from the repository root)
set -u
PQT=$1
. tests/remote/harness.sh
remote_start test_remote .
base=http://127.0.0.1:$port
ctl() { python3 -c "import sys,urllib.request; urllib.request.urlopen(sys.argv[1]).read()" "$base/_control?$1"; }

# --- local == remote, every corpus file -------------------------------------------------------
corpus_same "$base" HTTP

# --- faults ----------------------------------------------------------------------------------
f=tests/data/table_rg.parquet
"$PQT" cat "$f" --format jsonl >"$tmp/want"
fault_ok() { # control-query name: the read is retried into the right bytes
    ctl "clear=1&$1"
    if ! "${TIMEOUT[@]}" "$PQT" cat "$base/ours/table_rg.parquet" --format jsonl >"$tmp/got" 2>"$tmp/err"; then
        fail "$2" "$(head -c 300 "$tmp/err")"
    elif ! cmp -s "$tmp/want" "$tmp/got"; then
        fail "$2" "wrong bytes after the fault"
    else
        pass
    fi
}
fault_err() { # control-query name pattern...: the read fails naming URL, range and status
    local q=$1 name=$2
    shift 2
    ctl "clear=1&$q"
    if "${TIMEOUT[@]}" "$PQT" cat "$base/ours/table_rg.parquet" --format jsonl >"$tmp/got" 2>"$tmp/err"; then
        fail "$name" "succeeded"
        return
    fi
    for p in "$@"; do
        grep -qE -- "$p" "$tmp/err" || { fail "$name" "no /$p/ in: $(head -c 400 "$tmp/err")"; return; }
    done
    pass
}
fault_ok "fail503=3" "503 three times, retried"
fault_ok "reset=2" "connection reset twice, retried"
fault_ok "short=2" "short bodies twice, retried"
fault_ok "ignore_range=1" "Range ignored (200 with the whole file)"
fault_ok "latency_ms=30" "latency"
fault_err "fail503=100" "503 past the retries" "$base/ours/table_rg.parquet" \
    "the last 65536 bytes" "HTTP 503" "after 5 attempts"
fault_err "etag_change_after=4" "ETag changed mid-read" "$base/ours/table_rg.parquet" \
    "bytes [0-9]+-[0-9]+" "changed while being read"
ctl "clear=1"
"$PQT" cat "$base/ours/none.parquet" >/dev/null 2>"$tmp/err"
grep -q "$base/ours/none.parquet: the last 65536 bytes: HTTP 404" "$tmp/err" && pass ||
    fail "404" "$(cat "$tmp/err")"

echo "remote: $npass passed, $nfail failed ($nfiles corpus files)"
[ $nfail -eq 0 ]
