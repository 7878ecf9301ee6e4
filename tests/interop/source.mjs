// source.mjs - the table every interop file holds, as one DuckDB SELECT (deterministic: values
// are arithmetic on the row number, no random() and no hash(), so every run and every DuckDB
// build writes the same values).
//
// Each scalar type T gives three columns: T_none (no nulls; high-cardinality values, so a
// dictionary overflows or is refused, and the type's extremes in the first rows), T_some
// (low-cardinality values, so a dictionary pays, with scattered nulls plus a null run over rows
// 1000..3099, which covers whole 1000-row groups) and T_all (every row null). Nested columns:
// a two-level struct holding a list, fixed-size lists (FLOAT[3] with null elements,
// INTEGER[4], FLOAT[3] with null rows) and variable lists with null and empty lists.

export const NROWS = 10000;

// name, DuckDB type, value expression of the integer K (>= 0), extremes for the first rows of
// T_none (SQL literals), and which writers can hold the type (polars: false = DuckDB only).
export const TYPES = [
  { name: 'i8', sql: 'TINYINT', val: 'K % 256 - 128', ext: ['-128', '127', '0'] },
  { name: 'i16', sql: 'SMALLINT', val: 'K % 65536 - 32768', ext: ['-32768', '32767'] },
  { name: 'i32', sql: 'INTEGER', val: '(K * 4093) % 4294967296 - 2147483648', ext: ['-2147483648', '2147483647'] },
  { name: 'i64', sql: 'BIGINT', val: '(K::HUGEINT * 18446744073709) % 18446744073709551616 - 9223372036854775808',
    ext: ['-9223372036854775808', '9223372036854775807', '-1'] },
  { name: 'u8', sql: 'UTINYINT', val: 'K % 256', ext: ['0', '255'] },
  { name: 'u16', sql: 'USMALLINT', val: 'K % 65536', ext: ['0', '65535'] },
  { name: 'u32', sql: 'UINTEGER', val: '(K * 4093) % 4294967296', ext: ['0', '4294967295'] },
  // pqt reads UINT_64 as int64 and refuses values above INT64_MAX, so stay within it.
  { name: 'u64', sql: 'UBIGINT', val: '(K::HUGEINT * 9223372036853) % 9223372036854775808', ext: ['0', '9223372036854775807'] },
  { name: 'f32', sql: 'FLOAT', val: '(K - 500000) / 7.0',
    ext: ["'NaN'", "'Infinity'", "'-Infinity'", "'-0.0'", '3.4028235e38', '1.4e-45', '1.1754944e-38', '0.1'] },
  { name: 'f64', sql: 'DOUBLE', val: '(K - 500000) * 1234567.891 / 7.0',
    ext: ["'NaN'", "'Infinity'", "'-Infinity'", "'-0.0'", '1.7976931348623157e308', '5e-324',
      '2.2250738585072014e-308', '0.1'] },
  // Decimals are built from their unscaled integer through a string, so no double rounding
  // creeps in (DuckDB's decimal division goes through DOUBLE).
  { name: 'd9', sql: 'DECIMAL(9,2)', dec: [2, '(K * 7919) % 1999999999 - 999999999'],
    ext: ['9999999.99', '-9999999.99', '0.01'] },
  { name: 'd18', sql: 'DECIMAL(18,4)', dec: [4, '(K::HUGEINT * 12345678901234567) % 1999999999999999999 - 999999999999999999'],
    ext: ['99999999999999.9999', '-99999999999999.9999', '-0.0001'] },
  { name: 'd38', sql: 'DECIMAL(38,10)',
    dec: [10, '((K::HUGEINT * 123456789012345678901234567890123) % 99999999999999999999999999999999999999) * (1 - 2 * (K % 2))'],
    ext: ['9999999999999999999999999999.9999999999', '-9999999999999999999999999999.9999999999', '0.0000000001'] },
  { name: 'bool', sql: 'BOOLEAN', val: 'K % 3 = 0', ext: ['true', 'false'] },
  { name: 'str', sql: 'VARCHAR', val: "'s' || K::VARCHAR || repeat('x', (K % 13)::INTEGER)",
    ext: ["''", "'é漢字🙂'", "'quote\"back\\slash'", 'chr(9) || chr(10) || chr(13) || chr(1) || chr(31)',
      "repeat('long', 3000)"] },
  { name: 'date', sql: 'DATE', val: "DATE '1970-01-01' + (K % 800000 - 400000)::INTEGER",
    ext: ["'0001-01-01'", "'9999-12-31'", "'1969-12-31'", "'1970-01-01'"] },
  // Whole microseconds: DuckDB's reading of Polars' TIME(NANOS) goes through its µs TIME.
  { name: 'time', sql: 'TIME', val: "TIME '00:00:00' + to_microseconds((K * 86399999) % 86400000000)",
    ext: ["'00:00:00'", "'23:59:59.999999'", "'00:00:00.000001'"] },
  // TIMETZ is written as TIME(MICROS, isAdjustedToUTC=true), normalised to UTC.
  { name: 'timetz', sql: 'TIMETZ', val: "(TIME '00:00:00' + to_microseconds((K * 86399999) % 86400000000))::TIMETZ",
    ext: ["'00:00:00+00'", "'23:59:59.999999+00'"] },
  { name: 'ts_us', sql: 'TIMESTAMP', val: 'make_timestamp(K * 7919000011 - 4000000000000000)',
    ext: ["'0001-01-01 00:00:00'", "'9999-12-31 23:59:59.999999'", "'1969-12-31 23:59:59.999999'", "'1970-01-01'"] },
  { name: 'ts_ms', sql: 'TIMESTAMP_MS', val: 'make_timestamp(K * 7919000011 - 4000000000000000)',
    ext: ["'0001-01-01 00:00:00'", "'9999-12-31 23:59:59.999'", "'1969-12-31 23:59:59.999'"] },
  // ns timestamps span 1677..2262 only.
  { name: 'ts_ns', sql: 'TIMESTAMP_NS', val: 'make_timestamp_ns(K * 7919000011003 - 4000000000000000000)',
    ext: ['make_timestamp_ns(-9000000000000000000)', 'make_timestamp_ns(9000000000000000000)', 'make_timestamp_ns(-1)'] },
  { name: 'tstz_us', sql: 'TIMESTAMPTZ', val: 'make_timestamp(K * 7919000011 - 4000000000000000)',
    ext: ["'0001-01-01 00:00:00+00'", "'9999-12-31 23:59:59.999999+00'", "'1969-12-31 23:59:59.999999+00'"] },
  // Polars has no UUID type (it reads FLBA(16) UUID as binary).
  { name: 'uuid', sql: 'UUID', val: 'md5(K::VARCHAR)::UUID', polars: false,
    ext: ["'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"] },
];

