#!/usr/bin/env bash
# Every file of tests/data/parquet-testing/bad_data gets exactly its expected outcome from
# tests/corpus/bad_data.txt: an exit status (never a crash or a hang) and a message naming
# where the damage is. A bad_data file with no expectation fails the test.
#   bash tests/test_bad_data.sh PATH_TO_PQT      (from the repository root)
set -u
PQT=$1
DIR=tests/data/parquet-testing/bad_data
EXP=tests/corpus/bad_data.txt
fail=0
for f in "$DIR"/*.parquet; do
    n=$(basename "$f")
    line=$(grep -v '^#' "$EXP" | awk -v n="$n" '$1 == n')
    if [ -z "$line" ]; then echo "FAIL $n: no expected outcome in $EXP"; fail=1; continue; fi
    want_rc=$(echo "$line" | awk '{print $2}')
    want_msg=$(echo "$line" | cut -d' ' -f3-)
    err=$(timeout 60 "$PQT" cat "$f" --format jsonl 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" != "$want_rc" ]; then echo "FAIL $n: exit $rc, expected $want_rc: $err"; fail=1; continue; fi
    if [ "$want_msg" != "-" ] && ! grep -qF -- "$want_msg" <<<"$err"; then
        echo "FAIL $n: stderr lacks '$want_msg': $err"; fail=1; continue
    fi
    if [ "$rc" = 1 ] && ! grep -qF "$n" <<<"$err"; then echo "FAIL $n: message does not name the file"; fail=1; continue; fi
    echo "PASS $n"
done
exit $fail
