// make_sort_expect.mjs - the row orders DuckDB gives for the sort keys of
// tests/unit/test_sort_duckdb.c (PQT_OPT_SORT and PQT_OPT_LIMIT at open), written to
// tests/data/sort_expect.tsv, which is committed (independent truth: DuckDB's ORDER BY over
// the same file).
// Run from the repository root with @duckdb/node-api installed somewhere, e.g.
//   NODE_PATH=bench/peers/node_modules node tests/data/make_sort_expect.mjs
//
// One line per case, tab-separated:  file  keys  limit  rows
// keys: pqt's text form. limit: -1 for none. rows: the 1-based file rows in sorted order, as
// ascending runs "a-b" or single "a", comma-separated.
//
// pqt's placement is absolute (docs/sort.md, "Order"): per key, values (ascending or descending),
// then NaN, then nulls; nulls_first gives nulls, NaN, values. DuckDB orders NaN above every
// number and -0.0 apart from 0.0 may not hold, so the SQL spells pqt's order out: a class per
// key (null / NaN / value), zero made one value, and the file row last (pqt's sort is
// stable, so ties keep file order).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const PT = 'tests/data/parquet-testing/data';
const A = `${PT}/alltypes_tiny_pages.parquet`;
const F = `${PT}/floating_orders_nan_count.parquet`;
const D = `${PT}/delta_encoding_optional_column.parquet`;
const R = 'tests/data/table_rg.parquet';

// [file, pqt keys, limit, [[column, desc, nulls_first, float], ...]]
const cases = [
  [R, '-f64', -1, [['f64', 1, 0, 1]]],
  [R, 'f64', 25, [['f64', 0, 0, 1]]],
  [R, 'f64 desc nulls_first', 40, [['f64', 1, 1, 1]]],
  [R, 's, -id', -1, [['s', 0, 0, 0], ['id', 1, 0, 0]]],
  [R, 'i32 nulls_first; -f32', 300, [['i32', 0, 1, 0], ['f32', 1, 0, 1]]],
  [A, 'string_col, -double_col', -1, [['string_col', 0, 0, 0], ['double_col', 1, 0, 1]]],
  [A, '-timestamp_col', 100, [['timestamp_col', 1, 0, 0]]],
  [A, 'bool_col, month desc, id', 50, [['bool_col', 0, 0, 0], ['month', 1, 0, 0], ['id', 0, 0, 0]]],
  [F, 'double_ieee754', -1, [['double_ieee754', 0, 0, 1]]],
  [F, '-float_ieee754', -1, [['float_ieee754', 1, 0, 1]]],
  [F, 'float16_ieee754 desc', 10, [['float16_ieee754', 1, 0, 1]]],
  [D, 'c_birth_country, -c_birth_year', -1, [['c_birth_country', 0, 0, 0], ['c_birth_year', 1, 0, 0]]],
  [D, 'c_last_name nulls_first', 30, [['c_last_name', 0, 1, 0]]],
  // top-n whose first key's statistics rule out row groups (table_open_topn.c)
  [R, '-f32', 30, [['f32', 1, 0, 1]]],
  [R, 'i32', 50, [['i32', 0, 0, 0]]],
  [R, '-i32, id', 10, [['i32', 1, 0, 0], ['id', 0, 0, 0]]],
  [R, 'id desc', 5, [['id', 1, 0, 0]]],
  [A, '-bigint_col', 20, [['bigint_col', 1, 0, 0]]],
  [A, 'int_col, -id', 15, [['int_col', 0, 0, 0], ['id', 1, 0, 0]]],
  [F, '-double_ieee754', 5, [['double_ieee754', 1, 0, 1]]],
  [D, '-c_birth_year', 7, [['c_birth_year', 1, 0, 0]]],
];

function runs(rows) {
  const out = [];
  for (let i = 0; i < rows.length;) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
    out.push(i === j ? `${rows[i]}` : `${rows[i]}-${rows[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const lines = [];
for (const [file, keys, limit, spec] of cases) {
  const order = [];
  for (const [col, desc, nullsFirst, isFloat] of spec) {
    const nan = isFloat ? `WHEN isnan("${col}") THEN 1 ` : '';
    order.push(`CASE WHEN "${col}" IS NULL THEN ${nullsFirst ? 0 : 2} ${nan}ELSE ${nullsFirst ? 2 : 0} END`);
    const v = isFloat ? `CASE WHEN "${col}" = 0 THEN 0.0 ELSE "${col}" END` : `"${col}"`;
    order.push(`${v} ${desc ? 'DESC' : 'ASC'}`);
  }
  order.push('file_row_number');
  const sql = `SELECT file_row_number + 1 AS r FROM read_parquet('${file}', file_row_number = true) ` +
              `ORDER BY ${order.join(', ')}${limit >= 0 ? ` LIMIT ${limit}` : ''}`;
  const res = await con.runAndReadAll(sql);
  const rows = res.getRows().map((r) => Number(r[0]));
  lines.push([file, keys, limit, runs(rows)].join('\t'));
}
writeFileSync('tests/data/sort_expect.tsv', lines.join('\n') + '\n');
console.log(`tests/data/sort_expect.tsv: ${lines.length} cases`);
