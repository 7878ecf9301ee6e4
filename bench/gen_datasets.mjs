// gen_datasets.mjs - the dataset workloads' data (D1..D5, issue 31), made from the cached
// catalogue (gen_data.mjs must have run first); kept in the cache like the rest.
//
//   node bench/gen_datasets.mjs [--n N] [--out DIR] [--force]
//
// Writes, under DIR/n<N>/ (DIR: $PQT_BENCH_DATA or bench/data):
//   hive1000/part=K/data_0.parquet   catalogue_snappy's rows split into 1,000 hive partitions by
//                                    part = floor((id - 1) * 1000 / N), i.e. consecutive
//                                    blocks of N/1000 ids (the file's order kept: id ascending
//                                    in every file, so each file's id statistics are one narrow
//                                    block); DuckDB COPY ... PARTITION_BY (part), snappy; `part`
//                                    lives in the folder names only
//   hats/                            the same rows as a HATS catalogue: hats.properties,
//                                    partition_info.csv, dataset/_common_metadata,
//                                    dataset/Norder=k/Dir=d/Npix=n.parquet; a HEALPix pixel
//                                    splits into its four children while it holds more than
//                                    N/500 rows (orders 1..7); rows sorted by _healpix_29
//                                    (healpy, tests/data/make_datasets_healpix.py) with the
//                                    columns Norder, Dir, Npix last, as HATS writes them
//   DATASETS.json                    generator version, N, file and partition counts (last)
// No _metadata summary is written (DuckDB cannot write one).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadPeer, peerVersion, parseArgs, dataDir, catalogueDir } from './lib.mjs';

// python3 with healpy: $PYTHON, else python3 when it has healpy, else Debian's /usr/bin/python3
const pythonWithHealpy = () => {
  if (process.env.PYTHON) return process.env.PYTHON;
  const ok = (py) => spawnSync(py, ['-c', 'import healpy'], { stdio: 'ignore' }).status === 0;
  return ok('python3') || !fs.existsSync('/usr/bin/python3') ? 'python3' : '/usr/bin/python3';
};

const GEN_VERSION = 2; // 2: hats_col_healpix, hats_col_healpix_order in hats.properties
const PARTS = 1000;
const MAX_ORDER = 7;
const args = parseArgs(process.argv.slice(2));
const N = Number(args.n ?? process.env.N ?? 10000000);
const dir = catalogueDir(path.resolve(args.out ?? dataDir()), N);
const src = path.join(dir, 'catalogue_snappy.parquet');
const manifestPath = path.join(dir, 'DATASETS.json');
const log = (...a) => console.error('gen_datasets:', ...a);
const want = { gen: GEN_VERSION, n: N, duckdb: peerVersion('@duckdb/node-api') };

