// write.mjs - W11 and W12, the write benchmarks (issue 14; bench/README.md "Writing").
//
//   node bench/write.mjs --n N --data DIR --build build [--runs 3] [--threads 1,2]
//       [--out results/write.md] [--raw results/write.jsonl] [--only W11-zstd,W12]
//   node bench/write.mjs --n N --from results/write.jsonl [--out X.md]   (re-render a report)
//
// W11: the whole catalogue (every column, read from catalogue_zstd.parquet) written with zstd
// and with snappy. W12: the rows with survey = 'rare' (~1%) written with zstd. Engines:
//   pqt     `pqt copy SRC OUT --codec C --threads T [--where 'survey == "rare"']`, one process
//           per run (OMP_NUM_THREADS=T for its reading), timed from outside with /usr/bin/time
//           (wall, user + sys CPU, start-up included: a few ms)
//   duckdb  COPY (SELECT * FROM read_parquet(SRC) [WHERE survey = 'rare']) TO OUT
//           (FORMAT parquet, COMPRESSION C), SET threads = T
//   polars  scanParquet + sinkParquet (streaming) and readParquet + writeParquet (in-memory),
//           the faster one kept, POLARS_MAX_THREADS = T
// W12 also gets a floor row: bench/pqt_floor reads and decompresses every page, decoding nothing.
// Every engine's output is read back by DuckDB: the row count and an order-free checksum of
// every column (sum of hash() per column, so every value's bits count; mag cast to a list)
// must equal the source's (with the same WHERE), else the row says MISMATCH and the exit
// status is 3. Each tool writes with its own defaults (row groups: pqt 1,048,576 rows, DuckDB
// 122,880, Polars its own), which is what a user gets; sizes are the files' bytes.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadPeer, parseArgs, catalogueDir, BENCH_DIR } from './lib.mjs';

const a = parseArgs(process.argv.slice(2));
const n = Number(a.n);
const runs = Number(a.runs ?? 3);
const threadList = String(a.threads ?? '1,2').split(',').map(Number);
const build = path.resolve(a.build ?? 'build');
const outMd = path.resolve(a.out ?? path.join(BENCH_DIR, 'results', 'write.md'));
const outRaw = path.resolve(a.raw ?? path.join(BENCH_DIR, 'results', 'write.jsonl'));
const dir = catalogueDir(path.resolve(a.data), n);
const src = path.join(dir, 'catalogue_zstd.parquet');
const tmp = path.join(dir, 'write_out');
if (!a.from) fs.mkdirSync(tmp, { recursive: true });
const pqt = path.join(build, 'pqt');

const RARE_SQL = "survey = 'rare'";
const WORKLOADS = [
  { id: 'W11-zstd', codec: 'zstd', goal: 0.7, what: 'whole catalogue, zstd' },
  { id: 'W11-snappy', codec: 'snappy', goal: 0.7, what: 'whole catalogue, snappy' },
  { id: 'W12', codec: 'zstd', goal: 0.6, where: true, what: "survey = 'rare' (~1%), zstd", peers: ['duckdb'] },
].filter((w) => !a.only || a.only.split(',').includes(w.id));

const { DuckDBInstance } = loadPeer('@duckdb/node-api');
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const CHECK_SQL = (from) => `SELECT count(*)::VARCHAR,
  sum(hash(id))::VARCHAR, sum(hash(ra))::VARCHAR, sum(hash(dec))::VARCHAR, sum(hash(mass))::VARCHAR,
  sum(hash(z))::VARCHAR, sum(hash(quality))::VARCHAR, sum(hash(flag))::VARCHAR,
  sum(hash(survey))::VARCHAR, sum(hash(name))::VARCHAR, sum(hash(mag::FLOAT[]))::VARCHAR,
  sum(hash(g))::VARCHAR, sum(hash(r))::VARCHAR, sum(hash(flux))::VARCHAR,
  (SELECT string_agg(column_name || ':' || column_type, ',') FROM (DESCRIBE SELECT * FROM ${from}))
  FROM ${from}`;
async function checksum(file, where) {
  const from = `read_parquet('${file}')${where ? ` WHERE ${RARE_SQL}` : ''}`;
  const r = await con.runAndReadAll(CHECK_SQL(where ? `(SELECT * FROM ${from})` : from));
  return r.getRows()[0].map(String);
}

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const raw = [];
const say = (s) => process.stderr.write(`write: ${s}\n`);

