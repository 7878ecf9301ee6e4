#!/usr/bin/env node
// make_expected_polars.mjs - expected `pqt cat FILE --format jsonl` output for the corpus files
// DuckDB cannot read (polars_files.mjs), with Polars (nodejs-polars, pinned in
// package-lock.json) as the independent reader.
//
// Usage (from tests/golden/tool, after `npm ci`):
//   node make_expected_polars.mjs [--corpus DIR] [--out DIR]
//
// The columns, keys and kinds follow the jsonl contract from the Parquet schema, exactly as for
// make_expected.mjs (../../interop/contract.mjs): the schema comes from DuckDB's
// parquet_schema() where DuckDB can list it, otherwise from the parquet-cli printout in the
// corpus' own .md. Polars supplies the values (../../interop/readers.mjs). Where the corpus
// states values, they are checked; where a similar file is readable by DuckDB, the two are
// compared and the result reported. Writes <out>/<name>.jsonl (and .summary.json over 1000
// rows) and <out>/REPORT_POLARS.txt; make_expected.mjs leaves these names alone.

import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildTree, classify, lit } from '../../interop/contract.mjs';
import { readPolars } from '../../interop/readers.mjs';
import { POLARS_FILES } from './polars_files.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const COMPARE_PY = path.resolve(HERE, '..', 'compare.py');
const MAX_ROWS = 1000; // as make_expected.mjs

let corpus = path.resolve(HERE, '../../data/parquet-testing/data');
let outDir = path.resolve(HERE, '../expected');
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--corpus') corpus = path.resolve(a[++i]);
    else if (a[i] === '--out') outDir = path.resolve(a[++i]);
    else { console.error(`unknown argument ${a[i]}`); process.exit(2); }
  }
}
fs.mkdirSync(outDir, { recursive: true });

// ---------------------------------------------------------------------------------------------
// parquet-cli's "message schema { ... }" printout -> the tree contract.mjs classifies (the same
// node shape buildTree() makes from parquet_schema() rows).
const PRIMITIVE = { boolean: 'BOOLEAN', int32: 'INT32', int64: 'INT64', int96: 'INT96', float: 'FLOAT',
  double: 'DOUBLE', binary: 'BYTE_ARRAY', fixed_len_byte_array: 'FIXED_LEN_BYTE_ARRAY' };
function schemaFromMd(mdText) {
  const m = mdText.match(/Schema:\s*\n(message\s+\w+\s*\{[\s\S]*?\n\})/);
  if (!m) throw new Error('no "Schema:" message block in the .md');
  const tokens = m[1].replace(/([{};])/g, ' $1 ').split(/\s+/).filter(Boolean);
  let pos = 0;
  const node = (name, rep, type, ann) => ({
    name, type, typeLength: null, rep, converted: ann, logical: null, scale: null, precision: null,
    nchildren: 0, children: [], isGroup: type === null,
  });
  function group(n) {
    if (tokens[pos++] !== '{') throw new Error('expected {');
    while (tokens[pos] !== '}') {
      const rep = tokens[pos++].toUpperCase();
      const t = tokens[pos++];
      const name = tokens[pos++];
      let ann = null;
      if (tokens[pos] && tokens[pos].startsWith('(')) ann = tokens[pos++].replace(/[()]/g, '').toUpperCase();
      if (t === 'group') {
        const g = node(name, rep, null, ann);
        group(g);
        n.children.push(g);
      } else {
        if (!PRIMITIVE[t]) throw new Error(`unknown primitive ${t}`);
        if (tokens[pos++] !== ';') throw new Error(`expected ; after ${name}`);
        n.children.push(node(name, rep, PRIMITIVE[t], ann));
      }
    }
    pos++;
    n.nchildren = n.children.length;
  }
  if (tokens[pos++] !== 'message') throw new Error('expected message');
  const root = node(tokens[pos++], null, null, null);
  group(root);
  return root;
}

// ---------------------------------------------------------------------------------------------
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
const report = [];
const log = (s) => { report.push(s); console.log(s); };

for (const [name, spec] of Object.entries(POLARS_FILES)) {
  const file = path.join(corpus, name);
  const out = path.join(outDir, `${name}.jsonl`);
  const summaryOut = path.join(outDir, `${name}.summary.json`);
  for (const p of [out, summaryOut]) if (fs.existsSync(p)) fs.unlinkSync(p);
  let cols = null, omitted = [];
  if (spec.schemaFromMd) {
    ({ cols, omitted } = classify(schemaFromMd(fs.readFileSync(path.join(corpus, spec.schemaFromMd), 'utf8'))));
  } else {
    ({ cols, omitted } = classify(buildTree((await con.runAndReadAll(`select * from parquet_schema(${lit(file)})`)).getRowObjects())));
  }
  const { keys, lines, dropped } = await readPolars(pl, con, file, cols);
  if (dropped.length) throw new Error(`${name}: Polars cannot give ${dropped.map((d) => d.key).join(', ')}`);
  const notes = [`${name}: ${lines.length} rows, ${keys.length} columns, values from Polars (${spec.why})`];
  if (spec.schemaFromMd) notes.push(`    schema from ${spec.schemaFromMd} (DuckDB cannot list it)`);
  for (const o of omitted) notes.push(`    omitted ${o.key}: ${o.why}`);

  // Values the corpus documents must come out exactly.
  for (const [key, want] of Object.entries(spec.mdValues || {})) {
    const got = lines.map((l) => JSON.stringify(JSON.parse(l)[key]));
    if (JSON.stringify(got) !== JSON.stringify(want))
      throw new Error(`${name}: Polars gives ${key} = ${got.join(' ')}, ${spec.schemaFromMd} states ${want.join(' ')}`);
    notes.push(`    ${key} equals the values stated in ${spec.schemaFromMd}: ${want.join(' ')}`);
  }

  const text = lines.map((l) => l + '\n');
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqt-golden-polars-'));
  const full = path.join(tmpDir, 'full.jsonl');
  fs.writeFileSync(full, text.join(''));
  if (text.length > MAX_ROWS) {
    fs.writeFileSync(summaryOut, execFileSync('python3', [COMPARE_PY, '--make-summary', full], { encoding: 'utf8' }));
    fs.writeFileSync(out, text.slice(0, MAX_ROWS).join(''));
    notes.push(`    ${text.length} rows: first ${MAX_ROWS} in the jsonl, summary over all in ${path.basename(summaryOut)}`);
  } else {
    fs.writeFileSync(out, text.join(''));
  }
  // The similar file DuckDB reads: same values? (Its expected output is DuckDB's.)
  if (spec.twin) {
    const tw = path.join(outDir, `${spec.twin}.jsonl`);
    const args = [COMPARE_PY, tw, full];
    if (fs.existsSync(path.join(outDir, `${spec.twin}.summary.json`))) args.push('--summary', path.join(outDir, `${spec.twin}.summary.json`));
    const r = spawnSync('python3', args, { encoding: 'utf8' });
    notes.push(r.status === 0
      ? `    agrees with DuckDB's reading of ${spec.twin} (expected/${spec.twin}.jsonl)`
      : `    DIFFERS from DuckDB's reading of ${spec.twin}: ${r.stdout.split('\n')[0]}`);
  }
  fs.rmSync(tmpDir, { recursive: true });
  for (const n of notes) log(n);
}

const version = JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules/nodejs-polars/package.json'), 'utf8')).version;
fs.writeFileSync(path.join(outDir, 'REPORT_POLARS.txt'),
  `# generated by tool/make_expected_polars.mjs with nodejs-polars ${version}\n` + report.map((s) => s + '\n').join(''));
