// duckdb_runner.mjs - the DuckDB engine: every workload of workloads.mjs at one thread count.
//
//   node bench/duckdb_runner.mjs --threads T --data DIR --n N [--runs 5] [--evict BIN]
//
// --evict: BUILD/bench/pqt_evict, run on the file before the warm-up and every timed run of a
// cold workload (W1c, W3c), untimed; the record then carries `evict` (lib.mjs coldHook).
//
// Prints one JSON line per (workload, file). Each timed run is one query over
// read_parquet(file): the file is opened afresh every time (the Parquet metadata cache and
// the external file cache are switched off), only the columns the query needs are read.
import path from 'node:path';
import { loadPeer, parseArgs, timeRuns, emit, errorText, catalogueDir, memKb, resetPeak, coldHook } from './lib.mjs';
import { selectedWorkloads, selectedFiles, dataPath, duckdbSource } from './workloads.mjs';

const args = parseArgs(process.argv.slice(2));
const threads = Number(args.threads ?? 1);
const runs = Number(args.runs ?? 5);
const n = Number(args.n);
const root = path.resolve(args.data);
// --evict BIN: the pqt_evict tool, run before every run of a cold workload (W1c, W3c)
const evictBin = args.evict ? path.resolve(args.evict) : null;

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

const coldOf = (file) => {
  if (!evictBin) throw new Error('a cold workload needs --evict (pqt_evict not built?)');
  return coldHook(evictBin, file);
};
const toNum = (v) => (typeof v === 'bigint' ? Number(v) : v === null ? NaN : Number(v));

for (const w of selectedWorkloads()) {
  if (!w.duckdb) continue;
  for (const fk of selectedFiles(w)) {
    const file = dataPath(fk, root, n, catalogueDir);
    const rec = { engine: 'duckdb', workload: w.id, file: fk, threads };
    try {
      const sql = w.duckdb(duckdbSource(fk, file), { n });
      const kinds = w.cols.map((c) => c.split(':')[1]);
      const once = async () => {
        const rows = (await conn.runAndReadAll(sql)).getRows();
        return w.duckdbPost ? w.duckdbPost(rows) : rows[0].map(toNum);
      };
      const cold = w.cold ? coldOf(file) : null;
      const rss0 = resetPeak();
      Object.assign(rec, await timeRuns(once, runs, kinds, cold?.hook));
      if (cold) rec.evict = cold.log();
      Object.assign(rec, { rss_start_kb: rss0, maxrss_kb: memKb('VmHWM') });
    } catch (e) {
      rec.error = errorText(e);
    }
    emit(rec);
  }
}
