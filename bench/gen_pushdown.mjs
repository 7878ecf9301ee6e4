// gen_pushdown.mjs - the files of the pushdown scenarios (docs/pruning.md, "Scenarios"), written by
// DuckDB and Polars from the catalogue's rows (catalogue_sql.mjs).
//
//   node bench/gen_pushdown.mjs [--n PD_N] [--out DIR] [--force]
//
// Writes DIR/pd<N>/ (DIR: $PQT_BENCH_DATA or bench/data), ten row groups of N/10 rows each:
//   sorted.parquet          DuckDB, snappy, rows in id order. DuckDB writes no page index;
//                           it writes a bloom filter for each dictionary-encoded column
//                           (survey here; the numbers and `name` are PLAIN)
//   sorted_v2.parquet       the same with PARQUET_VERSION V2 (data page V2 headers)
//   sorted_raw.parquet      the same, UNCOMPRESSED
//   sorted_pi.parquet       sorted.parquet re-written by Polars: snappy, 64 KiB data pages
//                           (8-16 k rows a page), column and offset index, no bloom filter
//   shuffled.parquet        DuckDB, snappy, rows in a random order (no bloom filter on name)
//   shuffled_bloom.parquet  the same rows with a dictionary limit large enough that every
//                           column is dictionary-encoded, hence a bloom filter on each
//                           (name included)
//   clustered_pi.parquet    rows ordered by (survey, id), written by Polars (page index)
//   MANIFEST.json           N, versions, per file: bytes, row groups, page index, bloom columns
// The files are kept while the manifest matches (generator version, N, peer versions).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadPeer, peerVersion, parseArgs, dataDir } from './lib.mjs';
import { duck, catalogueSelect } from './catalogue_sql.mjs';

const GEN_VERSION = 1;
const PAGE_BYTES = 65536; // Polars' data page limit: 8 k rows of a DOUBLE column a page

const args = parseArgs(process.argv.slice(2));

// The Polars steps run in their own process so that POLARS_MAX_THREADS=1 is set before load.
if (args['polars-rewrite']) {
  const pl = loadPeer('nodejs-polars');
  pl.scanParquet(args.src).sinkParquet(args.dst, {
    compression: 'snappy', statistics: true, rowGroupSize: Number(args.rg),
    dataPagesizeLimit: PAGE_BYTES, maintainOrder: true,
  }).collectSync();
  process.exit(0);
}

const N = Number(args.n ?? process.env.PD_N ?? 2000000);
if (!Number.isInteger(N) || N < 10000) {
  console.error(`gen_pushdown: N must be an integer >= 10000 (got ${args.n ?? process.env.PD_N})`);
  process.exit(2);
}
const RG = Math.ceil(N / 10);
const DIR = path.join(path.resolve(args.out ?? dataDir()), `pd${N}`);
const log = (...a) => console.error('gen_pushdown:', ...a);
const versions = () => ({ gen: GEN_VERSION, duckdb: peerVersion('@duckdb/node-api'),
                          polars: peerVersion('nodejs-polars') });

export const PD_FILES = ['sorted', 'sorted_v2', 'sorted_raw', 'sorted_pi', 'shuffled',
                         'shuffled_bloom', 'clustered_pi'];

function polarsRewrite(src, dst) {
  const tmp = dst + '.tmp.parquet';
  const r = spawnSync(process.execPath,
    [fileURLToPath(import.meta.url), '--polars-rewrite', '--src', src, '--dst', tmp, '--rg', String(RG)],
    { stdio: 'inherit', env: { ...process.env, POLARS_MAX_THREADS: '1' } });
  if (r.status !== 0) throw new Error(`Polars rewrite of ${src} failed (status ${r.status}, signal ${r.signal})`);
  fs.renameSync(tmp, dst);
}

async function generate() {
  fs.mkdirSync(DIR, { recursive: true });
  const { run } = await duck();
  const f = (k) => path.join(DIR, `${k}.parquet`);
  const sel = catalogueSelect(N);
  // A permutation of the rows from a hash of the id (its own stream, 15).
  const shuffled = `SELECT * FROM (${sel}) ORDER BY hash((1::BIGINT << 40) + id * 16 + 15), id`;
  const copy = async (key, query, opts) => {
    const t0 = Date.now();
    await run(`COPY (${query}) TO '${f(key)}.tmp' (FORMAT parquet, ROW_GROUP_SIZE ${RG}${opts})`);
    fs.renameSync(`${f(key)}.tmp`, f(key));
    log(`${f(key)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  };
  await copy('sorted', sel, ', COMPRESSION snappy');
  await copy('sorted_v2', sel, ', COMPRESSION snappy, PARQUET_VERSION V2');
  await copy('sorted_raw', sel, ', COMPRESSION uncompressed');
  await copy('shuffled', shuffled, ', COMPRESSION snappy');
  // Dictionaries up to a whole row group, so `name` gets one, and with it a bloom filter.
  await copy('shuffled_bloom', shuffled,
    `, COMPRESSION snappy, DICTIONARY_SIZE_LIMIT ${RG + 1}, STRING_DICTIONARY_PAGE_SIZE_LIMIT 1000000000`);
  await copy('clustered_tmp', `SELECT * FROM (${sel}) ORDER BY survey, id`, ', COMPRESSION snappy');
  let t0 = Date.now();
  polarsRewrite(f('sorted'), f('sorted_pi'));
  log(`${f('sorted_pi')} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  t0 = Date.now();
  polarsRewrite(f('clustered_tmp'), f('clustered_pi'));
  fs.rmSync(f('clustered_tmp'));
  log(`${f('clustered_pi')} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  const manifest = { ...versions(), n: N, row_group_size: RG, files: {} };
  for (const k of PD_FILES) {
    const meta = await run(`SELECT row_group_id, path_in_schema, bloom_filter_offset, encodings
                            FROM parquet_metadata('${f(k)}')`);
    const bloom = [...new Set(meta.filter((m) => m.bloom_filter_offset !== null).map((m) => m.path_in_schema))];
    manifest.files[k] = {
      name: `${k}.parquet`, bytes: fs.statSync(f(k)).size,
      row_groups: new Set(meta.map((m) => m.row_group_id)).size,
      bloom_columns: bloom,
      dictionary_columns: [...new Set(meta.filter((m) => /DICTIONARY/.test(m.encodings)).map((m) => m.path_in_schema))],
    };
  }
  fs.writeFileSync(path.join(DIR, 'MANIFEST.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

function upToDate() {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(DIR, 'MANIFEST.json'), 'utf8'));
    const v = versions();
    if (m.gen !== v.gen || m.duckdb !== v.duckdb || m.polars !== v.polars || m.n !== N) return false;
    return PD_FILES.every((k) => m.files[k] && fs.existsSync(path.join(DIR, m.files[k].name)) &&
                                 fs.statSync(path.join(DIR, m.files[k].name)).size === m.files[k].bytes);
  } catch {
    return false;
  }
}

if (args.force || !upToDate()) {
  log(`generating the pushdown files, N=${N}, row groups of ${RG}, in ${DIR}`);
  await generate();
} else {
  log(`pushdown files N=${N} up to date in ${DIR}`);
}
