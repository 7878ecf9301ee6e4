// make_nested_lists.mjs - writes tests/data/nested_lists.parquet, lists of lists (issue 28)
// for test_nested_list.c and the Fortran test nested_list_test.f90.
// Run from the repository root with @duckdb/node-api on NODE_PATH:
//   NODE_PATH=/path/to/node_modules node tests/data/make_nested_lists.mjs
// The file is committed; the tests hold the rows below, written out by hand (DuckDB wrote
// the file, pqt reads it: independent truth).
//
// 6 rows, id 1..6, in row groups of 4 rows (two row groups):
//   id  ll (INTEGER[][])              lll (INTEGER[][][])
//   1   [[1, 2], [3]]                 [[[1], [2, 3]], [[]]]
//   2   NULL                          NULL
//   3   []                            []
//   4   [[], NULL, [4, NULL, 5]]      [NULL, [[4, NULL]]]
//   5   [NULL]                        [[NULL]]
//   6   [[6]]                         [[[6]]]
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (SELECT * FROM (VALUES
    (1, [[1, 2], [3]]::INTEGER[][],           [[[1], [2, 3]], [[]]]::INTEGER[][][]),
    (2, NULL::INTEGER[][],                    NULL::INTEGER[][][]),
    (3, []::INTEGER[][],                      []::INTEGER[][][]),
    (4, [[], NULL, [4, NULL, 5]]::INTEGER[][], [NULL, [[4, NULL]]]::INTEGER[][][]),
    (5, [NULL]::INTEGER[][],                  [[NULL]]::INTEGER[][][]),
    (6, [[6]]::INTEGER[][],                   [[[6]]]::INTEGER[][][])
  ) t(id, ll, lll) ORDER BY id)
  TO 'tests/data/nested_lists.parquet' (FORMAT parquet, ROW_GROUP_SIZE 4)`);
const r = await c.runAndReadAll(`SELECT count(*) AS n FROM parquet_metadata('tests/data/nested_lists.parquet')`);
console.log('column chunks:', r.getRows());
const s = await c.runAndReadAll(`SELECT * FROM 'tests/data/nested_lists.parquet'`);
console.log(JSON.stringify(s.getRows(), (k, v) => (typeof v === 'bigint' ? v.toString() : v)));
