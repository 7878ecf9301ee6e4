#!/usr/bin/env node
// make_expected.mjs - produce the expected `pqt cat FILE --format jsonl` output for corpus files,
// using DuckDB (@duckdb/node-api) as the independent reader.
//
// Usage (from tests/golden/tool, after `npm ci`):
//   node make_expected.mjs [--corpus DIR] [--out DIR] [--max-rows N] [FILE ...]
// Defaults: --corpus ../../data/parquet-testing/data (the copy in the repository),
//           --out ../expected, --max-rows 1000, FILE = every *.parquet and *.parquet.encrypted
//           directly in the corpus directory. FILE may be a bare name (looked up in --corpus) or
//           a path.
//
// Writes, per readable file, <out>/<name>.jsonl (first max-rows rows) and, when the file has
// more rows, <out>/<name>.summary.json (computed by ../compare.py --make-summary over the full
// output). Files that must make pqt fail go to <out>/STATUS.txt; files this tool cannot
// produce truth for are listed there as SKIP, except those whose expected output
// make_expected_polars.mjs made (polars_files.mjs), which are left alone. A human-readable account of every decision
// (omitted columns, csv cross-checks, overrides, failures) goes to <out>/REPORT.txt.
//
// The classification rules (which columns pqt reads, how they are named and printed) are the
// jsonl contract described in ../README.md. DuckDB only supplies the values; the Parquet schema
// as listed by parquet_schema() decides the kind of every column.

import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildTree, classify, fmtFloat, fmtFloat32, fmtValue, int96Unit, leafSql, lit } from '../../interop/contract.mjs';
import { POLARS_FILES } from './polars_files.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const COMPARE_PY = path.resolve(HERE, '..', 'compare.py');

// ---------------------------------------------------------------------------------------------
// Arguments
let corpus = path.resolve(HERE, '../../data/parquet-testing/data');
let outDir = path.resolve(HERE, '../expected');
let maxRows = 1000;
const files = [];
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--corpus') corpus = path.resolve(a[++i]);
    else if (a[i] === '--out') outDir = path.resolve(a[++i]);
    else if (a[i] === '--max-rows') maxRows = parseInt(a[++i], 10);
    else if (a[i].startsWith('--')) { console.error(`unknown option ${a[i]}`); process.exit(2); }
    else files.push(a[i]);
  }
  if (!files.length) {
    for (const f of fs.readdirSync(corpus).sort())
      if (/\.parquet(\.encrypted)?$/.test(f) && fs.statSync(path.join(corpus, f)).isFile()) files.push(f);
  }
}
fs.mkdirSync(outDir, { recursive: true });

// ---------------------------------------------------------------------------------------------
// Overrides of DuckDB output, each justified by the corpus' own documentation. An override is
// applied only when DuckDB's value is exactly the known-wrong one, so a future DuckDB that
// fixes the problem makes this tool stop (and someone re-check) instead of silently diverging.
const OVERRIDES = {
  'int96_from_spark.parquet': [{
    column: 'a', row: 5,
    duckdb: -7207070780300583936n,          // DuckDB's epoch_us: int64 overflow wrapped around
    truth: 9089380393200000000n,            // microseconds, from int96_from_spark.md
    why: 'DuckDB overflows converting INT96 290000-12-31T01:00:00+02:00 to microseconds; ' +
         'int96_from_spark.md documents the value as 9089380393200000000 us since the epoch',
  }],
};

// Columns DuckDB cannot decode whose values the corpus documents as equal to another column's.
const TWINS = {
  // README.md: "7 pairs of columns, each in two variants containing the same values: one
  // PLAIN-encoded and one BYTE_STREAM_SPLIT-encoded". DuckDB 1.5 decodes BYTE_STREAM_SPLIT only
  // for FLOAT/DOUBLE.
  'byte_stream_split_extended.gzip.parquet': (key) => key.replace(/_byte_stream_split$/, '_plain'),
};

// The schema rules and the formatting of the jsonl contract live in ../../interop/contract.mjs
// (shared with the interop matrix).

