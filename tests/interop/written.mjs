#!/usr/bin/env node
// written.mjs - the other direction of the interop matrix (issue 14): files pqt WRITES, read by
// DuckDB and by Polars, value by value, plus the statistics DuckDB sees in them.
//
//   node written.mjs --pqt PATH [--dir DIR]
//
// The source table (source.mjs, 10,000 rows of every type) is written once by DuckDB; then
// `pqt copy` rewrites it under a grid: 6 codecs x data page v1/v2 x dictionary on/off, 3000-row
// groups, small pages on half of them (so chunks hold many pages), plus a --where/--sort copy.
// Each copy is read by DuckDB and by Polars and compared (tests/golden/compare.py) with the same
// reader's reading of the source, over the columns both hold under the same key. Struct leaves
// are written as top-level columns named by their dotted path, which Polars would look for
// inside a struct, so they are compared through DuckDB only. Statistics: for every row group
// and column of the zstd v1 copy, DuckDB's parquet_metadata() min/max/null_count are checked
// against DuckDB's own min()/max()/count over the rows of that group.

import pl from 'nodejs-polars';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NROWS } from './source.mjs';
import { contractColumns, readDuckDB, readPolars } from './readers.mjs';
import { lit } from './contract.mjs';
import { writtenSetup } from './written_setup.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const COMPARE_PY = path.resolve(HERE, '../golden/compare.py');

const { pqt, work, con, src } = await writtenSetup('written');

const RG = 3000;
const grid = [];
for (const codec of ['none', 'snappy', 'gzip', 'brotli', 'zstd', 'lz4_raw'])
  for (const v of [1, 2])
    for (const dict of [true, false]) {
      const args = ['--codec', codec, '--page-version', String(v), '--row-group-rows', String(RG)];
      if (!dict) args.push('--no-dictionary');
      if ((v === 2) === dict) args.push('--crc');
      grid.push({ name: `pqt_${codec}_v${v}_${dict ? 'dict' : 'nodict'}.parquet`, args });
    }
const WHERE = 'i32_none > 0';
const SORT_COLS = 'i32_none,i64_some,f64_some,str_none,str_some,date_some,ts_us_some,bool_some,uuid_none,uuid_some,f3,il,sl';
grid.push({ name: 'pqt_where_sort.parquet', args: ['--where', WHERE, '--sort', 'str_none', '--columns', SORT_COLS],
  where: WHERE, sort: 'str_none', cols: SORT_COLS });

const failures = [];
function compareLines(name, reader, refLines, actLines) {
  const ref = path.join(work, `${name}.${reader}.ref.jsonl`), act = path.join(work, `${name}.${reader}.act.jsonl`);
  fs.writeFileSync(ref, refLines.map((l) => l + '\n').join(''));
  fs.writeFileSync(act, actLines.map((l) => l + '\n').join(''));
  const r = spawnSync('python3', [COMPARE_PY, ref, act], { encoding: 'utf8' });
  if (r.status !== 0) failures.push(`${name} vs ${reader}: ${(r.stdout + r.stderr).trim().split('\n').slice(0, 3).join(' | ')}`);
  else { fs.rmSync(ref); fs.rmSync(act); }
  return r.status === 0;
}

// The reference readings of the source, per row set (the plain copy and the --where/--sort one).
async function sourceRows(reader, cols, g) {
  let file = src;
  if (g.where) {
    file = path.join(work, 'source_where_sort.parquet');
    if (!fs.existsSync(file))
      await con.run(`COPY (SELECT ${g.cols} FROM read_parquet(${lit(src)}) WHERE ${g.where} ORDER BY ${g.sort} NULLS LAST) ` +
        `TO ${lit(file)} (FORMAT parquet)`);
  }
  return reader === 'duckdb' ? readDuckDB(con, file, cols) : readPolars(pl, con, file, cols);
}

