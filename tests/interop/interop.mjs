#!/usr/bin/env node
// interop.mjs - the interop matrix behind `make interop` (run through tests/interop/run.sh).
//
//   node interop.mjs --pqt PATH [--dir DIR] [--jobs N] [--only REGEX] [--regen]
//
// Writes one table (source.mjs: every scalar type with no / some / all nulls, a nested struct,
// fixed-size and variable lists; 10,000 rows) into Parquet files with DuckDB and with Polars
// under a grid of writer options, then checks `pqt cat FILE --format jsonl` against the writing
// tool's own reading of the file and against the other tool's reading (DuckDB files read by
// DuckDB and by Polars, Polars files by Polars and by DuckDB), compared by
// tests/golden/compare.py. The files and the reference readings are cached in DIR (default
// /tmp/pqt-interop) under a stamp of the scripts and the pinned packages; pqt runs every time.
//
// The grid (every file holds every type, so every type meets every codec):
//   DuckDB: 6 codecs x a half fraction of {dictionary on/off} x {page format V1/V2} x {row
//           groups of ~1000 rows / one group}: each pair of those three options occurs in
//           every combination once per codec.                                        24 files
//   Polars: 6 codecs x {1000-row groups, no statistics / one group, 4 KiB pages, full
//           statistics}.                                                             12 files
// Writer options that could not be varied are listed in README.md.

import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NROWS, TYPES, sourceSql } from './source.mjs';
import { readDuckDB, readPolars } from './readers.mjs';
import { lit } from './contract.mjs';
import { pageCensus } from './pages.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const COMPARE_PY = path.resolve(HERE, '../golden/compare.py');

// ---------------------------------------------------------------------------------------------
// Arguments
let pqt = null, dir = process.env.PQT_INTEROP_DIR || '/tmp/pqt-interop', only = null, regen = false;
let jobs = Math.max(1, os.availableParallelism ? os.availableParallelism() : os.cpus().length);
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--pqt') pqt = path.resolve(a[++i]);
    else if (a[i] === '--dir') dir = path.resolve(a[++i]);
    else if (a[i] === '--jobs') jobs = parseInt(a[++i], 10);
    else if (a[i] === '--only') only = new RegExp(a[++i]);
    else if (a[i] === '--regen') regen = true;
    else { console.error(`interop: unknown argument ${a[i]}`); process.exit(2); }
  }
  if (!pqt || !fs.existsSync(pqt)) { console.error(`interop: pqt not found (--pqt ${pqt})`); process.exit(2); }
}

// ---------------------------------------------------------------------------------------------
// The grid
const CODECS = [ // [DuckDB COMPRESSION, Polars compression]; DuckDB's and Polars' 'lz4' is LZ4_RAW
  ['uncompressed', 'uncompressed'], ['snappy', 'snappy'], ['zstd', 'zstd'], ['gzip', 'gzip'],
  ['lz4', 'lz4'], ['brotli', 'brotli'],
];
// Half fraction of dictionary x page format x row groups: every pair of levels appears once.
const DUCK_COMBOS = [
  { dict: true, version: 'V1', rg: 'all' }, { dict: true, version: 'V2', rg: 1000 },
  { dict: false, version: 'V1', rg: 1000 }, { dict: false, version: 'V2', rg: 'all' },
];
const POLARS_COMBOS = [
  { rg: 1000, page: null, stats: false },
  { rg: 'all', page: 4096, stats: 'full' },
];

const configs = [];
for (const [dc, pc] of CODECS) {
  for (const o of DUCK_COMBOS) {
    const name = `duckdb_${dc}_${o.dict ? 'dict' : 'nodict'}_${o.version.toLowerCase()}_rg${o.rg}.parquet`;
    // DICTIONARY_SIZE_LIMIT 0 is how DuckDB 1.5 turns dictionaries off (there is no on/off switch).
    const opts = [`FORMAT parquet`, `COMPRESSION ${dc}`, `PARQUET_VERSION ${o.version}`,
      `ROW_GROUP_SIZE ${o.rg === 'all' ? NROWS * 10 : o.rg}`];
    if (!o.dict) opts.push('DICTIONARY_SIZE_LIMIT 0');
    configs.push({ name, writer: 'duckdb', codec: dc, dict: o.dict ? 'on' : 'off', pages: o.version,
      rg: o.rg, opts, readers: ['duckdb', 'polars'] });
  }
  for (const o of POLARS_COMBOS) {
    const name = `polars_${pc}_rg${o.rg}${o.page ? `_page${o.page}` : ''}${o.stats ? '' : '_nostats'}.parquet`;
    const opts = { compression: pc, rowGroupSize: o.rg === 'all' ? NROWS * 10 : o.rg, statistics: o.stats };
    if (o.page) opts.dataPagesizeLimit = o.page;
    configs.push({ name, writer: 'polars', codec: pc, dict: 'auto', pages: o.page ? `${o.page}B` : 'default',
      rg: o.rg, opts, readers: ['polars', 'duckdb'] });
  }
}
const selected = configs.filter((c) => !only || only.test(c.name));

