// report.mjs - the Markdown report of one benchmark run.
//
//   node bench/report.mjs --in bench/results/raw.jsonl [--out bench/results/latest.md]
//
// Writes the report to stdout (and --out). Exit status 3 when engines disagree on a checksum
// (the table says MISMATCH and the details are repeated on stderr), 0 otherwise.
import fs from 'node:fs';
import { parseArgs, valuesAgree } from './lib.mjs';
import { FILES, WORKLOADS, PHOT } from './workloads.mjs';

const args = parseArgs(process.argv.slice(2));
const recs = fs.readFileSync(args.in, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const meta = recs.find((r) => r.engine === 'meta') ?? {};
const threads = meta.threads ?? [1, 2];
const ENGINES = [['duckdb', 'DuckDB'], ['polars', 'Polars'], ['pqt', 'pqt']];
const PEERS = ['duckdb', 'polars'];

// ---- lookups ----
const key = (...a) => a.join('|');
const cells = new Map(); // engine|workload|file|threads -> best record (Polars: faster mode)
for (const r of recs) {
  if (!r.workload) continue;
  const k = key(r.engine, r.workload, r.file, r.threads);
  const old = cells.get(k);
  if (!old || (old.error && !r.error) || (!r.error && !old.error && r.median < old.median)) cells.set(k, r);
}
const cell = (e, w, f, t) => cells.get(key(e, w, f, t));
const present = new Set(recs.filter((r) => r.workload).map((r) => key(r.workload, r.file)));

// ---- formatting ----
const fmtMs = (ms) => {
  if (ms === undefined || ms === null || !Number.isFinite(ms)) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
};
const fmtRatio = (x) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const clip = (s, n = 60) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const esc = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const modeTag = (r) => (r.engine === 'polars' && r.mode ? (r.mode === 'streaming' ? ' (S)' : ' (M)') : '');
function show(r, { tag = true, n = 60 } = {}) {
  if (!r) return '—';
  // pqt_bench: a rule this build of pqt does not parse yet (the message is in the details)
  if (r.error && r.error.startsWith('unsupported:')) return 'unsupported';
  if (r.error) return `error: ${esc(clip(r.error, n))}`;
  return fmtMs(r.median) + (tag ? modeTag(r) : '');
}
const ok = (r) => r && !r.error && Number.isFinite(r.median);
const fmtNum = (x) => Number(x).toLocaleString('en-US');
// The best peer of a cell (the faster engine by median; Polars already its faster mode).
const bestPeer = (w, fk, t) => PEERS.map((e) => cell(e, w, fk, t)).filter(ok).sort((a, b) => a.median - b.median)[0];
const peerName = (r) => ENGINES.find(([e]) => e === r.engine)[1];
// a ÷ b: the medians' ratio, with the range the runs allow (a's fastest over b's slowest ..
// a's slowest over b's fastest).
const ratio = (a, b) => (ok(a) && ok(b)
  ? { med: a.median / b.median, lo: a.min / b.max, hi: a.max / b.min } : null);
const fmtRange = (q) => (q ? `${fmtRatio(q.med)} (${fmtRatio(q.lo)}–${fmtRatio(q.hi)})` : '—');

// ---- checks: every result of a workload on a file (all engines, thread counts, Polars
// modes) must agree; pqt-only workloads are checked against their `ref` workload. ----
const mismatches = [];
function check(w, fk) {
  const kinds = w.cols.map((c) => c.split(':')[1]);
  const names = w.cols.map((c) => c.split(':')[0]);
  let results = recs.filter((r) => r.workload === w.id && r.file === fk && !r.error && r.values);
  let refResults = [];
  if (w.ref) {
    const [rw, ...rcols] = w.ref;
    const rwl = WORKLOADS.find((x) => x.id === rw);
    const idx = rcols.map((c) => rwl.cols.findIndex((x) => x.split(':')[0] === c));
    refResults = recs.filter((r) => r.workload === rw && r.file === fk && !r.error && r.values)
      .map((r) => ({ ...r, values: idx.map((i) => r.values[i]), ref: true }));
  }
  // crossFiles: the other files hold the same rows (in another order), so their answers count too
  const cw = w.crossFiles ? w : w.ref ? WORKLOADS.find((x) => x.id === w.ref[0] && x.crossFiles) : null;
  const otherFiles = cw ? recs.filter((r) => r.workload === cw.id && r.file !== fk && !r.error && r.values)
    .map((r) => ({ ...r, ref: cw !== w, other: true })) : [];
  const all = [...results, ...refResults, ...otherFiles];
  const engines = new Set(all.map((r) => r.engine));
  const nfiles = new Set(all.map((r) => r.file)).size;
  const files = nfiles > 1 ? `, ${nfiles} files` : '';
  if (all.length < 2) return { text: all.length ? '— (one result)' : '—', engines: engines.size };
  const base = all[0];
  const bad = all.filter((r) => !valuesAgree(base.values, r.values, kinds));
  if (bad.length === 0) {
    return { text: w.ref ? `ok (vs ${w.ref[0]}, ${engines.size} engines${files})` : `ok (${engines.size} engines${files})`,
             engines: engines.size };
  }
  const desc = (r) => `${r.engine}${r.mode ? '/' + r.mode : ''} ${r.threads}t${r.ref ? ' ' + w.ref[0] : ''}` +
    `${r.other ? ' on ' + r.file : ''}`;
  const detail = bad.map((r) => `${desc(r)} [${r.values.join(', ')}] vs ${desc(base)} [${base.values.join(', ')}]`);
  mismatches.push(`${w.id} on ${fk} (${names.join(', ')}): ${detail.join('; ')}`);
  return { text: '**MISMATCH**', engines: engines.size };
}

const L = [];
const p = (s = '') => L.push(s);

// ---- header ----
p(`# pqt benchmark`);
p();
const cat = meta.catalogue;
p(`- date: ${meta.date ?? '?'}; machine: ${meta.cpu ?? '?'}, ${meta.cores ?? '?'} cores, ` +
  `${meta.mem_gib ? meta.mem_gib.toFixed(1) : '?'} GiB; ${meta.kernel ?? ''}`);
p(`- versions: pqt ${meta.pqt ?? '?'} (git ${meta.git || '?'}), DuckDB ${meta.duckdb ?? '?'} ` +
  `(@duckdb/node-api), Polars ${meta.polars ?? '?'} (nodejs-polars), node ${meta.node ?? '?'}, ${meta.cc ?? ''}`);
p(`- data: catalogue N = ${meta.n ? fmtNum(meta.n) : '?'} rows` +
  (cat ? '; ' + Object.entries(cat.files).map(([k, f]) => `${k}: ${(f.bytes / 1e6).toFixed(1)} MB, ${f.row_groups} row groups`).join('; ') : '') +
  (meta.wide ? `; wide: ${meta.wide.columns} cols x ${fmtNum(meta.wide.rows)} rows` : ''));
p(`- timing: each engine times inside its own process (start-up excluded), opens the file afresh in every run; ` +
  `warm-up + ${meta.runs ?? 5} runs, median shown (min–max in the details); warm page cache, except the cold ` +
  `workloads (W1c, W3c: the file's pages dropped before every run, "Cold cache" below).`);
p();

// ---- main table ----
const peerWls = WORKLOADS.filter((w) => !w.pqtOnly);
const hdr = ['workload', 'file'];
for (const [, name] of ENGINES) for (const t of threads) hdr.push(`${name} ${t}t`);
for (const t of threads) hdr.push(`best peer ${t}t`);
for (const t of threads) hdr.push(`pqt ÷ best ${t}t`);
hdr.push('check');
p(`## Workloads`);
p();
p('| ' + hdr.join(' | ') + ' |');
p('|' + hdr.map((h, i) => (i < 2 || h === 'check' ? ' --- ' : ' ---: ')).join('|') + '|');
for (const w of peerWls) {
  for (const fk of w.files) {
    if (!present.has(key(w.id, fk))) continue;
    const row = [`${w.id} ${esc(w.title)}`, FILES[fk].label];
    for (const [e] of ENGINES) {
      for (const t of threads) {
        if (e === 'pqt' && !w.pqt) row.push('n/a');
        else row.push(show(cell(e, w.id, fk, t)));
      }
    }
    const best = {};
    for (const t of threads) {
      const c = PEERS.map((e) => cell(e, w.id, fk, t)).filter(ok).sort((a, b) => a.median - b.median)[0];
      best[t] = c;
      row.push(c ? `${ENGINES.find(([e]) => e === c.engine)[1]} ${fmtMs(c.median)}` : '—');
    }
    for (const t of threads) {
      const q = cell('pqt', w.id, fk, t);
      row.push(!w.pqt ? 'n/a' : ok(q) && best[t] ? fmtRatio(q.median / best[t].median) : '—');
    }
    row.push(check(w, fk).text);
    p('| ' + row.join(' | ') + ' |');
    // pqt's "no pushdown" baseline of this workload, against the same best peer
    for (const bw of WORKLOADS.filter((x) => x.baselineOf === w.id)) {
      if (!present.has(key(bw.id, fk))) continue;
      const brow = [`${bw.id} ${esc(bw.title)}`, FILES[fk].label];
      for (const [e] of ENGINES) for (const t of threads) brow.push(e === 'pqt' ? show(cell('pqt', bw.id, fk, t)) : '—');
      for (const t of threads) brow.push(best[t] ? `${ENGINES.find(([e]) => e === best[t].engine)[1]} ${fmtMs(best[t].median)}` : '—');
      for (const t of threads) {
        const q = cell('pqt', bw.id, fk, t);
        brow.push(ok(q) && best[t] ? fmtRatio(q.median / best[t].median) : '—');
      }
      brow.push(check(bw, fk).text);
      p('| ' + brow.join(' | ') + ' |');
    }
  }
}
p();
p(`Polars: the faster of its two engines per cell, (M) in-memory, (S) streaming. ` +
  `pqt ÷ best < 1.0: pqt is faster than the best peer. n/a: pqt cannot do this workload yet. ` +
  `W2, W3, W4, W13 for pqt: filters at open, then \`pqt_table_get_alloc\` of the columns summed; the ` +
  `W2n, W3n, W4n, W13n rows beneath are pqt without pushdown (every needed column read whole, the ` +
  `predicate evaluated in C), compared with the same best peer.`);
if (Object.keys(PHOT).some((id) => [...present].some((k) => k.startsWith(id + '|')))) {
  p();
  p(`W14–W16 (photometric cuts, the same expression in every engine): pqt gets it as one filter rule ` +
    `(\`PQT_OPT_FILTER\`), "unsupported" while this build does not parse it. Under each, pqt only: ` +
    `W14c–W16c the same test as a C callback (\`pqt_filter_add_callback\`) beside the plain rule a user ` +
    `would add so that statistics can prune; W14n–W16n no pushdown (the cut's columns and the payload ` +
    `read whole, the mask in C): the floor of decoding what the cut needs. "sorted by r" holds the same ` +
    `rows ordered by r in ten row groups; every file's answer must agree.`);
}
if (WORKLOADS.some((w) => w.exportFormat && present.has(key(w.id, 'snappy')))) {
  p();
  p(`X1, X2 (exports): pqt is the whole \`pqt cat FILE --format csv|jsonl\` process, output to /dev/null, ` +
    `timed from outside (start-up included; threads = OMP_NUM_THREADS); DuckDB is \`COPY (SELECT * ...) TO ` +
    `'/dev/null'\` timed inside node. The check compares the rows each wrote.`);
}
p();

// ---- issue 33's goals: each ratio against its bound ----
{
  const G = []; // [goal, workload, file, threads, measure, ratio {med,lo,hi}, bound, floorRatio]
  for (const id of ['W2', 'W3', 'W4', 'W1']) {
    const w = WORKLOADS.find((x) => x.id === id);
    for (const fk of w.files) {
      if (!present.has(key(id, fk))) continue;
      if (id === 'W1' && fk !== 'snappy') continue;
      const bound = id === 'W1' ? 0.8 : fk === 'snappy' ? 0.6 : 0.8;
      for (const t of threads) {
        const b = bestPeer(id, fk, t);
        const fl = cell('floor', id, fk, t);
        G.push([`${id} ≤ ${bound} × best peer`, id, fk, t, `pqt ÷ ${b ? peerName(b) : 'best peer'}`,
          ratio(cell('pqt', id, fk, t), b), bound, ok(fl) && b ? fl.min / b.median : null]);
      }
    }
  }
  for (const [tw, uw] of [['W1', 'W1t'], ['W5', 'W5t'], ['W9', 'W9t']]) {
    for (const fk of Object.keys(FILES)) {
      if (!present.has(key(uw, fk))) continue;
      for (const t of threads) {
        const a = cell('pqt', uw, fk, t);
        const b = cell('pqt', tw, fk, t);
        G.push([`${uw} ≤ 1.1 × ${tw}`, uw, fk, t, 'time', ratio(a, b), 1.1, null]);
        const rss = ok(a) && ok(b) && a.maxrss_kb > 0 && b.maxrss_kb > 0 ? a.maxrss_kb / b.maxrss_kb : null;
        G.push([`${uw} ≤ 1.1 × ${tw}`, uw, fk, t, 'peak RSS', rss === null ? null : { med: rss }, 1.1, null]);
      }
    }
  }
  for (const w of WORKLOADS.filter((x) => x.f1Base)) {
    for (const fk of w.files) {
      if (!present.has(key(w.id, fk))) continue;
      for (const t of threads) {
        G.push([`${w.id} ≤ 1.1 × ${w.f1Base}`, w.id, fk, t, `pqt ÷ pqt ${w.f1Base}`,
          ratio(cell('pqt', w.id, fk, t), cell('pqt', w.f1Base, fk, t)), 1.1, null]);
      }
    }
  }
  if (G.length) {
    p(`## Issue 33 goals`);
    p();
    p(`Each goal's ratio: the medians' quotient, with the range the runs allow in parentheses (the numerator's ` +
      `fastest run over the denominator's slowest .. its slowest over the other's fastest; peak RSS has one value ` +
      `per cell). Best peer: the faster of DuckDB and Polars by median, per cell. **met**: median ≤ bound. ` +
      `**below floor**: not met, and the floor of the workload (pread + decompress of the chunks it must read, ` +
      `"pqt against the floor"; its fastest run, the least disturbed by other work) ÷ the best peer's median ` +
      `already exceeds the bound, so no reader decoding this file can meet it. **not met**: otherwise. W1t/W5t/W9t: the README's path ÷ the tuned path, in time and in peak ` +
      `RSS; F1*: the filtered read ÷ the unfiltered one (pqt both).`);
    p();
    p('| goal | file | threads | measure | ratio (min–max) | bound | floor (fastest) ÷ best peer | status |');
    p('| --- | --- | ---: | --- | ---: | ---: | ---: | --- |');
    const counts = { met: 0, 'not met': 0, 'below floor': 0, '—': 0 };
    for (const [goal, , fk, t, measure, q, bound, fr] of G) {
      const status = !q ? '—' : q.med <= bound ? 'met' : fr !== null && fr > bound ? 'below floor' : 'not met';
      counts[status]++;
      const rtext = !q ? '—' : Number.isFinite(q.lo) ? fmtRange(q) : fmtRatio(q.med);
      p(`| ${goal} | ${FILES[fk].label} | ${t} | ${measure} | ${rtext} | ${bound} | ` +
        `${fr === null ? '—' : fmtRatio(fr)} | ${status === 'met' || status === '—' ? status : `**${status}**`} |`);
    }
    p();
    p(`${counts.met} met, ${counts['not met']} not met, ${counts['below floor']} below floor` +
      `${counts['—'] ? `, ${counts['—']} not measured (a cell failed or did not run)` : ''}.`);
    p();
  }
}

// ---- pqt against the physical limit ----
const catFiles = Object.keys(FILES).filter((f) => FILES[f].catalogue && present.has(key('W1', f)));
const mem = Object.fromEntries(threads.map((t) => [t, recs.find((r) => r.engine === 'memcpy' && r.threads === t)]));
const floorWls = WORKLOADS.filter((w) => w.floor && [...present].some((k) => k.startsWith(w.id + '|')));
p(`## pqt against the floor (${floorWls.map((w) => w.id).join(', ') || 'W1'})`);
p();
p(`memcpy bandwidth: ` + threads.map((t) => `${t}t ${mem[t] && !mem[t].error ? mem[t].gbps.toFixed(1) + ' GB/s' : 'error: ' + (mem[t]?.error ?? 'missing')}`).join(', ') + '.');
p(`Floor = open + footer + pread + decompress of the column chunks the workload must read, with pqt's codec ` +
  `layer, no decoding (bench/floor.c): W1 ra, dec, mass, z; W2 id and ra of the row groups whose id ` +
  `statistics overlap the range; W3 survey, ra, dec, mass, z (every page holds 'rare' rows); W4 mass, ra; ` +
  `W1c, W3c the same as W1, W3 from a cold page cache. "floor ÷ best peer" above a goal (issue 33 goals ` +
  `below) means no reader decoding these files can meet it there. W2 on a file with a page index (Polars'): ` +
  `only the pages whose id bounds overlap the range and the ra pages of the same rows (the indexes read too); ` +
  `"chunks" counts (row group, column) pairs.`);
p();
{
  const h = ['workload', 'file', 'codec', 'row groups', 'chunks', 'pages (with CRC)', 'read MB', 'decompressed MB'];
  for (const t of threads) h.push(`floor ${t}t`);
  for (const t of threads) h.push(`pqt ${t}t`);
  for (const t of threads) h.push(`best peer ${t}t`);
  for (const t of threads) h.push(`pqt ÷ floor ${t}t`);
  for (const t of threads) h.push(`floor ÷ best peer ${t}t`);
  h.push(`memcpy of W1 output ${threads[0]}t`);
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i < 3 ? ' --- ' : ' ---: ')).join('|') + '|');
  for (const w of floorWls) {
    for (const fk of w.files) {
      if (!present.has(key(w.id, fk))) continue;
      const fl = Object.fromEntries(threads.map((t) => [t, cell('floor', w.id, fk, t)]));
      const any = Object.values(fl).find(ok);
      const row = [w.id, FILES[fk].label, any?.codec ?? '—',
        any && Number.isFinite(any.row_groups) ? `${any.row_groups} of ${cat?.files?.[fk]?.row_groups ?? '?'}` : '—',
        any ? any.chunks : '—', any ? `${fmtNum(any.pages)} (${fmtNum(any.crc_pages)})` : '—',
        any ? (any.bytes_read / 1e6).toFixed(1) : '—', any ? (any.bytes_decompressed / 1e6).toFixed(1) : '—'];
      for (const t of threads) row.push(show(fl[t], { n: 50 }));
      for (const t of threads) row.push(show(cell('pqt', w.id, fk, t), { n: 50 }));
      for (const t of threads) {
        const b = bestPeer(w.id, fk, t);
        row.push(b ? `${peerName(b)} ${fmtMs(b.median)}` : '—');
      }
      for (const t of threads) {
        const q = cell('pqt', w.id, fk, t);
        row.push(ok(q) && ok(fl[t]) ? fmtRatio(q.median / fl[t].median) + '×' : '—');
      }
      for (const t of threads) {
        const b = bestPeer(w.id, fk, t);
        row.push(ok(fl[t]) && b ? fmtRatio(fl[t].median / b.median) : '—');
      }
      // ra, dec, mass as 8 bytes + z as 4 bytes per row, copied once at memcpy speed
      const m = mem[threads[0]];
      row.push(w.id === 'W1' && m && !m.error && meta.n ? fmtMs((meta.n * 28) / (m.gbps * 1e6)) : '—');
      p('| ' + row.join(' | ') + ' |');
    }
  }
}
p();

