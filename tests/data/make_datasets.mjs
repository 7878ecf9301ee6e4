// make_datasets.mjs - datasets over many files (issue 31) and DuckDB's answers on them.
// Writes tests/data/datasets/ (its README.md describes every set):
//   duckdb_hive/   the 20,000-row catalogue by DuckDB's COPY ... (PARTITION_BY (survey, year))
//   polars_hive/   the same rows, one Polars sinkParquet per partition (nodejs-polars has no
//                  partitioned writer), into the same hive layout, row groups of 500 rows
//   hats_small/    the same rows as a HATS catalogue: hats.properties, partition_info.csv,
//                  dataset/_common_metadata, dataset/Norder=k/Dir=d/Npix=n.parquet at orders
//                  1..3 (one partition a folder of two files), each sorted by _healpix_29
//                  (healpy, tests/data/make_datasets_healpix.py)
//   hats_small_meta/  hats_small plus dataset/_metadata (pqt_write_metadata_summary)
//   edge_empty/, edge_mismatch/, edge_union/, edge_widen/   the corner cases (needs cc:
//                  edge_empty's empty row group comes from tests/data/make_empty_row_group.c)
//   expected.tsv   one query a line (below); hats_cones.tsv: partitions each cone must keep;
//                  expected_files.tsv: files a partition rule or cone must keep
// Run from the repository root with @duckdb/node-api and nodejs-polars installed somewhere
// and python3 with healpy (the outputs are committed; no test needs node or healpy):
//   NODE_PATH=bench/peers/node_modules node tests/data/make_datasets.mjs
//   (PYTHON=... names a python3 with healpy; by default python3, else /usr/bin/python3)
//
// expected.tsv columns (tab-separated; "-" for an empty field):
//   dataset query count sum_id sumcol sum md5 ids rule sql
// count: rows DuckDB's read_parquet(..., hive_partitioning = true) keeps with `WHERE sql`
// ("error" when the set must not open, e.g. mismatching schemas); sum_id: sum(id); sum:
// sum(sumcol) with six decimals (every mag is a multiple of 1/64, so any summation order gives
// these digits exactly); md5: of the kept ids sorted ascending, each followed by a newline,
// except for a query named "order", where the ids are in the table's order (hive: sorted
// relative paths, then row order within the file; HATS: by Norder, Npix, path, row); ids: the kept ids, sorted, comma-separated, when at most 50;
// rule: the same condition in pqt's filter language (docs/filters.md), "-" for none.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const require = createRequire(import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');
const pl = require('nodejs-polars');

const OUT = 'tests/data/datasets';
const N = 20000;
// python3 with healpy: $PYTHON, else python3 when it has healpy, else Debian's /usr/bin/python3
const pythonWithHealpy = () => {
  if (process.env.PYTHON) return process.env.PYTHON;
  const ok = (py) => spawnSync(py, ['-c', 'import healpy'], { stdio: 'ignore' }).status === 0;
  return ok('python3') || !fs.existsSync('/usr/bin/python3') ? 'python3' : '/usr/bin/python3';
};
const PY = pythonWithHealpy();
const HATS_SPLIT = 900; // a HATS partition with more rows than this splits into its 4 children
const HATS_MAX_ORDER = 3;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'make_datasets-'));
const log = (...a) => console.error('make_datasets:', ...a);

fs.mkdirSync(OUT, { recursive: true });
for (const d of fs.readdirSync(OUT)) if (d !== 'README.md') fs.rmSync(path.join(OUT, d), { recursive: true });

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run('SET threads = 1');
const rows = async (sql) => (await c.runAndReadAll(sql)).getRows();

