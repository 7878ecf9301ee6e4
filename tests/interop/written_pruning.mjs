#!/usr/bin/env node
// written_pruning.mjs - filtered reads of files pqt WRITES (issue 14: "Polars/DuckDB pruning on
// our files gives the same answers"). DuckDB and Polars push a WHERE clause down to the row
// group statistics (and DuckDB to the page level) of the files they read, so a wrong min/max,
// null count or column index in a pqt-written file shows up as rows lost from a filtered
// query even when a full read of the same file is right (written.mjs checks those).
//
//   node written_pruning.mjs --pqt PATH [--dir DIR]
//
// The interop source (source.mjs, written by DuckDB) is copied by pqt twice: sorted on
// i32_none (tight, disjoint row-group and page ranges, so most predicates prune) and in file
// order, with 500-row groups, dictionary on, page v1 and v2. Each predicate's count and sum
// of i32_none, as each reader computes them on the pqt file, must equal the same reader's
// answer on the source, and the two readers must agree there.

import pl from 'nodejs-polars';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { lit } from './contract.mjs';
import { writtenSetup } from './written_setup.mjs';

const { pqt, work, con, src } = await writtenSetup('written_pruning');

const one = async (sql) => (await con.runAndReadAll(sql)).getRowObjects()[0];
// Bounds taken from the data, so each range predicate keeps a few percent of the rows.
const q = await one(`SELECT quantile_disc(i32_none, 0.40)::BIGINT lo, quantile_disc(i32_none, 0.43)::BIGINT hi,
  quantile_disc(i16_some, 0.9)::BIGINT i16hi, quantile_disc(u16_some, 0.95)::BIGINT u16hi,
  (quantile_disc(date_some, 0.05) - DATE '1970-01-01')::BIGINT dlo, max(i32_none)::BIGINT i32max,
  (SELECT str_some FROM read_parquet(${lit(src)}) WHERE str_some IS NOT NULL LIMIT 1 OFFSET 77) s
  FROM read_parquet(${lit(src)})`);

// name, DuckDB WHERE, Polars predicate
const preds = [
  ['i32 range', `i32_none BETWEEN ${q.lo} AND ${q.hi}`,
    pl.col('i32_none').gtEq(Number(q.lo)).and(pl.col('i32_none').ltEq(Number(q.hi)))],
  ['i32 above max', `i32_none > ${q.i32max}`, pl.col('i32_none').gt(Number(q.i32max))],
  ['i32 at max', `i32_none >= ${q.i32max}`, pl.col('i32_none').gtEq(Number(q.i32max))],
  ['i16 with nulls', `i16_some > ${q.i16hi}`, pl.col('i16_some').gt(Number(q.i16hi))],
  ['u16 with nulls', `u16_some >= ${q.u16hi}`, pl.col('u16_some').gtEq(Number(q.u16hi))],
  ['string equality', `str_some = ${lit(q.s)}`, pl.col('str_some').eq(pl.lit(q.s))],
  ['date before', `date_some < DATE '1970-01-01' + ${q.dlo}::INTEGER`,
    pl.col('date_some').cast(pl.Int32).lt(Number(q.dlo))],
  ['is null', 'f64_some IS NULL', pl.col('f64_some').isNull()],
  ['all-null column', 'i32_all IS NOT NULL', pl.col('i32_all').isNotNull()],
  ['bool and range', `bool_some AND i32_none < ${q.lo}`,
    pl.col('bool_some').eq(pl.lit(true)).and(pl.col('i32_none').lt(Number(q.lo)))],
];

const duck = async (file, where) => {
  const r = await one(`SELECT count(*)::BIGINT n, coalesce(sum(i32_none::HUGEINT), 0)::VARCHAR s
    FROM read_parquet(${lit(file)}) WHERE ${where}`);
  return `${r.n} rows, sum ${r.s}`;
};
const polars = (file, pred) => {
  const df = pl.scanParquet(file).filter(pred).select(pl.col('i32_none').cast(pl.Float64)).collectSync();
  // |i32| < 2^31 over 10,000 rows: the double sum is exact
  const s = df.getColumn('i32_none').toArray().reduce((a, v) => a + v, 0);
  return `${df.height} rows, sum ${BigInt(s)}`;
};

const copies = [
  ['sorted, page v1', ['--sort', 'i32_none', '--row-group-rows', '500']],
  ['sorted, page v2', ['--sort', 'i32_none', '--row-group-rows', '500', '--page-version', '2']],
  ['file order', ['--row-group-rows', '500']],
];
const failures = [];
let nchecks = 0;
const expected = [];
for (const [pname, where, pred] of preds) {
  const d = await duck(src, where), p = polars(src, pred);
  if (d !== p) failures.push(`source, ${pname}: duckdb gives ${d}, polars ${p} (the predicate is not the same query)`);
  expected.push(d);
}
for (const [cname, args] of copies) {
  const out = path.join(work, cname.replace(/[^a-z0-9]+/g, '_') + '.parquet');
  const p = spawnSync(pqt, ['copy', src, out, '--columns',
    'i32_none,i32_all,i16_some,u16_some,str_some,date_some,f64_some,bool_some', ...args], { encoding: 'utf8' });
  if (p.status !== 0) { failures.push(`${cname}: pqt copy exited ${p.status}: ${p.stderr.trim()}`); continue; }
  for (let i = 0; i < preds.length; i++) {
    const [pname, where, pred] = preds[i];
    for (const [reader, got] of [['duckdb', await duck(out, where)], ['polars', polars(out, pred)]]) {
      nchecks++;
      if (got !== expected[i])
        failures.push(`${cname}, ${pname} (${where}), ${reader}: ${got}; the source gives ${expected[i]}`);
    }
  }
}
for (let i = 0; i < preds.length; i++) console.log(`  ${preds[i][0].padEnd(18)} ${expected[i]}`);
for (const f of failures) console.log('  FAIL ' + f);
console.log(`written_pruning: ${copies.length} copies x ${preds.length} predicates x 2 readers, ` +
  `${nchecks} answers checked, ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