// ---- cold cache (W1c, W3c): every run from a page cache without the file ----
const coldWls = WORKLOADS.filter((w) => w.cold && w.files.some((fk) => present.has(key(w.id, fk))));
if (coldWls.length) {
  p(`## Cold cache (${coldWls.map((w) => w.id).join(', ')})`);
  p();
  const evs = recs.filter((r) => r.evict && coldWls.some((w) => w.id === r.workload));
  const methods = [...new Set(evs.map((r) => r.evict.method))];
  p(`Every engine's warm-up and timed runs start with the file's pages dropped from the page cache, untimed, ` +
    `by \`pqt_evict\` (bench/evict.c): pqt_bench and pqt_floor spawn it before each run (\`--evict\`), the ` +
    `node runners through a hook of \`timeRuns\` (bench/lib.mjs), so the peers stay in their one process. ` +
    `Method used: ${methods.length ? methods.map((m) => `**${m}**`).join(', ') : '— (no eviction recorded)'} ` +
    `(drop: \`sync; echo 3 > /proc/sys/vm/drop_caches\`, the whole machine's clean cache; fadvise: ` +
    `\`posix_fadvise(POSIX_FADV_DONTNEED)\` over the file). Check: \`mincore\` over an mmap of the file, the ` +
    `file's resident pages before and after each eviction (min–max over every eviction of the cell, all engines). ` +
    `A cold run still reads through the host's cache when the machine is virtual. Warm = W1, W3 of the same run. ` +
    `Pages still resident after an eviction ("not evicted") mean another process read or mapped the file between ` +
    `the eviction and the check (e.g. other work on the same data files); those runs started partly warm.`);
  p();
  const h = ['workload', 'file', 'threads'];
  for (const [, name] of ENGINES) h.push(`${name} cold (warm)`);
  h.push('floor cold (warm)', 'pqt ÷ best peer cold', 'pqt cold ÷ warm', 'evictions', 'resident pages before → after');
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i < 3 ? ' --- ' : ' ---: ')).join('|') + '|');
  const warmId = (w) => w.id.replace(/c$/, '');
  const span = (a) => (a.length ? (Math.min(...a) === Math.max(...a) ? fmtNum(a[0]) : `${fmtNum(Math.min(...a))}–${fmtNum(Math.max(...a))}`) : '—');
  for (const w of coldWls) {
    for (const fk of w.files) {
      if (!present.has(key(w.id, fk))) continue;
      for (const t of threads) {
        const row = [w.id, FILES[fk].label, `${t}`];
        for (const e of [...ENGINES.map(([x]) => x), 'floor']) {
          const c = cell(e, w.id, fk, t);
          const wm = cell(e, warmId(w), fk, t);
          row.push(`${show(c, { n: 40 })} (${ok(wm) ? fmtMs(wm.median) + modeTag(wm) : '—'})`);
        }
        const q = cell('pqt', w.id, fk, t);
        const b = bestPeer(w.id, fk, t);
        row.push(ok(q) && b ? `${fmtRatio(q.median / b.median)} (vs ${peerName(b)})` : '—');
        row.push(fmtRange(ratio(q, cell('pqt', warmId(w), fk, t))));
        const ev = recs.filter((r) => r.workload === w.id && r.file === fk && r.threads === t && r.evict);
        const before = ev.flatMap((r) => r.evict.before);
        const after = ev.flatMap((r) => r.evict.after);
        const pages = ev.find((r) => r.evict.pages)?.evict.pages;
        row.push(`${before.length}`);
        row.push(before.length ? `${span(before)} → ${span(after)} of ${fmtNum(pages)}` +
          (Math.max(...after) > 0 ? ' **(not evicted)**' : '') : '—');
        p('| ' + row.join(' | ') + ' |');
      }
    }
  }
  p();
}

