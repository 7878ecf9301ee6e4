// make_struct_nulls.mjs - writes tests/data/struct_nulls.parquet with DuckDB: a struct column
// with nulls at every level, for the struct writing tests (tests/unit/test_write_struct.c,
// tests/interop/structs.mjs). Run from the repository root with @duckdb/node-api on NODE_PATH:
//   NODE_PATH=bench/peers/node_modules node tests/data/make_struct_nulls.mjs
//
// id INTEGER, s STRUCT(a INTEGER, b VARCHAR, t STRUCT(x DOUBLE), l INTEGER[]), z VARCHAR:
//   id  s                                          z
//   1   {a: 1, b: 'x', t: {x: 1.5}, l: [1, 2]}     'z1'
//   2   NULL                                       'z2'
//   3   {a: NULL, b: 'y', t: NULL, l: NULL}        NULL
//   4   {a: NULL, b: NULL, t: {x: NULL}, l: []}    'z4'
//   5   {a: 5, b: NULL, t: {x: 5.5}, l: [NULL, 3]} 'z5'
//   6   {a: NULL, b: NULL, t: NULL, l: NULL}       'z6'
// Row 4's t and row 6's s are present structs whose leaves are all null.
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const out = process.argv[2] || 'tests/data/struct_nulls.parquet';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const T = 'STRUCT(a INTEGER, b VARCHAR, t STRUCT(x DOUBLE), l INTEGER[])';
await c.run(`COPY (SELECT * FROM (VALUES
    (1, {'a': 1, 'b': 'x', 't': {'x': 1.5}, 'l': [1, 2]}::${T}, 'z1'),
    (2, NULL::${T}, 'z2'),
    (3, {'a': NULL, 'b': 'y', 't': NULL, 'l': NULL}::${T}, NULL),
    (4, {'a': NULL, 'b': NULL, 't': {'x': NULL}, 'l': []}::${T}, 'z4'),
    (5, {'a': 5, 'b': NULL, 't': {'x': 5.5}, 'l': [NULL, 3]}::${T}, 'z5'),
    (6, {'a': NULL, 'b': NULL, 't': NULL, 'l': NULL}::${T}, 'z6')) v(id, s, z) ORDER BY id)
  TO '${out}' (FORMAT parquet)`);
