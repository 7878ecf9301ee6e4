// Writes the fixtures of the `pqt cat` output tests (tests/test_cli.sh) with DuckDB:
//   cat_widths.parquet  10,000 rows: a number far wider at the end than in the first batch
//                       (id 1234567890123456789 in the last row, x = -1.2345678901234567e-300
//                       in row 9000), strings with CJK, emoji and a 100-character value.
//   cat_big.parquet     150,000 rows in one row group, a 1000-character string a row
//                       (26 distinct values, dictionary-encoded: 150 MB as text, ~170 KB on
//                       disk), for the memory bound of a streamed cat.
// Run: (cd tests/golden/tool && npm ci) && node tests/data/make_cat_fixtures.mjs
import { createRequire } from 'node:module';
const require = createRequire(new URL('../golden/tool/package.json', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');
const dir = new URL('.', import.meta.url).pathname;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads = 1');
await con.run(`COPY (SELECT
    CASE WHEN i = 10000 THEN 1234567890123456789 ELSE i END::BIGINT AS id,
    CASE WHEN i = 9000 THEN -1.2345678901234567e-300 ELSE i * 0.5 END::DOUBLE AS x,
    CASE WHEN i = 5 THEN '日本語テキスト' WHEN i = 6 THEN '😀 emoji' WHEN i = 7 THEN repeat('a', 100)
         ELSE 'v' || i END AS s,
    'tail' AS t
  FROM range(1, 10001) r(i)) TO '${dir}cat_widths.parquet' (FORMAT parquet)`);
await con.run(`COPY (SELECT i::BIGINT AS id, repeat(chr(97 + (i % 26)::INTEGER), 1000) AS s
  FROM range(1, 150001) r(i)) TO '${dir}cat_big.parquet'
  (FORMAT parquet, ROW_GROUP_SIZE 1000000, COMPRESSION zstd)`);
