// written_setup.mjs - what the scripts reading pqt-written files share: their arguments
// (--pqt PATH [--dir DIR]), a fresh work folder DIR/<name>, a one-thread DuckDB connection in
// UTC (copySetup), and for written*.mjs the interop source (source.mjs) written by DuckDB as
// <work>/source.parquet (writtenSetup).

import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import path from 'node:path';
import { sourceSql } from './source.mjs';
import { lit } from './contract.mjs';

/* The arguments, a fresh work folder DIR/<name> and a one-thread DuckDB connection in UTC:
 * what every script copying files with pqt starts with (types.mjs, structs.mjs too). */
export async function copySetup(name) {
  let pqt = null, dir = process.env.PQT_INTEROP_DIR || '/tmp/pqt-interop';
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--pqt') pqt = path.resolve(a[++i]);
    else if (a[i] === '--dir') dir = path.resolve(a[++i]);
    else { console.error(`${name}: unknown argument ${a[i]}`); process.exit(2); }
  }
  const work = path.join(dir, name);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  await con.run("SET TimeZone='UTC'");
  return { pqt, dir, work, con };
}

export async function writtenSetup(name) {
  const { pqt, work, con } = await copySetup(name);
  const src = path.join(work, 'source.parquet');
  await con.run(`COPY (${sourceSql()}) TO ${lit(src)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)`);
  return { pqt, work, con, src };
}