// ---- the catalogue ----
// u(k): a Weyl sequence per column, ((id * A_k + B_k) mod 2^32) / 2^32, reproducible anywhere.
// Rows 1..8000 crowd a 12-degree cap around (210, 30) so that HATS splits it to order 3 while
// the rest of the sky stays at order 1; rows 1..6000 are all ('gaia dr3', 2020), one partition
// big enough for DuckDB to write several row groups (its partitioned writer cuts at 2048 rows).
// ra and dec are multiples of 2^-20 degrees (exact doubles whose low bytes are zero: the files
// compress to half).
const u = (a, b) => `(((id * ${a} + ${b}) % 4294967296) / 4294967296.0)`;
await c.run(`CREATE TABLE cat AS
  WITH p AS (SELECT id::BIGINT AS id, ${u(2654435761, 12345)} AS u1, ${u(2246822519, 777)} AS u2
             FROM range(1, ${N + 1}) t(id)),
  q AS (SELECT id,
    CASE WHEN id <= 8000 THEN 30 + 12 * sqrt(u1) * sin(radians(360 * u2))
         ELSE degrees(asin(2 * u2 - 1)) END AS dec, u1, u2 FROM p)
  SELECT id,
    round(CASE WHEN id <= 8000 THEN 210 + 12 * sqrt(u1) * cos(radians(360 * u2)) / cos(radians(dec))
         ELSE 360 * u1 END * 1048576) / 1048576 AS ra,
    round(dec * 1048576) / 1048576 AS dec,
    CASE WHEN id % 101 = 0 THEN NULL ELSE 14 + ((id * 37) % 640) / 64.0 END::FLOAT AS mag,
    CASE WHEN id <= 6000 THEN 'gaia dr3' WHEN id % 53 = 0 THEN NULL
         ELSE ['sdss', 'gaia dr3', 'ps1/3pi', 'des=y6', 'ztf'][(id * 7) % 5 + 1] END AS survey,
    CASE WHEN id <= 6000 THEN 2020 ELSE 2016 + (id * 13) % 6 END::INTEGER AS year
  FROM q ORDER BY id`);

// ---- duckdb_hive ----
await c.run(`COPY cat TO '${OUT}/duckdb_hive' (FORMAT parquet, PARTITION_BY (survey, year),
  ROW_GROUP_SIZE 1000, COMPRESSION zstd)`);

// ---- polars_hive: Polars' hive folder names (percent-encoding as DuckDB and Polars read
// them back; null as __HIVE_DEFAULT_PARTITION__), one file per partition ----
const hiveEnc = (v) =>
  v === null ? '__HIVE_DEFAULT_PARTITION__' : encodeURIComponent(String(v));
await c.run(`COPY cat TO '${tmp}/cat.parquet' (FORMAT parquet)`);
for (const [s, y] of await rows('SELECT DISTINCT survey, year FROM cat ORDER BY ALL')) {
  const dir = `${OUT}/polars_hive/survey=${hiveEnc(s)}/year=${hiveEnc(y)}`;
  fs.mkdirSync(dir, { recursive: true });
  const cond = (s === null ? pl.col('survey').isNull() : pl.col('survey').eq(pl.lit(s)))
    .and(pl.col('year').eq(pl.lit(y)));
  pl.scanParquet(`${tmp}/cat.parquet`).filter(cond).drop(['survey', 'year'])
    .sinkParquet(`${dir}/00000000.parquet`, { rowGroupSize: 500, maintainOrder: true, compression: 'zstd' })
    .collectSync();
}

// ---- hats_small ----
await c.run(`COPY (SELECT id, ra, dec FROM cat ORDER BY id) TO '${tmp}/radec.csv' (HEADER)`);
const py = spawnSync(PY, ['tests/data/make_datasets_healpix.py', 'pix', `${tmp}/radec.csv`,
  `${tmp}/hp.csv`], { stdio: 'inherit' });
if (py.status !== 0) throw new Error(`${PY} make_datasets_healpix.py pix failed`);
await c.run(`CREATE TABLE hp AS SELECT * FROM read_csv('${tmp}/hp.csv', header = true,
  columns = {'id': 'BIGINT', 'ra': 'DOUBLE', 'dec': 'DOUBLE', '_healpix_29': 'BIGINT'})`);
const [[bad]] = await rows(`SELECT count(*) FROM cat JOIN hp USING (id)
  WHERE hp.ra IS DISTINCT FROM cat.ra OR hp.dec IS DISTINCT FROM cat.dec`);