// ---------------------------------------------------------------------------------------------
// The corpus' own *_expect.csv (RFC 4180; an unquoted empty field is NULL).
function parseCsv(text) {
  const rows = [];
  let row = [], i = 0;
  const n = text.length;
  while (i < n) {
    let val, quoted = false;
    if (text[i] === '"') {
      quoted = true;
      let s = '';
      i++;
      for (;;) {
        if (i >= n) throw new Error('unterminated quoted csv field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') { s += '"'; i += 2; } else { i++; break; }
        } else s += text[i++];
      }
      val = s;
    } else {
      let j = i;
      while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
      val = text.slice(i, j);
      i = j;
    }
    row.push(quoted || val !== '' ? val : null);
    if (text[i] === ',') { i++; continue; }
    if (text[i] === '\r') i++;
    if (text[i] === '\n' || i >= n) { i++; rows.push(row); row = []; }
  }
  return rows;
}

// Value of a csv cell in our jsonl form, for the column kinds the csv files hold.
function csvCellToken(c, cell) {
  if (cell === null) return 'null';
  switch (c.kind) {
    case 'int': return BigInt(cell).toString();
    case 'string': return JSON.stringify(cell);
    case 'float': return c.f32 ? fmtFloat32(Math.fround(Number(cell))) : fmtFloat(Number(cell));
    case 'decimal': return fmtFloat(Number(cell)); // (no csv holds decimals today)
    case 'bool': return cell.toLowerCase() === 'true' ? 'true' : 'false';
    default: throw new Error(`csv cross-check does not handle kind ${c.kind}`);
  }
}

// ---------------------------------------------------------------------------------------------
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
const all = async (sql) => (await con.runAndReadAll(sql)).getRowObjects();
const version = (await all('select version() v'))[0].v;

const report = [];
const status = [];
const written = [];
const log = (s) => { report.push(s); console.log(s); };

function tailMagic(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const b = Buffer.alloc(4);
    fs.readSync(fd, b, 0, 4, Math.max(0, size - 4));
    return b.toString('latin1');
  } finally { fs.closeSync(fd); }
}

// Files whose expected pqt outcome is an error status, whatever DuckDB makes of them.
const PQT_ERRORS = {
  'datapage_v1-corrupt-checksum.parquet':
    'PQT_CORRUPT_PAGE page CRC32 mismatch (the file\'s purpose; DuckDB does not verify CRCs)',
  'rle-dict-uncompressed-corrupt-checksum.parquet':
    'PQT_CORRUPT_PAGE page CRC32 mismatch (the file\'s purpose)',
};

