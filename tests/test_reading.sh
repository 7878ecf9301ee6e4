#!/usr/bin/env bash
# test_reading.sh - examples/reading.c (the program of docs/reading.md, from pqt.h alone:
# fixed-width values with validity, strings, a list column, a view, a slice, one slice per row
# group under OpenMP with 2 threads, a table shared by threads) prints what DuckDB, an independent reader, computes for
# examples/catalogue.parquet, and every C line docs/reading.md shows is the program's.
#
# Usage (ctest does this from the repository root):
#   bash tests/test_reading.sh PATH_TO_PQT
#       runs the example found next to the pqt tool at $(dirname PATH_TO_PQT)/tests/reading
#       (or $READING) and compares its output with tests/cli/reading.expected.
#   NODE_PATH=bench/peers/node_modules bash tests/test_reading.sh --regen
#       rewrites tests/cli/reading.expected from DuckDB (@duckdb/node-api) queries.
set -u
EXPECTED=tests/cli/reading.expected
DATA=examples/catalogue.parquet

if [ "${1:-}" = "--regen" ]; then
    node --input-type=module - "$DATA" >"$EXPECTED.tmp" <<'EOF' || { rm -f "$EXPECTED.tmp"; exit 1; }
import { createRequire } from 'node:module';
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + '/' : process.cwd() + '/');
const { DuckDBInstance } = require('@duckdb/node-api');
const file = process.argv[2];
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const one = async (sql) => Object.values((await c.runAndReadAll(sql)).getRowObjectsJson()[0]);
// C's %.6e: six digits after the point, an exponent of at least two digits
const e6 = (x) => x.toExponential(6).replace(/e([+-])(\d)$/, 'e$10$2');
const T = `read_parquet('${file}', file_row_number = true)`;
const out = [];
const [n, ncols] = await one(`SELECT count(*), (SELECT count(*) FROM (DESCRIBE SELECT * FROM '${file}')) FROM '${file}'`);
out.push(`${file}: ${n} rows, ${ncols} columns`);
const [mn, mnull, msum] = await one(`SELECT count(*), count(*) - count(mass), sum(mass) FROM '${file}'`);
out.push(`mass: ${mn} rows, ${mnull} null, sum ${e6(Number(msum))}`);
const [s1] = await one(`SELECT survey FROM ${T} WHERE file_row_number = 0`);
const [gaia] = await one(`SELECT count(*) FROM '${file}' WHERE survey = 'Gaia'`);
out.push(`survey: row 1 is "${s1}", ${gaia} rows are "Gaia"`);
const [nel, nullrows, nullel, magsum] = await one(`SELECT
    sum(len(mag)), count(*) - count(mag),
    sum(len(list_filter(mag, x -> x IS NULL))),
    sum(list_sum(list_transform(mag, x -> x::DOUBLE))) FROM '${file}'`);
out.push(`mag: ${nel} elements, ${nullrows} null rows, ${nullel} null elements, sum ${Number(magsum).toFixed(4)}`);
const [qnull, q4] = await one(`SELECT count(*) - count(quality), count(*) FILTER (WHERE quality = 4) FROM '${file}'`);
out.push(`quality: ${qnull} null, ${q4} of quality 4`);
out.push(`shared table: sum of mass ${e6(Number(msum))}`);
const [sn, sid, ssum] = await one(`SELECT count(*), min_by(id, file_row_number), sum(mass) FROM ${T}
                                   WHERE file_row_number + 1 BETWEEN 101 AND 600`);
out.push(`slice 101:600: ${sn} rows, row 1 has id ${sid}, sum of mass ${e6(Number(ssum))}`);
const [nrg, rg1] = await one(`SELECT count(DISTINCT row_group_id),
                              max(row_group_num_rows) FILTER (WHERE row_group_id = 0) FROM parquet_metadata('${file}')`);
out.push(`row groups: ${nrg}, first 1..${rg1}, per-thread sum of mass ${e6(Number(msum))}`);
console.log(out.join('\n'));
EOF
    mv "$EXPECTED.tmp" "$EXPECTED"
    echo "wrote $EXPECTED"
    exit 0
fi

PQT=${1:?usage: test_reading.sh PATH_TO_PQT | --regen}
PROG=${READING:-$(dirname "$PQT")/tests/reading}
if [ ! -x "$PROG" ]; then
    echo "FAIL: reading binary not found at $PROG (set READING)" >&2
    exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if ! OMP_NUM_THREADS=2 "$PROG" "$DATA" >"$TMP/out" 2>"$TMP/err"; then
    echo "FAIL: $PROG exited with an error: $(head -c 500 "$TMP/err")" >&2
    exit 1
fi
if ! diff -u "$EXPECTED" "$TMP/out" >"$TMP/diff"; then
    echo "FAIL: reading output differs from $EXPECTED (DuckDB's answer):" >&2
    cat "$TMP/diff" >&2
    exit 1
fi
# docs/reading.md shows this program: every line of its C fragments must be a line of it
if command -v python3 >/dev/null; then
    python3 - docs/reading.md examples/reading.c <<'PY' || exit 1
import re, sys
md, c = (open(p).read() for p in sys.argv[1:3])
have = {l.strip() for l in c.split("\n")}
bad = [l.strip() for b in re.findall(r"```c\n(.*?)```", md, re.S) for l in b.split("\n")
       if l.strip() not in have and l.strip() not in ("", "...")]
for l in bad:
    print("FAIL: docs/reading.md shows a line examples/reading.c does not have:", l)
sys.exit(1 if bad else 0)
PY
fi
echo "test_reading: ok ($(wc -l <"$EXPECTED") lines match DuckDB)"
