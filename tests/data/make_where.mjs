// make_where.mjs - fixtures and DuckDB answers for `pqt cat --where` and `pqt count`
// (tests/test_cli_where.sh). Writes, under tests/data/where/:
//   mixed.parquet   6000 rows in 3 row groups (2048, 2048, 1904): nulls, NaN, +-inf, +-0, strings with
//                   unicode, dates, times, timestamps in three units and with UTC, a struct,
//                   a list, a decimal and a column whose name holds spaces.
//   sorted.parquet  20,480 rows sorted by id in 10 row groups of 2048 (statistics prune).
//   expected.tsv    one case a line: count, sum(id), md5 of the survivors' ids (each followed
//                   by a newline, in file order), file, then the rules (AND-combined), all
//                   separated by tabs. Every answer is DuckDB's, computed here from a SQL
//                   condition written by hand next to each pqt rule.
// Run from the repository root (the outputs are committed):
//   NODE_PATH=bench/peers/node_modules node tests/data/make_where.mjs
//
// NaN: DuckDB orders NaN above every number and says NaN = NaN; pqt follows IEEE (docs/filters.md,
// "Nulls, NaN and three-valued logic"): every order or equality test with NaN is false, /= is true, and
// `not` of such a test is true. No row is excluded from any case: the SQL of each rule that
// reads v or f (the columns holding NaN) spells pqt's meaning out with isnan(), so NaN rows
// are counted exactly as pqt must count them (kept by `/=`, `not_in`, `not (..)`,
// `is_nan`, `is_not_finite`; dropped by everything else). -0.0 equals 0.0 in pqt; the SQL
// uses abs(v) = 0 so DuckDB's handling of the sign cannot matter.
import { createRequire } from 'node:module';
import { writeFileSync, mkdirSync } from 'node:fs';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const out = 'tests/data/where';
mkdirSync(out, { recursive: true });
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run('SET threads = 1');
await c.run("SET TimeZone = 'UTC'"); // timestamptz literals mean UTC, as pqt compares them

// mixed.parquet. id is the 1-based row number; every other column is a formula of id.
await c.run(`CREATE TABLE mixed AS SELECT
    id::BIGINT AS id,
    CASE WHEN id % 9 = 0 THEN NULL ELSE (id % 10)::INTEGER END AS g,
    CASE WHEN id % 97 = 0 THEN 'NaN'::DOUBLE
         WHEN id % 89 = 0 THEN NULL
         WHEN id % 101 = 0 THEN 'inf'::DOUBLE
         WHEN id % 103 = 0 THEN '-inf'::DOUBLE
         WHEN id % 107 = 0 THEN '-0.0'::DOUBLE
         ELSE (id - 3000) / 8.0 END::DOUBLE AS v,
    CASE WHEN id % 50 = 0 THEN 'NaN'::FLOAT ELSE ((id % 200) * 0.25)::FLOAT END AS f,
    CASE WHEN id % 7 = 0 THEN NULL WHEN id % 11 = 0 THEN ''
         ELSE ['alpha', 'Beta', 'gamma ray', 'δέλτα', '東京', 'naïve', 'emoji 🚀', 'zeta,"q"'][id % 8 + 1]
              || '-' || (id % 13) END AS s,
    CASE WHEN id % 13 = 0 THEN NULL ELSE DATE '2020-01-01' + (id % 1500)::INTEGER END AS d,
    TIME '00:00:00' + to_seconds(id * 7) AS tm,
    TIMESTAMP '2021-06-01 00:00:00' + to_microseconds(id * 3600000000 + id % 1000) AS ts,
    (TIMESTAMP '2021-06-01 00:00:00' + to_milliseconds(id * 1800000 + id % 1000))::TIMESTAMP_MS AS ts_ms,
    make_timestamp_ns(epoch_ns(TIMESTAMP_NS '2021-06-01') + id * 600000000000 + id % 1000) AS ts_ns,
    (TIMESTAMPTZ '2021-06-01 00:00:00+00' + to_minutes(id * 11)) AS tz,
    CASE WHEN id % 17 = 0 THEN NULL ELSE id % 3 = 0 END AS b,
    CASE WHEN id % 23 = 0 THEN NULL
         ELSE {'x': (id % 100)::INTEGER, 'name': 'n' || (id % 5)} END AS st,
    CASE WHEN id % 19 = 0 THEN NULL
         ELSE list_transform(range(id % 4), k -> (id * 10 + k)::INTEGER) END AS lst,
    (id * 1.25 - 100)::DECIMAL(9, 2) AS dec,
    ((id % 10) * 1.0)::DOUBLE AS "flux (Jy)"
  FROM range(1, 6001) t(id) ORDER BY id`);
// DuckDB rounds ROW_GROUP_SIZE up to its vector size, 2048.
await c.run(`COPY mixed TO '${out}/mixed.parquet'
  (FORMAT parquet, ROW_GROUP_SIZE 2048, COMPRESSION zstd)`);

// sorted.parquet: a sorted id, so `id >= 5001 and id <= 5100` lies in row group 3 alone
// (rows 4097..6144) and statistics prune the other 9.
await c.run(`CREATE TABLE sorted AS SELECT id::BIGINT AS id, (id * 0.5)::DOUBLE AS x,
  'r' || id AS s FROM range(1, 20481) t(id) ORDER BY id`);
await c.run(`COPY sorted TO '${out}/sorted.parquet'
  (FORMAT parquet, ROW_GROUP_SIZE 2048, COMPRESSION zstd)`);