// ---------------------------------------------------------------------------------------------
// Cache: the files and reference readings stay valid while the scripts and packages do.
function stamp() {
  const h = crypto.createHash('sha256');
  for (const f of ['interop.mjs', 'source.mjs', 'readers.mjs', 'contract.mjs', 'package-lock.json'])
    h.update(fs.readFileSync(path.join(HERE, f)));
  return h.digest('hex').slice(0, 16);
}
const STAMP = stamp();
const cacheDir = path.join(dir, STAMP);
if (regen) fs.rmSync(cacheDir, { recursive: true, force: true });
fs.mkdirSync(cacheDir, { recursive: true });
for (const old of fs.readdirSync(dir)) // older stamps are stale
  if (old !== STAMP && /^[0-9a-f]{16}$/.test(old)) fs.rmSync(path.join(dir, old), { recursive: true, force: true });
for (const old of fs.readdirSync(dir)) // pqt outputs kept from an earlier failed run
  if (old.startsWith('run-')) fs.rmSync(path.join(dir, old), { recursive: true, force: true });
const runDir = fs.mkdtempSync(path.join(dir, 'run-'));

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
await con.run("SET TimeZone='UTC'"); // TIMESTAMPTZ and TIMETZ values do not depend on the host
const t0 = Date.now();
const ms = () => ((Date.now() - t0) / 1000).toFixed(1) + 's';

// ---------------------------------------------------------------------------------------------
// Write the files (only those missing from the cache).
const missing = selected.filter((c) => !fs.existsSync(path.join(cacheDir, c.name)));
if (missing.length) {
  console.log(`interop: writing ${missing.length} files into ${cacheDir}`);
  await con.run(`CREATE TABLE src AS ${sourceSql()}`);
  const seed = path.join(cacheDir, 'seed.parquet');
  let seedDf = null;
  for (const c of missing) {
    const out = path.join(cacheDir, c.name);
    const tmp = out + '.tmp';
    if (c.writer === 'duckdb') {
      await con.run(`COPY src TO ${lit(tmp)} (${c.opts.join(', ')})`);
    } else {
      if (!seedDf) {
        // Polars takes the same values from a DuckDB-written file and adds what DuckDB cannot
        // write: millisecond and nanosecond UTC timestamps, and fixed-size lists as Polars
        // Arrays (Parquet has no fixed-size list; both are LISTs on disk).
        await con.run(`COPY src TO ${lit(seed)} (FORMAT parquet, COMPRESSION uncompressed)`);
        const cols = [];
        for (const t of TYPES) if (t.polars !== false) for (const v of ['none', 'some', 'all']) cols.push(`${t.name}_${v}`);
        cols.push('s', 'f3', 'i4', 'f3n', 'il', 'sl');
        seedDf = pl.readParquet(seed, { columns: cols, parallel: 'none' });
        const extra = [];
        for (const u of ['ms', 'ns'])
          for (const v of ['none', 'some', 'all'])
            extra.push(pl.col(`ts_${u}_${v}`).cast(pl.Datetime(u, 'UTC')).alias(`tstz_${u}_${v}`));
        seedDf = seedDf.withColumns(
          ...extra,
          pl.col('f3').cast(pl.FixedSizeList(pl.Float32, 3)),
          pl.col('i4').cast(pl.FixedSizeList(pl.Int32, 4)),
          pl.col('f3n').cast(pl.FixedSizeList(pl.Float32, 3)),
        );
      }
      seedDf.lazy().sinkParquet(tmp, { ...c.opts, maintainOrder: true }).collectSync();
    }
    fs.renameSync(tmp, out);
  }
  console.log(`interop: written (${ms()})`);
}

// Facts about each file from its footer, for the matrix.
for (const c of selected) {
  const f = path.join(cacheDir, c.name);
  const r = (await con.runAndReadAll(`select count(distinct row_group_id)::INTEGER g, ` +
    `string_agg(distinct compression, ',' order by compression) codecs, ` +
    `string_agg(distinct encodings, ',' order by encodings) enc from parquet_metadata(${lit(f)})`)).getRowObjects()[0];
  c.groups = r.g;
  c.codecs = r.codecs;
  c.encodings = [...new Set(r.enc.split(',').map((s) => s.trim()).filter(Boolean))].sort().join(',');
  const pages = await pageCensus(con, f);
  c.pageTypes = ['dict', 'v1', 'v2'].filter((t) => pages[t]).map((t) => `${t}:${pages[t]}`).join(' ');
}

