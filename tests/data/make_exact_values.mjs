// make_exact_values.mjs - writes tests/data/exact_values.parquet and the expected
// `pqt cat --format jsonl` text tests/cli/exact_values.jsonl, both from DuckDB (issue 8,
// exact values). Run from the repository root with @duckdb/node-api on NODE_PATH:
//   NODE_PATH=/path/to/node_modules node tests/data/make_exact_values.mjs
// Columns (6 rows, one row group; row 6 is null everywhere):
//   u64  UBIGINT (INT64, INTEGER(64,false)): 0, 1, 2^63-1, 2^63, 2^64-1
//   u32  UINTEGER, u16 USMALLINT, u8 UTINYINT: 0, the maxima, ...
//   d5   DECIMAL(9,5)  (INT32):  0.00012, -0.00012, 1234.56789, 0, -9999.99999
//   d18  DECIMAL(18,3) (INT64):  12.345, -12.345, 999999999999999.999, -0.005, 0
//   d38  DECIMAL(38,10) (FIXED_LEN_BYTE_ARRAY(16)): +-(10^38-1)/10^10, 1e-10, ...
//   d0   DECIMAL(10,0) (INT64):  1234567890, -1, 0, ...
//   f32  FLOAT:  0.1, 1.1, 3.0, 3.4028235e38, 1e-45
//   f64  DOUBLE: 0.1, 12.345, 1e21, 1e-7, 5e-324
//   lu64 UBIGINT[]: [1, 2^64-1] in row 2 (a list element that does not fit int64)
// The expected text takes integers and decimals as DuckDB's VARCHAR (exact), floats through
// the jsonl contract's formatting (tests/interop/contract.mjs), so pqt is checked against
// DuckDB, not against itself.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fmtFloat, fmtFloat32 } from '../interop/contract.mjs';
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + '/' : import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run('SET threads = 1');
await c.run(`CREATE TABLE t AS SELECT id, u64::UBIGINT u64, u32::UINTEGER u32, u16::USMALLINT u16,
  u8::UTINYINT u8, d5::DECIMAL(9,5) d5, d18::DECIMAL(18,3) d18, d38::DECIMAL(38,10) d38,
  d0::DECIMAL(10,0) d0, f32::FLOAT f32, f64::DOUBLE f64, lu64::UBIGINT[] lu64 FROM (VALUES
  (1, 0::UBIGINT, 0, 0, 0, '0.00012', '12.345',
   '9999999999999999999999999999.9999999999', '1234567890', 0.1::DOUBLE, 0.1::DOUBLE, [0]::UBIGINT[]),
  (2, 1, 4294967295, 65535, 255, '-0.00012', '-12.345',
   '-9999999999999999999999999999.9999999999', '-1',
   1.1, 12.345, [1, 18446744073709551615]::UBIGINT[]),
  (3, 9223372036854775807, 2147483648, 32768, 128, '1234.56789', '999999999999999.999',
   '0.0000000001', '0', 3.0, 1e21, []::UBIGINT[]),
  (4, 9223372036854775808, 1, 1, 1, '0', '-0.005', '-0.0000000001', '9999999999',
   3.4028235e38, 1e-7, NULL),
  (5, 18446744073709551615, 4294967294, 65534, 254, '-9999.99999', '0',
   '12345678901234567890.1234567890', '-9999999999', 1e-45, 5e-324, [9223372036854775807]::UBIGINT[]),
  (6, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
) v(id, u64, u32, u16, u8, d5, d18, d38, d0, f32, f64, lu64)`);
await c.run(`COPY (SELECT * EXCLUDE (id) FROM t ORDER BY id) TO 'tests/data/exact_values.parquet'
  (FORMAT PARQUET, ROW_GROUP_SIZE 100000)`);

const r = await c.runAndReadAll(`SELECT u64::VARCHAR, u32::VARCHAR, u16::VARCHAR, u8::VARCHAR,
  d5::VARCHAR, d18::VARCHAR, d38::VARCHAR, d0::VARCHAR, f32::DOUBLE, f64,
  list_transform(lu64, x -> x::VARCHAR) FROM read_parquet('tests/data/exact_values.parquet')`);
const names = ['u64', 'u32', 'u16', 'u8', 'd5', 'd18', 'd38', 'd0', 'f32', 'f64', 'lu64'];
const lines = r.getRows().map((row) => '{' + row.map((v, i) => {
  let text;
  if (v === null) text = 'null';
  else if (names[i] === 'f32') text = fmtFloat32(v);
  else if (names[i] === 'f64') text = fmtFloat(v);
  else if (names[i] === 'lu64') text = '[' + v.items.join(',') + ']';
  else text = v;
  return JSON.stringify(names[i]) + ':' + text;
}).join(',') + '}\n');
writeFileSync('tests/cli/exact_values.jsonl', lines.join(''));
console.log('wrote tests/data/exact_values.parquet, tests/cli/exact_values.jsonl');
