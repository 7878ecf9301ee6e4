#!/usr/bin/env node
// make_expected.mjs - produce the expected `pqt cat FILE --format jsonl` output for corpus files,
// using DuckDB (@duckdb/node-api) as the independent reader.
//
// Usage (from tests/golden/tool, after `npm ci`):
//   node make_expected.mjs [--corpus DIR] [--out DIR] [--max-rows N] [FILE ...]
// Defaults: --corpus ../../../../shared/parquet-testing/data (the corpus next to the repo),
//           --out ../expected, --max-rows 1000, FILE = every *.parquet and *.parquet.encrypted
//           directly in the corpus directory. FILE may be a bare name (looked up in --corpus) or
//           a path.
//
// Writes, per readable file, <out>/<name>.jsonl (first max-rows rows) and, when the file has
// more rows, <out>/<name>.summary.json (computed by ../compare.py --make-summary over the full
// output). Files that must make pqt fail go to <out>/STATUS.txt; files this tool cannot
// produce truth for are listed there as SKIP. A human-readable account of every decision
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

const HERE = path.dirname(fileURLToPath(import.meta.url));
const COMPARE_PY = path.resolve(HERE, '..', 'compare.py');

// ---------------------------------------------------------------------------------------------
// Arguments
let corpus = path.resolve(HERE, '../../../../shared/parquet-testing/data');
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

// ---------------------------------------------------------------------------------------------
// Schema: parquet_schema() lists the SchemaElements depth-first; rebuild the tree.
function buildTree(rows) {
  let pos = 0;
  function node() {
    const r = rows[pos++];
    const n = {
      name: r.name, type: r.type, typeLength: r.type_length === null ? null : Number(r.type_length),
      rep: r.repetition_type, converted: r.converted_type, logical: r.logical_type,
      scale: r.scale === null ? null : Number(r.scale), precision: r.precision,
      nchildren: r.num_children === null ? 0 : Number(r.num_children), children: [],
    };
    // A group is an element with children or without a physical type.
    n.isGroup = n.nchildren > 0 || n.type === null;
    for (let i = 0; i < n.nchildren; i++) n.children.push(node());
    return n;
  }
  const root = node();
  if (pos !== rows.length) throw new Error(`schema has ${rows.length - pos} elements after the root's children`);
  return root;
}

