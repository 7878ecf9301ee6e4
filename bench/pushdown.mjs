// pushdown.mjs - the pushdown scenarios (docs/pruning.md, "Scenarios", 1-9): pqt with pushdown, pqt
// with every PQT_OPT_PUSHDOWN_* off (the baseline), DuckDB and Polars on the same files, in
// one run; checks every engine's checksum against DuckDB's and writes the report.
//
//   node bench/pushdown.mjs --n PD_N --data DIR --build BUILD --out results/scenarios.md
//                           [--runs 5] [--threads 1]
//
// Raw records go to results/scenarios.jsonl beside the report. Exit status 3 when an engine's
// checksum differs from DuckDB's (the table then says MISMATCH, and a banner goes to stderr).
// Environment: PD_CASES=1-stats,5-10% or PD_SCENARIOS=1,3 restrict the run.
// --from RAW.jsonl re-renders the report of an earlier run without running anything.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BENCH_DIR, REPO_DIR, parseArgs, peerVersion, errorText } from './lib.mjs';
import { selectedCases, pqtRule } from './pushdown_scenarios.mjs';

const args = parseArgs(process.argv.slice(2));
const N = Number(args.n);
const runs = Number(args.runs ?? 5);
const threads = Number(args.threads ?? 1);
const dir = path.join(path.resolve(args.data), `pd${N}`);
const buildDir = path.resolve(REPO_DIR, args.build ?? 'build');
const outMd = path.resolve(args.out);
const outRaw = outMd.replace(/\.md$/, '') + '.jsonl';
const log = (...a) => console.error('pushdown:', ...a);
const timeoutS = Math.max(120, 60 * N / 1e6);
// What the ratios and goals compare: the process CPU time (default; one thread, steady on a
// shared machine) or the wall clock (PD_MEASURE=wall).
const MEASURE = process.env.PD_MEASURE === 'wall' ? 'wall' : 'cpu';

const cases = selectedCases(N);
const recs = [];
const startDate = new Date().toISOString();

// ---- one process, its JSON lines ----
function runJson(cmd, argv, env, timeout) {
  const r = spawnSync(cmd, argv.map(String), { env: { ...process.env, ...env }, encoding: 'utf8',
    timeout: timeout * 1000, killSignal: 'SIGKILL', maxBuffer: 64 << 20 });
  const out = [];
  for (const line of (r.stdout || '').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // torn line from a crash
    }
  }
  const why = r.error ? errorText(r.error) : r.signal ? `killed by ${r.signal}` : r.status ? `exit ${r.status}` : null;
  if (why && out.length === 0) {
    const tail = (r.stderr || '').trim().split('\n').slice(-1)[0] || '';
    out.push({ error: `${why}${tail ? ': ' + tail.slice(0, 200) : ''}` });
  }
  return out;
}