const [[nhp]] = await rows('SELECT count(*) FROM hp');
if (bad !== 0n || nhp !== BigInt(N)) throw new Error(`ra/dec did not survive the round trip to healpy (${bad} differ)`);
// partitions: order-1 pixels split while they hold more than HATS_SPLIT rows
const parts = [];
const split = async (k, n) => {
  const shift = 2n * (29n - BigInt(k));
  const [[cnt]] = await rows(`SELECT count(*) FROM hp WHERE _healpix_29 >> ${shift} = ${n}`);
  if (cnt === 0n) return;
  if (cnt > BigInt(HATS_SPLIT) && k < HATS_MAX_ORDER) {
    for (let ch = 0; ch < 4; ch++) await split(k + 1, 4 * n + ch);
  } else parts.push({ k, n, cnt: Number(cnt) });
};
for (let n = 0; n < 48; n++) await split(1, n);
const hatsSel = (k, n) => `SELECT hp._healpix_29, cat.*, ${k}::UTINYINT AS Norder,
    ${Math.floor(n / 10000) * 10000}::UBIGINT AS Dir, ${n}::UBIGINT AS Npix
  FROM cat JOIN hp USING (id) WHERE hp._healpix_29 >> ${2 * (29 - k)} = ${n}`;
const H = `${OUT}/hats_small`;
fs.mkdirSync(`${H}/dataset`, { recursive: true });
const biggest = parts.filter((p) => p.k === HATS_MAX_ORDER).sort((a, b) => b.cnt - a.cnt)[0];
// DuckDB sorts each partition into a temporary file; Polars writes it with row groups of 256
// rows (DuckDB 1.5 cuts row groups at 2048 rows at the least), so the _healpix_29 statistics
// of each row group are narrow.
const polarsCopy = (src, dst, opt = {}) => pl.scanParquet(src).sinkParquet(dst,
  { rowGroupSize: 256, maintainOrder: true, compression: 'zstd', ...opt }).collectSync();
for (const p of parts) {
  const dir = `${H}/dataset/Norder=${p.k}/Dir=${Math.floor(p.n / 10000) * 10000}`;
  fs.mkdirSync(dir, { recursive: true });
  const t = `${tmp}/part.parquet`;
  if (p === biggest) {
    // a partition stored as a folder of two files, split at the middle _healpix_29
    fs.mkdirSync(`${dir}/Npix=${p.n}`);
    const half = Math.floor(p.cnt / 2);
    await c.run(`COPY (${hatsSel(p.k, p.n)} ORDER BY _healpix_29 LIMIT ${half}) TO '${t}'`);
    polarsCopy(t, `${dir}/Npix=${p.n}/part0.parquet`);
    await c.run(`COPY (${hatsSel(p.k, p.n)} ORDER BY _healpix_29 OFFSET ${half}) TO '${t}'`);
    polarsCopy(t, `${dir}/Npix=${p.n}/part1.parquet`);
  } else {
    await c.run(`COPY (${hatsSel(p.k, p.n)} ORDER BY _healpix_29) TO '${t}'`);
    polarsCopy(t, `${dir}/Npix=${p.n}.parquet`);
  }
}
// _common_metadata: the schema, zero rows (and so no row group), by the same writer
pl.scanParquet(`${tmp}/part.parquet`).head(0).sinkParquet(`${H}/dataset/_common_metadata`,
  { compression: 'zstd' }).collectSync();
parts.sort((a, b) => a.k - b.k || a.n - b.n);
fs.writeFileSync(`${H}/partition_info.csv`,
  'Norder,Npix\n' + parts.map((p) => `${p.k},${p.n}`).join('\n') + '\n');
const area = parts.reduce((s, p) => s + 1 / (12 * 4 ** p.k), 0);
fs.writeFileSync(`${H}/hats.properties`, [
  '#HATS catalog',
  'obs_collection=hats_small',
  'dataproduct_type=object',
  `hats_nrows=${N}`,
  'hats_col_ra=ra',
  'hats_col_dec=dec',
  'hats_col_healpix=_healpix_29',
  'hats_col_healpix_order=29',
  `hats_max_rows=${HATS_SPLIT}`,
  `hats_order=${Math.max(...parts.map((p) => p.k))}`,
  `moc_sky_fraction=${area.toFixed(5)}`,
  'hats_builder=pqt tests/data/make_datasets.mjs',
  'hats_version=v0.1',
  '',
].join('\n'));
log(`hats_small: ${parts.length} partitions, orders ${[...new Set(parts.map((p) => p.k))]},` +
  ` folder partition ${biggest.k}/${biggest.n} (${biggest.cnt} rows)`);

