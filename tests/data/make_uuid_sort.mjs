// make_uuid_sort.mjs - writes tests/data/uuid_sort.parquet for test_uuid_sort.c: a UUID column
// (FIXED_LEN_BYTE_ARRAY(16), read as 36-character strings) in several row groups, so that a
// parallel read sizes each row group's string window from the stored chunk.
// Run from the repository root with @duckdb/node-api on NODE_PATH:
//   NODE_PATH=bench/peers/node_modules node tests/data/make_uuid_sort.mjs
// 8000 rows in row groups of 2048: i = 0..7999; s = 'k' || (i * 7919 % 1000) (a sort key
// with ties across row groups); u = the UUID spelled by md5(i), NULL when i % 5 = 0.
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (SELECT i::BIGINT AS i, 'k' || (i * 7919 % 1000)::VARCHAR AS s,
    CASE WHEN i % 5 = 0 THEN NULL ELSE md5(i::VARCHAR)::UUID END AS u
    FROM range(8000) t(i) ORDER BY i)
  TO 'tests/data/uuid_sort.parquet' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