function decimalFromUnscaled(scale, u, type) {
  // sign, integer part, '.', fraction padded to the scale; u is a HUGEINT expression
  return `(CASE WHEN (${u}) < 0 THEN '-' ELSE '' END || (abs(${u}) // ${10n ** BigInt(scale)})::VARCHAR || '.' || ` +
    `lpad((abs(${u}) % ${10n ** BigInt(scale)})::VARCHAR, ${scale}, '0'))::${type}`;
}

function valueSql(t, k) {
  if (t.dec) return decimalFromUnscaled(t.dec[0], t.dec[1].replaceAll('K', `(${k})`), t.sql);
  return `(${t.val.replaceAll('K', `(${k})`)})::${t.sql}`;
}

// Row i: kh is spread over 0..1000002 (high cardinality), kl over 0..96 (low cardinality).
const SOME_NULL = '(i % 7 = 3 OR i BETWEEN 1000 AND 3099)';

export function sourceSql() {
  const cols = [];
  for (const t of TYPES) {
    const ext = t.ext.map((e, r) => `WHEN ${r} THEN (${e})::${t.sql}`).join(' ');
    cols.push(`CASE i ${ext} ELSE ${valueSql(t, 'kh')} END AS ${t.name}_none`);
    cols.push(`CASE WHEN ${SOME_NULL} THEN NULL ELSE ${valueSql(t, 'kl')} END AS ${t.name}_some`);
    cols.push(`NULL::${t.sql} AS ${t.name}_all`);
  }
  // A struct of a struct, holding a list; nulls at every level (struct, inner struct, leaf,
  // list, list element) at different periods.
  cols.push(`CASE WHEN i % 11 = 5 THEN NULL ELSE {
      'a': CASE WHEN i % 17 = 7 THEN NULL ELSE (kh % 100000 - 50000)::INTEGER END,
      'b': CASE WHEN i % 13 = 6 THEN NULL ELSE {
             'c': CASE WHEN i % 19 = 2 THEN NULL ELSE 'c' || kl::VARCHAR END,
             'd': CASE WHEN i % 17 = 8 THEN NULL ELSE (kh / 3.0)::DOUBLE END} END,
      'tags': CASE WHEN i % 5 = 1 THEN NULL
                   ELSE list_transform(range(i % 4), x -> CASE WHEN x = 2 THEN NULL ELSE 't' || (kl + x)::VARCHAR END) END
    } END AS s`);
  // Fixed-size lists: every row a non-null list, so pqt reads vectors (width 3 and 4).
  cols.push(`[(kh % 1000) / 4.0, CASE WHEN i % 19 = 4 THEN NULL ELSE -kl / 8.0 END, i / 16.0]::FLOAT[3] AS f3`);
  cols.push(`[i, -i, kh, kl - 48]::INTEGER[4] AS i4`);
  // The same shape with null rows: a list column, not a vector.
  // (DuckDB's CASE cannot produce an ARRAY, hence the cast after it.)
  cols.push(`(CASE WHEN i % 23 = 9 THEN NULL ELSE [kl / 2.0, i, -kh]::FLOAT[] END)::FLOAT[3] AS f3n`);
  // Variable lists: null lists, empty lists, null elements, lengths 0..5.
  cols.push(`CASE WHEN i % 9 = 2 THEN NULL WHEN i % 9 = 4 THEN []::INTEGER[]
      ELSE list_transform(range(i % 6), x -> CASE WHEN (x + i) % 10 = 0 THEN NULL ELSE (kh + x * 1000)::INTEGER END) END AS il`);
  cols.push(`CASE WHEN i % 8 = 3 THEN NULL WHEN i % 8 = 5 THEN []::VARCHAR[]
      ELSE list_transform(range(i % 5), x -> CASE WHEN (x + i) % 7 = 0 THEN NULL ELSE 'e' || (kl * x)::VARCHAR END) END AS sl`);
  return `SELECT ${cols.join(',\n  ')}
FROM (SELECT i, (i * 2654435761) % 1000003 AS kh, (i * 37) % 97 AS kl FROM range(${NROWS}) r(i))
ORDER BY i`;
}