// ---------------------------------------------------------------------------------------------
// Reference readings (cached as <file>.<reader>.json: keys, dropped columns, lines).
const READERS = { duckdb: (f) => readDuckDB(con, f), polars: (f) => readPolars(pl, con, f) };
const checks = [];
for (const c of selected) {
  for (const rd of c.readers) {
    const ref = path.join(cacheDir, `${c.name}.${rd}.jsonl`);
    const meta = ref.replace(/\.jsonl$/, '.json');
    if (!fs.existsSync(meta)) {
      const { keys, lines, dropped } = await READERS[rd](path.join(cacheDir, c.name));
      fs.writeFileSync(ref, lines.map((l) => l + '\n').join(''));
      fs.writeFileSync(meta, JSON.stringify({ keys, dropped, rows: lines.length }));
    }
    checks.push({ config: c, reader: rd, ref, ...JSON.parse(fs.readFileSync(meta, 'utf8')) });
  }
}
console.log(`interop: ${checks.length} reference readings ready (${ms()})`);

// ---------------------------------------------------------------------------------------------
// pqt against each reading, `jobs` at a time.
function run(cmd, args, outFile) {
  return new Promise((resolve) => {
    const fd = outFile ? fs.openSync(outFile, 'w') : null;
    const p = spawn(cmd, args, { stdio: ['ignore', fd ?? 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    if (p.stdout) p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (code) => { if (fd !== null) fs.closeSync(fd); resolve({ code, stdout, stderr }); });
  });
}

async function check(k, i) {
  const file = path.join(cacheDir, k.config.name);
  const act = path.join(runDir, `${i}.pqt.jsonl`);
  const args = ['cat', file, '--format', 'jsonl'];
  // With columns dropped for the reader, ask pqt for exactly the reader's columns.
  if (k.dropped.length) args.push('--columns', k.keys.join(','));
  const p = await run(pqt, args, act);
  if (p.code !== 0) {
    k.ok = false;
    k.first = `pqt exited ${p.code}: ${p.stderr.trim().split('\n')[0]}`;
    return;
  }
  const cmp = await run('python3', [COMPARE_PY, k.ref, act]);
  k.ok = cmp.code === 0;
  if (!k.ok) k.first = (cmp.stdout + cmp.stderr).trim().split('\n').slice(0, 3).join('\n      ');
  else fs.rmSync(act);
}

let next = 0;
await Promise.all(Array.from({ length: Math.min(jobs, checks.length) }, async () => {
  while (next < checks.length) { const i = next++; await check(checks[i], i); }
}));

// ---------------------------------------------------------------------------------------------
// The matrix
const pad = (s, w) => String(s).padEnd(w);
const cols = [['file', 46], ['codec', 13], ['dict', 5], ['pages', 8], ['rgs', 4], ['vs duckdb', 10], ['vs polars', 10],
  ['page headers', 24], ['encodings', 0]];
console.log('\n' + cols.map(([h, w]) => pad(h, w)).join(''));
for (const c of selected) {
  const res = (rd) => {
    const k = checks.find((x) => x.config === c && x.reader === rd);
    return k ? (k.ok ? 'pass' : 'FAIL') : '-';
  };
  console.log([c.name, c.codecs, c.dict, c.pages, c.groups, res('duckdb'), res('polars'), c.pageTypes, c.encodings]
    .map((v, i) => pad(v, cols[i][1])).join(''));
}
const dropped = new Map();
for (const k of checks) for (const d of k.dropped) dropped.set(`${k.reader}: ${d.key} (${d.why})`, (dropped.get(`${k.reader}: ${d.key} (${d.why})`) || 0) + 1);
if (dropped.size) {
  console.log('\ncolumns left out of a comparison (the reference reader cannot give them exactly):');
  for (const [d, n] of dropped) console.log(`  ${d}: ${n} files`);
}
const failed = checks.filter((k) => !k.ok);
if (failed.length) {
  console.log('\nfailures (first difference; rows 0-based):');
  for (const k of failed) console.log(`  ${k.config.name} vs ${k.reader}:\n      ${k.first}`);
  console.log(`\npqt outputs of the failures are kept in ${runDir}`);
} else fs.rmSync(runDir, { recursive: true, force: true });
const ncols = checks.length ? Math.max(...checks.map((k) => k.keys.length)) : 0;
console.log(`\ninterop: ${selected.length} files (${NROWS} rows, up to ${ncols} columns), ${checks.length} comparisons, ` +
  `${checks.length - failed.length} passed, ${failed.length} failed (${ms()})`);
process.exit(failed.length ? 1 : 0);
