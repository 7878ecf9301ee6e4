// make_catalogue.mjs - writes examples/catalogue.parquet, the small object catalogue that
// `make demo` and examples/find_package read. It is written by DuckDB on purpose: a file
// from another writer (zstd, 2 row groups of 500 rows, a FLOAT[5] array column, NULLs).
// Deterministic: every value is a function of the row number, no random().
// Run from the repository root, with @duckdb/node-api installed outside the repo:
//   (mkdir -p /tmp/duck && cd /tmp/duck && npm install @duckdb/node-api)
//   NODE_PATH=/tmp/duck/node_modules node examples/make_catalogue.mjs
import { createRequire } from 'node:module';
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + '/' : import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads = 1'); // one writer thread: row groups come out in row order
// A cheap deterministic hash of the row number gives values that look scattered.
await con.run(`
  CREATE TABLE catalogue AS
  WITH r AS (SELECT i, (hash(i) % 1000000)::DOUBLE / 1000000.0 AS u,
                       (hash(i + 7919) % 1000000)::DOUBLE / 1000000.0 AS v
             FROM range(1, 1001) t(i))
  SELECT
    i::BIGINT AS id,
    printf('obj-%05d', i) AS name,
    round(360.0 * u, 6) AS ra,
    round(degrees(asin(2.0 * v - 1.0)), 6) AS dec,
    round(pow(10.0, 9.0 + 3.0 * u), 1) AS mass,
    (0.01 + 2.5 * v)::FLOAT AS z,
    CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 5)::INTEGER END AS quality,
    (i % 3 = 0) AS flag,
    CASE i % 4 WHEN 0 THEN 'SDSS' WHEN 1 THEN 'DES' WHEN 2 THEN 'Gaia' ELSE 'Euclid' END AS survey,
    DATE '2015-01-01' + (i * 3)::INTEGER AS obs_date,
    [(18.0 + u + k * 0.25)::FLOAT FOR k IN range(5)]::FLOAT[5] AS mag
  FROM r ORDER BY i`);
// The writer cuts a row group once it holds ROW_GROUP_SIZE rows, but checks only between
// the chunks it is fed (normally 2048 rows); feeding the two halves as separate chunks
// makes the cut fall at row 500 exactly.
await con.run(`COPY (SELECT * FROM catalogue WHERE id <= 500
                     UNION ALL SELECT * FROM catalogue WHERE id > 500)
               TO 'examples/catalogue.parquet'
               (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500)`);
const reader = await con.runAndReadAll(`SELECT row_group_id, any_value(row_group_num_rows)
  FROM parquet_metadata('examples/catalogue.parquet') GROUP BY ALL ORDER BY 1`);
const groups = reader.getRows();
if (groups.length !== 2 || groups.some((g) => g[1] !== 500n))
  throw new Error('expected 2 row groups of 500 rows, got ' + JSON.stringify(groups, (k, v) => typeof v === 'bigint' ? Number(v) : v));
console.log('wrote examples/catalogue.parquet: 2 row groups of 500 rows');
