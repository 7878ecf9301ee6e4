// make_kinds.mjs - writes tests/data/kinds_binary_map.parquet with DuckDB: a plain BYTE_ARRAY
// (BLOB) column and two MAP columns, for the binary and map reading tests
// (tests/unit/test_binary_map.c, tests/test_cli.sh). Run from the repository root with
// @duckdb/node-api on NODE_PATH:
//   NODE_PATH=/path/to/node_modules node tests/data/make_kinds.mjs
//
//   id  b (BLOB)        m (MAP(VARCHAR, INTEGER))   n (MAP(INTEGER, VARCHAR))
//   1   'ab\x00\xff'    {'a': 1, 'b': 2}            {7: 'x'}
//   2   NULL            NULL                        {}
//   3   ''              {}                          NULL
//   4   '\x01'          {'c': NULL, 'd': 4}         {8: NULL, 9: 'yz'}
// DuckDB writes a MAP as an optional group annotated MAP holding the repeated group
// key_value(key required, value optional).
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const out = process.argv[2] || 'tests/data/kinds_binary_map.parquet';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (SELECT * FROM (VALUES
    (1, 'ab\\x00\\xFF'::BLOB, MAP {'a': 1, 'b': 2}, MAP {7: 'x'}),
    (2, NULL::BLOB, NULL::MAP(VARCHAR, INTEGER), MAP {}::MAP(INTEGER, VARCHAR)),
    (3, ''::BLOB, MAP {}::MAP(VARCHAR, INTEGER), NULL::MAP(INTEGER, VARCHAR)),
    (4, '\\x01'::BLOB, MAP {'c': NULL, 'd': 4}, MAP {8: NULL, 9: 'yz'})) v(id, b, m, n) ORDER BY id)
  TO '${out}' (FORMAT parquet)`);
const r = await c.runAndReadAll(`SELECT id, hex(b) b, to_base64(b) b64, m::VARCHAR m, n::VARCHAR n
  FROM read_parquet('${out}') ORDER BY id`);
for (const row of r.getRowObjects()) console.log(JSON.stringify(row, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
