// polars_runner.mjs - the Polars engine: every workload of workloads.mjs, with both of
// Polars' engines (in-memory and streaming), at the thread count POLARS_MAX_THREADS was set to
// when this process started (bench.mjs starts one process per thread count).
//
//   POLARS_MAX_THREADS=T node bench/polars_runner.mjs --data DIR --n N [--runs 5] [--evict BIN]
//
// --evict: BUILD/bench/pqt_evict, run on the file before the warm-up and every timed run of a
// cold workload (W1c, W3c), untimed; the record then carries `evict` (lib.mjs coldHook).
//
// Prints one JSON line per (workload, file, Polars engine); the report keeps the faster engine
// and says which. Each timed run is scanParquet(file) + the query + collectSync, so the file is
// opened afresh every time and projection/predicate pushdown read only what is needed.
import path from 'node:path';
import { loadPeer, parseArgs, timeRuns, emit, errorText, catalogueDir, memKb, resetPeak, coldHook } from './lib.mjs';
import { selectedWorkloads, selectedFiles, dataPath, polarsScan } from './workloads.mjs';

const args = parseArgs(process.argv.slice(2));
const runs = Number(args.runs ?? 5);
const n = Number(args.n);
const root = path.resolve(args.data);
// --evict BIN: the pqt_evict tool, run before every run of a cold workload (W1c, W3c)
const evictBin = args.evict ? path.resolve(args.evict) : null;
const threads = Number(process.env.POLARS_MAX_THREADS || 0);
if (!threads) {
  console.error('polars_runner: set POLARS_MAX_THREADS');
  process.exit(2);
}

const pl = loadPeer('nodejs-polars');
const coldOf = (file) => {
  if (!evictBin) throw new Error('a cold workload needs --evict (pqt_evict not built?)');
  return coldHook(evictBin, file);
};
const toNum = (v) => (typeof v === 'bigint' ? Number(v) : v === null ? NaN : Number(v));

for (const w of selectedWorkloads()) {
  if (!w.polars) continue;
  for (const fk of selectedFiles(w)) {
    const file = dataPath(fk, root, n, catalogueDir);
    for (const engine of ['in-memory', 'streaming']) {
      const rec = { engine: 'polars', mode: engine, workload: w.id, file: fk, threads };
      try {
        const kinds = w.cols.map((c) => c.split(':')[1]);
        const once = () => {
          const df = w.polars(pl, polarsScan(pl, fk, file), { n }).collectSync({ engine });
          return w.polarsPost ? w.polarsPost(df) : df.row(0).map(toNum);
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
}