// [file, pqt rules (AND-combined), DuckDB condition with pqt's meaning]
const cases = [
  ['mixed', ['id <= 100'], 'id <= 100'],
  ['mixed', ['id>5990'], 'id > 5990'],
  ['mixed', ['id in (17, 42, 4711, 99999)'], 'id IN (17, 42, 4711, 99999)'],
  ['mixed', ['id > 999999'], 'id > 999999'],
  ['mixed', ['g == 3'], 'g = 3'],
  ['mixed', ['g != 3'], 'g <> 3'],
  ['mixed', ['g is_null'], 'g IS NULL'],
  ['mixed', ['g in (1, 4, 7)'], 'g IN (1, 4, 7)'],
  ['mixed', ['g not_in (1, 4, 7)'], 'g NOT IN (1, 4, 7)'],
  ['mixed', ['g == 3', 'id > 3000'], 'g = 3 AND id > 3000'],
  // NaN columns (v, f): the SQL says what pqt means, see the note at the top.
  ['mixed', ['v > 100'], 'v > 100 AND NOT isnan(v)'],
  ['mixed', ['v /= 0'], '(v < 0 OR (v > 0 AND NOT isnan(v)) OR isnan(v))'],
  ['mixed', ['not v > 5'], '(isnan(v) OR v <= 5)'],
  ['mixed', ['v is_nan'], 'isnan(v)'],
  ['mixed', ['v is_not_nan'], 'NOT isnan(v)'],
  ['mixed', ['v is_finite'], 'isfinite(v)'],
  ['mixed', ['v is_not_finite'], 'NOT isfinite(v)'],
  ['mixed', ['v == -0.0'], 'abs(v) = 0'],
  ['mixed', ['v >= inf'], "v = 'inf'::DOUBLE"],
  ['mixed', ['v < 0 or v is_null'], '((v < 0 AND NOT isnan(v)) OR v IS NULL)'],
  ['mixed', ['f > 25.5'], 'f > 25.5 AND NOT isnan(f)'],
  ['mixed', ['f not_in (0.25, 1.5)'], '(isnan(f) OR f NOT IN (0.25, 1.5))'],
  ['mixed', ['(g == 1 or g == 2) and not (v < 0)'],
   '(g = 1 OR g = 2) AND NOT (v < 0 AND NOT isnan(v))'],
  // strings: byte order, unicode, an empty string, a value holding a comma and quotes
  ['mixed', ['s == "東京-5"'], "s = '東京-5'"],
  ['mixed', ['s starts_with "δέ"'], "starts_with(s, 'δέ')"],
  ['mixed', ['s contains "🚀"'], "contains(s, '🚀')"],
  ['mixed', ['s ends_with "-1"'], "suffix(s, '-1')"],
  ['mixed', ['s > "naïve"'], "s > 'naïve'"],
  ['mixed', ['s == ""'], "s = ''"],
  ['mixed', ['s starts_with "zeta,"'], "starts_with(s, 'zeta,')"],
  ['mixed', ['s is_null or g == 0'], 's IS NULL OR g = 0'],
  // dates, times, timestamps (us, ms, ns, UTC)
  ['mixed', ['d >= "2023-06-01"'], "d >= DATE '2023-06-01'"],
  ['mixed', ['d == "2020-03-01"'], "d = DATE '2020-03-01'"],
  ['mixed', ['tm > "10:00:00"'], "tm > TIME '10:00:00'"],
  ['mixed', ['ts < "2021-07-01T12:00:00"'], "ts < TIMESTAMP '2021-07-01 12:00:00'"],
  ['mixed', ['ts_ms >= "2021-09-01"'], "ts_ms >= TIMESTAMP '2021-09-01'"],
  ['mixed', ['ts_ns > "2021-06-20 00:00:00.000000500"'],
   "ts_ns > TIMESTAMP_NS '2021-06-20 00:00:00.000000500'"],
  ['mixed', ['tz >= "2021-06-15T06:00:00Z"'], "tz >= TIMESTAMPTZ '2021-06-15 06:00:00+00'"],
  // booleans, struct leaves, a backquoted name
  ['mixed', ['b == true'], 'b = true'],
  ['mixed', ['b /= true'], 'b <> true'],
  ['mixed', ['st.x < 10 and st.name == "n3"'], "st.x < 10 AND st.name = 'n3'"],
  ['mixed', ['st.x is_null'], 'st.x IS NULL'],
  ['mixed', ['`flux (Jy)` >= 8', 'g is_not_null'], '"flux (Jy)" >= 8 AND g IS NOT NULL'],
  ['sorted', ['id >= 5001 and id <= 5100'], 'id >= 5001 AND id <= 5100'],
  ['sorted', ['id > 20470 or id < 3'], 'id > 20470 OR id < 3'],
  ['sorted', ['s starts_with "r99"'], "starts_with(s, 'r99')"],
];

const lines = [];
for (const [file, rules, sql] of cases) {
  const r = await c.runAndReadAll(`SELECT count(*)::BIGINT, coalesce(sum(id), 0)::BIGINT,
      md5(coalesce(string_agg(id::VARCHAR || chr(10), '' ORDER BY id), ''))
    FROM ${file} WHERE ${sql}`);
  const [n, sum, md5] = r.getRows()[0];
  lines.push([n, sum, md5, `${file}.parquet`, ...rules].join('\t'));
}
writeFileSync(`${out}/expected.tsv`,
  '# count\tsum(id)\tmd5(ids)\tfile\trules... (written by tests/data/make_where.mjs)\n' +
  lines.join('\n') + '\n');
console.log(`${lines.length} cases`);