// ---- hats_small_meta: hats_small with a dataset/_metadata summary, written by pqt's
// pqt_write_metadata_summary (make_hats_meta.c, built against the shared library in
// $PQT_BUILD, default build/); skipped when that build lacks the call ----
const HM = `${OUT}/hats_small_meta`;
{
  const lib = path.resolve(process.env.PQT_BUILD ?? 'build');
  const so = fs.existsSync(lib) ? fs.readdirSync(lib).find((f) => /^libpqt\.so\.\d+\.\d+\.\d+$/.test(f)) : null;
  const inc = path.resolve(lib, '..', 'include');
  const cc = so && spawnSync('cc', ['-std=c11', `-I${fs.existsSync(inc) ? inc : 'include'}`, 'tests/data/make_hats_meta.c',
    `${lib}/${so}`, `-Wl,-rpath,${lib}`, '-o', `${tmp}/make_hats_meta`], { stdio: 'ignore' });
  if (cc && cc.status === 0) {
    fs.cpSync(H, HM, { recursive: true });
    const members = [];
    const walk = (d, rel) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name), rel ? `${rel}/${e.name}` : e.name);
        else if (e.name.endsWith('.parquet')) members.push(rel ? `${rel}/${e.name}` : e.name);
      }
    };
    walk(`${HM}/dataset`, '');
    members.sort();
    const r = spawnSync(`${tmp}/make_hats_meta`, [`${HM}/dataset`, ...members], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('make_hats_meta failed');
    fs.writeFileSync(`${HM}/hats.properties`, fs.readFileSync(`${H}/hats.properties`, 'utf8')
      .replace('obs_collection=hats_small', 'obs_collection=hats_small_meta'));
    log(`hats_small_meta: _metadata over ${members.length} files (${lib}/${so})`);
  } else {
    log(`hats_small_meta skipped: no pqt build with pqt_write_metadata_summary in ${lib} (set PQT_BUILD)`);
  }
}

// ---- edge sets ----
const E = (d) => { fs.mkdirSync(`${OUT}/${d}`, { recursive: true }); return `${OUT}/${d}`; };
const edgeRows = (lo, hi, cols) => `SELECT id::BIGINT AS id, ${cols} FROM range(${lo}, ${hi + 1}) t(id)`;
// edge_empty: rows, zero-row files without a row group (Polars, DuckDB: neither writes an empty
// one), a zero-row file with one empty row group (make_empty_row_group.c)
let d = E('edge_empty');
await c.run(`COPY (${edgeRows(1, 100, '(id * 3)::INTEGER AS x')}) TO '${d}/a.parquet' (FORMAT parquet)`);
await c.run(`COPY (${edgeRows(1, 100, '(id * 3)::INTEGER AS x')} LIMIT 0) TO '${d}/c_no_row_groups.parquet' (FORMAT parquet)`);
pl.scanParquet(`${d}/a.parquet`).filter(pl.col('id').lt(0))
  .sinkParquet(`${d}/b_zero_rows.parquet`).collectSync();