function runPqt(w, threads, out) {
  const args = ['copy', src, out, '--codec', w.codec, '--threads', String(threads), '--force'];
  if (w.where) args.push('--where', 'survey == "rare"');
  const res = [];
  for (let r = 0; r <= runs; r++) {
    fs.rmSync(out, { force: true });
    const p = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', pqt, ...args], {
      env: { ...process.env, OMP_NUM_THREADS: String(threads) },
      encoding: 'utf8',
    });
    if (p.status !== 0) return { error: (p.stderr || '').trim().split('\n').slice(-3).join(' ') };
    const [e, u, s, m] = p.stderr.trim().split('\n').pop().split(' ').map(Number);
    if (r > 0) res.push({ wall_ms: e * 1000, cpu_ms: (u + s) * 1000, maxrss_kb: m });
  }
  return { runs: res };
}

function runPeer(engine, w, threads, out) {
  const args = [path.join(BENCH_DIR, 'write_peer.mjs'), '--engine', engine, '--threads', String(threads),
    '--src', src, '--out', out, '--codec', w.codec, '--runs', String(runs)];
  if (w.where) args.push('--where', RARE_SQL, '--polars-where', '1');
  const p = spawnSync(process.execPath, args, {
    env: { ...process.env, POLARS_MAX_THREADS: String(threads) },
    encoding: 'utf8', maxBuffer: 1 << 26,
  });
  const lines = (p.stdout || '').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  if (!lines.length) return [{ engine, mode: '', error: (p.stderr || 'no output').trim().split('\n').slice(-3).join(' ') }];
  return lines;
}

// W12's floor: pqt_floor (bench/floor.c) reads and decompresses every page of every column,
// decoding nothing. Each page of this file holds kept rows, so no reader of W12 can take less.
function runFloor(threads) {
  const bin = path.join(build, 'bench', 'pqt_floor');
  if (!fs.existsSync(bin)) return { error: `${bin} not built` };
  const p = spawnSync(bin, ['--file', src, '--threads', String(threads), '--runs', String(runs),
    '--columns', 'id,ra,dec,mass,z,quality,flag,survey,name,mag,g,r,flux'], {
    env: { ...process.env, OMP_NUM_THREADS: String(threads) }, encoding: 'utf8',
  });
  let j = null;
  try { j = JSON.parse((p.stdout || '').trim().split('\n').pop()); } catch { /* reported below */ }
  if (!j || j.error) return { error: j?.error ?? ((p.stderr || 'no output').trim().split('\n').pop()) };
  return { runs: j.times_ms.map((t) => ({ wall_ms: t, cpu_ms: null })) };
}

let mismatch = false;
fs.mkdirSync(path.dirname(outRaw), { recursive: true });
if (a.from) {
  for (const l of fs.readFileSync(a.from, 'utf8').split('\n').filter(Boolean)) raw.push(JSON.parse(l));
  mismatch = raw.some((r) => String(r.check).startsWith('MISMATCH'));
} else {
  fs.writeFileSync(outRaw, '');
}
for (const w of a.from ? [] : WORKLOADS) {
  const truth = await checksum(src, w.where);
  say(`${w.id}: source checksum over ${truth[0]} rows`);
  for (const threads of threadList) {
    const cells = [];
    for (const engine of ['pqt', ...(w.peers ?? ['duckdb', 'polars'])]) {
      const out = path.join(tmp, `${w.id}_${engine}_${threads}.parquet`);
      say(`${w.id} t=${threads} ${engine}`);
      const recs = engine === 'pqt' ? [{ engine, mode: '', ...runPqt(w, threads, out) }] : runPeer(engine, w, threads, out);
      // the output left on disk is the last (for Polars: the faster mode's) run's
      let check = 'n/a', size = null;
      if (fs.existsSync(out)) {
        size = fs.statSync(out).size;
        try {
          const got = await checksum(out, false);
          check = got.slice(0, 11).join() === truth.slice(0, 11).join() ? 'ok' : 'MISMATCH';
          if (got[11] !== truth[11]) check += ' (types differ)';
        } catch (e) {
          check = `MISMATCH (${String(e.message).slice(0, 80)})`;
        }
        fs.rmSync(out, { force: true });
      }
      if (check.startsWith('MISMATCH')) mismatch = true;
      for (const r of recs) {
        const rec = { workload: w.id, codec: w.codec, threads, ...r, size_bytes: size, check };
        if (r.runs) {
          const walls = r.runs.map((x) => x.wall_ms), cpus = r.runs.map((x) => x.cpu_ms);
          Object.assign(rec, { wall_ms_median: median(walls), wall_ms_min: Math.min(...walls),
            wall_ms_max: Math.max(...walls), cpu_ms_median: median(cpus) });
        }
        raw.push(rec);
        cells.push(rec);
        fs.appendFileSync(outRaw, JSON.stringify(rec) + '\n'); /* kept if the run is cut short */
      }
    }
    if (w.where) {
      say(`${w.id} t=${threads} floor`);
      const r = runFloor(threads);
      const rec = { workload: w.id, codec: w.codec, threads, engine: 'floor', mode: '', ...r, size_bytes: null, check: 'n/a' };
      if (r.runs) {
        const walls = r.runs.map((x) => x.wall_ms);
        Object.assign(rec, { wall_ms_median: median(walls), wall_ms_min: Math.min(...walls),
          wall_ms_max: Math.max(...walls), cpu_ms_median: null });
      }
      raw.push(rec);
      fs.appendFileSync(outRaw, JSON.stringify(rec) + '\n');
    }
  }
}

