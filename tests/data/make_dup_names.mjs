// make_dup_names.mjs - writes tests/data/dup_names.parquet: top-level fields that share a
// name, which Parquet allows and DuckDB will not write (it renames them first). DuckDB
// writes the columns under stand-in names of the same length, and the footer's copies of
// those names are then patched to the duplicates (Thrift strings are length-prefixed, so a
// name of the same length changes nothing else). Run from the repository root with
// @duckdb/node-api on NODE_PATH:
//   NODE_PATH=/path/to/node_modules node tests/data/make_dup_names.mjs
//
// Fields as written:  a INTEGER, a INTEGER, a_1 INTEGER, s STRUCT(b INTEGER),
//                     s STRUCT(c VARCHAR)
//   a  a   a_1  s          s
//   1  10  100  {b: 7}     {c: 'x'}
//   2  20  NULL NULL       {c: NULL}
// pqt reads them as a, a_2, a_1, s.b, s_1.c (docs/output.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const out = process.argv[2] || 'tests/data/dup_names.parquet';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (SELECT * FROM (VALUES
    (1, 10, 100, {'b': 7}, {'c': 'x'}),
    (2, 20, NULL, NULL, {'c': NULL})) v(a, Q, a_1, s, R))
  TO '${out}' (FORMAT parquet)`);

const buf = readFileSync(out);
const flen = buf.readUInt32LE(buf.length - 8);
const start = buf.length - 8 - flen;
let n = 0;
for (let i = start; i < buf.length - 8; i++) {
  // a one-byte name string: its length varint (1) then the byte
  if (buf[i] === 1 && (buf[i + 1] === 0x51 || buf[i + 1] === 0x52)) {
    buf[i + 1] = buf[i + 1] === 0x51 ? 0x61 : 0x73; // Q -> a, R -> s
    n++;
  }
}
if (n < 2) throw new Error(`patched ${n} names, expected the schema's and the chunks'`);
writeFileSync(out, buf);
console.log(`${out}: ${n} names patched`);
