#!/usr/bin/env node
// structs.mjs - a `pqt copy` keeps struct columns as structs (issue 14): DuckDB and Polars
// see the same types and the same values in the copy as in the original, null structs and
// present structs of null leaves included (docs/writing.md, "Structs").
//
//   node structs.mjs --pqt PATH [--dir DIR]
//
// Sources: tests/data/struct_nulls.parquet (DuckDB: nulls at every level, a nested struct, a
// list in a struct; make_struct_nulls.mjs), the corpus files with structs pqt reads whole
// (nested_structs.rust, nulls.snappy, repeated_primitive_no_list, and nullable.impala's
// readable columns), and struct_nulls as Polars writes it. Each is copied whole; struct_nulls also with
// --where/--sort and with --columns (a struct of fewer leaves: compared with DuckDB's
// projection of the source). Checked: DuckDB's DESCRIBE, the rows (multisets, as JSON),
// and Polars' dtypes and values row by row.

import { copySetup } from './written_setup.mjs';
import pl from 'nodejs-polars';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

const { pqt, work, con } = await copySetup('structs');

const failures = [];
const lit = (s) => "'" + s.replace(/'/g, "''") + "'";
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjects();
const json = (v) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));

// the Polars source: struct_nulls.parquet as Polars writes it again (its own writer's
// struct encoding)
const nulls = path.join(ROOT, 'tests/data/struct_nulls.parquet');
const polarsSrc = path.join(work, 'polars_structs.parquet');
pl.readParquet(nulls).writeParquet(polarsSrc);

const corpus = (f) => path.join(ROOT, 'tests/data/parquet-testing/data', f);
const copies = [
  { src: nulls, args: [] },
  { src: nulls, args: ['--where', 'id >= 3', '--sort', '-id'], where: 'id >= 3' },
  { src: nulls, args: ['--columns', 'z,s.b,s.t.x'], select: "CASE WHEN s IS NULL THEN NULL ELSE {'b': s.b, 't': s.t} END AS s, z" },
  { src: corpus('nested_structs.rust.parquet'), args: [] },
  { src: corpus('nulls.snappy.parquet'), args: [] },
  // --skip-unreadable leaves out what pqt cannot read (maps, lists of lists): nested_struct
  // keeps A, b (without it the copy is refused)
  { src: corpus('nullable.impala.parquet'), args: ['--skip-unreadable'],
    select: "id, int_array, CASE WHEN nested_struct IS NULL THEN NULL " +
      "ELSE {'A': nested_struct.A, 'b': nested_struct.b} END AS nested_struct" },
  // Polars reads this source's bare repeated fields as empty lists (DuckDB and pqt do not)
  { src: corpus('repeated_primitive_no_list.parquet'), args: [], noPolars: true },
  { src: polarsSrc, args: [] },
];

let n = 0;
for (const c of copies) {
  const out = path.join(work, `copy${n++}.parquet`);
  const name = `${path.basename(c.src)} ${c.args.join(' ')}`.trim();
  const p = spawnSync(pqt, ['copy', c.src, out, ...c.args], { encoding: 'utf8' });
  if (p.status !== 0) { failures.push(`${name}: pqt copy exited ${p.status}: ${p.stderr.trim()}`); continue; }
  const srcSql = `SELECT ${c.select || '*'} FROM read_parquet(${lit(c.src)})${c.where ? ' WHERE ' + c.where : ''}`;
  const cpSql = `SELECT * FROM read_parquet(${lit(out)})`;
  const desc = async (q) => (await rows(`DESCRIBE ${q}`)).map((r) => `${r.column_name} ${r.column_type}`).join(', ');
  const da = await desc(srcSql), db = await desc(cpSql);
  if (da !== db) failures.push(`${name}: DuckDB DESCRIBE differs:\n    source ${da}\n    copy   ${db}`);
  const vals = async (q) => (await con.runAndReadAll(q)).getRowsJson().map(json).sort();
  const va = await vals(srcSql), vb = await vals(cpSql);
  if (json(va) !== json(vb)) {
    const bad = va.findIndex((v, i) => v !== vb[i]);
    failures.push(`${name}: DuckDB rows differ: source ${va[bad]}, copy ${vb[bad]}`);
  }
  if (c.where || c.select || c.noPolars) continue; // Polars: whole copies
  try {
    const pa = pl.readParquet(c.src), pb = pl.readParquet(out);
    const ta = pa.columns.map((k) => `${k} ${pa.getColumn(k).dtype}`).join(', ');
    const tb = pb.columns.map((k) => `${k} ${pb.getColumn(k).dtype}`).join(', ');
    if (ta !== tb) failures.push(`${name}: Polars dtypes differ:\n    source ${ta}\n    copy   ${tb}`);
    if (!pa.frameEqual(pb, true)) failures.push(`${name}: Polars values differ`);
  } catch (e) {
    failures.push(`${name}: Polars: ${e.message.split('\n')[0]}`);
  }
}

if (failures.length) {
  console.log('structs: failures:');
  for (const f of failures) console.log('  ' + f);
  process.exit(1);
}
console.log(`structs: ${copies.length} copies, 0 failures`);
