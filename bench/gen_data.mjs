// gen_data.mjs - deterministic benchmark data, written by DuckDB (and once by Polars).
//
//   node bench/gen_data.mjs [--n N] [--out DIR] [--force] [--verify]
//
// Writes, under DIR (default $PQT_BENCH_DATA or bench/data):
//   n<N>/catalogue_snappy.parquet   DuckDB, SNAPPY, ROW_GROUP_SIZE 1,000,000
//   n<N>/catalogue_zstd.parquet     DuckDB, ZSTD, same rows
//   n<N>/catalogue_polars.parquet   the snappy file re-written by Polars with its sink defaults
//   n<N>/catalogue_rsorted.parquet  the same rows ordered by r (NULLs last), DuckDB, SNAPPY,
//                                   ten row groups (ROW_GROUP_SIZE ceil(N / 10)): r, g and flux
//                                   statistics then prune (W14..W16)
//   n<N>/MANIFEST.json              sizes, sha256, row groups, sanity statistics (written last)
//   wide.parquet                    2000 DOUBLE columns c1..c2000 x 10,000 rows, one row group
//   wide.MANIFEST.json
// Existing files are kept when their manifest matches this generator (GEN_VERSION, N, peer
// versions); --force regenerates; --verify regenerates into a temporary folder and checks the
// bytes are identical to the cached ones (exit 1 if not).
//
// Determinism: every random column is its own stream, u(i, k) = hash(SEED<<40 | i*16 + k)
// mapped to [0,1) with 53 bits, so columns are independent (hash(i, k) with two arguments
// combines the hashes in a way that correlates the columns) and nothing depends on threads.
// Both writers run single-threaded (DuckDB SET threads=1, POLARS_MAX_THREADS=1), which makes
// row-group boundaries and file bytes identical on every regeneration.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadPeer, peerVersion, parseArgs, dataDir, catalogueDir } from './lib.mjs';
import { SEED, duck, catalogueSelect } from './catalogue_sql.mjs';

const GEN_VERSION = 2; // 2: the photometry columns g, r, flux and catalogue_rsorted
const ROW_GROUP_SIZE = 1000000;
const WIDE_COLS = 2000;
const WIDE_ROWS = 10000;

const args = parseArgs(process.argv.slice(2));

// ---- the Polars step runs in its own process so POLARS_MAX_THREADS=1 is set before load ----
if (args['polars-rewrite']) {
  const pl = loadPeer('nodejs-polars');
  pl.scanParquet(args.src).sinkParquet(args.dst).collectSync();
  process.exit(0);
}

const N = Number(args.n ?? process.env.N ?? 10000000);
if (!Number.isInteger(N) || N < 1000) {
  console.error(`gen_data: N must be an integer >= 1000 (got ${args.n ?? process.env.N})`);
  process.exit(2);
}
const ROOT = path.resolve(args.out ?? dataDir());

const sha256 = (f) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const versions = () => ({
  gen: GEN_VERSION,
  duckdb: peerVersion('@duckdb/node-api'),
  polars: peerVersion('nodejs-polars'),
});
const log = (...a) => console.error('gen_data:', ...a);

async function fileInfo(run, f) {
  const rg = await run(`SELECT count(DISTINCT row_group_id) AS rgs, min(row_group_num_rows) AS rg_min,
                               max(row_group_num_rows) AS rg_max
                        FROM parquet_metadata('${f}')`);
  return {
    bytes: fs.statSync(f).size,
    sha256: sha256(f),
    row_groups: Number(rg[0].rgs),
    row_group_rows: [Number(rg[0].rg_min), Number(rg[0].rg_max)],
  };
}

