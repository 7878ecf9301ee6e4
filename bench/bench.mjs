// bench.mjs - run every engine on every workload and collect the raw results (JSON lines).
//
//   node bench/bench.mjs --n N --data DIR --build BUILD_DIR --out results/raw.jsonl
//                        [--runs 5] [--threads 1,2]
//
// Engines, each timed inside its own process (start-up does not count):
//   memcpy   BUILD/bench/memcpy_bw            memory bandwidth
//   floor    BUILD/bench/pqt_floor            pread + decompress floor of W1..W4 (and the cold
//                                             W1c, W3c), per file: the `floor` of workloads.mjs
//   duckdb   node duckdb_runner.mjs           one process per thread count
//   polars   node polars_runner.mjs           one process per thread count (POLARS_MAX_THREADS)
//   pqt      BUILD/bench/pqt_bench            one process per (workload, file, threads), so a
//                                             crash or a hang costs one cell; export workloads
//                                             (X*) run BUILD/pqt cat, timed from here
// Cold workloads (W1c, W3c): every engine runs BUILD/bench/pqt_evict (bench/evict.c) on the
// file before its warm-up and before each timed run, untimed: pqt_bench and pqt_floor spawn it
// themselves (--evict), the node runners through lib.mjs coldHook (--evict); the eviction
// method is BENCH_EVICT (auto: drop_caches when writable, else posix_fadvise).
// A failure of any of them becomes an {"error": ...} record; nothing here stops the run.
// Environment: BENCH_WORKLOADS=W1,W5 / BENCH_FILES=snappy,zstd restrict the run;
// BENCH_TIMEOUT (seconds) bounds one pqt/floor process (default max(60, 30 s per M rows)).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BENCH_DIR, REPO_DIR, parseArgs, peerVersion, errorText, catalogueDir, stats } from './lib.mjs';
import { FILES, selectedWorkloads, selectedFiles, dataPath } from './workloads.mjs';

const args = parseArgs(process.argv.slice(2));
const N = Number(args.n);
const runs = Number(args.runs ?? 5);
const threadList = String(args.threads ?? '1,2').split(',').map(Number);
const dataRoot = path.resolve(args.data);
const buildDir = path.resolve(REPO_DIR, args.build ?? 'build');
const outPath = path.resolve(args.out);
const timeoutS = Number(process.env.BENCH_TIMEOUT || Math.max(60, 30 * N / 1e6));

fs.mkdirSync(path.dirname(outPath), { recursive: true });
const out = fs.openSync(outPath, 'w');
const record = (r) => fs.writeSync(out, JSON.stringify(r) + '\n');
const log = (...a) => console.error('bench:', ...a);

const filePath = (fk) => dataPath(fk, dataRoot, N, catalogueDir);
const bin = (name, dir = buildDir) => path.join(dir, 'bench', name);
// BENCH_BASE_BUILD=DIR: a second pqt build (another commit's), run cell by cell right before
// this one's as engine 'pqt-base', so a change is compared with its parent in the same run.
const baseBuild = process.env.BENCH_BASE_BUILD ? path.resolve(process.env.BENCH_BASE_BUILD) : null;

// Run one process; return its JSON lines, or one error record describing how it failed.
function runProc(cmd, argv, { env, timeout, base }) {
  const t0 = Date.now();
  const r = spawnSync(cmd, argv, {
    env: { ...process.env, ...env },
    timeout: timeout * 1000,
    maxBuffer: 64 << 20,
    encoding: 'utf8',
    killSignal: 'SIGKILL',
  });
  const recs = [];
  for (const line of (r.stdout || '').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      recs.push({ ...base, ...JSON.parse(line) });
    } catch {
      // a torn line from a crash: ignore, reported below
    }
  }
  let why = null;
  if (r.error && r.error.code === 'ETIMEDOUT') why = `timeout after ${timeout} s`;
  else if (r.error) why = errorText(r.error);
  else if (r.signal) why = `killed by ${r.signal}`;
  else if (r.status !== 0) why = `exit status ${r.status}`;
  if (why) {
    const tail = (r.stderr || '').trim().split('\n').filter(Boolean).slice(-1)[0];
    const msg = tail ? `${why}: ${tail.slice(0, 200)}` : why;
    if (recs.length === 0) recs.push({ ...base, error: msg });
    else log(`${path.basename(cmd)} ${argv.join(' ')}: ${msg} (after ${recs.length} results)`);
  }
  return { recs, secs: (Date.now() - t0) / 1000 };
}

