#!/usr/bin/env bash
# test_table_tour.sh - examples/table_tour.c (a program written from pqt.h alone) prints
# what DuckDB, an independent reader, reads from tests/data/table_rg.parquet.
#
# Usage (ctest does this from the repository root):
#   bash tests/test_table_tour.sh PATH_TO_PQT
#       runs the tour binary, found next to the pqt tool at $(dirname PATH_TO_PQT)/tests/
#       (or $TABLE_TOUR), and compares its output with tests/cli/table_tour.expected.
#   NODE_PATH=/tmp/duck/node_modules bash tests/test_table_tour.sh --regen
#       rewrites tests/cli/table_tour.expected from DuckDB (@duckdb/node-api) queries.
set -u
EXPECTED=tests/cli/table_tour.expected
DATA=tests/data/table_rg.parquet

if [ "${1:-}" = "--regen" ]; then
    node --input-type=module - "$DATA" >"$EXPECTED.tmp" <<'EOF' || { rm -f "$EXPECTED.tmp"; exit 1; }
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(process.cwd() + '/')('@duckdb/node-api');
const file = process.argv[2];
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const q = async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJson();
const one = async (sql) => Object.values((await q(sql))[0])[0];
const src = `read_parquet('${file}', file_row_number = true)`;
const out = [];

// row groups from the footer, as DuckDB reports them
const rgs = await q(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${file}')
                     ORDER BY row_group_id`);
const bounds = [];
let at = 1;
for (const r of rgs) { const n = Number(r.row_group_num_rows); bounds.push([at, at + n - 1]); at += n; }
const fmtb = (b) => b.map(([lo, hi]) => ` ${lo}..${hi}`).join('');
const describe = (what, lo, hi, ncols) => {
  const cover = bounds.filter(([a, b]) => b >= lo && a <= hi);
  const extent = cover.reduce((s, [a, b]) => s + b - a + 1, 0);
  out.push(`${what}: nrows ${hi - lo + 1}, unfiltered ${hi - lo + 1}, extent ${extent}, ncols ${ncols}`);
  out.push(`  bounds(physical):${fmtb(bounds)}`);
  // this table's own rows: a group contributing nothing is empty (lo = next row, hi = lo - 1)
  let next = 1;
  const mine = bounds.map(([a, b]) => {
    const k = Math.max(0, Math.min(b, hi) - Math.max(a, lo) + 1);
    const r = [next, next + k - 1];
    next += k;
    return r;
  });
  out.push(`  bounds(table):${fmtb(mine)}`);
};

const nrows = Number(await one(`SELECT count(*) FROM '${file}'`));
const cols = await q(`DESCRIBE SELECT * FROM '${file}'`);
describe('whole', 1, nrows, cols.length);
const kinds = { BIGINT: 'int64', INTEGER: 'int32', FLOAT: 'float32', DOUBLE: 'float64', VARCHAR: 'string' };
for (const col of cols) {
  const t = col.column_type, nm = col.column_name;
  let m;
  if ((m = t.match(/^(\w+)\[\d*\]$/))) {
    // parquet stores both as LIST: a vector is a list whose rows all hold the same number
    // (>= 1) of elements and none is null -- the width is discovered from the data
    const w = (await q(`SELECT count(DISTINCT len("${nm}")) AS d, min(len("${nm}")) AS w,
                        count(*) - count("${nm}") AS n FROM '${file}'`))[0];
    if (Number(w.d) === 1 && Number(w.w) >= 1 && Number(w.n) === 0)
      out.push(`  column ${nm}: vector<${kinds[m[1]]}>, width ${w.w}, not read`);
    else out.push(`  column ${nm}: list<${kinds[m[1]]}>, width 0, not read`);
  } else {
    out.push(`  column ${nm}: ${kinds[t]}, width 1, not read`);
  }
}

const p = (await q(`SELECT sum(i32) AS s, count(*) - count(i32) AS n FROM '${file}'`))[0];
out.push(`prefetch (2 threads): i32 sum ${p.s}, nulls ${p.n}`);
out.push(`per-row-group slices: ${bounds.length}, id sum ${await one(`SELECT sum(id) FROM '${file}'`)}`);

const lo = 3000, hi = 5000;
const sl = `(SELECT * FROM ${src} WHERE file_row_number BETWEEN ${lo - 1} AND ${hi - 1})`;
describe(`slice ${lo}..${hi}`, lo, hi, cols.length);
const first = await q(`SELECT f64, s FROM ${sl} ORDER BY file_row_number LIMIT 3`);
out.push(`  f64 rows 1..3: ${first.map((r) => r.f64 === null ? '0.0' : Number(r.f64).toFixed(1)).join(' ')}`);
out.push(`  s rows 1..3: ${first.map((r) => r.s ?? 'null').join(' ')}`);
const z = (await q(`SELECT count(*) AS n, sum(strlen(s)) AS b, sum(coalesce(len(lst), 0)) AS e FROM ${sl}`))[0];
out.push(`  s: ${z.n} strings, ${z.b} bytes; lst: ${z.e} elements`);
const ri = (await q(`SELECT min(file_row_number) + 1 AS a, max(file_row_number) + 1 AS b FROM ${sl}`))[0];
out.push(`  row index: first ${ri.a}, last ${ri.b}`);

// pqt's descending order: values high to low, then NaN, then nulls; ties keep file order
out.push('sorted clone: detached 1, source detached 0');
const order = `ORDER BY f64 IS NULL, isnan(f64), f64 DESC, file_row_number`;
const top = await q(`SELECT file_row_number + 1 AS r, f64 FROM ${sl} ${order} LIMIT 3`);
top.forEach((r, i) => out.push(`  row ${i + 1}: file row ${r.r}, f64 ${Number(r.f64).toFixed(1)}`));
const last = (await q(`SELECT file_row_number + 1 AS r, f64 FROM ${sl} ${order} OFFSET ${hi - lo}`))[0];
out.push(`  last row: file row ${last.r}, f64 ${last.f64 === null ? 'null' : 'not null'}`);

const mem = await q(`SELECT name, speed FROM (VALUES ('car', 3.5), ('bike', 1.25), ('walk', 2.0), ('bus', 1.25))
                     v(name, speed) ORDER BY speed, name`);
out.push(`in memory (${mem.length} rows, speed in m/s):${mem.map((r) => ` ${r.name}=${Number(r.speed).toFixed(2)}`).join('')}`);
console.log(out.join('\n'));
EOF
    mv "$EXPECTED.tmp" "$EXPECTED"
    echo "wrote $EXPECTED"
    exit 0
fi

PQT=${1:?usage: test_table_tour.sh PATH_TO_PQT | --regen}
TOUR=${TABLE_TOUR:-$(dirname "$PQT")/tests/table_tour}
if [ ! -x "$TOUR" ]; then
    echo "FAIL: table_tour binary not found at $TOUR (set TABLE_TOUR)" >&2
    exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if ! "$TOUR" "$DATA" >"$TMP/out" 2>"$TMP/err"; then
    echo "FAIL: $TOUR exited with an error: $(head -c 500 "$TMP/err")" >&2
    exit 1
fi
if ! diff -u "$EXPECTED" "$TMP/out" >"$TMP/diff"; then
    echo "FAIL: table_tour output differs from $EXPECTED (DuckDB's reading):" >&2
    cat "$TMP/diff" >&2
    exit 1
fi
echo "test_table_tour: ok ($(wc -l <"$EXPECTED") lines match DuckDB)"