// ---- F1: a filter keeping every row, against the same read unfiltered ----
const f1Wls = WORKLOADS.filter((w) => w.f1Base && w.files.some((fk) => present.has(key(w.id, fk))));
if (f1Wls.length) {
  p(`## F1: a filter that keeps every row, then its own column read`);
  p();
  p(`Each engine: count and sum of mass with the filter, ÷ the same without it (F1u). pqt goes the README's ` +
    `path (\`pqt_table_open\` with the rule as \`PQT_OPT_FILTER\`, \`pqt_table_nrows\`, ` +
    `\`pqt_table_get_alloc\` of mass). Goal (issue 33): pqt's filtered read ≤ 1.1 × its unfiltered read, i.e. ` +
    `the filter column decoded once. "kept whole": row groups statistics proved every row passes (no filter ` +
    `column decoded there); values decoded: the last run's \`pqt_table_scan_stats\`, filtered / unfiltered.`);
  p();
  const h = ['workload', 'file', 'threads', 'pqt filtered', 'pqt F1u', 'pqt ÷ F1u (min–max)', 'goal ≤ 1.1',
    'kept whole', 'values decoded', 'DuckDB ÷ its F1u', 'Polars ÷ its F1u'];
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i < 3 ? ' --- ' : ' ---: ')).join('|') + '|');
  for (const w of f1Wls) {
    for (const fk of w.files) {
      if (!present.has(key(w.id, fk))) continue;
      for (const t of threads) {
        const a = cell('pqt', w.id, fk, t);
        const b = cell('pqt', w.f1Base, fk, t);
        const q = ratio(a, b);
        const sc = ok(a) ? a.scan : null;
        const sb = ok(b) ? b.scan : null;
        const peerQ = (e) => { const r = ratio(cell(e, w.id, fk, t), cell(e, w.f1Base, fk, t)); return r ? fmtRatio(r.med) : '—'; };
        p(`| ${w.id} ${esc(w.title)} | ${FILES[fk].label} | ${t} | ${show(a, { n: 40 })} | ${show(b, { n: 40 })} | ` +
          `${fmtRange(q)} | ${q ? (q.med <= 1.1 ? 'met' : '**not met**') : '—'} | ` +
          `${sc ? `${sc.kept_whole} of ${sc.row_groups}` : '—'} | ` +
          `${sc && sb ? `${fmtNum(sc.values_decoded)} / ${fmtNum(sb.values_decoded)}` : '—'} | ${peerQ('duckdb')} | ${peerQ('polars')} |`);
      }
    }
  }
  p();
}