function exists(f) {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// ---- meta: what this run was ----
const readJson = (f) => {
  try {
    return JSON.parse(fs.readFileSync(f, 'utf8'));
  } catch {
    return null;
  }
};
const sh = (cmd, a) => {
  const r = spawnSync(cmd, a, { encoding: 'utf8', cwd: REPO_DIR });
  return r.status === 0 ? r.stdout.trim() : '';
};
const pqtHeader = fs.readFileSync(path.join(REPO_DIR, 'include', 'pqt.h'), 'utf8');
record({
  engine: 'meta',
  date: new Date().toISOString(),
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  mem_gib: os.totalmem() / 2 ** 30,
  kernel: `${os.type()} ${os.release()}`,
  node: process.version,
  duckdb: peerVersion('@duckdb/node-api'),
  polars: peerVersion('nodejs-polars'),
  pqt: (pqtHeader.match(/PQT_VERSION_STRING "([^"]+)"/) || [])[1],
  git: sh('git', ['describe', '--always', '--dirty']),
  cc: sh('cc', ['--version']).split('\n')[0],
  n: N,
  runs,
  threads: threadList,
  catalogue: readJson(path.join(catalogueDir(dataRoot, N), 'MANIFEST.json')),
  wide: readJson(path.join(dataRoot, 'wide.MANIFEST.json')),
});

const workloads = selectedWorkloads();

// ---- memcpy bandwidth ----
for (const t of threadList) {
  const base = { engine: 'memcpy', threads: t };
  if (!exists(bin('memcpy_bw'))) { record({ ...base, error: 'memcpy_bw not built (see bench/results/build.log)' }); continue; }
  const { recs } = runProc(bin('memcpy_bw'), ['--threads', t, '--runs', runs].map(String), { timeout: 300, base });
  recs.forEach(record);
  log(`memcpy ${t}t: ${recs[0].gbps ? recs[0].gbps.toFixed(1) + ' GB/s' : recs[0].error}`);
}

// ---- the floors: pread + decompress of the chunks each workload must read ----
const evictArgs = (w) => (w.cold ? ['--evict', bin('pqt_evict')] : []);
for (const w of workloads.filter((x) => x.floor)) {
  const fa = typeof w.floor === 'function' ? w.floor({ n: N }) : w.floor;
  for (const fk of selectedFiles(w)) {
    for (const t of threadList) {
      const base = { engine: 'floor', workload: w.id, file: fk, threads: t };
      if (!exists(bin('pqt_floor'))) { record({ ...base, error: 'pqt_floor not built (see bench/results/build.log)' }); continue; }
      if (w.cold && !exists(bin('pqt_evict'))) { record({ ...base, error: 'pqt_evict not built (see bench/results/build.log)' }); continue; }
      const a = ['--file', filePath(fk), '--threads', t, '--runs', runs, '--columns', fa.columns.join(','),
                 ...(fa.range ? ['--range', fa.range] : []), ...evictArgs(w)];
      const { recs, secs } = runProc(bin('pqt_floor'), a.map(String), { timeout: timeoutS, base });
      recs.forEach(record);
      log(`floor ${w.id} ${fk} ${t}t: ${recs[0].error ? 'error: ' + recs[0].error : recs[0].median.toFixed(1) + ' ms'} (${secs.toFixed(0)} s)`);
    }
  }
}
const peerEvict = exists(bin('pqt_evict')) ? ['--evict', bin('pqt_evict')] : [];

// ---- the peers ----
for (const t of threadList) {
  {
    const { recs, secs } = runProc(process.execPath,
      [path.join(BENCH_DIR, 'duckdb_runner.mjs'), '--threads', t, '--data', dataRoot, '--n', N, '--runs', runs,
       ...peerEvict].map(String),
      { timeout: 4 * 3600, base: { engine: 'duckdb', threads: t } });
    recs.forEach(record);
    log(`duckdb ${t}t: ${recs.length} results, ${recs.filter((r) => r.error).length} errors (${secs.toFixed(0)} s)`);
  }
  {
    const { recs, secs } = runProc(process.execPath,
      [path.join(BENCH_DIR, 'polars_runner.mjs'), '--data', dataRoot, '--n', N, '--runs', runs, ...peerEvict].map(String),
      { env: { POLARS_MAX_THREADS: String(t) }, timeout: 4 * 3600, base: { engine: 'polars', threads: t } });
    recs.forEach(record);
    log(`polars ${t}t: ${recs.length} results, ${recs.filter((r) => r.error).length} errors (${secs.toFixed(0)} s)`);
  }
}

// ---- pqt cat: an export workload, timed from outside (the output goes to /dev/null) ----
function exportCell(w, fk, t, base, dir = buildDir) {
  const pqtCli = path.join(dir, 'pqt');
  if (!exists(pqtCli)) return [{ ...base, error: 'pqt not built' }];
  const argv = ['cat', filePath(fk), '--format', w.exportFormat];
  const env = { ...process.env, OMP_NUM_THREADS: String(t) };
  // Warm-up, and the check: the rows printed (lines, less the csv header).
  const count = spawnSync('sh', ['-c', `"$0" "$@" | wc -l`, pqtCli, ...argv],
    { env, encoding: 'utf8', timeout: timeoutS * 1000, killSignal: 'SIGKILL' });
  const lines = Number((count.stdout || '').trim());
  if (count.status !== 0 || !Number.isFinite(lines)) {
    return [{ ...base, error: `pqt cat failed: ${(count.stderr || count.error || '').toString().trim().slice(0, 200)}` }];
  }
  const values = [lines - (w.exportFormat === 'csv' ? 1 : 0)];
  const times = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const res = spawnSync(pqtCli, argv, { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutS * 1000, killSignal: 'SIGKILL' });
    times.push(performance.now() - t0);
    if (res.status !== 0) return [{ ...base, error: `pqt cat: exit ${res.status ?? res.signal}: ${String(res.stderr || '').trim().slice(0, 200)}` }];
  }
  return [{ ...base, values, times_ms: times, ...stats(times) }];
}

