// lib.mjs - small helpers shared by the benchmark's node scripts.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = path.dirname(BENCH_DIR);

// The peers live in bench/peers/node_modules (installed by run.sh with `npm ci`), which is
// not on the module path of scripts in bench/: resolve them from there explicitly.
const peerRequire = createRequire(path.join(BENCH_DIR, 'peers', 'package.json'));
export function loadPeer(name) {
  return peerRequire(name);
}
export function peerVersion(name) {
  return JSON.parse(fs.readFileSync(peerRequire.resolve(`${name}/package.json`), 'utf8')).version;
}

// --key value / --flag arguments into an object (numbers stay strings).
export function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const key = a.slice(2);
    if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[key] = argv[++i];
    else out[key] = true;
  }
  return out;
}

export function dataDir() {
  return path.resolve(REPO_DIR, process.env.PQT_BENCH_DATA || path.join('bench', 'data'));
}

// Where the files of one catalogue size live: the cache is keyed by N so that a quick
// N=200000 run does not clobber the full-size data.
export function catalogueDir(root, n) {
  return path.join(root, `n${n}`);
}

// Median, min, max of a list of times.
export function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const m = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median: m, min: s[0], max: s[s.length - 1] };
}

// Relative comparison used everywhere a checksum is compared: integers exactly, floats to
// within 1e-9 relative.
export const REL_TOL = 1e-9;
export function valuesAgree(a, b, kinds) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      if (!(Number.isNaN(x) && Number.isNaN(y)) && x !== y) return false;
      continue;
    }
    if (kinds && kinds[i] === 'i') {
      if (x !== y) return false;
    } else if (Math.abs(x - y) > REL_TOL * Math.max(Math.abs(x), Math.abs(y))) {
      return false;
    }
  }
  return true;
}

// Time `fn` (sync or async) once warm-up + `runs` times; the values of every run must agree
// with the warm-up's (a reader that answers differently from run to run is a bug).
// `before` (optional) runs ahead of the warm-up and of every timed run, untimed: the cold
// workloads' eviction (coldHook).
export async function timeRuns(fn, runs, kinds, before) {
  if (before) before();
  const first = await fn();
  const times = [];
  for (let r = 0; r < runs; r++) {
    if (before) before();
    const t0 = performance.now();
    const v = await fn();
    const t1 = performance.now();
    times.push(t1 - t0);
    if (!valuesAgree(first, v, kinds)) {
      throw new Error(`answer changed between runs: ${JSON.stringify(first)} vs ${JSON.stringify(v)}`);
    }
  }
  return { values: first, times_ms: times, ...stats(times) };
}

// Peak memory of one cell in a process that runs many: resetPeak() before the cell (Linux:
// writing 5 to /proc/self/clear_refs resets VmHWM to the current RSS), memKb('VmHWM') after.
// Both give up quietly where /proc is not there (the record then has no memory fields).
export function memKb(field) {
  try {
    const m = fs.readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
export function resetPeak() {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux, or not allowed: the peak then covers the process so far
  }
  return memKb('VmRSS');
}

export function emit(rec) {
  process.stdout.write(JSON.stringify(rec) + '\n');
}

export function errorText(e) {
  return String(e && e.message ? e.message : e).split('\n')[0].slice(0, 300);
}

// The cold-cache hook of a runner: `pqt_evict --file FILE` (bench/evict.c) before each run;
// throws when the tool fails, so the cell reports an error rather than warm numbers. `log()`
// gives the record's `evict` member: the method and the resident pages before and after
// each eviction (warm-up first), the same shape pqt_bench and pqt_floor print.
export function coldHook(evictBin, file) {
  const log = { method: null, pages: null, before: [], after: [] };
  const hook = () => {
    const r = spawnSync(evictBin, ['--file', file], { encoding: 'utf8' });
    let rec = null;
    try {
      rec = JSON.parse((r.stdout || '').trim().split('\n')[0]);
    } catch {
      // reported below
    }
    if (r.status !== 0 || !rec || rec.error) {
      throw new Error(`evict ${file}: ${rec?.error ?? (r.error ? errorText(r.error) : `exit status ${r.status}`)}`);
    }
    log.method = rec.method;
    log.pages = rec.pages;
    log.before.push(rec.resident_before);
    log.after.push(rec.resident_after);
  };
  return { hook, log: () => log };
}
