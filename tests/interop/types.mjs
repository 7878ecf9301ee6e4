#!/usr/bin/env node
// types.mjs - a `pqt copy` keeps the source's schema (issue 14, CLI paragraph): DuckDB and
// Polars must see the same types in the copy as in the original, and the same values.
//
//   node types.mjs --pqt PATH [--dir DIR]
//
// Sources: tests/data/make_write_types.mjs run here with DuckDB (narrow and unsigned
// integers, DECIMAL on INT32 / INT64 / FIXED_LEN_BYTE_ARRAY, UUID, JSON, ENUM, DATE, TIME us /
// ns, TIMESTAMP s / ms / us / ns and UTC, a struct, a list, key-value metadata), and a
// Polars-written table (Int8..UInt64, Datetime ms / us / ns with and without a UTC zone,
// Date, List, REQUIRED columns where Polars writes them so). Each is copied whole and with
// --where/--sort. Checked for every column: DuckDB's DESCRIBE type, parquet_schema() (physical
// type, length, repetition, converted and logical type, precision, scale), Polars' dtype, and
// the values through both (DuckDB: the row multisets; Polars: row by row). The key-value
// metadata must come through. The struct is a struct in the copy too (structs.mjs checks
// struct nulls at every level).

import { copySetup } from './written_setup.mjs';
import pl from 'nodejs-polars';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

const { pqt, work, con } = await copySetup('types');

const failures = [];
const lit = (s) => "'" + s.replace(/'/g, "''") + "'";
const qid = (s) => '"' + s.replace(/"/g, '""') + '"';
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjects();
const text = (v) => (v === null || v === undefined ? 'null' : typeof v === 'object' ? JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x)) : String(v));

// Source 1: DuckDB, through the unit test's own generator.
const duck = path.join(work, 'duckdb_types.parquet');
{
  const r = spawnSync('node', [path.join(ROOT, 'tests/data/make_write_types.mjs'), duck],
    { encoding: 'utf8', env: { ...process.env, NODE_PATH: path.join(HERE, 'node_modules') } });
  if (r.status !== 0) { console.error(`types: the DuckDB source failed: ${r.stderr}`); process.exit(1); }
}

// Source 2: Polars.
const polarsSrc = path.join(work, 'polars_types.parquet');
{
  const n = 50;
  const idx = Array.from({ length: n }, (_, i) => i);
  const some = (f) => idx.map((i) => (i % 7 === 3 ? null : f(i)));
  const ts = (i) => new Date(Date.UTC(2020, 1, 29, 12, 0, 0) + i * 86399123);
  let df = pl.DataFrame({
    i: pl.Series('i', idx, pl.Int64),
    i8: pl.Series('i8', some((i) => (i === 0 ? -128 : i === 1 ? 127 : i - 25)), pl.Int8),
    i16: pl.Series('i16', some((i) => (i === 0 ? -32768 : i === 1 ? 32767 : (i - 25) * 1000)), pl.Int16),
    u8: pl.Series('u8', some((i) => (i === 1 ? 255 : i * 5)), pl.UInt8),
    u16: pl.Series('u16', some((i) => (i === 1 ? 65535 : i * 1300)), pl.UInt16),
    u32: pl.Series('u32', some((i) => (i === 1 ? 4294967295 : i * 80000000)), pl.UInt32),
    u64: pl.Series('u64', some((i) => (i === 1 ? 18446744073709551615n : BigInt(i) * 300000000000000000n)), pl.UInt64),
    dt: pl.Series('dt', some((i) => new Date(Date.UTC(1999, 11, 31) + (i - 20) * 86400000 * 37)), pl.Date),
    ts: pl.Series('ts', some(ts), pl.Datetime('ms')),
    s: pl.Series('s', some((i) => 'r' + 'é'.repeat(i % 4) + i), pl.Utf8),
    f64: pl.Series('f64', some((i) => i / 8), pl.Float64),
    b: pl.Series('b', some((i) => i % 3 === 0), pl.Bool),
    li: pl.Series('li', some((i) => idx.slice(0, i % 4)), pl.List(pl.Int32)),
  });
  df = df.withColumns(
    pl.col('ts').cast(pl.Datetime('ms')).alias('ts_ms'),
    pl.col('ts').cast(pl.Datetime('us')).alias('ts_us'),
    pl.col('ts').cast(pl.Datetime('ns')).alias('ts_ns'),
    pl.col('ts').cast(pl.Datetime('ms', 'UTC')).alias('ts_ms_utc'),
    pl.col('ts').cast(pl.Datetime('us', 'UTC')).alias('ts_us_utc'),
    pl.col('ts').cast(pl.Datetime('ns', 'UTC')).alias('ts_ns_utc'),
  ).drop('ts');
  df.writeParquet(polarsSrc, { compression: 'zstd' });
}

