// make_labels.mjs - writes tests/data/labels.parquet for tests/test_cli_output.sh: types whose
// read kind differs from the file's (TINYINT read as int32, UINTEGER as int64, decimals,
// a list of DECIMAL(9,3)), string columns holding the texts 'null' and 'NULL' next to a
// null and an empty string, and a TIME that is negative (no writer makes one: DuckDB writes 03:51:39,
// uncompressed, and the value's bytes -- in the page and in the statistics -- are then
// negated, so the file holds -13899000000 microseconds). Run from the repository root with
// @duckdb/node-api on NODE_PATH:
//   NODE_PATH=/path/to/node_modules node tests/data/make_labels.mjs
//
//   id i8   u32         d38            ld               ts (UTC)                 dt          tm         s      s2
//   1  -5   4000000000  1.5            [1.500,NULL,-2.250] 2024-01-02 03:04:05   2024-02-29  -03:51:39  'null' 'NULL'
//   2  NULL NULL        NULL           NULL             NULL                     NULL        NULL       NULL   NULL
//   3  127  0           -0.0000000001  []               1969-12-31 23:59:59.5    1970-01-01  12:00:00   ''     'x'
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const out = process.argv[2] || 'tests/data/labels.parquet';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`SET TimeZone = 'UTC'`);
await c.run(`COPY (SELECT * FROM (VALUES
    (1, -5::TINYINT, 4000000000::UINTEGER, 1.5::DECIMAL(38,10), [1.5, NULL, -2.25]::DECIMAL(9,3)[],
     '2024-01-02 03:04:05+00'::TIMESTAMPTZ, '2024-02-29'::DATE, '03:51:39'::TIME, 'null', 'NULL'),
    (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (3, 127::TINYINT, 0::UINTEGER, -0.0000000001::DECIMAL(38,10), []::DECIMAL(9,3)[],
     '1969-12-31 23:59:59.5+00'::TIMESTAMPTZ, '1970-01-01'::DATE, '12:00:00'::TIME, '', 'x'))
  v(id, i8, u32, d38, ld, ts, dt, tm, s, s2) ORDER BY id)
  TO '${out}' (FORMAT parquet, COMPRESSION uncompressed)`);

const buf = readFileSync(out);
const from = Buffer.alloc(8), to = Buffer.alloc(8);
from.writeBigInt64LE(13899000000n);
to.writeBigInt64LE(-13899000000n);
let n = 0;
for (let i = buf.indexOf(from); i >= 0; i = buf.indexOf(from, i + 8)) {
  to.copy(buf, i);
  n++;
}
if (n < 2) throw new Error(`negated ${n} copies of the time, expected the value's and a statistic's`);
writeFileSync(out, buf);
console.log(`${out}: ${n} copies of the time negated`);
