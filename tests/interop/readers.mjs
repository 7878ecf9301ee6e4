// readers.mjs - the reference readings of a Parquet file, rendered in the jsonl contract of
// `pqt cat --format jsonl` (tests/golden/README.md): one by DuckDB, one by Polars.
//
// Which columns appear, under which key and as which kind is decided by contract.mjs from the
// file's Parquet schema (DuckDB's parquet_schema(), metadata only); the values come from the
// reader named. Each reader returns { keys, lines, dropped }: `dropped` lists contract columns
// the reader cannot give exactly (with the reason); the comparison then leaves them out of both
// sides, so a reader's limitation is reported, not blamed on pqt.
//
// No package imports: the caller passes its DuckDB connection and its `nodejs-polars` module,
// so tests/golden/tool (own node_modules) can use these readers too.

import {
  buildTree, classify, fmtDate, fmtFloat, fmtFloat32, fmtTimeOfDay, fmtTimestamp, fmtValue, leafSql, lit,
} from './contract.mjs';

export async function contractColumns(con, file) {
  const rows = (await con.runAndReadAll(`select * from parquet_schema(${lit(file)})`)).getRowObjects();
  return classify(buildTree(rows));
}

const line = (cols, vals) => '{' + cols.map((c, i) => JSON.stringify(c.key) + ':' + vals[i]).join(',') + '}';

// ---------------------------------------------------------------------------------------------
// DuckDB: the same SQL the golden generator uses (leafSql turns every value into something JS
// prints exactly).
export async function readDuckDB(con, file, all = null) {
  if (!all) ({ cols: all } = await contractColumns(con, file));
  const dropped = [];
  const cols = all.filter((c) => {
    // DuckDB has no nanosecond TIMESTAMP WITH TIME ZONE: it reads TIMESTAMP(NANOS, UTC) as
    // microseconds, losing the last three digits.
    if (c.kind === 'timestamp' && c.unit === 'ns' && c.utc) {
      dropped.push({ key: c.key, why: 'DuckDB reads TIMESTAMP(NANOS, isAdjustedToUTC) as microseconds' });
      return false;
    }
    return true;
  });
  const expr = (c, i) => (c.list
    ? `list_transform(${c.sql}, x -> ${leafSql(c, 'x')}) AS c${i}`
    : `${leafSql(c, c.sql)} AS c${i}`);
  const sql = `select ${cols.length ? cols.map(expr).join(', ') : '1 AS dummy'} from read_parquet(${lit(file)}, binary_as_string=false)`;
  const rows = (await con.runAndReadAll(sql)).getRows();
  return { keys: cols.map((c) => c.key), lines: rows.map((r) => line(cols, cols.map((c, i) => fmtValue(c, r[i])))), dropped };
}

// ---------------------------------------------------------------------------------------------
// Polars: values are cast to strings or integers inside Polars wherever a JS number would lose
// precision (64-bit integers, decimals, time and timestamp ticks).
const TICKS = { ms: 1000000n, us: 1000n, ns: 1n }; // nanoseconds per tick

function convertTicks(t, from, to) {
  const ns = t * TICKS[from];
  // floor division: the target unit of the file is never finer than what Polars holds
  const d = TICKS[to];
  let q = ns / d;
  if (ns % d !== 0n && ns < 0n) q -= 1n;
  return q;
}