// ---- report ----
const f1 = (x) => (x == null ? '-' : (x / 1000).toFixed(2));
const lines = [];
lines.push(`# W11 / W12: writing Parquet (N = ${n.toLocaleString('en-US')}, ${runs} runs after a warm-up)`);
lines.push('');
lines.push('Wall-clock median (min–max) in seconds; CPU = user + system time of the process, all threads. ');
lines.push('pqt ÷ best = pqt\'s median over the faster peer\'s (wall), and over the least CPU of any peer engine or mode (CPU); size ÷ smallest against the smallest output of the row\'s workload and thread count. ');
lines.push('check: the output read back by DuckDB has the source\'s row count and per-column hash sums.');
lines.push('');
lines.push('| workload | threads | engine | wall s | CPU s | size MB | size ÷ smallest | pqt ÷ best (wall / CPU) | goal | check |');
lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const w of WORKLOADS) {
  for (const threads of threadList) {
    const cells = raw.filter((r) => r.workload === w.id && r.threads === threads);
    if (!cells.length) continue;
    // Polars: the faster mode only
    const shown = cells.filter((r) => r.engine !== 'polars' || r === cells.filter((x) => x.engine === 'polars' && x.runs)
      .sort((x, y) => x.wall_ms_median - y.wall_ms_median)[0] || (r.engine === 'polars' && !cells.some((x) => x.engine === 'polars' && x.runs)));
    const sizes = shown.filter((r) => r.size_bytes).map((r) => r.size_bytes);
    const smallest = Math.min(...sizes);
    const isPeer = (r) => r.engine !== 'pqt' && r.engine !== 'floor' && r.runs;
    const peers = shown.filter(isPeer);
    const bestWall = Math.min(...peers.map((r) => r.wall_ms_median));
    // CPU: the least of any peer's modes (a mode slower in wall clock can use less CPU)
    const bestCpu = Math.min(...cells.filter(isPeer).map((r) => r.cpu_ms_median));
    for (const r of shown) {
      const name = r.engine + (r.mode ? ` (${r.mode === 'streaming' ? 'S' : 'M'})` : '');
      if (!r.runs) {
        lines.push(`| ${w.id} | ${threads} | ${name} | error: ${String(r.error).slice(0, 80)} | | | | | | |`);
        continue;
      }
      let ratio = '', goal = '';
      if (r.engine === 'floor' && peers.length) {
        ratio = `${(r.wall_ms_median / bestWall).toFixed(2)} / -`;
        goal = 'the least any reader takes: read + decompress every page (all hold kept rows), decode nothing';
      } else if (r.engine === 'pqt' && peers.length) {
        const rw = r.wall_ms_median / bestWall, rc = r.cpu_ms_median / bestCpu;
        ratio = `${rw.toFixed(2)} / ${rc.toFixed(2)}`;
        const sizeOk = r.size_bytes <= smallest * 1.05;
        goal = `≤ ${w.goal}: wall ${rw <= w.goal ? 'met' : 'MISSED'}, CPU ${rc <= w.goal ? 'met' : 'MISSED'}; size ≤ 1.05: ${sizeOk ? 'met' : 'MISSED'}`;
      }
      lines.push(`| ${w.id} | ${threads} | ${name} | ${f1(r.wall_ms_median)} (${f1(r.wall_ms_min)}–${f1(r.wall_ms_max)}) | ${f1(r.cpu_ms_median)} | ${r.size_bytes ? (r.size_bytes / 1e6).toFixed(1) : '-'} | ${r.size_bytes ? (r.size_bytes / smallest).toFixed(3) : '-'} | ${ratio} | ${goal} | ${r.check} |`);
    }
  }
}
lines.push('');
fs.writeFileSync(outMd, lines.join('\n'));
process.stdout.write(lines.join('\n'));
if (mismatch) {
  process.stderr.write('write: MISMATCH: an output does not read back as its source\n');
  process.exit(3);
}