await c.run(`COPY (${edgeRows(101, 150, '(id * 3)::INTEGER AS x')}) TO '${d}/d.parquet' (FORMAT parquet)`);
// one row group of zero rows: neither writer makes one, the tests' Parquet builder does
{
  const cc = spawnSync('cc', ['-std=c11', '-Iinclude', '-Isrc', '-Itests/unit', 'tests/data/make_empty_row_group.c',
    'tests/unit/pqbuild.c', '-o', `${tmp}/make_empty_row_group`], { stdio: 'inherit' });
  if (cc.status !== 0) throw new Error('cc make_empty_row_group.c failed');
  if (spawnSync(`${tmp}/make_empty_row_group`, [`${d}/b2_empty_row_group.parquet`], { stdio: 'inherit' }).status !== 0)
    throw new Error('make_empty_row_group failed');
  const [[n, rgs]] = await rows(`SELECT (SELECT count(*) FROM read_parquet('${d}/b2_empty_row_group.parquet')),
    (SELECT count(*) FROM parquet_metadata('${d}/b2_empty_row_group.parquet'))`);
  if (n !== 0n || rgs !== 2n) throw new Error(`b2_empty_row_group.parquet: DuckDB reads ${n} rows, ${rgs} chunks`);
}
// edge_mismatch: x is int32 in one file, string in the other
d = E('edge_mismatch');
await c.run(`COPY (${edgeRows(1, 50, 'id::INTEGER AS x')}) TO '${d}/a.parquet' (FORMAT parquet)`);
await c.run(`COPY (${edgeRows(51, 100, 'id::VARCHAR AS x')}) TO '${d}/b.parquet' (FORMAT parquet)`);
// edge_union: b.parquet lacks y (reads as nulls under the union option)
d = E('edge_union');
await c.run(`COPY (${edgeRows(1, 60, 'id::INTEGER AS x, id / 4.0 AS y')}) TO '${d}/a.parquet' (FORMAT parquet)`);
await c.run(`COPY (${edgeRows(61, 100, 'id::INTEGER AS x')}) TO '${d}/b.parquet' (FORMAT parquet)`);
// edge_widen: v int32 / int64 and w float32 / float64 (the union option widens)
d = E('edge_widen');
await c.run(`COPY (${edgeRows(1, 60, 'id::INTEGER AS v, (id / 8.0)::FLOAT AS w')}) TO '${d}/a.parquet' (FORMAT parquet)`);
await c.run(`COPY (${edgeRows(61, 100, '(id + 3000000000)::BIGINT AS v, id / 8.0 AS w')}) TO '${d}/b.parquet' (FORMAT parquet)`);

// ---- expected values ----
const hav = (ra0, dec0) =>
  `2 * degrees(asin(sqrt(pow(sin(radians(dec - ${dec0}) / 2), 2) + ` +
  `cos(radians(dec)) * cos(radians(${dec0})) * pow(sin(radians(ra - ${ra0}) / 2), 2))))`;
const cone = (ra0, dec0, r) => [`cone(ra, dec, ${ra0}, ${dec0}, ${r})`, `${hav(ra0, dec0)} <= ${r}`,
  `abs(${hav(ra0, dec0)} - ${r})`];
