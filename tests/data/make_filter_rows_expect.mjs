// make_filter_rows_expect.mjs - the rows DuckDB keeps for the filter rules of
// tests/unit/test_table_filter_rows.c (pqt_table_row_mask_with / pqt_table_filter_rows_with), written
// to tests/data/filter_rows_expect.tsv, which is committed (independent truth: DuckDB
// evaluates an SQL predicate of the same meaning over the same file).
// Run from the repository root with @duckdb/node-api installed somewhere, e.g.
//   NODE_PATH=bench/peers/node_modules node tests/data/make_filter_rows_expect.mjs
//
// One line per case, tab-separated:
//   file  rule  binds  add_in  count  rows
// file: path from the repository root. rule: pqt rule text ("" = none). binds: sets for
// pqt_filter_bind, "name=kind:v1,v2;name2=..." (kind i32, i64, f64 or str). add_in: one
// pqt_filter_add_in clause, "col=kind:values" (in) or "col!=kind:values" (not_in). All
// AND-combined. rows: the 1-based file rows kept, as runs "a-b" or single "a", comma-separated.
//
// NaN: DuckDB orders NaN above every number and makes NaN = NaN true; pqt follows IEEE (every
// order or equality test with NaN is false, /= is true; docs/filters.md). The SQL below
// spells the IEEE meaning out with isnan() wherever a NaN row could be affected, so the rows
// are the IEEE ones. NULL is three-valued in both, as in pqt.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const PT = 'tests/data/parquet-testing/data';
const A = `${PT}/alltypes_tiny_pages.parquet`;       // 7300 rows: ints, bool, floats, strings, int96 timestamps
const N = `${PT}/int32_with_null_pages.parquet`;     // 1000 rows, 275 nulls
const F = `${PT}/floating_orders_nan_count.parquet`; // 50 rows in 5 row groups, NaN, +-0
const D = `${PT}/delta_encoding_optional_column.parquet`; // 100 rows, nullable ints and strings
const R = 'tests/data/table_rg.parquet';              // 10000 rows in 5 row groups, nulls and NaN