// ---- what the files are (page index, bloom filters), from pqt meta ----
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'MANIFEST.json'), 'utf8'));
const fileFacts = {};
for (const [k, fi] of Object.entries(manifest.files)) {
  const r = spawnSync(path.join(buildDir, 'pqt'), ['meta', path.join(dir, fi.name), '--format', 'json'],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  let pageIndex = '?';
  let created = '?';
  try {
    const m = JSON.parse(r.stdout);
    const chunks = m.row_groups.flatMap((g) => g.chunks);
    const withIdx = chunks.filter((c) => c.column_index && c.offset_index).length;
    pageIndex = withIdx === chunks.length ? 'yes' : withIdx === 0 ? 'no' : `${withIdx}/${chunks.length} chunks`;
    created = (m.created_by || '').split(' ').slice(0, 3).join(' ');
  } catch {
    // pqt not built: unknown
  }
  fileFacts[k] = { ...fi, page_index: pageIndex, created_by: created };
}

if (args.from) {
  for (const l of fs.readFileSync(path.resolve(args.from), 'utf8').split('\n')) if (l.startsWith('{')) recs.push(JSON.parse(l));
} else {
  // ---- pqt: pushdown on and off, one process per cell ----
  const pqtBin = path.join(buildDir, 'bench', 'pqt_pushdown');
  for (const c of cases) {
    for (const pd of [1, 0]) {
      if (c.pqtOnly && pd === 0) continue;
      const a = ['--file', path.join(dir, `${c.file}.parquet`), '--pushdown', pd, '--threads', threads, '--runs', runs];
      for (const w of c.where) a.push('--filter', pqtRule(w));
      if (c.cols.length) a.push('--cols', c.cols.join(','));
      const r = fs.existsSync(pqtBin) ? runJson(pqtBin, a, {}, timeoutS)[0]
                                      : { error: 'pqt_pushdown not built (see bench/results/build.log)' };
      recs.push({ ...r, engine: pd ? 'pqt' : 'pqt-base', case: c.id, pushdown: pd });
      log(`${c.id} pqt${pd ? '' : ' baseline'}: ${r.error ? 'ERROR ' + r.error : r.median.toFixed(1) + ' ms'}`);
    }
  }

  // ---- the peers ----
  {
    const common = ['--dir', dir, '--n', N, '--runs', runs];
    const d = runJson(process.execPath, [path.join(BENCH_DIR, 'pushdown_peers.mjs'), '--engine', 'duckdb', '--threads', threads, ...common], {}, 3600);
    d.forEach((r) => recs.push({ ...r, engine: 'duckdb' }));
    log(`duckdb: ${d.length} records, ${d.filter((r) => r.error).length} errors`);
    const p = runJson(process.execPath, [path.join(BENCH_DIR, 'pushdown_peers.mjs'), '--engine', 'polars', ...common],
      { POLARS_MAX_THREADS: String(threads) }, 3600);
    p.forEach((r) => recs.push({ ...r, engine: 'polars' }));
    log(`polars: ${p.length} records, ${p.filter((r) => r.error).length} errors`);
  }
  recs.push({
    engine: 'meta', date: startDate, cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length,
    load: os.loadavg().map((x) => x.toFixed(1)).join(' '),
    git: spawnSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8', cwd: REPO_DIR }).stdout.trim(),
    duckdb: peerVersion('@duckdb/node-api'), polars: peerVersion('nodejs-polars'), n: N, threads, runs,
  });
  fs.writeFileSync(outRaw, recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

// ---- checks and the report ----
const agree = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
  a.every((x, i) => Math.abs(x - b[i]) <= 1e-9 * Math.max(Math.abs(x), Math.abs(b[i])) + 1e-6);
const get = (engine, id) => recs.find((r) => r.engine === engine && r.case === id && !r.error);
const med = (r) => (MEASURE === 'cpu' && Number.isFinite(r.cpu_median) ? r.cpu_median : r.median);
const polarsBest = (id) => recs.filter((r) => r.engine === 'polars' && r.case === id && !r.error)
  .sort((a, b) => med(a) - med(b))[0];
const ms = (r) => (r ? `${r.median.toFixed(1)} (${r.min.toFixed(1)}–${r.max.toFixed(1)})` +
  (Number.isFinite(r.cpu_median) ? `<br>CPU ${r.cpu_median.toFixed(1)} (${r.cpu_min.toFixed(1)}–${r.cpu_max.toFixed(1)})` : '') : '—');
const ratio = (a, b) => (a && b ? med(a) / med(b) : NaN);
const fx = (x) => (Number.isFinite(x) ? `${x < 0.1 ? x.toFixed(3) : x.toFixed(2)}×` : '—');
const gx = (x) => `${+x.toPrecision(3)}×`;

const mismatches = [];
const row = {};
for (const c of cases) {
  const pq = get('pqt', c.id);
  const base = get('pqt-base', c.id);
  const duck = get('duckdb', c.id);
  const pol = polarsBest(c.id);
  const errs = recs.filter((r) => r.case === c.id && r.error).map((r) => `${r.engine}${r.mode ? ' ' + r.mode : ''}: ${r.error}`);
  const bad = [];
  if (!c.pqtOnly) {
    if (!duck) bad.push('no DuckDB answer');
    for (const [name, r] of [['pqt', pq], ['pqt baseline', base], ['Polars', pol]]) {
      if (duck && r && !agree(r.values, duck.values)) bad.push(`${name} ${JSON.stringify(r.values)} vs DuckDB ${JSON.stringify(duck.values)}`);
    }
    for (const r of recs.filter((x) => x.engine === 'polars' && x.case === c.id && !x.error)) {
      if (duck && !agree(r.values, duck.values)) bad.push(`Polars ${r.mode} differs from DuckDB`);
    }
  }
  if (bad.length) mismatches.push(`${c.id}: ${bad.join('; ')}`);
  const peers = [duck && { name: 'DuckDB', ...duck }, pol && { name: `Polars (${pol.mode === 'streaming' ? 'S' : 'M'})`, ...pol }]
    .filter(Boolean).sort((a, b) => med(a) - med(b));
  row[c.id] = { c, pq, base, duck, pol, best: peers[0], errs, bad };
}

// goals: met / missed / n/a, with the measured value
const spreadOf = (group) => {
  const ts = cases.filter((c) => c.group === group).map((c) => row[c.id].pq && med(row[c.id].pq)).filter(Number.isFinite);
  return ts.length > 1 ? Math.max(...ts) / Math.min(...ts) : NaN;
};
function judge(r) {
  const { c, pq, base } = r;
  const g = c.goal;
  if (!g) return { verdict: '', measured: '' };
  if (!pq) return { verdict: 'not run', measured: '' };
  const parts = [];
  let met = true;
  if (g.max !== undefined) {
    const x = ratio(pq, base);
    parts.push(`${fx(x)} ≤ ${gx(g.max)}`);
    met &&= x <= g.max;
  }
  if (g.maxVs) {
    const ref = row[g.maxVs[0]]?.pq;
    const x = ratio(pq, ref);
    parts.push(`${fx(x)} of ${g.maxVs[0]} ≤ ${gx(g.maxVs[1])}`);
    met &&= x <= g.maxVs[1];
  }
  if (g.spread) {
    const x = spreadOf(g.spread);
    parts.push(`slowest/fastest order ${fx(x)} ≤ ${gx(g.r)}`);
    met &&= x <= g.r;
  }
  for (const [k, how] of Object.entries(g.counters ?? {})) {
    const v = pq.counters?.[k];
    if (how === 'zero') {
      parts.push(`${k} = ${v}`);
      met &&= v === 0;
    } else if (how === 'below_baseline') {
      parts.push(`${k} ${v} vs ${base?.counters?.[k]} baseline`);
      met &&= base && v < base.counters[k];
    }
  }
  return { verdict: met ? 'met' : 'MISSED', measured: parts.join('; ') };
}

function counters(r) {
  const k = r.pq?.counters;
  if (!k) return '';
  const b = r.base?.counters;
  const rgPruned = [['stats', k.row_groups_pruned_stats], ['index', k.row_groups_pruned_index],
    ['dict', k.row_groups_pruned_dictionary], ['bloom', k.row_groups_pruned_bloom]]
    .map(([n, v]) => `${n} ${v}`).join(', ');
  return `rg ${k.row_groups}: pruned ${rgPruned}; all ${k.row_groups_all}` +
    `<br>pages decompr. ${k.pages_decompressed}${b ? ` (base ${b.pages_decompressed})` : ''}, ` +
    `idx-pruned ${k.pages_pruned_index}, bloom read ${k.bloom_filters_read}` +
    `<br>values ${k.values_decoded.toLocaleString('en-US')}${b ? ` (base ${b.values_decoded.toLocaleString('en-US')})` : ''}` +
    `, sel runs/bitmap/dtf ${k.row_groups_sel_runs}/${k.row_groups_sel_bitmap}/${k.row_groups_decode_then_filter}`;
}

const L = [];
const meta = recs.find((r) => r.engine === 'meta') ?? {
  date: '(date not recorded)', git: '?', duckdb: peerVersion('@duckdb/node-api'), polars: peerVersion('nodejs-polars'),
  cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, load: '?', threads, runs,
};
L.push(`# Pushdown scenarios (docs/pruning.md, "Scenarios", 1–9)`, '');
L.push(`${meta.date}, pqt ${meta.git}, DuckDB ${meta.duckdb}, Polars ${meta.polars} (nodejs), ` +
  `${meta.cpu}, ${meta.cores} cores, load average at the end ${meta.load}. ` +
  `N = ${N.toLocaleString('en-US')} rows, row groups of ${manifest.row_group_size.toLocaleString('en-US')}; ` +
  `${meta.threads} thread(s); warm-up + ${meta.runs} runs, median (min–max) in ms, warm page cache. ` +
  `Ratios and goals compare ${MEASURE === 'cpu' ? 'the process CPU time (all threads), steadier than the wall clock on a shared machine (PD_MEASURE=wall for the wall clock)' : 'wall-clock medians'}.`, '');
L.push('Files:', '', '| file | written by | bytes | row groups | page index | bloom filters | dictionary-encoded |', '| --- | --- | --- | --- | --- | --- | --- |');
for (const [k, f] of Object.entries(fileFacts)) {
  L.push(`| ${k} | ${f.created_by} | ${f.bytes.toLocaleString('en-US')} | ${f.row_groups} | ${f.page_index} | ${f.bloom_columns.join(', ') || '—'} | ${f.dictionary_columns.join(', ') || '—'} |`);
}
L.push('', 'pqt = filter at open (`PQT_OPT_FILTER`), then `pqt_table_get_alloc` / `get_strings_alloc` of each ' +
  'projected column into fresh memory; baseline = the same with `PQT_OPT_PUSHDOWN_STATS`, `_PAGE_INDEX`, ' +
  '`_DICTIONARY`, `_BLOOM`, `_ADAPTIVE` all 0. Ratios are of medians; "best peer" is the faster of DuckDB ' +
  'and Polars (in-memory M or streaming S). Counters are pqt\'s `pqt_table_scan_stats` after the columns were read ' +
  '(rg = row groups; dtf = decode then filter).', '');
// The summary (what docs/benchmarks.md shows), then the details.
L.push('Summary (counters: row groups pruned by statistics / page index / dictionary / bloom filter; ' +
  'data pages decompressed, the baseline\'s in parentheses; pages pruned by the column index; bloom filters read):', '');
L.push('| case | goal | pqt / baseline | pqt / best peer | rg pruned s/i/d/b | pages decompr. | idx-pruned pages | blooms read | goal |',
       '| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const c of cases) {
  const r = row[c.id];
  const k = r.pq?.counters;
  const j = judge(r);
  L.push(`| ${c.id}${r.bad.length ? ' **MISMATCH**' : ''} | ${c.goalText} | ${fx(ratio(r.pq, r.base))} | ` +
    `${r.best ? fx(ratio(r.pq, r.best)) : '—'} | ` +
    (k ? `${k.row_groups_pruned_stats}/${k.row_groups_pruned_index}/${k.row_groups_pruned_dictionary}/${k.row_groups_pruned_bloom} of ${k.row_groups} | ` +
         `${k.pages_decompressed}${r.base ? ` (${r.base.counters.pages_decompressed})` : ''} | ${k.pages_pruned_index} | ${k.bloom_filters_read} | `
       : '— | — | — | — | ') + `${j.verdict}${j.measured ? ` (${j.measured})` : ''} |`);
}
L.push('', 'Details:', '');
L.push('| case | what | pqt | baseline | DuckDB | Polars | pqt / baseline | pqt / best peer | goal | measured | | pqt counters |',
       '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const verdicts = [];
for (const c of cases) {
  const r = row[c.id];
  const j = judge(r);
  if (j.verdict) verdicts.push({ id: c.id, scenario: c.scenario, ...j });
  const check = r.bad.length ? ' **MISMATCH**' : '';
  const err = r.errs.length ? ` (errors: ${r.errs.join('; ').replace(/\|/g, '/')})` : '';
  L.push(`| ${c.id}${check} | ${c.title.replace(/\|/g, '/')}${err} | ${ms(r.pq)} | ${ms(r.base)} | ${ms(r.duck)} | ` +
    `${r.pol ? ms(r.pol) + (r.pol.mode === 'streaming' ? ' S' : ' M') : '—'} | ${fx(ratio(r.pq, r.base))} | ` +
    `${r.best ? fx(ratio(r.pq, r.best)) + ` (${r.best.name.split(' ')[0]})` : '—'} | ${c.goalText} | ${j.measured} | ${j.verdict} | ${counters(r)} |`);
}
const met = verdicts.filter((v) => v.verdict === 'met').length;
L.push('', `Goals met: ${met} of ${verdicts.length}. Missed: ${verdicts.filter((v) => v.verdict !== 'met').map((v) => v.id).join(', ') || 'none'}.`);
if (mismatches.length) {
  L.push('', '**MISMATCH** (an engine disagrees with DuckDB):', '', ...mismatches.map((m) => `- ${m}`));
} else {
  L.push('', 'Every engine\'s checksum (count and per-column sums) equals DuckDB\'s in every case, pqt with and without pushdown included.');
}
fs.mkdirSync(path.dirname(outMd), { recursive: true });
fs.writeFileSync(outMd, L.join('\n') + '\n');
log(`report written to ${path.relative(REPO_DIR, outMd)} (raw: ${path.relative(REPO_DIR, outRaw)})`);
if (mismatches.length) {
  console.error('\n' + '!'.repeat(78) + '\npushdown: MISMATCH - an engine disagrees with DuckDB:\n' + mismatches.join('\n') + '\n' + '!'.repeat(78));
  process.exit(3);
}
