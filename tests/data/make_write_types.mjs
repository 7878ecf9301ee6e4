// make_write_types.mjs - writes tests/data/write_types.parquet for test_write_types.c: one
// DuckDB-written column of every type a copy must keep (issue 14, CLI paragraph): narrow and
// unsigned integers, decimals on INT32 / INT64 / FIXED_LEN_BYTE_ARRAY, UUID, JSON, an ENUM
// (DuckDB writes it as STRING), DATE, TIME (us, ns), TIMESTAMP (s, ms, us, ns, and the UTC
// us of TIMESTAMPTZ), a struct, a list, floats, booleans, strings, and two key-value
// metadata entries. Run from the repository root with @duckdb/node-api on NODE_PATH:
//   NODE_PATH=bench/peers/node_modules node tests/data/make_write_types.mjs
// 40 rows in row groups of 16; row i (0..39): every column but i is NULL when i % 7 = 3;
// extremes of each integer type at i = 0 (min) and i = 1 (max); a DECIMAL(p,s)'s unscaled
// value is (i - 20) * 101 * 10^max(0, p - 5), and -(10^p - 1), 10^p - 1 at i = 0, 1; u = md5(i) spelled as a UUID ('00000000-...' at 0, 'ffffffff-...' at 1).
import { createRequire } from 'node:module';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const out = process.argv[2] || 'tests/data/write_types.parquet';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run("SET TimeZone='UTC'");
await c.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`);
// decimal texts are made here with BigInt (exact), so DuckDB only parses them
const unscaled = (p, i) => {
  const top = 10n ** BigInt(p) - 1n;
  if (i === 0) return -top;
  if (i === 1) return top;
  return BigInt((i - 20) * 101) * 10n ** BigInt(Math.max(0, p - 5));
};
const text = (u, s) => {
  const neg = u < 0n, d = (neg ? -u : u).toString().padStart(s + 1, '0');
  return (neg ? '-' : '') + (s ? d.slice(0, d.length - s) + '.' + d.slice(d.length - s) : d);
};
const dec = (p, s) =>
  `([${Array.from({ length: 40 }, (_, i) => `'${text(unscaled(p, i), s)}'`).join(',')}])[i + 1]::DECIMAL(${p},${s})`;
const cols = [
  `CASE i WHEN 0 THEN -128 WHEN 1 THEN 127 ELSE i - 20 END::TINYINT AS i8`,
  `CASE i WHEN 0 THEN -32768 WHEN 1 THEN 32767 ELSE (i - 20) * 1000 END::SMALLINT AS i16`,
  `CASE i WHEN 0 THEN 0 WHEN 1 THEN 255 ELSE i * 6 END::UTINYINT AS u8`,
  `CASE i WHEN 0 THEN 0 WHEN 1 THEN 65535 ELSE i * 1600 END::USMALLINT AS u16`,
  `CASE i WHEN 0 THEN 0 WHEN 1 THEN 4294967295 ELSE i * 100000000 END::UINTEGER AS u32`,
  `CASE i WHEN 0 THEN 0 WHEN 1 THEN 18446744073709551615 ELSE i::UBIGINT * 400000000000000000 END::UBIGINT AS u64`,
  `${dec(4, 2)} AS d4_2`,
  `${dec(9, 3)} AS d9_3`,
  `${dec(18, 4)} AS d18_4`,
  `${dec(38, 10)} AS d38_10`,
  `${dec(25, 0)} AS d25_0`,
  `CASE i WHEN 0 THEN '00000000-0000-0000-0000-000000000000' WHEN 1 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'
        ELSE md5(i::VARCHAR) END::UUID AS u`,
  `('{"i": ' || i || ', "s": "r' || i || '"}')::JSON AS js`,
  `(['sad', 'ok', 'happy'])[i % 3 + 1]::mood AS en`,
  `(DATE '2000-01-01' + (i * 377 - 7000)::INTEGER)::DATE AS dt`,
  `(TIME '00:00:00' + INTERVAL (i * 2161 + 1) SECOND + INTERVAL (i * 7) MICROSECOND)::TIME AS t_us`,
  `('01:02:03.' || lpad((i * 12345679)::VARCHAR, 9, '0'))::TIME_NS AS t_ns`,
  `(TIMESTAMP '2020-02-29 12:00:00' + INTERVAL (i * 86399) SECOND)::TIMESTAMP_S AS ts_s`,
  `(TIMESTAMP '1969-12-31 23:59:59.001' + INTERVAL (i * 1234567) MILLISECOND)::TIMESTAMP_MS AS ts_ms`,
  `(TIMESTAMP '2001-09-09 01:46:40' + INTERVAL (i * 1234567891) MICROSECOND)::TIMESTAMP AS ts_us`,
  `('2262-04-11 23:47:16'::TIMESTAMP_NS - INTERVAL (i * 9876543) SECOND)::TIMESTAMP_NS AS ts_ns`,
  `(TIMESTAMPTZ '2024-06-30 23:59:59.999999+00' - INTERVAL (i * 3600001) MICROSECOND) AS ts_tz`,
  `{'a': i * 3, 'b': 'b' || i} AS st`,
  `CASE WHEN i % 4 = 0 THEN []::INTEGER[] ELSE range(i % 5)::INTEGER[] END AS li`,
  `(i / 8)::FLOAT AS f32`,
  `(i * 0.1)::DOUBLE AS f64`,
  `(i % 2 = 0) AS b`,
  `repeat('s', i % 6) || i AS s`,
];
const sel = cols.map((e) => `CASE WHEN i % 7 = 3 THEN NULL ELSE ${e.replace(/ AS (\w+)$/, '')} END AS ${e.match(/ AS (\w+)$/)[1]}`);
await c.run(`COPY (SELECT i::BIGINT AS i, ${sel.join(',\n  ')} FROM range(40) t(i) ORDER BY i)
  TO '${out}' (FORMAT parquet, ROW_GROUP_SIZE 16, KV_METADATA {origin: 'duckdb', note: 'every type'})`);
