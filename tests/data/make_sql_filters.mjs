// make_sql_filters.mjs - the SQL spellings of the filter language (issue 30) against DuckDB:
// writes tests/data/sql_filters/cat.parquet (6000 rows in row groups of 1024: numbers, nulls,
// strings with unicode, a boolean, a date, a timestamp, colours and fluxes, an int64 column
// holding INT64_MAX) and tests/data/sql_filters/expected.tsv, one case a line:
//   count <TAB> sum(id) <TAB> md5 <TAB> pqt rule
// of the ids (= 1-based file rows) DuckDB keeps; md5 of those ids in file order, each followed
// by a newline. count "error" when DuckDB refuses the query (int64 overflow), which pqt must
// refuse too. tests/test_cli_sql_duckdb.sh runs each rule through `pqt cat --where`.
// Run from the repository root with @duckdb/node-api installed somewhere (the outputs are
// committed; no test needs node):
//   NODE_PATH=bench/peers/node_modules node tests/data/make_sql_filters.mjs
//
// Each case is the pqt rule and DuckDB's SQL of the same meaning; they are the same text
// except where the languages differ on purpose, which is why some cases are spelled twice and
// others are left out:
// - pqt takes unquoted ISO dates and timestamps (obs_date > 2018-01-01); DuckDB needs
//   DATE '...' / TIMESTAMP '...'. Double quotes are strings in pqt, identifiers in DuckDB.
// - log(x) is the natural logarithm in pqt, base 10 in DuckDB (its ln is our log).
// - sind, cosd, atan2d ... (degrees) have no DuckDB name: sin(radians(x)), degrees(atan2(..)).
//   cone() is written out as the haversine.
// - `//` of DOUBLEs is plain division in DuckDB, trunc(a / b) in pqt: only integers here.
// - DuckDB compares BIGINT with DOUBLE through a double; pqt exactly (past 2^53 they differ).
// - DuckDB errors on log(0), sqrt(-1) and returns NULL for exp(1000); pqt follows IEEE (-inf,
//   NaN, inf). NaN: DuckDB orders it above every number and says NaN = NaN, pqt follows IEEE.
//   So the file holds no NaN, no zero or negative flux, and no case reaches those domains.
// - A zero divisor gives null in both, but DuckDB (1.x) applies that null only when it
//   projects the value: inside a WHERE, `a / b > 1.2` is true and `g / (b - b) IS NULL` false
//   for b = 0 (it compares the inf). The DuckDB side spells the null out with NULLIF(b, 0).
// - ILIKE folds ASCII letters only in pqt, all of Unicode in DuckDB: ILIKE patterns here
//   touch ASCII letters only.
// Cases whose truth goes through a transcendental function carry a margin expression: the
// script fails unless every row is at least 1e-9 from the boundary, so the last bits of a
// libm cannot decide a row.
import { createRequire } from 'node:module';
import { writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const out = 'tests/data/sql_filters';
mkdirSync(out, { recursive: true });
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run('SET threads = 1');

await c.run(`CREATE TABLE cat AS SELECT
    id::BIGINT AS id,
    CASE WHEN id % 7 = 0 THEN NULL ELSE (id % 100) / 10.0 END::DOUBLE AS quality,
    pow(10, 8 + (id * 37 % 600) / 100.0)::DOUBLE AS mass,
    CASE WHEN id % 11 = 0 THEN NULL
         WHEN id % 3 = 0 THEN 'obj-' || lpad((id % 10000)::VARCHAR, 4, '0')
         WHEN id % 3 = 1 THEN 'OBJ-' || lpad((id % 10000)::VARCHAR, 4, '0')
         ELSE 'star-' || id::VARCHAR END AS name,
    CASE WHEN id % 13 = 0 THEN NULL ELSE id % 3 = 0 END AS flag,
    ((id * 7919) % 360000) / 1000.0 AS ra,
    (((id * 104729) % 180000) - 90000) / 1000.0 AS dec,
    CASE WHEN id % 17 = 0 THEN NULL ELSE DATE '2015-01-01' + ((id * 17) % 2000)::INTEGER END AS obs_date,
    TIMESTAMP '2017-06-01' + to_seconds((id * 25200) % 86400000) AS obs_ts,
    14 + ((id * 31) % 1000) / 100.0 AS g,
    CASE WHEN id % 19 = 0 THEN NULL ELSE 13.5 + ((id * 53) % 1000) / 100.0 END AS r,
    ((id * 97) % 100000) / 10.0 + 0.1 AS flux,
    CASE WHEN id % 23 = 0 THEN NULL ELSE ((id % 21) - 10)::INTEGER END AS x,
    (id % 5)::INTEGER AS a,
    CASE WHEN id % 29 = 0 THEN NULL ELSE (id % 4)::INTEGER END AS b,
    CASE WHEN id % 1000 = 0 THEN 9223372036854775807 ELSE id END::BIGINT AS big,
    ['é', 'Éa', '日本', 'a_b', 'ab%', '', 'ab', 'xyz'][(id % 8) + 1] AS s
  FROM range(1, 6001) t(id) ORDER BY id`);
await c.run(`COPY cat TO '${out}/cat.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 1024)`);

const hav = (ra0, dec0) =>
  `2 * degrees(asin(sqrt(pow(sin(radians(dec - ${dec0}) / 2), 2) + ` +
  `cos(radians(dec)) * cos(radians(${dec0})) * pow(sin(radians(ra - ${ra0}) / 2), 2))))`;

// [pqt rule, DuckDB condition (null: the same text), margin expression or null]
const cases = [
  ['quality is not null', null],
  ['quality IS NULL', null],
  ['mass between 1e10 and 1e12', null],
  ['mass not between 1e10 and 1e12', null],
  ["name like 'obj-0001%'", null],
  ["name like 'obj-001%'", null],
  ["name ilike 'OBJ-00%'", null],
  ["name not like '%7'", null],
  ["name like 'obj-_0_1'", null],
  ["name ilike '%-000_'", null],
  ["name not in ('obj-0003', 'OBJ-0004', 'star-5')", null],
  ['name == "OBJ-0004" or name = \'obj-0006\'', "name = 'OBJ-0004' OR name = 'obj-0006'"],
  ["s like '_'", null],
  ["s like 'ab%'", null],
  ["s not like '%b'", null],
  ["s ilike 'AB%'", null],
  ["s = 'a_b' or s like 'x%z'", null],
  ['length(s) == 2', 'length(s) = 2'],
  ['length(name) = 8', null],
  ['not flag', null],
  ['flag', null],
  ['flag = TRUE', null],
  ['flag <> false', null],
  ['ra > dec', null],
  ['id % 2 == 0', 'id % 2 = 0'],
  ['obs_date > 2018-01-01', "obs_date > DATE '2018-01-01'"],
  ['obs_date between 2016-01-01 and 2016-12-31', "obs_date BETWEEN DATE '2016-01-01' AND DATE '2016-12-31'"],
  ["obs_date = '2016-03-01' or obs_date < 2015-01-20", "obs_date = DATE '2016-03-01' OR obs_date < DATE '2015-01-20'"],
  ['obs_ts >= 2018-01-01T12:00:00', "obs_ts >= TIMESTAMP '2018-01-01 12:00:00'"],
  ['obs_ts between 2017-06-01T00:00:00 and 2017-06-10T00:00:00',
    "obs_ts BETWEEN TIMESTAMP '2017-06-01 00:00:00' AND TIMESTAMP '2017-06-10 00:00:00'"],
  ['g - r > 0.5 and r < 20', null],
  ['-2.5 * log10(flux) + 22.5 < 21', null, '-2.5 * log10(flux) + 22.5 - 21'],
  ['x not in (1, 2, 3)', null],
  ['x in (-10, 0, 10) or flag', null],
  ['a <> b', null],
  ['a != b and b <> 0', null],
  ['x // 2 == -3', 'x // 2 = -3'],
  ['x % 3 == -1', 'x % 3 = -1'],
  ['x // b is null', '(x // NULLIF(b, 0)) IS NULL'],
  ['a % b is null', '(a % NULLIF(b, 0)) IS NULL'],
  ['g / (b - b) is null', '(g / NULLIF(b - b, 0)) IS NULL'],
  ['a / b > 1.2', 'a / NULLIF(b, 0) > 1.2'],
  ['x / 4 = -2.5', null],
  ['-x > 7', null],
  ['(x + 1) * 2 == 8', '(x + 1) * 2 = 8'],
  ['x * 2 + 1 == 9', 'x * 2 + 1 = 9'],
  ['a * b - x > 5', null],
  ['5 < x', null],
  ['abs(x) >= 9', null],
  ['floor(g) == 15 and ceil(r) <= 14', 'floor(g) = 15 AND ceil(r) <= 14'],
  ['round(g - r) == 1', 'round(g - r) = 1'],
  ['round(g, 1) > 15.55', null],
  ['pow(x, 2) > 50', null],
  ['sqrt(flux) > 50', null],
  ['exp(r - 20) < 0.5', null, 'exp(r - 20) - 0.5'],
  ['log(flux) > 8', 'ln(flux) > 8', 'ln(flux) - 8'],
  ['sind(ra) > 0.3', 'sin(radians(ra)) > 0.3', 'sin(radians(ra)) - 0.3'],
  ['cosd(dec) < 0.9', 'cos(radians(dec)) < 0.9', 'cos(radians(dec)) - 0.9'],
  ['atan2d(dec, ra) > 10', 'degrees(atan2(dec, ra)) > 10', 'degrees(atan2(dec, ra)) - 10'],
  ['asind(dec / 90) > 30', 'degrees(asin(dec / 90)) > 30', 'degrees(asin(dec / 90)) - 30'],
  ['sin(ra) > 0.5 and cos(dec) > 0', null, 'least(abs(sin(ra) - 0.5), abs(cos(dec)))'],
  ['isfinite(g - r) and not isnan(quality)', null],
  ['cone(ra, dec, 180, 0, 10)', `${hav(180, 0)} <= 10`, `${hav(180, 0)} - 10`],
  ['cone(ra, dec, 5, 60, 20) or cone(ra, dec, 355, -60, 20)',
    `${hav(5, 60)} <= 20 OR ${hav(355, -60)} <= 20`,
    `least(abs(${hav(5, 60)} - 20), abs(${hav(355, -60)} - 20))`],
  ['quality IS NOT NULL AND mass BETWEEN 1e10 AND 1e12', null],
  ['id between 10 and 20 and id not between 12 and 14', null],
  ['not (x > 0 or flag)', null],
  ['x is not null and not x between -5 and 5', null],
  ['ra > 350 or ra < 10 and dec > 0', null],
  ['g > r * 1.1', null],
  ['ra - 180 between -10 and 10', null],
  ['x >= -3 and x <= 3 and x != 0', null],
  // not `big + 1 > 0`: DuckDB's optimizer rewrites it to `big > -1` and never overflows
  ['big + id > 0', null],
  ['big * 2 > id', null],
  ['big - 1 > 0', null],
  ['abs(big - 3000) < 10', null],
  // a real literal makes the arithmetic FLOAT even when its value is integral: no overflow
  ['big * 1e10 > 0', null],
  ['big + 1e10 > 9.2233720368e18', null],
];

const md5 = (ids) => createHash('md5').update(ids.map((i) => `${i}\n`).join('')).digest('hex');

const lines = ['# count\tsum(id)\tmd5(ids)\trule (written by tests/data/make_sql_filters.mjs)'];
for (const [rule, sql, margin] of cases) {
  const cond = sql ?? rule;
  if (margin) {
    const m = await c.runAndReadAll(`SELECT min(abs(${margin})) AS m FROM cat`);
    const v = Number(m.getRowObjects()[0].m);
    if (!(v > 1e-9)) throw new Error(`${rule}: a row within ${v} of the boundary`);
  }
  let ids;
  try {
    const r = await c.runAndReadAll(`SELECT id FROM cat WHERE ${cond} ORDER BY id`);
    ids = r.getRowObjects().map((o) => Number(o.id));
  } catch (e) {
    if (!/Overflow/.test(e.message)) throw new Error(`${rule}: ${e.message}`);
    lines.push(`error\t-\t-\t${rule}`);
    continue;
  }
  const sum = ids.reduce((a, b) => a + b, 0);
  lines.push(`${ids.length}\t${sum}\t${md5(ids)}\t${rule}`);
}
writeFileSync(`${out}/expected.tsv`, lines.join('\n') + '\n');
console.log(`${cases.length} cases`);
