// make_decimal_sort.mjs - writes tests/data/decimal_sort.parquet, decimals whose values differ
// below float64 precision, for the exact decimal sort of test_sort_decimal.c.
// Run from the repository root with @duckdb/node-api on NODE_PATH:
//   NODE_PATH=bench/peers/node_modules node tests/data/make_decimal_sort.mjs
// The file is committed; the test computes every expected order from the same formulas in
// integer arithmetic (independent truth: DuckDB wrote the values, pqt reads them).
//
// 12 rows, id = 1..12 (one row group: DuckDB keeps small files in one):
//   d18  DECIMAL(18,0) (INT64):  2^53 + ((7 id) % 12) - 6, NULL when id = 5
//   d38  DECIMAL(38,2) (FIXED_LEN_BYTE_ARRAY 16): unscaled s (2^70 + ((5 id) % 12) - 6) with
//        s = -1 when id % 3 = 0 else 1, i.e. the value is that over 100; NULL when id = 9
// Every d18 value is within 6 of 2^53 and every |d38| within 0.06 of 2^70 / 100, so their
// float64s tie in groups; only the integers order them.
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
// d38 from text: its unscaled integer a = 2^70 + k printed with two decimals, then the sign
const a = '(1180591620717411303424::HUGEINT + (5 * id) % 12 - 6)';
await c.run(`COPY (SELECT id::BIGINT AS id,
    CASE WHEN id = 5 THEN NULL
         ELSE (9007199254740992::HUGEINT + (7 * id) % 12 - 6)::DECIMAL(18,0) END AS d18,
    CASE WHEN id = 9 THEN NULL
         ELSE ((CASE WHEN id % 3 = 0 THEN '-' ELSE '' END) || (${a} // 100)::VARCHAR || '.' ||
               lpad((${a} % 100)::VARCHAR, 2, '0'))::DECIMAL(38,2) END AS d38
    FROM range(1, 13) t(id) ORDER BY id)
  TO 'tests/data/decimal_sort.parquet' (FORMAT parquet)`);