// ---- CRC on/off ----
p(`## Cost of CRC verification (pqt W1, PQT_OPT_VERIFY_CRC 1 vs 0)`);
p();
{
  const h = ['file'];
  for (const t of threads) h.push(`CRC on ${t}t`, `CRC off ${t}t`, `cost ${t}t`);
  h.push('pages with CRC (W1 columns)');
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|') + '|');
  for (const fk of catFiles) {
    const row = [FILES[fk].label];
    for (const t of threads) {
      const on = cell('pqt', 'W1', fk, t);
      const off = cell('pqt', 'W1nocrc', fk, t);
      row.push(show(on, { n: 40 }), show(off, { n: 40 }),
        ok(on) && ok(off) ? `${((on.median / off.median - 1) * 100).toFixed(1)}%` : '—');
    }
    const fl = threads.map((t) => cell('floor', 'W1', fk, t)).find(ok);
    row.push(fl ? `${fmtNum(fl.crc_pages)} of ${fmtNum(fl.pages)}` : '—');
    p('| ' + row.join(' | ') + ' |');
  }
  const fl = recs.filter((r) => r.engine === 'floor' && ok(r));
  if (fl.length && fl.every((r) => r.crc_pages === 0)) {
    p();
    p(`No page of these files carries a CRC (neither DuckDB nor Polars writes page checksums), ` +
      `so this measures only what the option costs when there is nothing to verify.`);
  }
}
p();

