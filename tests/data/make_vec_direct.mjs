// make_vec_direct.mjs - writes tests/data/vec_direct.parquet, the file test_table_get_vectors.c
// reads: fixed-width vectors of every element width, with null elements, a LIST with null
// rows, strings with nulls, uint64, over several row groups.
// Run from the repository root with @duckdb/node-api installed somewhere on NODE_PATH:
//   NODE_PATH=/tmp/duck/node_modules node tests/data/make_vec_direct.mjs
// The file is committed; the test checks values computed from the same formulas
// (independent truth: DuckDB wrote them, pqt reads them).
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();

// 5000 rows in row groups of 2048 (the last 904). Formulas of the 1-based row number id,
// element k counting from 0:
//   id   int64       id
//   vf   float[5]    id * 10 + k, NULL when (id + k) % 7 == 0
//   vd   double[3]   id + k * 0.25, NULL when k == 1 and id % 13 == 0
//   vi   int[2]      id * (k + 1), never NULL
//   vl   bigint[4]   id * 1000000000000 + k, NULL when id % 11 == k
//   vb   boolean[3]  (id + k) % 2 == 0, NULL when k == 2 and id % 5 == 0
//   ln   float[2]    [id, -id], the whole row NULL when id % 9 == 0 (so a LIST, not a vector)
//   s    varchar     's' || id, NULL when id % 6 == 0
//   vs   varchar[2]  ['a' || id, 'b' || id], the second NULL when id % 4 == 0
//   u    ubigint     18446744073709551615 - id (above 2^63: no int64 holds it)
//   us   ubigint     id * 3
await c.run(`COPY (SELECT id::BIGINT AS id,
    list_transform(range(5), k -> CASE WHEN (id + k) % 7 = 0 THEN NULL ELSE (id * 10 + k)::FLOAT END)::FLOAT[5] AS vf,
    list_transform(range(3), k -> CASE WHEN k = 1 AND id % 13 = 0 THEN NULL ELSE id + k * 0.25 END)::DOUBLE[3] AS vd,
    list_transform(range(2), k -> (id * (k + 1))::INTEGER)::INTEGER[2] AS vi,
    list_transform(range(4), k -> CASE WHEN id % 11 = k THEN NULL ELSE id * 1000000000000 + k END)::BIGINT[4] AS vl,
    list_transform(range(3), k -> CASE WHEN k = 2 AND id % 5 = 0 THEN NULL ELSE (id + k) % 2 = 0 END)::BOOLEAN[3] AS vb,
    CASE WHEN id % 9 = 0 THEN NULL ELSE [id::FLOAT, -id::FLOAT] END AS ln,
    CASE WHEN id % 6 = 0 THEN NULL ELSE 's' || id END AS s,
    ['a' || id, CASE WHEN id % 4 = 0 THEN NULL ELSE 'b' || id END]::VARCHAR[2] AS vs,
    (18446744073709551615::UBIGINT - id::UBIGINT) AS u,
    (id * 3)::UBIGINT AS us
  FROM range(1, 5001) t(id) ORDER BY id)
  TO 'tests/data/vec_direct.parquet' (FORMAT parquet, ROW_GROUP_SIZE 2048, COMPRESSION zstd)`);
const r = await c.runAndReadAll(`SELECT count(*), count(DISTINCT row_group_id) FROM parquet_metadata('tests/data/vec_direct.parquet')`);
console.log(r.getRows());