const copies = [];
for (const src of [duck, polarsSrc]) {
  const stem = path.basename(src, '.parquet');
  copies.push({ src, out: path.join(work, `${stem}.copy.parquet`), args: [] });
  copies.push({ src, out: path.join(work, `${stem}.where_sort.parquet`), args: ['--where', 'i >= 5', '--sort', '-i'],
    where: 'i >= 5' });
}

// DuckDB's view of a file's columns, with the struct st replaced by its leaves st.a, st.b.
async function duckColumns(file) {
  const d = await rows(`DESCRIBE SELECT * FROM read_parquet(${lit(file)})`);
  const out = [];
  for (const c of d) {
    const m = /^STRUCT\((.*)\)$/.exec(c.column_type);
    if (m) {
      for (const f of m[1].split(/, (?![^(]*\))/)) {
        const [name, ...type] = f.split(' ');
        out.push({ name: `${c.column_name}.${name}`, type: type.join(' '), sql: `${qid(c.column_name)}.${qid(name)}` });
      }
    } else out.push({ name: c.column_name, type: c.column_type, sql: qid(c.column_name) });
  }
  return out;
}

// parquet_schema() by leaf name (struct leaves under their dotted path, the nodes of a LIST
// under list/...), root and struct groups left out. A LIST group's ListType() logical
// annotation is dropped: pqt writes it beside the converted type LIST, which DuckDB writes
// alone (the same annotation, by the format's compatibility rules).
async function parquetSchema(file) {
  const r = await rows(`SELECT name, type, type_length, repetition_type, converted_type, scale, precision, ` +
    `logical_type, num_children FROM parquet_schema(${lit(file)})`);
  const out = new Map();
  const stack = [];
  for (let k = 1; k < r.length; k++) {
    while (stack.length && stack[stack.length - 1].left === 0) stack.pop();
    const parent = stack.length ? stack[stack.length - 1] : null;
    if (parent) parent.left--;
    const e = r[k];
    const nkids = Number(e.num_children ?? 0);
    const name = !parent ? e.name : parent.kind === 'struct' ? `${parent.name}.${e.name}` : `${parent.name}/${e.name}`;
    const isList = e.converted_type === 'LIST' || e.converted_type === 'MAP' || /^(List|Map)Type/.test(text(e.logical_type));
    const kind = isList ? 'list' : parent && parent.kind !== 'struct' ? 'inner' : 'struct';
    if (nkids > 0) stack.push({ name, left: nkids, kind });
    if (nkids > 0 && kind === 'struct') continue;
    const lt = isList ? null : e.logical_type;
    out.set(name, [e.type, e.type_length, e.repetition_type, e.converted_type, e.scale, e.precision, lt].map(text).join(' '));
  }
  return out;
}