// ---- S1 slice ----
p(`## S1: slice of the middle quarter of the row groups (sum ra), against the whole file (W1ra)`);
p();
{
  const h = ['file', 'row groups', 'slice rows / N'];
  for (const t of threads) h.push(`S1 ${t}t`, `W1ra ${t}t`, `S1 ÷ W1ra ${t}t`);
  h.push('check');
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|') + '|');
  for (const fk of catFiles) {
    if (!present.has(key('S1', fk))) continue;
    const s1 = threads.map((t) => cell('pqt', 'S1', fk, t)).find(ok);
    const row = [FILES[fk].label, cat?.files?.[fk]?.row_groups ?? '—',
      s1 && meta.n ? (s1.values[0] / meta.n).toFixed(3) : '—'];
    for (const t of threads) {
      const a = cell('pqt', 'S1', fk, t);
      const b = cell('pqt', 'W1ra', fk, t);
      row.push(show(a, { n: 40 }), show(b, { n: 40 }), ok(a) && ok(b) ? fmtRatio(a.median / b.median) : '—');
    }
    row.push(check(WORKLOADS.find((w) => w.id === 'W1ra'), fk).text);
    p('| ' + row.join(' | ') + ' |');
  }
}
p();
p(`S1 ÷ W1ra should approach "slice rows / N": reading a slice costs only its row groups.`);
p();

