// make_table_data.mjs - writes the small parquet files the table tests read (tests/data/).
// Run from the repository root with @duckdb/node-api installed somewhere on NODE_PATH:
//   NODE_PATH=/tmp/duck/node_modules node tests/data/make_table_data.mjs
// The files are committed; the tests check values computed from the same formulas
// (independent truth: DuckDB wrote them, pqt reads them).
// require (not import) so NODE_PATH is honoured
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const out = 'tests/data';

// table_rg.parquet: 10000 rows in row groups of 2048 (the last one 1808), so slices can
// cross row-group boundaries. Values are formulas of the 1-based row number `id`:
//   id     int64    id
//   i32    int32    id * 3, NULL when id % 7 == 0
//   f32    float    id / 4
//   f64    double   id * 0.5, NULL when id % 11 == 0, NaN when id % 13 == 0 (and not % 11)
//   s      varchar  's' || id, NULL when id % 5 == 0
//   vec    float[3] [id, id + 0.5, -id]
//   lst    int[]    id % 3 elements: [id, id + 1, ...]; NULL when id % 17 == 0
await c.run(`COPY (SELECT id::BIGINT AS id,
    CASE WHEN id % 7 = 0 THEN NULL ELSE (id * 3)::INTEGER END AS i32,
    (id / 4.0)::FLOAT AS f32,
    CASE WHEN id % 11 = 0 THEN NULL WHEN id % 13 = 0 THEN 'NaN'::DOUBLE ELSE id * 0.5 END AS f64,
    CASE WHEN id % 5 = 0 THEN NULL ELSE 's' || id END AS s,
    [id::FLOAT, id + 0.5, -id::FLOAT]::FLOAT[3] AS vec,
    CASE WHEN id % 17 = 0 THEN NULL ELSE list_transform(range(id % 3), x -> (id + x)::INTEGER) END AS lst
  FROM range(1, 10001) t(id) ORDER BY id)
  TO '${out}/table_rg.parquet' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);

// table_big.parquet: 2,500,000 rows of one sorted int64 column (v = row number), small
// row groups, delta-encoded so it stays small on disk: the examples'
// 1,000,000-row slice.
await c.run(`COPY (SELECT id::BIGINT AS v FROM range(1, 2500001) t(id) ORDER BY id)
  TO '${out}/table_big.parquet' (FORMAT parquet, ROW_GROUP_SIZE 102400, PARQUET_VERSION V2,
  COMPRESSION zstd)`);

// table_rowidx.parquet: a file with its own column named parquet_row_index (dropped at
// open with a warning) next to an ordinary one.
await c.run(`COPY (SELECT id::INTEGER AS a, (100 + id)::BIGINT AS parquet_row_index
  FROM range(1, 6) t(id) ORDER BY id) TO '${out}/table_rowidx.parquet' (FORMAT parquet)`);