function polarsColumn(pl, df, c) {
  const parts = c.key.split('.');
  let e = pl.col(parts[0]);
  // a map's field (m.key, m.value): Polars holds the map as a list of key/value structs
  const path = c.mapField ? parts.slice(1, -1) : parts.slice(1);
  for (const p of path) e = e.struct.field(p);
  // (a key without a value comes as a plain list)
  if (c.mapField && !c.mapAlone) e = e.lst.eval(pl.element().struct.field(c.mapField));
  // Binary has no JS dtype at all: cast inside Polars first (strict: bytes that are not UTF-8 fail)
  if (c.kind === 'binary') e = e.cast(c.list ? pl.List(pl.Utf8) : pl.Utf8);
  const raw = df.select(e.alias('v')).getColumn('v');
  let inner = raw.dtype;
  if (c.list) inner = inner.inner ?? inner.variant; // List / FixedSizeList element type
  const cast = (dt) => (c.list ? raw.cast(pl.List(dt)) : raw.cast(dt));
  let vals, fmt;
  switch (c.kind) {
    case 'int':
      vals = cast(pl.Utf8).toArray();
      fmt = (v) => { if (!/^-?\d+$/.test(v)) throw new Error(`${c.key}: not an integer: ${v}`); return v; };
      break;
    case 'decimal': // Polars prints the exact decimal; Number() gives the nearest double
      vals = cast(pl.Utf8).toArray();
      fmt = (v) => fmtFloat(Number(v));
      break;
    case 'float': // float32 columns print as float32 (the contract's fmtFloat32)
      vals = cast(pl.Float64).toArray();
      fmt = c.f32 ? fmtFloat32 : fmtFloat;
      break;
    case 'bool':
      vals = raw.toArray();
      fmt = (v) => (v ? 'true' : 'false');
      break;
    case 'string':
      vals = raw.toArray();
      fmt = (v) => JSON.stringify(v);
      break;
    case 'binary': // no JS conversion of Binary: through Utf8 (strict: fails on bytes that are
      // not UTF-8), whose UTF-8 encoding gives the same bytes back
      vals = raw.toArray();
      fmt = (v) => JSON.stringify(Buffer.from(v, 'utf8').toString('base64'));
      break;
    case 'date':
      vals = cast(pl.Int32).toArray();
      fmt = (v) => JSON.stringify(fmtDate(v));
      break;
    case 'time': // Polars holds times as nanoseconds since midnight
      vals = cast(pl.Int64).cast(c.list ? pl.List(pl.Utf8) : pl.Utf8).toArray();
      fmt = (v) => JSON.stringify(fmtTimeOfDay(convertTicks(BigInt(v), 'ns', c.unit), c.unit));
      break;
    case 'timestamp': {
      const unit = (c.list ? inner : raw.dtype).timeUnit;
      if (!TICKS[unit]) throw new Error(`${c.key}: Polars dtype ${raw.dtype} has no time unit`);
      vals = cast(pl.Int64).cast(c.list ? pl.List(pl.Utf8) : pl.Utf8).toArray();
      fmt = (v) => JSON.stringify(fmtTimestamp(convertTicks(BigInt(v), unit, c.unit), c.unit, c.utc));
      break;
    }
    default:
      return null; // uuid: Polars reads FLBA(16) UUID as binary
  }
  const one = (v) => (v === null || v === undefined ? 'null' : fmt(v));
  if (!c.list) return vals.map(one);
  return vals.map((l) => (l === null || l === undefined ? 'null' : '[' + Array.from(l, one).join(',') + ']'));
}

// `all`: the contract columns (contractColumns), or null to ask DuckDB's parquet_schema().
export async function readPolars(pl, con, file, all = null) {
  if (!all) ({ cols: all } = await contractColumns(con, file));
  const dropped = [];
  // Polars cannot even list a binary column, so read only the columns it holds a type for.
  const cols = all.filter((c) => {
    if (c.kind === 'uuid') {
      dropped.push({ key: c.key, why: 'Polars reads FLBA(16) UUID as binary' });
      return false;
    }
    return true;
  });
  const top = [...new Set(cols.map((c) => c.key.split('.')[0]))];
  const df = pl.readParquet(file, { columns: top, parallel: 'none' });
  const columns = cols.map((c) => polarsColumn(pl, df, c));
  const lines = [];
  for (let r = 0; r < df.height; r++) lines.push(line(cols, columns.map((v) => v[r])));
  return { keys: cols.map((c) => c.key), lines, dropped };
}
