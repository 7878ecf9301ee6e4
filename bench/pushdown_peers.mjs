// pushdown_peers.mjs - DuckDB or Polars on every pushdown case (pushdown_scenarios.mjs).
//
//   node bench/pushdown_peers.mjs --engine duckdb --threads T --dir DATA/pd<N> --n N [--runs 5]
//   POLARS_MAX_THREADS=T node bench/pushdown_peers.mjs --engine polars --dir ... --n N
//
// One JSON line per case (Polars: per case and Polars engine, in-memory and streaming). Each
// timed run opens the file afresh (DuckDB: read_parquet in the query, metadata and file caches
// off; Polars: scanParquet + collectSync) and computes the case's checksum.
import path from 'node:path';
import { loadPeer, parseArgs, emit, errorText, stats, valuesAgree } from './lib.mjs';
import { selectedCases, sqlCond, sqlChecksum, polarsCond, polarsChecksum } from './pushdown_scenarios.mjs';

const args = parseArgs(process.argv.slice(2));
const engine = args.engine;
const runs = Number(args.runs ?? 5);
const n = Number(args.n);
const dir = path.resolve(args.dir);
// A sum over no row is NULL in SQL and 0 in Polars: 0 here, as pqt gives.
const toNum = (v) => (typeof v === 'bigint' ? Number(v) : v === null || v === undefined ? 0 : Number(v));
const fileOf = (c) => path.join(dir, `${c.file}.parquet`);

// Warm-up, then `runs` timed runs: wall clock and the process's CPU time (every thread), the
// steadier measure on a shared machine. Every run must give the warm-up's answer.
async function timeBoth(fn) {
  const first = await fn();
  const wall = [];
  const cpu = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const v = await fn();
    wall.push(performance.now() - t0);
    const dc = process.cpuUsage(c0);
    cpu.push((dc.user + dc.system) / 1000);
    if (!valuesAgree(first, v)) throw new Error(`answer changed between runs: ${JSON.stringify(first)} vs ${JSON.stringify(v)}`);
  }
  const c = stats(cpu);
  return { values: first, times_ms: wall, cpu_ms: cpu, ...stats(wall), cpu_median: c.median, cpu_min: c.min, cpu_max: c.max };
}

if (engine === 'duckdb') {
  const threads = Number(args.threads ?? 1);
  const { DuckDBInstance } = loadPeer('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`SET threads = ${threads}`);
  await conn.run('SET parquet_metadata_cache = false');
  try {
    await conn.run('SET enable_external_file_cache = false');
  } catch {
    // older DuckDB: no such cache
  }
  for (const c of selectedCases(n)) {
    if (c.pqtOnly) continue;
    const rec = { engine: 'duckdb', case: c.id, threads };
    try {
      const where = c.where.length ? ` WHERE ${c.where.map(sqlCond).join(' AND ')}` : '';
      const sql = `SELECT ${sqlChecksum(c.cols)} FROM read_parquet('${fileOf(c)}')${where}`;
      rec.sql = sql;
      Object.assign(rec, await timeBoth(async () => (await conn.runAndReadAll(sql)).getRows()[0].map(toNum)));
    } catch (e) {
      rec.error = errorText(e);
    }
    emit(rec);
  }
} else if (engine === 'polars') {
  const threads = Number(process.env.POLARS_MAX_THREADS || 0);
  if (!threads) {
    console.error('pushdown_peers: set POLARS_MAX_THREADS');
    process.exit(2);
  }
  const pl = loadPeer('nodejs-polars');
  for (const c of selectedCases(n)) {
    if (c.pqtOnly) continue;
    for (const mode of ['in-memory', 'streaming']) {
      const rec = { engine: 'polars', mode, case: c.id, threads };
      try {
        const once = () => {
          let lf = pl.scanParquet(fileOf(c));
          if (c.where.length) lf = lf.filter(c.where.map((w) => polarsCond(pl, w)).reduce((a, b) => a.and(b)));
          return lf.select(...polarsChecksum(pl, c.cols)).collectSync({ engine: mode }).row(0).map(toNum);
        };
        Object.assign(rec, await timeBoth(once));
      } catch (e) {
        rec.error = errorText(e);
      }
      emit(rec);
    }
  }
} else {
  console.error('pushdown_peers: --engine duckdb|polars');
  process.exit(2);
}
