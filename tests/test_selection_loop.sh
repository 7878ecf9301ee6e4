#!/usr/bin/env bash
# test_selection_loop.sh - examples/selection_loop.c (the filter pass by hand: pqt_selection
# and pqt_file_read_selected, from pqt.h alone) prints what DuckDB, an independent reader,
# computes for the same query over examples/catalogue.parquet.
#
# Usage (ctest does this from the repository root):
#   bash tests/test_selection_loop.sh PATH_TO_PQT
#       runs the example binary, found next to the pqt tool at $(dirname PATH_TO_PQT)/tests/
#       (or $SELECTION_LOOP), and compares its output with tests/cli/selection_loop.expected.
#   NODE_PATH=bench/peers/node_modules bash tests/test_selection_loop.sh --regen
#       rewrites tests/cli/selection_loop.expected from DuckDB (@duckdb/node-api) queries.
set -u
EXPECTED=tests/cli/selection_loop.expected
DATA=examples/catalogue.parquet

if [ "${1:-}" = "--regen" ]; then
    node --input-type=module - "$DATA" >"$EXPECTED.tmp" <<'EOF' || { rm -f "$EXPECTED.tmp"; exit 1; }
import { createRequire } from 'node:module';
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + '/' : process.cwd() + '/');
const { DuckDBInstance } = require('@duckdb/node-api');
const file = process.argv[2];
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const q = async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJson();
// Numbers as pqt_format_float64 prints them: ECMAScript's shortest round trip, with ".0"
// after an integral value.
const fmt = (x) => (Number.isInteger(x) ? x.toFixed(1) : String(x));

// row groups from the footer, as DuckDB reports them
const rgs = await q(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${file}')
                     ORDER BY row_group_id`);
const out = [];
let first = 1, total = 0, massSum = 0;
// the cone: cos(distance) from (200, 10) degrees above cos(40 degrees), the example's formula
const cone = `sin(radians(10.0)) * sin(radians(dec)) +
              cos(radians(10.0)) * cos(radians(dec)) * cos(radians(ra) - radians(200.0))`;
for (const g of rgs) {
  const n = Number(g.row_group_num_rows), last = first + n - 1;
  const base = `(SELECT *, file_row_number + 1 AS row, file_row_number + 2 - ${first} AS rgrow,
                 ${cone} AS cosd FROM read_parquet('${file}', file_row_number = true)
                 WHERE file_row_number + 1 BETWEEN ${first} AND ${last})`;
  const unflagged = `rgrow NOT BETWEEN 101 AND 150`;
  const quality = `${unflagged} AND quality >= 2`;
  const inCone = `${quality} AND cosd > cos(radians(40.0))`;
  const survey = `${inCone} AND survey IN ('SDSS', 'Gaia')`;
  const count = async (w) => Number(Object.values((await q(`SELECT count(*) FROM ${base} WHERE ${w}`))[0])[0]);
  // the cone's edge: a row this close to it could fall either side of the comparison
  const edge = await q(`SELECT row FROM ${base} WHERE ${quality}
                        AND abs(cosd - cos(radians(40.0))) < 1e-9`);
  if (edge.length) throw new Error('rows on the cone edge: ' + JSON.stringify(edge));
  out.push(`row group ${Number(g.row_group_id) + 1}: ${n} rows, unflagged ${await count(unflagged)}, ` +
           `quality ${await count(quality)}, cone ${await count(inCone)}, survey ${await count(survey)}`);
  const rows = await q(`SELECT row, name, mass, mag[2]::DOUBLE AS m2 FROM ${base} WHERE ${survey}
                        ORDER BY row`);
  for (const r of rows) {
    const mass = r.mass === null ? 'null' : fmt(Number(r.mass));
    out.push(`  row ${r.row}: ${r.name} mass ${mass} mag[2] ${r.m2 === null ? 'null' : fmt(Number(r.m2))}`);
    if (r.mass !== null) massSum += Number(r.mass); // in row order, as the example adds
  }
  total += rows.length;
  first = last + 1;
}
out.push(`survivors ${total}, mass sum ${fmt(massSum)}`);
console.log(out.join('\n'));
EOF
    mv "$EXPECTED.tmp" "$EXPECTED"
    echo "wrote $EXPECTED"
    exit 0
fi

PQT=${1:?usage: test_selection_loop.sh PATH_TO_PQT | --regen}
LOOP=${SELECTION_LOOP:-$(dirname "$PQT")/tests/selection_loop}
if [ ! -x "$LOOP" ]; then
    echo "FAIL: selection_loop binary not found at $LOOP (set SELECTION_LOOP)" >&2
    exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if ! "$LOOP" "$DATA" >"$TMP/out" 2>"$TMP/err"; then
    echo "FAIL: $LOOP exited with an error: $(head -c 500 "$TMP/err")" >&2
    exit 1
fi
if ! diff -u "$EXPECTED" "$TMP/out" >"$TMP/diff"; then
    echo "FAIL: selection_loop output differs from $EXPECTED (DuckDB's answer):" >&2
    cat "$TMP/diff" >&2
    exit 1
fi
echo "test_selection_loop: ok ($(wc -l <"$EXPECTED") lines match DuckDB)"