const matrix = [];
const srcCols = (await contractColumns(con, src)).cols;
for (const g of grid) {
  const out = path.join(work, g.name);
  const p = spawnSync(pqt, ['copy', src, out, ...g.args], { encoding: 'utf8' });
  const row = { name: g.name, duckdb: '-', polars: '-' };
  matrix.push(row);
  if (p.status !== 0) { failures.push(`${g.name}: pqt copy exited ${p.status}: ${p.stderr.trim()}`); continue; }
  const outCols = (await contractColumns(con, out)).cols;
  for (const reader of ['duckdb', 'polars']) {
    // the columns both files hold under one key (struct leaves only through DuckDB)
    const keys = new Set(outCols.map((c) => c.key));
    const common = srcCols.filter((c) => keys.has(c.key) && (reader === 'duckdb' || !c.key.includes('.')));
    try {
      const a = await sourceRows(reader, common, g);
      // only what the reader gave for the source (it leaves out what it cannot read exactly)
      const mine = a.keys.map((k) => outCols.find((o) => o.key === k));
      const b = reader === 'duckdb' ? await readDuckDB(con, out, mine) : await readPolars(pl, con, out, mine);
      const ka = a.keys.join(','), kb = b.keys.join(',');
      if (ka !== kb) {
        const diff = a.keys.filter((k) => !b.keys.includes(k)).concat(b.keys.filter((k) => !a.keys.includes(k)));
        failures.push(`${g.name} vs ${reader}: columns differ: ${diff.join(',')}`);
        row[reader] = 'FAIL';
        continue;
      }
      row[reader] = compareLines(g.name, reader, a.lines, b.lines) ? `pass (${a.keys.length} cols)` : 'FAIL';
    } catch (e) {
      failures.push(`${g.name} vs ${reader}: ${e.message.split('\n')[0]}`);
      row[reader] = 'FAIL';
    }
  }
}

// Statistics as DuckDB reads them, against DuckDB's aggregates over each row group's rows.
const statFile = path.join(work, 'pqt_zstd_v1_dict.parquet');
const STAT_COLS = ['i8_none', 'i16_some', 'i32_none', 'i64_none', 'i64_some', 'u8_none', 'u16_some', 'u32_none', 'u64_none',
  'str_none', 'str_some', 'str_all', 'date_none', 'date_some', 'ts_us_none', 'ts_ms_some', 'bool_some', 'i32_all'];
let nstat = 0;
if (fs.existsSync(statFile)) {
  const meta = (await con.runAndReadAll(`SELECT row_group_id::INTEGER rg, path_in_schema p, stats_min_value mn, ` +
    `stats_max_value mx, stats_null_count::BIGINT nc FROM parquet_metadata(${lit(statFile)})`)).getRowObjects();
  for (const c of STAT_COLS) {
    for (let rg = 0; rg * RG < NROWS; rg++) {
      const m = meta.find((x) => x.rg === rg && x.p === c);
      if (!m) { failures.push(`stats: no metadata for ${c} in row group ${rg}`); continue; }
      const agg = (await con.runAndReadAll(`SELECT min(${c})::VARCHAR mn, max(${c})::VARCHAR mx, ` +
        `(count(*) - count(${c}))::BIGINT nc FROM (SELECT ${c}, row_number() OVER () - 1 AS r ` +
        `FROM read_parquet(${lit(src)})) WHERE r >= ${rg * RG} AND r < ${(rg + 1) * RG}`)).getRowObjects()[0];
      const same = String(m.mn) === String(agg.mn) && String(m.mx) === String(agg.mx) && BigInt(m.nc) === BigInt(agg.nc);
      if (!same)
        failures.push(`stats: ${c} row group ${rg}: file says min=${m.mn} max=${m.mx} nulls=${m.nc}; ` +
          `the rows give min=${agg.mn} max=${agg.mx} nulls=${agg.nc}`);
      nstat++;
    }
  }
}

const pad = (s, w) => String(s).padEnd(w);
console.log('\n' + pad('file written by pqt', 34) + pad('read by duckdb', 22) + 'read by polars');
for (const r of matrix) console.log(pad(r.name, 34) + pad(r.duckdb, 22) + r.polars);
if (failures.length) {
  console.log('\nfailures:');
  for (const f of failures) console.log('  ' + f);
}
console.log(`\nwritten: ${grid.length} files written by pqt, ${matrix.length * 2} readings, ${nstat} row-group ` +
  `statistics checked, ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