// ---- T2 per-thread pattern ----
p(`## T2: per-thread pattern (each OpenMP thread opens its own row groups, reads mass)`);
p();
{
  const h = ['file', 'row groups'];
  for (const t of threads) h.push(`T2 ${t}t`);
  if (threads.length > 1) h.push(`speed-up ${threads[threads.length - 1]}t vs ${threads[0]}t`);
  h.push('check');
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|') + '|');
  for (const fk of catFiles) {
    if (!present.has(key('T2', fk))) continue;
    const row = [FILES[fk].label, cat?.files?.[fk]?.row_groups ?? '—'];
    for (const t of threads) row.push(show(cell('pqt', 'T2', fk, t), { n: 50 }));
    if (threads.length > 1) {
      const a = cell('pqt', 'T2', fk, threads[0]);
      const b = cell('pqt', 'T2', fk, threads[threads.length - 1]);
      row.push(ok(a) && ok(b) ? `${fmtRatio(a.median / b.median)}×` : '—');
    }
    row.push(check(WORKLOADS.find((w) => w.id === 'T2'), fk).text);
    p('| ' + row.join(' | ') + ' |');
  }
}
p();
// ---- the photometric cuts: what pqt decoded, against what statistics can prove ----
{
  const rows = [];
  for (const id of Object.keys(PHOT)) {
    const w = WORKLOADS.find((x) => x.id === id);
    for (const fk of w.files) {
      if (!present.has(key(id, fk))) continue;
      const st = cat?.files?.[fk]?.stats;
      // No min/max: the column is all NULL in that row group (an empty interval), or has no
      // statistics (any value). A row group without a needed column proves nothing.
      const bounds = (g) => Object.fromEntries(Object.entries(g).map(([c, v]) => [c,
        !v || typeof v !== 'object' || (v.min !== null && v.max !== null) ? v
          : v.nulls === g.rows ? { min: Infinity, max: -Infinity } : { min: -Infinity, max: Infinity }]));
      const empty = st ? st.filter((g) => { try { return PHOT[id].empty(bounds(g)); } catch { return false; } }).length : null;
      const at = (wid) => threads.map((t) => cell('pqt', wid, fk, t)).find((r) => ok(r) && r.scan)?.scan;
      const [e, c, n] = [at(id), at(`${id}c`), at(`${id}n`)];
      const pr = (x) => (x ? `${x.pruned_stats}` : '—');
      const goal = e && empty !== null ? (e.row_groups - e.pruned_stats <= st.length - empty ? 'met' : '**MISSED**') : '—';
      rows.push([id, FILES[fk].label, st ? st.length : (e ?? c)?.row_groups ?? '—', empty ?? '—', pr(e), goal, pr(c),
        [e, c, n].map((x) => (x ? fmtNum(x.values_decoded) : '—')).join(' / ')]);
    }
  }
  if (rows.length) {
    p(`## Photometric cuts (W14–W16): row groups pruned by statistics`);
    p();
    p(`"Provably empty": row groups whose statistics (min/max of g, r, flux, from the file's metadata) ` +
      `show by interval arithmetic that no row passes the cut, e.g. g max − r min ≤ 0.5 for the colour cut. ` +
      `Goal: the expression decodes only the row groups it cannot prune (pruned = provably empty). ` +
      `Values decoded: every column, the last timed run.`);
    p();
    p('| workload | file | row groups | provably empty | pqt expression: pruned | goal | pqt callback + rule: pruned | values decoded: expression / callback / no pushdown |');
    p('| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |');
    for (const r of rows) p('| ' + r.join(' | ') + ' |');
    p();
  }
}