// [file, pqt rule, binds, add_in, DuckDB predicate]
const cases = [
  [A, 'id > 3650', '', '', 'id > 3650'],
  [A, 'int_col <= 3 and bool_col == true', '', '', 'int_col <= 3 AND bool_col = true'],
  [A, 'tinyint_col /= 5 and id < 40', '', '', 'tinyint_col <> 5 AND id < 40'],
  [A, 'double_col >= 50.5 or smallint_col < 1', '', '', 'double_col >= 50.5 OR smallint_col < 1'],
  [A, 'not (bigint_col == 40 or float_col > 8)', '', '', 'NOT (bigint_col = 40 OR float_col > 8)'],
  [A, 'string_col in ("1", "3", "7") and month = 2', '', '',
    "string_col IN ('1', '3', '7') AND month = 2"],
  [A, 'date_string_col starts_with "01/1" or date_string_col ends_with "/10"', '', '',
    "starts_with(date_string_col, '01/1') OR suffix(date_string_col, '/10')"],
  [A, 'date_string_col contains "2/2" and string_col != "0"', '', '',
    "contains(date_string_col, '2/2') AND string_col <> '0'"],
  [A, 'timestamp_col >= "2009-06-01" and timestamp_col < "2009-06-02T12:00:00"', '', '',
    "timestamp_col >= TIMESTAMP '2009-06-01' AND timestamp_col < TIMESTAMP '2009-06-02 12:00:00'"],
  [A, 'id in @wanted or month not_in @months', 'wanted=i64:5,77,1000,7299,9999;months=i32:1,2,3,4,5,6,7,8,9,10,11', '',
    'id IN (5, 77, 1000, 7299, 9999) OR month NOT IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)'],
  [A, 'year == 2010 and id >= 7000', '', 'string_col!=str:0,1,2,3,4,5,6,7',
    "string_col NOT IN ('0', '1', '2', '3', '4', '5', '6', '7') AND year = 2010 AND id >= 7000"],
  [A, 'string_col > "5" and year = 2009 and month <= 1', '', '',
    "string_col > '5' AND year = 2009 AND month <= 1"],
  [A, '(id = 100 or id == 7299 or id == 3) and id <> 3', '', '', '(id = 100 OR id = 7299 OR id = 3) AND id <> 3'],
  [A, 'timestamp_col is_null or bool_col == false and tinyint_col in (1, 2)', '', '',
    'timestamp_col IS NULL OR (bool_col = false AND tinyint_col IN (1, 2))'],
  [A, '', '', 'tinyint_col=i32:0,9', 'tinyint_col IN (0, 9)'],
  [N, 'int32_field is_null', '', '', 'int32_field IS NULL'],
  [N, 'int32_field is_not_null and int32_field < 0', '', '', 'int32_field IS NOT NULL AND int32_field < 0'],
  [N, 'not int32_field > 0', '', '', 'NOT (int32_field > 0)'],
  [N, 'int32_field /= 0 or int32_field is_null', '', '', 'int32_field <> 0 OR int32_field IS NULL'],
  [F, 'double_ieee754 is_nan', '', '', 'isnan(double_ieee754)'],
  [F, 'float_ieee754 is_not_nan and float_ieee754 > -1', '', '',
    'NOT isnan(float_ieee754) AND float_ieee754 > -1'],
  [F, 'double_typedef is_finite', '', '', 'isfinite(double_typedef)'],
  [F, 'float16_ieee754 is_not_finite', '', '', 'NOT isfinite(float16_ieee754)'],
  [F, 'float_ieee754 /= 0', '', '', 'float_ieee754 <> 0'],
  [F, 'not double_ieee754 >= 1', '', '', 'NOT (double_ieee754 >= 1 AND NOT isnan(double_ieee754))'],
  [F, 'double_ieee754 not_in (0, 1) and float_typedef < 3', '', '',
    'double_ieee754 NOT IN (0, 1) AND float_typedef < 3 AND NOT isnan(float_typedef)'],
  [F, 'double_ieee754 in @fs', 'fs=f64:-1,0,2', '', 'double_ieee754 IN (-1, 0, 2)'],
  [D, 'c_birth_year < 1950 and c_salutation == "Mr."', '', '',
    "c_birth_year < 1950 AND c_salutation = 'Mr.'"],
  [D, 'c_email_address is_null or c_birth_country contains "IA"', '', '',
    "c_email_address IS NULL OR contains(c_birth_country, 'IA')"],
  [D, 'c_last_name >= "S" and c_preferred_cust_flag = "Y"', '', '',
    "c_last_name >= 'S' AND c_preferred_cust_flag = 'Y'"],
  [D, '', '', 'c_birth_country=str:GUAM,ECUADOR,NETHERLANDS ANTILLES',
    "c_birth_country IN ('GUAM', 'ECUADOR', 'NETHERLANDS ANTILLES')"],
  [R, 'f64 > 4000 or s ends_with "77"', '', '', "(f64 > 4000 AND NOT isnan(f64)) OR suffix(s, '77')"],
  [R, 'not f64 < 100', '', '', 'NOT (f64 < 100 AND NOT isnan(f64))'],
  [R, 'i32 is_null and f64 is_not_null', '', '', 'i32 IS NULL AND f64 IS NOT NULL'],
  [R, 's in @names or i32 in (3, 6, 9)', 'names=str:s1,s2,s1000,s9999,s10', '',
    "s IN ('s1', 's2', 's1000', 's9999', 's10') OR i32 IN (3, 6, 9)"],
  [R, 'parquet_row_index > 9990 or parquet_row_index <= 3', '', '',
    'file_row_number + 1 > 9990 OR file_row_number + 1 <= 3'],
];

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads = 1');
const lines = [];
for (const [file, rule, binds, addin, sql] of cases) {
  const r = await con.runAndReadAll(`SELECT file_row_number + 1 AS r
    FROM read_parquet('${file}', file_row_number = true) WHERE ${sql} ORDER BY r`);
  const rows = r.getRows().map((x) => Number(x[0]));
  const runs = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
    runs.push(i === j ? `${rows[i]}` : `${rows[i]}-${rows[j]}`);
    i = j + 1;
  }
  lines.push([file, rule, binds, addin, rows.length, runs.join(',')].join('\t'));
}
writeFileSync('tests/data/filter_rows_expect.tsv', lines.join('\n') + '\n');
console.log(`wrote ${lines.length} cases`);