// ---- pqt: one process per cell (and the base build's, just before, when asked) ----
function pqtCell(w, fk, t, engine, dir) {
  const base = { engine, workload: w.id, file: fk, threads: t };
  if (w.exportFormat) return exportCell(w, fk, t, base, dir);
  if (!exists(bin('pqt_bench', dir))) return [{ ...base, error: `pqt_bench not built in ${dir}` }];
  const pa = typeof w.pqtArgs === 'function' ? w.pqtArgs({ n: N }) : w.pqtArgs;
  if (w.cold && !exists(bin('pqt_evict'))) return [{ ...base, error: 'pqt_evict not built (see bench/results/build.log)' }];
  const a = [...(pa ?? ['--workload', w.id]), '--file', filePath(fk), '--threads', t, '--runs', runs,
             ...evictArgs(w)];
  const recs = runProc(bin('pqt_bench', dir), a.map(String), { timeout: timeoutS, base }).recs;
  // pqt_bench names the workload it ran (W1 for W1nocrc): keep the table's id.
  return recs.map((r) => ({ ...r, engine, workload: w.id }));
}
{
  let nerr = 0;
  let ncells = 0;
  const t0 = Date.now();
  for (const w of workloads) {
    if (!w.pqt) continue;
    for (const fk of selectedFiles(w)) {
      for (const t of threadList) {
        const recs = [];
        if (baseBuild) recs.push(...pqtCell(w, fk, t, 'pqt-base', baseBuild));
        recs.push(...pqtCell(w, fk, t, 'pqt', buildDir));
        ncells++;
        nerr += recs.filter((r) => r.error).length;
        recs.forEach(record);
      }
    }
  }
  log(`pqt: ${ncells} cells${baseBuild ? ' (each also with the base build)' : ''}, ${nerr} errors ` +
      `(${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

fs.closeSync(out);