// Per row group, the min and max of some DOUBLE columns as the file's statistics say them:
// the report works out from these which row groups an expression can prune.
async function rowGroupStats(run, f, cols) {
  const rows = await run(`SELECT row_group_id AS g, path_in_schema AS c, stats_min_value AS lo,
                                 stats_max_value AS hi, stats_null_count AS nulls, row_group_num_rows AS n
                          FROM parquet_metadata('${f}')
                          WHERE path_in_schema IN (${cols.map((c) => `'${c}'`).join(', ')})
                          ORDER BY row_group_id, path_in_schema`);
  const out = [];
  for (const r of rows) {
    const g = Number(r.g);
    out[g] ??= { rows: Number(r.n) };
    out[g][r.c] = { min: r.lo === null ? null : Number(r.lo), max: r.hi === null ? null : Number(r.hi),
                    nulls: Number(r.nulls) };
  }
  return out;
}

async function genCatalogue(dir, n) {
  fs.mkdirSync(dir, { recursive: true });
  const { run } = await duck();
  const files = {
    snappy: path.join(dir, 'catalogue_snappy.parquet'),
    zstd: path.join(dir, 'catalogue_zstd.parquet'),
    polars: path.join(dir, 'catalogue_polars.parquet'),
    rsorted: path.join(dir, 'catalogue_rsorted.parquet'),
  };
  for (const codec of ['snappy', 'zstd']) {
    const t0 = Date.now();
    const tmp = files[codec] + '.tmp';
    await run(`COPY (${catalogueSelect(n, { photometry: true })}) TO '${tmp}'
               (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
    fs.renameSync(tmp, files[codec]);
    log(`${files[codec]} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  {
    const t0 = Date.now();
    const tmp = files.polars + '.tmp.parquet';
    const r = spawnSync(process.execPath,
      [fileURLToPath(import.meta.url), '--polars-rewrite', '--src', files.snappy, '--dst', tmp],
      { stdio: 'inherit', env: { ...process.env, POLARS_MAX_THREADS: '1' } });
    if (r.status !== 0) throw new Error(`Polars rewrite failed (status ${r.status}, signal ${r.signal})`);
    fs.renameSync(tmp, files.polars);
    log(`${files.polars} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  {
    // Ordered by r, ties (and the NULLs, last) by id: deterministic with one thread.
    const t0 = Date.now();
    const tmp = files.rsorted + '.tmp';
    await run(`COPY (SELECT * FROM read_parquet('${files.snappy}') ORDER BY r ASC NULLS LAST, id)
               TO '${tmp}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${Math.ceil(n / 10)})`);
    fs.renameSync(tmp, files.rsorted);
    log(`${files.rsorted} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  // Sanity statistics: the columns must be independent and the distributions as specified.
  const s = (await run(`SELECT count(*) AS n, corr(ra, dec) AS corr_ra_dec, corr(ra, z) AS corr_ra_z,
        corr(dec, log10(mass)) AS corr_dec_logmass, corr(ra, quality) AS corr_ra_quality,
        corr(mag[1], mag[2]) AS corr_mag1_mag2, min(ra) AS ra_min, max(ra) AS ra_max,
        min(dec) AS dec_min, max(dec) AS dec_max, min(mass) AS mass_min, max(mass) AS mass_max,
        min(z) AS z_min, max(z) AS z_max, avg((quality IS NULL)::INT) AS quality_null_frac,
        avg((survey = 'rare')::INT) AS rare_frac, count(DISTINCT survey) AS surveys,
        avg(flag::INT) AS flag_frac,
        corr(ra, r) AS corr_ra_r, corr(g - r, r) AS corr_colour_r, corr(mass, flux) AS corr_mass_flux,
        avg(r) AS r_mean, stddev_pop(r) AS r_sd, avg(g - r) AS colour_mean, stddev_pop(g - r) AS colour_sd,
        avg((g IS NULL)::INT) AS g_null_frac, avg((r IS NULL)::INT) AS r_null_frac,
        avg((flux IS NULL)::INT) AS flux_null_frac, min(flux) AS flux_min,
        avg(abs(-2.5 * log10(flux) + 22.5 - r)) AS mag_minus_r_abs_mean
      FROM '${files.snappy}'`))[0];
  const sanity = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Number(v)]));
  for (const k of Object.keys(sanity).filter((x) => x.startsWith('corr_'))) {
    if (Math.abs(sanity[k]) > 5 / Math.sqrt(n)) throw new Error(`columns correlated: ${k} = ${sanity[k]}`);
  }
  if (!(sanity.flux_min > 0)) throw new Error(`flux must be positive (min ${sanity.flux_min})`);
  const manifest = { ...versions(), n, row_group_size: ROW_GROUP_SIZE, files: {}, sanity };
  for (const [k, f] of Object.entries(files)) manifest.files[k] = { name: path.basename(f), ...(await fileInfo(run, f)) };
  for (const [k, f] of Object.entries(files)) manifest.files[k].stats = await rowGroupStats(run, f, ['g', 'r', 'flux']);
  fs.writeFileSync(path.join(dir, 'MANIFEST.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

async function genWide(root) {
  fs.mkdirSync(root, { recursive: true });
  const { run } = await duck();
  const f = path.join(root, 'wide.parquet');
  const cols = [];
  for (let k = 1; k <= WIDE_COLS; k++) cols.push(`((hash((${SEED + 1}::BIGINT << 40) + i * 4096 + ${k}) >> 11)::DOUBLE / 9007199254740992.0) AS c${k}`);
  const t0 = Date.now();
  await run(`COPY (SELECT ${cols.join(', ')} FROM range(1, ${WIDE_ROWS} + 1) t(i)) TO '${f}.tmp'
             (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${WIDE_ROWS * 10})`);
  fs.renameSync(f + '.tmp', f);
  log(`${f} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const manifest = { ...versions(), rows: WIDE_ROWS, columns: WIDE_COLS, files: { wide: { name: 'wide.parquet', ...(await fileInfo(run, f)) } } };
  fs.writeFileSync(path.join(root, 'wide.MANIFEST.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

function upToDate(manifestPath, extra) {
  try {
    const m = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    const v = versions();
    if (m.gen !== v.gen || m.duckdb !== v.duckdb || m.polars !== v.polars) return false;
    for (const [k, val] of Object.entries(extra)) if (m[k] !== val) return false;
    const dir = path.dirname(manifestPath);
    return Object.values(m.files).every((fi) => fs.existsSync(path.join(dir, fi.name)) &&
                                               fs.statSync(path.join(dir, fi.name)).size === fi.bytes);
  } catch {
    return false;
  }
}

const catDir = catalogueDir(ROOT, N);
if (args.verify) {
  // Regenerate into a scratch folder and compare the bytes with the cached copy.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pqt-gen-'));
  const a = JSON.parse(fs.readFileSync(path.join(catDir, 'MANIFEST.json'), 'utf8'));
  const aw = JSON.parse(fs.readFileSync(path.join(ROOT, 'wide.MANIFEST.json'), 'utf8'));
  const b = await genCatalogue(catalogueDir(tmp, N), N);
  const bw = await genWide(tmp);
  let ok = true;
  for (const [m1, m2] of [[a, b], [aw, bw]]) {
    for (const k of Object.keys(m1.files)) {
      const same = m1.files[k].sha256 === m2.files[k].sha256;
      ok &&= same;
      console.log(`${same ? 'identical' : 'DIFFERENT'}  ${m1.files[k].name}  ${m2.files[k].sha256}`);
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}

if (args.force || !upToDate(path.join(catDir, 'MANIFEST.json'), { n: N })) {
  log(`generating catalogue, N=${N} in ${catDir}`);
  const m = await genCatalogue(catDir, N);
  log(`sanity: ${JSON.stringify(m.sanity)}`);
} else {
  log(`catalogue N=${N} up to date in ${catDir}`);
}
if (args.force || !upToDate(path.join(ROOT, 'wide.MANIFEST.json'), {})) {
  log(`generating wide in ${ROOT}`);
  await genWide(ROOT);
} else {
  log(`wide up to date in ${ROOT}`);
}