// [name, pqt rule, SQL condition (null: the same text), margin expression]
const hiveQueries = [
  ['all', '-', 'true'],
  ['order', '-', 'true'],
  ['survey_sdss', "survey = 'sdss'"],
  ['survey_space', "survey = 'gaia dr3'"],
  ['survey_slash', "survey = 'ps1/3pi'"],
  ['survey_equals', "survey = 'des=y6'"],
  ['survey_null', 'survey is null'],
  ['survey_not_null', 'survey is not null'],
  ['survey_in', "survey in ('sdss', 'ztf') and year not in (2016)"],
  ['survey_like', "survey like 'gaia%'"],
  ['year_in', 'year in (2016, 2018)'],
  ['year_between', 'year between 2017 and 2019'],
  ['year_eq', 'year = 2020'],
  ['year_none', 'year = 2030'],
  ['mag_lt', 'mag < 18'],
  ['mag_null', 'mag is null'],
  ['mixed', "survey = 'sdss' and year >= 2019 and mag < 18"],
  ['mixed_or', "survey = 'ztf' or mag < 14.5"],
  ['mixed_small', "survey = 'ps1/3pi' and year = 2017 and mag between 20 and 20.2"],
  ['id_range', 'id between 5990 and 6010'],
  ['cone_hive', ...cone(210, 30, 2)],
];
const hatsQueries = [
  ['all', '-', 'true'],
  ['order', '-', 'true'],
  ['mag_lt', 'mag < 18'],
  ['survey_null', 'survey is null'],
  ['norder3', 'Norder = 3'],
  ['cone_2', ...cone(210, 30, 2)],
  ['cone_10', ...cone(210, 30, 10)],
  ['cone_30', ...cone(30, -20, 30)],
  ['cone_pole', ...cone(100, 88, 5)],
  ['cone_south_pole', ...cone(0, -90, 4)],
  ['cone_ra0', ...cone(0.5, 10, 3)],
  ['cone_ra360', ...cone(359, -45, 10)],
  ['cone_tiny', ...cone(210, 30, 0.3)],
  ['cone_zero', ...cone(123.4, 5.6, 0)],
  ['cone_sky', ...cone(0, 0, 180)],
  ['cone_mag_and', `cone(ra, dec, 210, 30, 4.2) and mag < 20`,
    `${hav(210, 30)} <= 4.2 AND mag < 20`, `abs(${hav(210, 30)} - 4.2)`],
];
const edgeQueries = {
  edge_empty: [['all', '-', 'true'], ['x_gt', 'x > 200', null]],
  edge_union: [['all', '-', 'true'], ['y_null', 'y is null', null], ['y_gt', 'y > 10', null]],
  edge_widen: [['all', '-', 'true'], ['v_big', 'v > 3000000070', null], ['w_lt', 'w < 5', null]],
};
const sets = [
  ['duckdb_hive', `read_parquet('${OUT}/duckdb_hive/**/*.parquet', hive_partitioning = true)`, hiveQueries, 'mag'],
  ['polars_hive', `read_parquet('${OUT}/polars_hive/**/*.parquet', hive_partitioning = true)`, hiveQueries, 'mag'],
  ['hats_small', `read_parquet('${OUT}/hats_small/dataset/**/*.parquet', hive_partitioning = false)`, hatsQueries, 'mag'],
  ...(fs.existsSync(HM) ? [['hats_small_meta', `read_parquet('${HM}/dataset/**/*.parquet', hive_partitioning = false)`, hatsQueries, 'mag']] : []),
  ['edge_empty', `read_parquet('${OUT}/edge_empty/*.parquet')`, edgeQueries.edge_empty, 'x'],
  ['edge_union', `read_parquet('${OUT}/edge_union/*.parquet', union_by_name = true)`, edgeQueries.edge_union, 'y'],
  ['edge_widen', `read_parquet('${OUT}/edge_widen/*.parquet', union_by_name = true)`, edgeQueries.edge_widen, 'w'],
];
const md5 = (ids) => createHash('md5').update(ids.map((i) => `${i}\n`).join('')).digest('hex');
const lines = [
  '# tests/data/make_datasets.mjs: DuckDB ' + (await rows('SELECT version()'))[0][0] +
  '; columns: dataset query count sum_id sumcol sum md5 ids rule sql ("-" for empty)',
];
for (const [ds, from, qs, sumcol] of sets) {
  for (const [name, rule, sqlIn, margin] of qs) {
    const sql = sqlIn ?? rule;
    if (margin) {
      const [[m]] = await rows(`SELECT min(${margin}) FROM ${from}`);
      if (m !== null && m < 1e-9) throw new Error(`${ds} ${name}: a row within ${m} of the boundary`);
    }
    // path order; a HATS catalogue's members go by order, then pixel (as numbers), then path
    const order = name !== 'order' ? 'ORDER BY id'
      : ds.startsWith('hats_') ? 'ORDER BY Norder, Npix, filename, file_row_number'
        : `ORDER BY replace(filename, '${OUT}/${ds}/', ''), file_row_number`;
    const src = from.replace(/\)$/, ', filename = true, file_row_number = true)');
    const ids = (await rows(`SELECT id FROM ${src} WHERE ${sql} ${order}`)).map((r) => r[0]);
    const [[cnt, sid, sv]] = await rows(`SELECT count(*), coalesce(sum(id), 0),
      coalesce(sum(${sumcol}::DOUBLE), 0) FROM ${from} WHERE ${sql}`);
    const small = ids.length <= 50 ? (ids.join(',') || '-') : '-';
    lines.push([ds, name, cnt, sid, sumcol, Number(sv).toFixed(6), md5(ids), small, rule,
      sqlIn === 'true' ? '-' : sql].join('\t'));
  }
}
// expected_files.tsv: files a rule must leave for footers. For a rule on partition columns only
// (hive sets) exactly the files whose partition values pass are kept and only their footers
// read ("exact"); for a cone on the HATS set, at least the files holding a row in the cone
// ("min": a pruning by HEALPix pixel is conservative).
const fileLines = ['# dataset\tquery\tfiles\tkept\tbound (exact: kept = files - files_pruned_partition = footers_read; min: kept <= files - files_pruned_partition; summary: footers_read = 1)\trule'];
for (const [ds, from, qs] of sets.filter((x) => !x[0].startsWith('edge_'))) {
  const src = from.replace(/\)$/, ', filename = true)');
  const [[files]] = await rows(`SELECT count(DISTINCT filename) FROM ${src}`);
  for (const [name, rule, sqlIn] of qs) {
    const hats = ds.startsWith('hats_');
    const partOnly = !hats && rule !== '-' && !/\b(mag|id|ra|dec|cone)\b/.test(rule);
    const cone = hats && rule.startsWith('cone(');
    if (ds === 'hats_small_meta' && name === 'mag_lt') {
      // a _metadata summary: the one footer read, whatever the rule
      fileLines.push([ds, name, files, 0, 'summary', rule].join('\t'));
      continue;
    }
    if (!partOnly && !cone) continue;
    const [[kept]] = await rows(`SELECT count(DISTINCT filename) FROM ${src} WHERE ${sqlIn ?? rule}`);
    fileLines.push([ds, name, files, kept, partOnly ? 'exact' : 'min', rule].join('\t'));
  }
}
fs.writeFileSync(`${OUT}/expected_files.tsv`, fileLines.join('\n') + '\n');
// mismatching schemas: DuckDB refuses to combine int32 and string without union_by_name
{
  let ok = false;
  try { await rows(`SELECT sum(x) FROM read_parquet('${OUT}/edge_mismatch/*.parquet')`); ok = true; } catch { /* expected */ }
  if (ok) log('note: DuckDB read edge_mismatch without an error');
  lines.push(['edge_mismatch', 'all', 'error', '-', 'x', '-', '-', '-', '-', '-'].join('\t'));
}
fs.writeFileSync(`${OUT}/expected.tsv`, lines.join('\n') + '\n');

