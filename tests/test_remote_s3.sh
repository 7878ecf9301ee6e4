#!/usr/bin/env bash
# Reading s3:// equals reading the file (docs/remote.md "S3"), against tests/remote/http_server.py
# --s3, which checks every request's signature with its own SigV4 (tests/remote/s3_verify.py):
# every corpus file printed by `pqt cat --format jsonl` from s3://bkt/... is byte for byte the
# local output (same exit status, same message with the URL for the path); the hive datasets of
# tests/data/datasets below s3://bkt/<set>/ give the local dataset's `pqt cat` and `pqt count`;
# every one of those requests was signed and verified (the server's log). Then the refusals:
# no keys against a server that wants signatures, and a wrong secret, are HTTP 403 naming the
# s3:// URL, the URL fetched and S3's error code.
#   bash tests/test_remote_s3.sh PATH_TO_PQT        (from the repository root)
set -u
PQT=$1
. tests/remote/harness.sh
remote_start test_remote_s3 bkt --s3 AKID:SECRET/KEY+1
# copied, not linked: a listing (as S3's) does not follow a link to a folder
cp -r tests/data/datasets/polars_hive tests/data/datasets/duckdb_hive "$root/bkt/"
export AWS_ENDPOINT_URL=http://127.0.0.1:$port
export AWS_ACCESS_KEY_ID=AKID AWS_SECRET_ACCESS_KEY=SECRET/KEY+1
unset AWS_ENDPOINT_URL_S3 AWS_SESSION_TOKEN AWS_REGION AWS_DEFAULT_REGION

# --- local == s3://, every corpus file --------------------------------------------------------
corpus_same s3://bkt S3

# --- datasets below an s3:// prefix: listed by ListObjectsV2, every member signed -------------
same_dataset() { # name command...
    local name=$1
    shift
    "${TIMEOUT[@]}" "$PQT" "$@" >"$tmp/b" 2>"$tmp/eb"
    local rb=$?
    local args=("$@")
    args=("${args[@]//s3:\/\/bkt\//$root/bkt/}")
    "${TIMEOUT[@]}" "$PQT" "${args[@]}" >"$tmp/a" 2>"$tmp/ea"
    local ra=$?
    if [ $ra != 0 ] || [ $rb != 0 ]; then
        fail "$name" "exit $ra locally, $rb over S3: $(head -c 300 "$tmp/eb")"
    elif [ ! -s "$tmp/a" ] || ! cmp -s "$tmp/a" "$tmp/b"; then
        fail "$name" "the output differs (or is empty): $(head -c 200 "$tmp/a") / $(head -c 200 "$tmp/b")"
    else
        pass
    fi
}
for set in polars_hive duckdb_hive; do
    same_dataset "$set cat" cat "s3://bkt/$set/" --format jsonl
    same_dataset "$set cat --where" cat "s3://bkt/$set/" --format jsonl --where 'year >= 2019'
    same_dataset "$set count" count "s3://bkt/$set/"
    same_dataset "$set count --where" count "s3://bkt/$set/" --where "survey == 'gaia dr3'"
done

# the same set below an http:// prefix on the endpoint: members signed too (no hive columns
# there: the keys are URL-encoded path segments); 20,000 rows (tests/data/datasets/README.md)
n=$("${TIMEOUT[@]}" "$PQT" count "$AWS_ENDPOINT_URL/bkt/polars_hive/" 2>"$tmp/err")
[ "$n" = 20000 ] && pass || fail "http prefix count" "'$n' $(head -c 300 "$tmp/err")"

# --- every request so far was signed and verified ---------------------------------------------
nreq=$(wc -l <"$tmp/log")
nok=$(grep -c '"auth": true, "ok": true' "$tmp/log")
nlist=$(grep -c '"path": "/bkt?[^"]*list-type=2' "$tmp/log")
if [ "$nreq" -gt 200 ] && [ "$nreq" = "$nok" ] && [ "$nlist" -ge 8 ]; then
    pass
else
    fail "signatures" "$nok of $nreq requests signed and verified, $nlist listings"
fi

# --- a dataset's counters add up every member's requests (the listing's are not counted) ------
counted() { # name args...: --explain json's requests equal the log's new non-listing lines
    local name=$1 b lb a la req
    shift
    b=$(wc -l <"$tmp/log")
    lb=$(grep -c 'list-type=2' "$tmp/log")
    "${TIMEOUT[@]}" "$PQT" count "$@" --explain json >"$tmp/ex" 2>&1
    a=$(wc -l <"$tmp/log")
    la=$(grep -c 'list-type=2' "$tmp/log")
    req=$(grep -o '"requests": [0-9]*' "$tmp/ex" | awk '{print $2}')
    if [ -n "$req" ] && [ "$req" -gt 0 ] && [ "$req" = $(((a - b) - (la - lb))) ]; then
        pass
    else
        fail "$name" "requests '$req', the server saw $((a - b)) ($((la - lb)) listings)"
    fi
}
counted "dataset counters, footers" "s3://bkt/polars_hive/" --where "survey == 'gaia dr3'"
counted "dataset counters, data" "s3://bkt/polars_hive/" --where "mag < 15 and year = 2019"

# --- refusals ---------------------------------------------------------------------------------
u=s3://bkt/ours/table_rg.parquet
refused() { # name pattern...
    local name=$1
    shift
    if "${TIMEOUT[@]}" "$PQT" cat "$u" --format jsonl >/dev/null 2>"$tmp/err"; then
        fail "$name" "succeeded"
        return
    fi
    for p in "$@"; do
        grep -qF -- "$p" "$tmp/err" || { fail "$name" "no '$p' in: $(head -c 400 "$tmp/err")"; return; }
    done
    pass
}
(
    unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
    refused "anonymous" \
        "$u: $AWS_ENDPOINT_URL/bkt/ours/table_rg.parquet: the last 65536 bytes: HTTP 403 (AccessDenied)"
    exit $nfail
) || nfail=$((nfail + 1))
tail -n 1 "$tmp/log" | grep -q '"auth": false, "ok": false' && pass ||
    fail "anonymous" "the server did not see an unsigned request: $(tail -n 1 "$tmp/log")"
AWS_SECRET_ACCESS_KEY=wrong refused "wrong secret" "$u: $AWS_ENDPOINT_URL/bkt/" "HTTP 403 (SignatureDoesNotMatch)"
tail -n 1 "$tmp/log" | grep -q '"auth": true, "ok": false' && pass ||
    fail "wrong secret" "the server did not refuse it: $(tail -n 1 "$tmp/log")"
AWS_SECRET_ACCESS_KEY=wrong "$PQT" count "s3://bkt/polars_hive/" >/dev/null 2>"$tmp/err"
grep -q "listing $AWS_ENDPOINT_URL/bkt/ prefix 'polars_hive/': HTTP 403 (SignatureDoesNotMatch" "$tmp/err" &&
    pass || fail "wrong secret, listing" "$(head -c 400 "$tmp/err")"

echo "remote_s3: $npass passed, $nfail failed ($nfiles corpus files, $nreq signed requests)"
[ $nfail -eq 0 ]