const logicalName = (n) => (n.logical ? n.logical.replace(/\(.*$/s, '') : null);

function timeUnitOf(logical) {
  if (/MILLIS=MilliSeconds/.test(logical)) return 'ms';
  if (/MICROS=MicroSeconds/.test(logical)) return 'us';
  if (/NANOS=NanoSeconds/.test(logical)) return 'ns';
  return null;
}

// Kind of a primitive leaf under the contract, or {unreadable: why}.
function leafKind(n) {
  const lt = logicalName(n), ct = n.converted, pt = n.type;
  const bad = (why) => ({ unreadable: why });
  if (lt === 'DecimalType' || (lt === null && ct === 'DECIMAL')) {
    if (['INT32', 'INT64', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'].includes(pt)) return { kind: 'decimal' };
    return bad(`DECIMAL on ${pt}`);
  }
  switch (pt) {
    case 'BOOLEAN':
      return lt || ct ? bad(`BOOLEAN annotated ${lt || ct}`) : { kind: 'bool' };
    case 'FLOAT': case 'DOUBLE':
      return lt || ct ? bad(`${pt} annotated ${lt || ct}`) : { kind: 'float' };
    case 'INT96':
      return { kind: 'timestamp', unit: 'ns', utc: false, int96: true };
    case 'INT32': case 'INT64': {
      if (lt === 'TimestampType')
        return { kind: 'timestamp', unit: timeUnitOf(n.logical), utc: /isAdjustedToUTC=1/.test(n.logical) };
      if (lt === 'TimeType')
        return { kind: 'time', unit: timeUnitOf(n.logical), utc: /isAdjustedToUTC=1/.test(n.logical) };
      if (lt === 'DateType') return { kind: 'date' };
      if (lt === 'IntType') return { kind: 'int' };
      // NullType is the thrift LogicalType field UNKNOWN: an unknown logical type, unreadable.
      if (lt !== null) return bad(`${pt} with logical type ${n.logical}`);
      if (ct === null || /^U?INT_(8|16|32|64)$/.test(ct)) return { kind: 'int' };
      if (ct === 'DATE') return { kind: 'date' };
      if (ct === 'TIME_MILLIS') return { kind: 'time', unit: 'ms', utc: true };
      if (ct === 'TIME_MICROS') return { kind: 'time', unit: 'us', utc: true };
      if (ct === 'TIMESTAMP_MILLIS') return { kind: 'timestamp', unit: 'ms', utc: true };
      if (ct === 'TIMESTAMP_MICROS') return { kind: 'timestamp', unit: 'us', utc: true };
      return bad(`${pt} with converted type ${ct}`);
    }
    case 'BYTE_ARRAY':
      if (['StringType', 'EnumType', 'JsonType'].includes(lt)) return { kind: 'string' };
      if (lt === null && ['UTF8', 'ENUM', 'JSON'].includes(ct)) return { kind: 'string' };
      return bad(lt || ct ? `BYTE_ARRAY annotated ${lt || ct}` : 'BYTE_ARRAY without a string annotation');
    case 'FIXED_LEN_BYTE_ARRAY':
      if (lt === 'UUIDType' && n.typeLength === 16) return { kind: 'uuid' };
      if (lt === 'Float16Type' && n.typeLength === 2) return { kind: 'float' };
      return bad(lt || ct ? `FIXED_LEN_BYTE_ARRAY annotated ${lt || ct}` : 'FIXED_LEN_BYTE_ARRAY without annotation');
    default:
      return bad(`physical type ${pt}`);
  }
}

const isListAnn = (n) => logicalName(n) === 'ListType' || (n.logical === null && n.converted === 'LIST');
const isMapAnn = (n) => logicalName(n) === 'MapType' ||
  (n.logical === null && (n.converted === 'MAP' || n.converted === 'MAP_KEY_VALUE'));

const q = (id) => '"' + id.replace(/"/g, '""') + '"';
const lit = (s) => "'" + s.replace(/'/g, "''") + "'";

// Walk the tree into output columns {key, sql (DuckDB access path), kind..., list} and omitted
// columns {key, why}. `access` is the SQL expression reaching the node.
function classify(root) {
  const cols = [], omitted = [];
  function visit(n, prefix, access) {
    const key = prefix === null ? n.name : `${prefix}.${n.name}`;
    const acc = access === null ? q(n.name) : `struct_extract(${access}, ${lit(n.name)})`;
    if (!n.isGroup) {
      const k = leafKind(n);
      if (k.unreadable) return omitted.push({ key, why: k.unreadable });
      return cols.push({ key, sql: acc, ...k, list: n.rep === 'REPEATED' });
    }
    if (isListAnn(n)) {
      if (n.nchildren !== 1) return omitted.push({ key, why: 'LIST with several children' });
      const r = n.children[0];
      if (r.rep !== 'REPEATED') return omitted.push({ key, why: 'LIST whose child is not repeated' });
      let elem = r;
      if (r.isGroup) {
        if (r.nchildren !== 1 || r.name === 'array' || r.name === `${n.name}_tuple`)
          return omitted.push({ key, why: 'list of structs (legacy two-level form)' });
        elem = r.children[0];
        if (elem.isGroup)
          return omitted.push({ key, why: isListAnn(elem) ? 'list of lists' : isMapAnn(elem) ? 'list of maps' : 'list of structs' });
        if (elem.rep === 'REPEATED') return omitted.push({ key, why: 'list of lists' });
      }
      const k = leafKind(elem);
      if (k.unreadable) return omitted.push({ key, why: `list of ${k.unreadable}` });
      return cols.push({ key, sql: acc, ...k, list: true });
    }
    if (isMapAnn(n)) return omitted.push({ key, why: 'MAP' });
    if (n.rep === 'REPEATED') return omitted.push({ key, why: 'repeated group (list of structs)' });
    for (const c of n.children) visit(c, key, acc);
  }
  for (const c of root.children) visit(c, null, null);
  return { cols, omitted };
}

// SQL turning one value of a column's element type into something JS formats exactly.
function leafSql(c, x) {
  switch (c.kind) {
    case 'int': case 'decimal': case 'string': case 'uuid': return `(${x})::VARCHAR`;
    case 'float': return `(${x})::DOUBLE`;
    case 'bool': return `(${x})::BOOLEAN`;
    case 'date': return `((${x}) - DATE '1970-01-01')::VARCHAR`;
    case 'time': return `date_diff('microsecond', TIME '00:00:00', (${x})::TIME)::VARCHAR`;
    case 'timestamp':
      if (c.int96) return `epoch_us(${x})::VARCHAR`;
      return `epoch_${c.unit}(${x})::VARCHAR`;
    default: throw new Error(`no SQL for kind ${c.kind}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Formatting (the jsonl contract)
function fmtFloat(v) {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v); // shortest round-trip representation
  return Number.isInteger(v) && !/e/.test(s) ? s + '.0' : s;
}

function civil(days) { // days since 1970-01-01 -> [y, m, d], proleptic Gregorian (H. Hinnant)
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}
const pad = (v, w) => String(v).padStart(w, '0');
const fmtYear = (y) => (y < 0 ? '-' + pad(-y, 4) : pad(y, 4));
function fmtDate(days) {
  const [y, m, d] = civil(days);
  return `${fmtYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}
const UNIT = { ms: [1000n, 3], us: [1000000n, 6], ns: [1000000000n, 9] };
function fmtTimeOfDay(ticks, unit) { // ticks within a day, BigInt >= 0
  const [per, digits] = UNIT[unit];
  const secs = ticks / per, frac = ticks % per;
  const h = secs / 3600n, mi = (secs / 60n) % 60n, s = secs % 60n;
  return `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(frac, digits)}`;
}
function fmtTimestamp(ticks, unit, utc) {
  const perDay = UNIT[unit][0] * 86400n;
  let days = ticks / perDay, rem = ticks % perDay;
  if (rem < 0n) { rem += perDay; days -= 1n; }
  return `${fmtDate(Number(days))}T${fmtTimeOfDay(rem, unit)}${utc ? 'Z' : ''}`;
}

function fmtLeaf(c, v) {
  if (v === null || v === undefined) return 'null';
  switch (c.kind) {
    case 'int': if (!/^-?\d+$/.test(v)) throw new Error(`not an integer: ${v}`); return v;
    case 'decimal': return fmtFloat(Number(v));
    case 'float': return fmtFloat(v);
    case 'bool': return v ? 'true' : 'false';
    case 'string': return JSON.stringify(v);
    case 'uuid': if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v)) throw new Error(`bad uuid ${v}`);
      return JSON.stringify(v);
    case 'date': return JSON.stringify(fmtDate(Number(v)));
    case 'time': {
      const us = BigInt(v);
      const ticks = c.unit === 'ms' ? us / 1000n : c.unit === 'ns' ? us * 1000n : us;
      return JSON.stringify(fmtTimeOfDay(ticks, c.unit || 'us'));
    }
    case 'timestamp': {
      let t = BigInt(v);
      if (c.int96) t *= 1000n; // DuckDB gives INT96 as microseconds
      return JSON.stringify(fmtTimestamp(t, c.unit, c.utc));
    }
    default: throw new Error(`no format for kind ${c.kind}`);
  }
}

function fmtValue(c, v) {
  if (!c.list) return fmtLeaf(c, v);
  if (v === null || v === undefined) return 'null';
  return '[' + v.items.map((e) => fmtLeaf(c, e)).join(',') + ']';
}

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
    case 'float': case 'decimal': return fmtFloat(Number(cell));
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
  'int96_from_spark.parquet':
    'PQT_OVERFLOW years 9999 and 290000 do not fit int64 nanoseconds (pqt reads INT96 as ns)',
};

for (const f of files) {
  const file = f.includes('/') ? path.resolve(f) : path.join(corpus, f);
  const name = path.basename(file);
  const out = path.join(outDir, `${name}.jsonl`);
  const summaryOut = path.join(outDir, `${name}.summary.json`);
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