// ---- hats_cones.tsv: per cone, partitions holding a row in the cone (every correct pruning
// keeps them) and those healpy.query_disc(inclusive) may not rule out ----
const cones = hatsQueries.filter((q) => q[1].startsWith('cone(') && !q[1].includes(' and '));
fs.writeFileSync(`${tmp}/cones.csv`, 'name,ra0,dec0,r\n' + cones.map((q) =>
  [q[0], ...q[1].slice(5, -1).split(',').slice(2).map((s) => s.trim())].join(',')).join('\n') + '\n');
fs.writeFileSync(`${tmp}/parts.csv`, 'Norder,Npix\n' + parts.map((p) => `${p.k},${p.n}`).join('\n') + '\n');
const py2 = spawnSync(PY, ['tests/data/make_datasets_healpix.py', 'disc', `${tmp}/cones.csv`,
  `${tmp}/parts.csv`, `${tmp}/disc.tsv`], { stdio: 'inherit' });
if (py2.status !== 0) throw new Error(`${PY} make_datasets_healpix.py disc failed`);
const disc = Object.fromEntries(fs.readFileSync(`${tmp}/disc.tsv`, 'utf8').trim().split('\n')
  .map((l) => l.split('\t')));
const coneLines = ['# cone\trule\tmust_keep (Norder/Npix holding a row in the cone)\thealpy_inclusive (query_disc, inclusive=True)'];
for (const [name, rule, sql] of cones) {
  const keep = await rows(`SELECT DISTINCT Norder, Npix FROM read_parquet('${H}/dataset/**/*.parquet',
    hive_partitioning = false) WHERE ${sql} ORDER BY ALL`);
  const k = keep.map((r) => `${r[0]}/${r[1]}`);
  const inc = new Set(disc[name] === '-' ? [] : disc[name].split(','));
  for (const p of k) if (!inc.has(p)) throw new Error(`${name}: partition ${p} holds a row but healpy rules it out`);
  coneLines.push([name, rule, k.join(',') || '-', disc[name]].join('\t'));
}
fs.writeFileSync(`${OUT}/hats_cones.tsv`, coneLines.join('\n') + '\n');
fs.rmSync(tmp, { recursive: true });
const du = spawnSync('du', ['-sb', OUT], { encoding: 'utf8' }).stdout.trim();
log(`wrote ${OUT} (${du})`);