let nchecked = 0;
for (const c of copies) {
  const name = path.basename(c.out);
  const p = spawnSync(pqt, ['copy', c.src, c.out, ...c.args], { encoding: 'utf8' });
  if (p.status !== 0) { failures.push(`${name}: pqt copy exited ${p.status}: ${p.stderr.trim()}`); continue; }
  // types through DuckDB
  const a = await duckColumns(c.src), b = await duckColumns(c.out);
  const an = a.map((x) => `${x.name} ${x.type}`).join(', '), bn = b.map((x) => `${x.name} ${x.type}`).join(', ');
  if (an !== bn) failures.push(`${name}: DuckDB DESCRIBE differs:\n    source ${an}\n    copy   ${bn}`);
  const sa = await parquetSchema(c.src), sb = await parquetSchema(c.out);
  for (const [k, v] of sa) {
    if (sb.get(k) !== v) failures.push(`${name}: parquet_schema() of ${k}: source ${v}, copy ${sb.get(k)}`);
    nchecked++;
  }
  // every key-value entry of the source is in the copy (but ARROW:schema, which describes the
  // source's columns; pqt adds its own entries beside them)
  const kv = async (f) => (await rows(`SELECT decode(key) k, decode(value) v FROM parquet_kv_metadata(${lit(f)}) ` +
    `WHERE decode(key) <> 'ARROW:schema' ORDER BY k`)).map((r) => `${r.k}=${r.v}`);
  const kb = new Set(await kv(c.out));
  for (const e of await kv(c.src)) if (!kb.has(e)) failures.push(`${name}: key-value entry ${e} is not in the copy`);
  // values through DuckDB: the same multiset of rows
  const selA = a.map((x) => `${x.sql} AS ${qid(x.name)}`).join(', ');
  const selB = b.map((x) => `${x.sql} AS ${qid(x.name)}`).join(', ');
  const srcRows = `SELECT ${selA} FROM read_parquet(${lit(c.src)})${c.where ? ' WHERE ' + c.where : ''}`;
  const cpRows = `SELECT ${selB} FROM read_parquet(${lit(c.out)})`;
  const diff = await rows(`SELECT count(*)::INTEGER n FROM ((${srcRows} EXCEPT ALL ${cpRows}) UNION ALL (${cpRows} EXCEPT ALL ${srcRows}))`);
  const cnt = await rows(`SELECT (SELECT count(*) FROM (${srcRows}))::INTEGER a, (SELECT count(*) FROM (${cpRows}))::INTEGER b`);
  if (diff[0].n !== 0 || cnt[0].a !== cnt[0].b)
    failures.push(`${name}: DuckDB reads ${diff[0].n} differing rows (${cnt[0].a} vs ${cnt[0].b} rows)`);
  // Polars: dtypes and values, row by row (the copy's order: the --sort one reversed back)
  try {
    // Polars cannot read a FIXED_LEN_BYTE_ARRAY UUID at all
    const top = (await rows(`DESCRIBE SELECT * FROM read_parquet(${lit(c.src)})`)).map((x) => x.column_name)
      .filter((k) => k !== 'u');
    let da = pl.readParquet(c.src, { columns: top });
    const db = pl.readParquet(c.out, { columns: top });
    if (c.where) da = da.filter(pl.col('i').gtEq(5)).sort('i', true);
    // nodejs-polars hands no Decimal or Binary (JSON) to JS, and cannot even name a Binary
    // dtype: those are compared as text
    const dtype = (d) => { try { return String(d.getColumn(k_).dtype); } catch (e) { return 'Binary'; } };
    let k_ = null;
    for (const k of top) {
      k_ = k;
      const ta = dtype(da), tb = dtype(db);
      if (ta !== tb) failures.push(`${name}: Polars dtype of ${k}: source ${ta}, copy ${tb}`);
      const vals = (d) => (/Decimal|Binary/.test(dtype(d)) ? d.select(pl.col(k).cast(pl.Utf8)).getColumn(k) : d.getColumn(k))
        .toArray().map(text);
      const va = vals(da), vb = vals(db);
      const bad = va.findIndex((v, r) => v !== vb[r]);
      if (va.length !== vb.length || bad >= 0)
        failures.push(`${name}: Polars values of ${k} differ at row ${bad + 1}: ${va[bad]} vs ${vb[bad]}`);
      nchecked++;
    }
  } catch (e) {
    failures.push(`${name}: Polars: ${e.message.split('\n')[0]}`);
  }
}

if (failures.length) {
  console.log('types: failures:');
  for (const f of failures) console.log('  ' + f);
}
console.log(`types: ${copies.length} copies, ${nchecked} column checks, ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