// ---- datasets (D1..D5): what pqt opened and pruned, file by file ----
{
  const ids = WORKLOADS.filter((w) => /^D\d$/.test(w.id)).map((w) => w.id);
  const rows = [];
  for (const id of ids) {
    const w = WORKLOADS.find((x) => x.id === id);
    for (const fk of w.files) {
      if (!present.has(key(id, fk))) continue;
      for (const t of threads) {
        const r = cell('pqt', id, fk, t);
        const sc = ok(r) ? r.scan : null;
        const v = (f) => (sc && Number.isFinite(sc[f]) ? fmtNum(sc[f]) : '—');
        // the goal: a footer is read for every file partition values did not prune, no more
        const goal = sc && Number.isFinite(sc.footers_read)
          ? (sc.footers_read <= sc.files - sc.files_pruned_partition ? 'met' : '**MISSED**') : '—';
        rows.push([id, FILES[fk].label, `${t}t`, v('files'), v('files_pruned_partition'),
          v('files_pruned_stats'), v('footers_read'), goal, v('row_groups'), v('pruned_stats')]);
      }
    }
  }
  if (rows.length) {
    p('## Datasets (D1–D5): files pqt opened and pruned');
    p();
    p('The last timed run\'s `pqt_table_scan_stats`. Goal: footers read ≤ files not pruned by ' +
      'partition values (or by HEALPix pixel, D5). "—": this build reports no such counter, or the cell failed.');
    p();
    p('| workload | dataset | threads | files | pruned by partition | pruned by statistics | footers read | goal | row groups | row groups pruned |');
    p('| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
    for (const r of rows) p('| ' + r.join(' | ') + ' |');
    p();
  }
}

// ---- the README's path against the tuned path ----
const PAIRS = [['W1', 'W1t'], ['W5', 'W5t'], ['W9', 'W9t']];
if (PAIRS.some(([, u]) => catFiles.some((fk) => present.has(key(u, fk))))) {
  p(`## The README's path against the tuned path (W1, W5, W9)`);
  p();
  p(`Tuned: \`pqt_file_read_into\` into buffers the process reuses across runs (W1), \`pqt_file_read\` ` +
    `(W5, W9). README: \`pqt_table_open\`, then \`pqt_table_get_alloc\` (W1, W9) or ` +
    `\`pqt_table_get_strings_alloc\` (W5) per column into fresh memory, summed, \`pqt_free\`. Goal: README ÷ tuned ≤ 1.1.`);
  p();
  const h = ['workload', 'file'];
  for (const t of threads) h.push(`tuned ${t}t`, `README ${t}t`, `README ÷ tuned ${t}t`, `README ÷ best peer ${t}t`);
  h.push('check');
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|') + '|');
  for (const [tw, uw] of PAIRS) {
    for (const fk of catFiles) {
      if (!present.has(key(uw, fk))) continue;
      const row = [`${tw} / ${uw}`, FILES[fk].label];
      for (const t of threads) {
        const a = cell('pqt', tw, fk, t);
        const b = cell('pqt', uw, fk, t);
        const bp = PEERS.map((e) => cell(e, tw, fk, t)).filter(ok).sort((x, y) => x.median - y.median)[0];
        row.push(show(a, { n: 40 }), show(b, { n: 40 }), ok(a) && ok(b) ? fmtRatio(b.median / a.median) : '—',
          ok(b) && bp ? fmtRatio(b.median / bp.median) : '—');
      }
      row.push(check(WORKLOADS.find((w) => w.id === uw), fk).text);
      p('| ' + row.join(' | ') + ' |');
    }
  }
  p();
}

// ---- before and after: BENCH_BASE_BUILD ran another build of pqt beside this one ----
if (recs.some((r) => r.engine === 'pqt-base')) {
  p(`## Before and after (this build ÷ the base build)`);
  p();
  p(`The base build (\`BENCH_BASE_BUILD\`, another commit) ran every pqt cell immediately before this ` +
    `build, on the same files in the same run. Median (min–max) in ms; the ratio is this build's median ` +
    `over the base's, with the range min(this)/max(base) – max(this)/min(base); < 1.0: faster now.`);
  p();
  p('| workload | file | threads | base | this build | this ÷ base (range) | max RSS MB base / this |');
  p('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  const mm = (r) => `${fmtMs(r.median)} (${fmtMs(r.min)}–${fmtMs(r.max)})`;
  for (const w of WORKLOADS) {
    for (const fk of Object.keys(FILES)) {
      for (const t of threads) {
        const a = cell('pqt-base', w.id, fk, t);
        const b = cell('pqt', w.id, fk, t);
        if (!a && !b) continue;
        const ratio = ok(a) && ok(b)
          ? `${fmtRatio(b.median / a.median)} (${fmtRatio(b.min / a.max)}–${fmtRatio(b.max / a.min)})` : '—';
        const rss = (r) => (r && Number.isFinite(r.maxrss_kb) ? (r.maxrss_kb / 1024).toFixed(0) : '—');
        p(`| ${w.id} | ${FILES[fk].label} | ${t} | ${ok(a) ? mm(a) : show(a)} | ${ok(b) ? mm(b) : show(b)} | ` +
          `${ratio} | ${rss(a)} / ${rss(b)} |`);
      }
    }
  }
  p();
}

// ---- peak memory ----
const mb = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : '—');
if (recs.some((r) => Number.isFinite(r.maxrss_kb))) {
  p(`## Peak memory (max RSS, MB)`);
  p();
  p(`Peak resident set of the process during the cell (warm-up and timed runs): pqt runs one process per ` +
    `cell and reads VmHWM at its end; the peers run every cell in one node process, which resets the peak ` +
    `before each cell (\`/proc/self/clear_refs\`), so their figure includes what the process already held ` +
    `(node, the engine, its caches). That baseline (RSS at the start of the cell) is in parentheses.`);
  p();
  const h = ['workload', 'file'];
  for (const [, name] of ENGINES) for (const t of threads) h.push(`${name} ${t}t`);
  p('| ' + h.join(' | ') + ' |');
  p('|' + h.map((x, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|') + '|');
  const memCell = (r) => (r && !r.error && Number.isFinite(r.maxrss_kb)
    ? `${mb(r.maxrss_kb)}` + (Number.isFinite(r.rss_start_kb) ? ` (${mb(r.rss_start_kb)})` : '') : '—');
  const memRows = [];
  for (const w of peerWls) {
    if (w.exportFormat) continue;
    memRows.push(w);
    memRows.push(...WORKLOADS.filter((x) => x.baselineOf === w.id));
  }
  memRows.push(...WORKLOADS.filter((x) => PAIRS.some(([, u]) => u === x.id)));
  for (const w of memRows) {
    for (const fk of w.files) {
      if (!present.has(key(w.id, fk))) continue;
      const row = [`${w.id}`, FILES[fk].label];
      for (const [e] of ENGINES) for (const t of threads) row.push(memCell(cell(e, w.id, fk, t)));
      p('| ' + row.join(' | ') + ' |');
    }
  }
  p();
}

// W1nocrc is checked too (against W1); its result only shows in the details.
for (const fk of catFiles) if (present.has(key('W1nocrc', fk))) check(WORKLOADS.find((w) => w.id === 'W1nocrc'), fk);

// ---- checks ----
if (mismatches.length) {
  p(`## CHECKSUM MISMATCHES`);
  p();
  for (const m of mismatches) p(`- **MISMATCH** ${esc(m)}`);
  p();
}

// ---- details ----
p(`<details><summary>All cells: median, min–max, checksum</summary>`);
p();
p('| engine | workload | file | threads | median | min–max | max RSS MB | values / error |');
p('| --- | --- | --- | ---: | ---: | ---: | ---: | --- |');
for (const r of recs) {
  if (!r.workload) continue;
  const eng = r.engine + (r.mode ? ` (${r.mode})` : '') + (r.crc === 0 ? ' crc 0' : '');
  p(`| ${eng} | ${r.workload} | ${r.file} | ${r.threads} | ${r.error ? '—' : fmtMs(r.median)} | ` +
    `${r.error ? '—' : `${fmtMs(r.min)} – ${fmtMs(r.max)}`} | ${r.error ? '—' : mb(r.maxrss_kb)} | ` +
    `${r.error ? 'error: ' + esc(r.error) : (r.values ?? []).map((v) => (Number.isInteger(v) ? v : Number(v).toPrecision(12))).join(', ')} |`);
}
p();
p(`</details>`);

const text = L.join('\n') + '\n';
process.stdout.write(text);
if (args.out) fs.writeFileSync(args.out, text);
if (mismatches.length) {
  console.error('\n' + '!'.repeat(78));
  console.error(`!!! CHECKSUM MISMATCH: the engines disagree (${mismatches.length}):`);
  for (const m of mismatches) console.error('!!! ' + m);
  console.error('!'.repeat(78));
  process.exit(3);
}