try {
  const m = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  if (!args.force && m.gen === want.gen && m.n === want.n && m.duckdb === want.duckdb) {
    log(`cached: ${dir}/hive1000, ${dir}/hats`);
    process.exit(0);
  }
} catch {
  // no manifest: generate
}
if (!fs.existsSync(src)) {
  log(`${src} is missing: run bench/gen_data.mjs --n ${N} first`);
  process.exit(1);
}
fs.rmSync(manifestPath, { force: true });
for (const d of ['hive1000', 'hats']) fs.rmSync(path.join(dir, d), { recursive: true, force: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gen_datasets-'));

const { DuckDBInstance } = loadPeer('@duckdb/node-api');
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run('SET threads = 1');
const rows = async (sql) => (await c.runAndReadAll(sql)).getRows();
const t0 = Date.now();

// ---- hive1000 ----
await c.run(`COPY (SELECT *, ((id - 1) * ${PARTS} // ${N})::INTEGER AS part FROM read_parquet('${src}'))
  TO '${dir}/hive1000' (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (part))`);
log(`hive1000: ${PARTS} partitions (${((Date.now() - t0) / 1000).toFixed(0)} s)`);

// ---- hats: ra, dec to healpy as raw float64 (row order = id order), pixels back as text ----
const raF = fs.openSync(`${tmp}/ra.f64`, 'w');
const decF = fs.openSync(`${tmp}/dec.f64`, 'w');
const res = await c.stream(`SELECT ra, dec FROM read_parquet('${src}') ORDER BY id`);
let seen = 0;
for (;;) {
  const chunk = await res.fetchChunk();
  if (!chunk || chunk.rowCount === 0) break;
  const [ra, dec] = chunk.getColumns();
  fs.writeSync(raF, Buffer.from(Float64Array.from(ra).buffer));
  fs.writeSync(decF, Buffer.from(Float64Array.from(dec).buffer));
  seen += chunk.rowCount;
}
fs.closeSync(raF);
fs.closeSync(decF);
if (seen !== N) throw new Error(`read ${seen} ra/dec rows of ${N}`);
const py = spawnSync(pythonWithHealpy(), ['-c', `
import numpy as np, healpy, sys
ra = np.fromfile(sys.argv[1], dtype='<f8'); dec = np.fromfile(sys.argv[2], dtype='<f8')
p = healpy.ang2pix(2**29, ra, dec, nest=True, lonlat=True).astype(np.int64)
np.savetxt(sys.argv[3], np.column_stack([np.arange(1, len(p) + 1, dtype=np.int64), p]), fmt='%d', delimiter=',')
`, `${tmp}/ra.f64`, `${tmp}/dec.f64`, `${tmp}/hp.csv`], { stdio: 'inherit' });
if (py.status !== 0) throw new Error('healpy failed (PYTHON=/usr/bin/python3 if python3 lacks healpy)');
await c.run(`CREATE TABLE hp AS SELECT * FROM read_csv('${tmp}/hp.csv', header = false,
  columns = {'id': 'BIGINT', 'h': 'BIGINT'})`);
// partitions: per-order pixel counts, split top-down in JS
const counts = new Map();
for (let k = 1; k <= MAX_ORDER; k++) {
  for (const [n, cnt] of await rows(`SELECT h >> ${2 * (29 - k)} AS n, count(*) FROM hp GROUP BY n`))
    counts.set(`${k}/${n}`, Number(cnt));
}
const limit = Math.ceil(N / 500);
const parts = [];
const split = (k, n) => {
  const cnt = counts.get(`${k}/${n}`) ?? 0;
  if (cnt === 0) return;
  if (cnt > limit && k < MAX_ORDER) for (let ch = 0; ch < 4; ch++) split(k + 1, 4 * n + ch);
  else parts.push({ k, n, cnt });
};
for (let n = 0; n < 48; n++) split(1, n);
// the catalogue sorted by _healpix_29: a partition is one range of it, which DuckDB's zone
// maps find without scanning the table
await c.run(`CREATE TABLE hs AS SELECT hp.h AS _healpix_29, cat.* FROM read_parquet('${src}') cat
  JOIN hp USING (id) ORDER BY hp.h`);
const H = path.join(dir, 'hats');
fs.mkdirSync(path.join(H, 'dataset'), { recursive: true });
for (const p of parts) {
  const s = 2n * (29n - BigInt(p.k));
  const lo = BigInt(p.n) << s;
  const hi = ((BigInt(p.n) + 1n) << s) - 1n;
  const d = Math.floor(p.n / 10000) * 10000;
  const pdir = path.join(H, 'dataset', `Norder=${p.k}`, `Dir=${d}`);
  fs.mkdirSync(pdir, { recursive: true });
  await c.run(`COPY (SELECT *, ${p.k}::UTINYINT AS Norder, ${d}::UBIGINT AS Dir, ${p.n}::UBIGINT AS Npix
    FROM hs WHERE _healpix_29 BETWEEN ${lo} AND ${hi} ORDER BY _healpix_29)
    TO '${pdir}/Npix=${p.n}.parquet' (FORMAT parquet, COMPRESSION snappy)`);
}
await c.run(`COPY (SELECT *, 0::UTINYINT AS Norder, 0::UBIGINT AS Dir, 0::UBIGINT AS Npix FROM hs LIMIT 0)
  TO '${H}/dataset/_common_metadata' (FORMAT parquet)`);
parts.sort((a, b) => a.k - b.k || a.n - b.n);
fs.writeFileSync(path.join(H, 'partition_info.csv'),
  'Norder,Npix\n' + parts.map((p) => `${p.k},${p.n}`).join('\n') + '\n');
fs.writeFileSync(path.join(H, 'hats.properties'), [
  '#HATS catalog', 'obs_collection=bench_catalogue', 'dataproduct_type=object', `hats_nrows=${N}`,
  'hats_col_ra=ra', 'hats_col_dec=dec', 'hats_col_healpix=_healpix_29', 'hats_col_healpix_order=29',
  `hats_max_rows=${limit}`,
  `hats_order=${Math.max(...parts.map((p) => p.k))}`, 'hats_builder=pqt bench/gen_datasets.mjs',
  'hats_version=v0.1', ''].join('\n'));
fs.rmSync(tmp, { recursive: true });
const orders = {};
for (const p of parts) orders[p.k] = (orders[p.k] ?? 0) + 1;
fs.writeFileSync(manifestPath, JSON.stringify({ ...want, hive_files: PARTS, hats_partitions: parts.length,
  hats_orders: orders, hats_max_rows: limit, seconds: (Date.now() - t0) / 1000 }, null, 2) + '\n');
log(`hats: ${parts.length} partitions, orders ${JSON.stringify(orders)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
