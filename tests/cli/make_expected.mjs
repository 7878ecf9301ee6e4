// make_expected.mjs - derive the expected `pqt cat --format jsonl` outputs in tests/cli/
// from an independent reader (DuckDB), so the CLI tests never compare against hand-typed
// values. Run from the repository root with @duckdb/node-api installed outside the repo:
//   (cd /tmp/duck && npm install @duckdb/node-api)
//   NODE_PATH=/tmp/duck/node_modules node tests/cli/make_expected.mjs
// It renders values the way the jsonl contract says (render.h): integers exact, floats the
// shortest round trip of their own type (float32 as float32), timestamps with the digits
// of their unit, binary columns (BYTE_ARRAY without a string annotation) as base64.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + '/' : import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

// The jsonl contract's float text (include/pqt.h, pqt_format_float64/32): the shortest
// decimal that reads back to the same value of the column's own type, laid out as
// JavaScript's String(x) does, with ".0" after integral values.
function layout(x) {
  if (Object.is(x, -0)) return '-0.0';
  const s = String(x);
  return Number.isInteger(x) && !/e/.test(s) ? s + '.0' : s;
}
const f64 = (x) => layout(x); // String(x) is the shortest round trip for a double
function f32(x) { // shortest decimal that Math.fround maps back to x
  for (let p = 1; p <= 9; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return layout(y);
  }
  throw new Error(`no float32 text for ${x}`);
}

const file = 'tests/data/parquet-testing/data/alltypes_plain.parquet';
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads = 1');
// INT96 timestamps are nanosecond instants in pqt; DuckDB's %n prints 9 fraction digits.
const sql = `SELECT id, bool_col, tinyint_col, smallint_col, int_col, bigint_col,
  float_col::DOUBLE AS float_col, double_col,
  to_base64(date_string_col) AS date_string_col, to_base64(string_col) AS string_col,
  strftime(timestamp_col, '%Y-%m-%dT%H:%M:%S.%n') AS timestamp_col
  FROM read_parquet('${file}')`;

async function jsonl(limit, offset) {
  const reader = await con.runAndReadAll(`${sql} LIMIT ${limit} OFFSET ${offset}`);
  const names = reader.columnNames();
  return reader.getRows().map((row) => {
    const parts = row.map((v, i) => {
      let text;
      if (v === null) text = 'null';
      else if (typeof v === 'boolean') text = String(v);
      else if (typeof v === 'bigint') text = v.toString();
      else if (typeof v === 'string') text = JSON.stringify(v);
      else if (names[i] === 'float_col') text = f32(v);
      else if (names[i] === 'double_col') text = f64(v);
      else text = String(v);
      return JSON.stringify(names[i]) + ':' + text;
    });
    return '{' + parts.join(',') + '}\n';
  }).join('');
}

writeFileSync('tests/cli/alltypes_plain_limit2.jsonl', await jsonl(2, 0));
writeFileSync('tests/cli/alltypes_plain_rows3-4.jsonl', await jsonl(2, 2));
// Lists with a null list and null elements: only integers and strings, where DuckDB's own
// to_json writes exactly what the jsonl contract asks for.
const lists = await con.runAndReadAll(
  `SELECT to_json(t)::VARCHAR FROM read_parquet('tests/data/parquet-testing/data/list_columns.parquet') t`);
writeFileSync('tests/cli/list_columns.jsonl', lists.getRows().map((r) => r[0] + '\n').join(''));
console.log('wrote tests/cli/alltypes_plain_limit2.jsonl, alltypes_plain_rows3-4.jsonl, list_columns.jsonl');