for (const f of files) {
  const file = f.includes('/') ? path.resolve(f) : path.join(corpus, f);
  const name = path.basename(file);
  const out = path.join(outDir, `${name}.jsonl`);
  const summaryOut = path.join(outDir, `${name}.summary.json`);
  // Files DuckDB cannot read get their expected output from make_expected_polars.mjs; keep it.
  if (POLARS_FILES[name] && fs.existsSync(out)) {
    log(`${name}: expected output made by make_expected_polars.mjs (${POLARS_FILES[name].why}), left alone`);
    continue;
  }
  for (const p of [out, summaryOut]) if (fs.existsSync(p)) fs.unlinkSync(p);
  const fsql = lit(file);
  if (PQT_ERRORS[name]) {
    status.push(`${name} ${PQT_ERRORS[name]}`);
    log(`${name}: pqt is expected to fail -> STATUS ${PQT_ERRORS[name]}`);
    continue;
  }
  if (tailMagic(file) === 'PARE') {
    status.push(`${name} PQT_UNSUPPORTED_ENCRYPTED encrypted footer (PARE magic)`);
    log(`${name}: encrypted footer -> STATUS PQT_UNSUPPORTED_ENCRYPTED`);
    continue;
  }
  let lines, cols, omitted, nrows, footerNote = null;
  const twinNotes = [];
  try {
    const tree = buildTree(await all(`select * from parquet_schema(${fsql})`));
    ({ cols, omitted } = classify(tree));
    // Rows as the row groups count them (repeated_no_annotation.parquet has FileMetaData.num_rows
    // 0 but a row group of 6 rows; DuckDB and we go by the row groups).
    nrows = Number((await all(`select coalesce(sum(n), 0)::BIGINT n from (select distinct row_group_id, ` +
      `row_group_num_rows n from parquet_metadata(${fsql}))`))[0].n);
    const footerRows = Number((await all(`select num_rows::BIGINT n from parquet_file_metadata(${fsql})`))[0].n);
    if (footerRows !== nrows) footerNote = `FileMetaData.num_rows is ${footerRows} but the row groups hold ${nrows} rows (expected output has ${nrows})`;
    const expr = (c, i) => (c.list
      ? `list_transform(${c.sql}, x -> ${leafSql(c, 'x')}) AS c${i}`
      : `${leafSql(c, c.sql)} AS c${i}`);
    const from = `from read_parquet(${fsql}, binary_as_string=false)`;
    // Only the kept columns are read (DuckDB cannot decode some omitted ones, e.g. BYTE_STREAM_SPLIT FLBA).
    let reader;
    try {
      reader = await con.runAndReadAll(`select ${cols.length ? cols.map(expr).join(', ') : '1 AS dummy'} ${from}`);
    } catch (e) {
      // Find the columns DuckDB cannot read; substitute a documented twin or give up.
      const twins = TWINS[name];
      if (!twins) throw e;
      const exprs = [];
      for (let i = 0; i < cols.length; i++) {
        try {
          await con.runAndReadAll(`select ${expr(cols[i], i)} ${from}`);
          exprs.push(expr(cols[i], i));
        } catch (e2) {
          const twinKey = twins(cols[i].key);
          const ti = cols.findIndex((c) => c.key === twinKey);
          if (ti < 0) throw e2;
          exprs.push(expr(cols[ti], i));
          twinNotes.push(`${cols[i].key}: DuckDB cannot read it (${String(e2.message).split('\n')[0]}); ` +
            `values taken from ${twinKey}, which the corpus README says holds the same values`);
        }
      }
      reader = await con.runAndReadAll(`select ${exprs.join(', ')} ${from}`);
    }
    const rows = reader.getRows();
    if (rows.length !== nrows) throw new Error(`DuckDB returned ${rows.length} rows, the footer says ${nrows}`);
    // INT96: one unit for the file, the finest that holds every value (after the overrides).
    const int96 = cols.map((c, i) => i).filter((i) => cols[i].int96 && !cols[i].list);
    if (int96.length) {
      const us = [];
      for (const i of int96)
        rows.forEach((r, ri) => {
          const o = (OVERRIDES[name] || []).find((x) => x.column === cols[i].key && x.row === ri);
          us.push(r[i] === null ? null : o && BigInt(r[i]) === o.duckdb ? o.truth : BigInt(r[i]));
        });
      const unit = int96Unit(us);
      if (unit !== 'ns') footerNote = (footerNote ? footerNote + '; ' : '') +
        `INT96 printed in ${unit}: a value does not fit int64 nanoseconds`;
      cols = cols.map((c, i) => (int96.includes(i) ? { ...c, unit } : c));
    }
    lines = rows.map((r) => cols.map((c, i) => fmtValue(c, r[i])));
  } catch (e) {
    const msg = String(e.message).split('\n')[0].split(file).join(name);
    if (/encrypt/i.test(msg) || /\.encrypted$/.test(name)) {
      status.push(`${name} PQT_UNSUPPORTED_ENCRYPTED encrypted columns (plaintext footer)`);
      log(`${name}: encrypted (DuckDB: ${msg}) -> STATUS PQT_UNSUPPORTED_ENCRYPTED`);
    } else {
      status.push(`${name} SKIP DuckDB cannot read it: ${msg}`);
      log(`${name}: DuckDB cannot read it (${msg}) -> STATUS SKIP, no expected output`);
    }
    continue;
  }
  if (/\.encrypted$/.test(name)) {
    // DuckDB must not have decrypted anything; a readable .encrypted file would need review.
    status.push(`${name} PQT_UNSUPPORTED_ENCRYPTED encrypted columns (plaintext footer)`);
    log(`${name}: DuckDB read it although it is encrypted -> STATUS PQT_UNSUPPORTED_ENCRYPTED (review)`);
    continue;
  }

  const notes = [];
  if (footerNote) notes.push(footerNote);
  notes.push(...twinNotes);
  // Overrides documented by the corpus.
  for (const o of OVERRIDES[name] || []) {
    const ci = cols.findIndex((c) => c.key === o.column);
    const c = cols[ci];
    const wrong = fmtValue(c, o.duckdb.toString());
    if (lines[o.row][ci] !== wrong)
      throw new Error(`${name}: override of ${o.column} row ${o.row} expected DuckDB to give ${wrong}, got ${lines[o.row][ci]}; re-check`);
    lines[o.row][ci] = fmtValue(c, o.truth.toString());
    notes.push(`override ${o.column} row ${o.row}: ${wrong} -> ${lines[o.row][ci]} (${o.why})`);
  }
  // byte_stream_split_extended: the corpus README says each *_byte_stream_split column holds the
  // same values as its *_plain twin; check DuckDB agrees with itself there.
  if (name === 'byte_stream_split_extended.gzip.parquet') {
    for (let ci = 0; ci < cols.length; ci++) {
      const m = cols[ci].key.match(/^(.*)_byte_stream_split$/);
      if (!m) continue;
      const pi = cols.findIndex((c) => c.key === `${m[1]}_plain`);
      const bad = lines.filter((l) => l[ci] !== l[pi]).length;
      notes.push(`${cols[ci].key} equals ${cols[pi].key} in ${lines.length - bad} of ${lines.length} rows (README: all)`);
      if (bad) throw new Error(`${name}: DuckDB's ${cols[ci].key} differs from ${cols[pi].key} in ${bad} rows`);
    }
  }
  // Cross-check with the corpus csv, which wins.
  const csvPath = file.replace(/\.parquet$/, '_expect.csv');
  if (fs.existsSync(csvPath)) {
    const csv = parseCsv(fs.readFileSync(csvPath, 'utf8'));
    // Header names are matched after trimming blanks and a trailing ':' (delta_encoding_required_column's
    // parquet names end in ':', its csv header's do not; one csv header has a leading blank).
    const norm = (h) => h.trim().replace(/:$/, '');
    const header = csv.shift().map(norm);
    if (csv.length !== lines.length) throw new Error(`${name}: csv has ${csv.length} rows, DuckDB ${lines.length}`);
    let checked = 0, differ = 0;
    for (let ci = 0; ci < cols.length; ci++) {
      const hi = header.indexOf(norm(cols[ci].key));
      if (hi < 0) { notes.push(`csv has no column ${cols[ci].key}`); continue; }
      checked++;
      for (let r = 0; r < lines.length; r++) {
        const tok = csvCellToken(cols[ci], csv[r][hi]);
        if (tok !== lines[r][ci]) {
          if (differ < 20) notes.push(`csv differs at row ${r} ${cols[ci].key}: DuckDB ${lines[r][ci]}, csv ${tok} (csv used)`);
          differ++;
          lines[r][ci] = tok;
        }
      }
    }
    const extra = header.filter((h) => !cols.some((c) => norm(c.key) === h));
    notes.push(`cross-checked ${checked} columns x ${lines.length} rows against ${path.basename(csvPath)}: ` +
      `${differ} differences${differ ? ' (csv values used)' : ''}` +
      (extra.length ? `; csv columns not in our output: ${extra.join(', ')}` : ''));
  }

  const keys = cols.map((c) => JSON.stringify(c.key) + ':');
  const text = lines.map((l) => '{' + l.map((v, i) => keys[i] + v).join(',') + '}\n');
  if (text.length > maxRows) {
    const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pqt-golden-')), 'full.jsonl');
    fs.writeFileSync(tmp, text.join(''));
    const summary = execFileSync('python3', [COMPARE_PY, '--make-summary', tmp], { encoding: 'utf8' });
    fs.rmSync(path.dirname(tmp), { recursive: true });
    fs.writeFileSync(summaryOut, summary);
    fs.writeFileSync(out, text.slice(0, maxRows).join(''));
    notes.push(`${nrows} rows: first ${maxRows} in the jsonl, summary over all in ${path.basename(summaryOut)}`);
  } else {
    fs.writeFileSync(out, text.join(''));
  }
  written.push(name);
  log(`${name}: ${nrows} rows, ${cols.length} columns` +
    (cols.length === 0 ? ' (every column unreadable: {} per row)' : ''));
  for (const o of omitted) log(`    omitted ${o.key}: ${o.why}`);
  for (const n of notes) log(`    ${n}`);
}

fs.writeFileSync(path.join(outDir, 'STATUS.txt'),
  '# <file> <PQT_STATUS_NAME or SKIP> <why>  -- generated by tool/make_expected.mjs\n' +
  status.sort().map((s) => s + '\n').join(''));
fs.writeFileSync(path.join(outDir, 'REPORT.txt'),
  `# generated by tool/make_expected.mjs with DuckDB ${version} (@duckdb/node-api)\n` +
  report.map((s) => s + '\n').join(''));
console.log(`\n${written.length} expected files, ${status.length} STATUS entries (DuckDB ${version})`);
