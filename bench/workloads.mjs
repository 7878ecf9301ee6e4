// workloads.mjs - THE table of benchmark workloads. Adding a workload is one entry here
// (plus, for pqt, one entry in the WORKLOADS table of pqt_bench.c).
//
// Each entry:
//   id, title     shown in the report
//   files         which data files it runs on (keys of FILES below)
//   cols          names of the checksum values, ':i' = integer (compared exactly),
//                 ':f' = float (compared to within 1e-9 relative)
//   duckdb(src, ctx)    -> SQL text; src is a read_parquet(...) expression
//   duckdbPost(rows)    -> optional: result rows (arrays) to checksum values; default: first row
//   polars(pl, lf, ctx) -> LazyFrame to collect; lf is pl.scanParquet(file)
//   polarsPost(df)      -> optional: DataFrame to checksum values; default: first row
//   pqt           true: pqt_bench implements it; false: not yet (reported "n/a");
//                 pqtOnly entries have no peers
//   pqtArgs       pqt_bench arguments (default: --workload <id>); an array, or a function of ctx
//                 giving one
//   baselineOf    the workload this pqt-only entry is the "no pushdown" baseline of: the report
//                 shows it as a row under that workload, against the same best peer
//   exportFormat  an export workload: pqt is the `pqt cat FILE --format <this>` process with
//                 its output to /dev/null (timed from outside, start-up included), checked by
//                 the number of rows it prints; DuckDB runs the COPY of its SQL
//   ref           [workload, col, ...]: pqt-only entries are checked against these values of
//                 another workload on the same file (from whichever engines ran it)
//   crossFiles    the files hold the same rows in other orders: every file's answer must agree
//                 too (the report's check says "N files")
//   cold          every engine's warm-up and timed runs start with the file's pages dropped from
//                 the page cache (BUILD/bench/pqt_evict, bench/evict.c), untimed; the record
//                 carries what was resident before and after each eviction
//   floor         pqt_floor's arguments for this workload's physical floor (the column chunks
//                 it must read, pread + decompress, no decoding): { columns, range? }, or a
//                 function of ctx giving one
//   f1Base        F1 rows: the unfiltered workload this filtered read is compared with
// ctx = { n } (rows of the catalogue).

export const CAT_FILES = ['snappy', 'zstd', 'polars'];
export const FILES = {
  snappy: { catalogue: true, name: 'catalogue_snappy.parquet', label: 'DuckDB snappy' },
  zstd: { catalogue: true, name: 'catalogue_zstd.parquet', label: 'DuckDB zstd' },
  polars: { catalogue: true, name: 'catalogue_polars.parquet', label: 'Polars defaults' },
  wide: { catalogue: false, name: 'wide.parquet', label: 'wide 2000 cols' },
  // The catalogue's rows ordered by r (ten row groups): for the photometric workloads only.
  rsorted: { catalogue: true, name: 'catalogue_rsorted.parquet', label: 'sorted by r (DuckDB snappy)' },
  // Datasets of many files (D1..D5; bench/gen_datasets.mjs makes them from catalogue_snappy):
  // folders under n<N>/, opened by every engine as one table.
  hive1000: { catalogue: false, dataset: 'hive', name: 'hive1000', label: '1,000 hive files (part=K)' },
  hats: { catalogue: false, dataset: 'hats', name: 'hats', label: 'HATS (HEALPix orders 3..7)' },
};
// The path an engine opens for a file key: a catalogue file or a dataset folder under n<N>/,
// else a file in the data root. pqt opens it as is (a dataset through pqt_table_open of the
// folder); the peers get dataSource's glob.
export function dataPath(fk, root, n, catDir) {
  const f = FILES[fk];
  return f.catalogue || f.dataset ? `${catDir(root, n)}/${f.name}` : `${root}/${f.name}`;
}
// DuckDB's source expression and Polars' scan for a file key: a dataset is a glob, hive
// folders with hive partitioning; the HATS folders (Norder=/Dir=/Npix=) are not read as hive
// columns, the files carry those columns themselves.
export function duckdbSource(fk, file) {
  const f = FILES[fk];
  if (f.dataset === 'hive') return `read_parquet('${file}/**/*.parquet', hive_partitioning = true)`;
  if (f.dataset === 'hats') return `read_parquet('${file}/dataset/**/*.parquet', hive_partitioning = false)`;
  return `read_parquet('${file}')`;
}
export function polarsScan(pl, fk, file) {
  const f = FILES[fk];
  if (f.dataset === 'hive') return pl.scanParquet(`${file}/**/*.parquet`, { hivePartitioning: true });
  if (f.dataset === 'hats') return pl.scanParquet(`${file}/dataset/**/*.parquet`, { hivePartitioning: false });
  return pl.scanParquet(file);
}
// The photometric workloads (W14..W16) run on the three catalogue files and the r-sorted one.
export const PHOT_FILES = [...CAT_FILES, 'rsorted'];

// pqt's filtered workloads open the table with the filter rules (PQT_OPT_FILTER), then read
// the --sum columns with pqt_table_get_alloc; the rule text says what the SQL's WHERE says.
const fsum = (rules, sums) => ['--workload', 'FSUM', ...rules.flatMap((r) => ['--filter', r]),
                               '--sum', sums.join(',')];

// W13's cone: (ra0, dec0) and radius r in degrees, keeping ~0.1% of the catalogue (9,813
// rows of 10,000,000; ra, dec are uniform in degrees, not on the sphere). Every engine
// compares sin(dec) sin(dec0) + cos(dec) cos(dec0) cos(ra - ra0) >= cos(r), term for term,
// with these three constants computed once here (exact doubles passed on).
export const CONE = { ra0: 210, dec0: 30, r: 4.2 };
const RAD = Math.PI / 180;
export const CONE_K = { s0: Math.sin(CONE.dec0 * RAD), c0: Math.cos(CONE.dec0 * RAD),
                        cr: Math.cos(CONE.r * RAD) };
const W13_SUMS = ['id', 'mass', 'z', 'quality'];
const coneArgs = (id) => ['--workload', id, '--cone', `${CONE.ra0},${CONE.dec0},${CONE.r}`,
                          '--cone-k', `${CONE_K.s0},${CONE_K.c0},${CONE_K.cr}`,
                          '--sum', W13_SUMS.join(',')];
// A DOUBLE literal from its shortest round-trip text (a bare 0.866... would be a DECIMAL).
const dbl = (x) => `CAST('${x}' AS DOUBLE)`;

// The W2 range: 1% of the ids, in the middle of the file.
export function w2Range(n) {
  const len = Math.max(1, Math.floor(n / 100));
  const lo = Math.floor(n / 2) - Math.floor(len / 2) + 1;
  return { lo, hi: lo + len - 1 };
}

// W7's answer (100 ids, largest mass first) folded into three numbers.
function idDigest(ids) {
  let s = 0;
  let w = 0;
  ids.forEach((id, r) => {
    s += Number(id);
    w += Number(id) * (r + 1);
  });
  return [ids.length, s, w];
}

// W10's digest modulus: every partial sum of (id mod P)(rank mod P) mod P over 10^7 rows
// stays below 2^53.
const W10_P = 1000003;

// W14..W16, the photometric cuts (issue 30): ONE expression, spelled for each engine. pqt gets
// the text as one filter rule (the expression grammar); until pqt parses it the cell says
// "unsupported" and the W14c..W16c rows (the same test as a C callback) stand in.
// pqt_bench --phot names the C form of the same predicate for the callback and no-pushdown rows;
// `helper` are the plain rules a user would add by hand so that statistics can prune (looser
// than the cut: mag < 21 is flux > 10^0.6 = 3.98107..., mag < 17 is flux > 158.489...).
export const PHOT = {
  W14: { rule: 'g - r > 0.5 and r < 20', sql: 'g - r > 0.5 AND r < 20', phot: 'colour,0.5,20',
         polars: (pl) => pl.col('g').minus(pl.col('r')).gt(0.5).and(pl.col('r').lt(20)),
         sums: ['r', 'mass'], helper: ['r < 20'],
         // a row group no row of which can pass, from its statistics (interval arithmetic):
         // the report's "provably empty" count, which pqt's pruning must reach
         empty: (s) => !(s.r.min < 20) || !(s.g.max - s.r.min > 0.5) },
  W15: { rule: '-2.5 * log10(flux) + 22.5 < 21', sql: '-2.5 * log10(flux) + 22.5 < 21', phot: 'mag,21',
         polars: (pl) => pl.col('flux').log(10).mul(-2.5).plus(22.5).lt(21),
         sums: ['flux', 'ra'], helper: ['flux > 3.98'],
         empty: (s) => !(-2.5 * Math.log10(s.flux.max) + 22.5 < 21) },
  W16: { rule: '-2.5 * log10(flux) + 22.5 < 17', sql: '-2.5 * log10(flux) + 22.5 < 17', phot: 'mag,17',
         polars: (pl) => pl.col('flux').log(10).mul(-2.5).plus(22.5).lt(17),
         sums: ['flux', 'mass'], helper: ['flux > 158'],
         empty: (s) => !(-2.5 * Math.log10(s.flux.max) + 22.5 < 17) },
};
// The main row of a photometric cut: count, then the sums, the same in every engine.
function photWorkload(id, title, files) {
  const c = PHOT[id];
  return {
    id, title: `${title}: count, sums ${c.sums.join(', ')}`, files, crossFiles: true,
    cols: ['count:i', ...c.sums.map((x) => `sum_${x}:f`)],
    duckdb: (src) => `SELECT count(*), ${c.sums.map((x) => `sum(${x})`).join(', ')} FROM ${src} WHERE ${c.sql}`,
    polars: (pl, lf) => sel(lf.filter(c.polars(pl)), pl.col(c.sums[0]).count().cast(pl.Int64),
                            ...c.sums.map((x) => pl.col(x).sum())),
    pqt: true,
    pqtArgs: fsum([c.rule], c.sums),
  };
}
// Its pqt-only rows: the predicate as a C callback (c: with the helper rules, which statistics
// can use) and without pushdown (n: every needed column read whole, the mask in C).
function photBaselines(id, files) {
  const c = PHOT[id];
  const cols = ['count:i', ...c.sums.map((x) => `sum_${x}:f`)];
  const ref = [id, 'count', ...c.sums.map((x) => `sum_${x}`)];
  const common = { files, cols, pqt: true, pqtOnly: true, baselineOf: id, ref };
  return [
    { ...common, id: `${id}c`,
      title: `the same test as a C callback (pqt_filter_add_callback)${c.helper.length ? ` beside the rule \`${c.helper.join(' and ')}\`` : ''}`,
      pqtArgs: ['--workload', 'PCB', '--phot', c.phot, ...c.helper.flatMap((r) => ['--filter', r]),
                '--sum', c.sums.join(',')] },
    { ...common, id: `${id}n`, title: 'no pushdown: the needed columns read whole, mask in C, sums under it',
      pqtArgs: ['--workload', 'PNONE', '--phot', c.phot, '--sum', c.sums.join(',')] },
  ];
}

const f64 = (pl, c) => pl.col(c).cast(pl.Float64);
// select() with the outputs named v0, v1, ... (Polars refuses two outputs with one name).
const sel = (lf, ...exprs) => lf.select(...exprs.map((e, i) => e.alias(`v${i}`)));

// W13's cone in the peers (D5 runs the same over the HATS layout).
const W13_SQL = (src) => `SELECT count(*), sum(id), sum(mass), sum(z::DOUBLE), sum(quality) FROM ${src}
                      WHERE sin(radians(dec)) * ${dbl(CONE_K.s0)}
                            + cos(radians(dec)) * ${dbl(CONE_K.c0)} * cos(radians(ra - ${CONE.ra0}))
                            >= ${dbl(CONE_K.cr)}`;
const W13_POLARS = (pl, lf) => {
  const dec = pl.col('dec').radians();
  const cosd = dec.sin().mul(CONE_K.s0)
    .plus(pl.col('dec').radians().cos().mul(CONE_K.c0)
      .mul(pl.col('ra').minus(CONE.ra0).radians().cos()));
  return sel(lf.filter(cosd.gtEq(CONE_K.cr)), pl.col('id').count().cast(pl.Int64),
             pl.col('id').sum(), pl.col('mass').sum(), f64(pl, 'z').sum(),
             pl.col('quality').cast(pl.Int64).sum());
};
// The cold-cache copy of a workload (W1c, W3c): the same queries, on snappy and zstd.
// Their answers are checked against the warm workload's too (`ref`).
const coldOf = (w) => ({ ...w, id: `${w.id}c`, title: `${w.title} (cold cache)`, files: ['snappy', 'zstd'],
                         cold: true, pqtArgs: w.pqtArgs ?? ['--workload', w.id],
                         ref: [w.id, ...w.cols.map((c) => c.split(':')[0])] });

// F1: a filter keeping every row, then the read of its own column (count, sum mass), against
// the same read unfiltered (F1u). The rules differ in what footer statistics can settle: see
// bench/README.md, "F1".
const F1_FILTERS = [
  { id: 'F1', title: 'filter keeping every row `mass >= 0`, then sum mass', rule: 'mass >= 0',
    sql: 'mass >= 0', polars: (pl) => pl.col('mass').gtEq(0) },
  { id: 'F1s', title: 'the same through a computed predicate `mass * 1 >= 0`', rule: 'mass * 1 >= 0',
    sql: 'mass * 1 >= 0', polars: (pl) => pl.col('mass').mul(1).gtEq(0) },
  { id: 'F1p', title: 'the same as `not (mass < 0)`, which statistics prove true for every row',
    rule: 'not (mass < 0)', sql: 'NOT (mass < 0)', polars: (pl) => pl.col('mass').lt(0).not() },
];
const f1Workloads = () => [
  {
    id: 'F1u', title: 'unfiltered: count, sum mass (the F1 rows\' baseline)', files: CAT_FILES,
    cols: ['count:i', 'sum_mass:f'],
    duckdb: (src) => `SELECT count(*), sum(mass) FROM ${src}`,
    polars: (pl, lf) => sel(lf, pl.col('mass').count().cast(pl.Int64), pl.col('mass').sum()),
    pqt: true, pqtArgs: fsum([], ['mass']),
  },
  ...F1_FILTERS.map((f) => ({
    // every row passes: the answer must be F1u's
    id: f.id, title: f.title, files: CAT_FILES, cols: ['count:i', 'sum_mass:f'], f1Base: 'F1u',
    ref: ['F1u', 'count', 'sum_mass'],
    duckdb: (src) => `SELECT count(*), sum(mass) FROM ${src} WHERE ${f.sql}`,
    polars: (pl, lf) => sel(lf.filter(f.polars(pl)), pl.col('mass').count().cast(pl.Int64),
                            pl.col('mass').sum()),
    pqt: true, pqtArgs: fsum([f.rule], ['mass']),
  })),
];

// D2's partitions: ten of the 1,000 spread over the range (1% of the rows)
const D2_PARTS = [7, 107, 207, 307, 407, 507, 607, 707, 807, 907];

const BASE_WORKLOADS = [
  {
    id: 'W1', title: 'sum ra, dec, mass, z', files: CAT_FILES,
    cols: ['sum_ra:f', 'sum_dec:f', 'sum_mass:f', 'sum_z:f'],
    duckdb: (src) => `SELECT sum(ra), sum(dec), sum(mass), sum(z::DOUBLE) FROM ${src}`,
    polars: (pl, lf) => sel(lf, pl.col('ra').sum(), pl.col('dec').sum(), pl.col('mass').sum(),
                                f64(pl, 'z').sum()),
    pqt: true,
    floor: { columns: ['ra', 'dec', 'mass', 'z'] },
  },
  {
    id: 'W2', title: "1% `id` range (sorted): count, sum ra", files: CAT_FILES,
    cols: ['count:i', 'sum_ra:f'],
    duckdb: (src, { n }) => {
      const { lo, hi } = w2Range(n);
      return `SELECT count(*), sum(ra) FROM ${src} WHERE id BETWEEN ${lo} AND ${hi}`;
    },
    polars: (pl, lf, { n }) => {
      const { lo, hi } = w2Range(n);
      return sel(lf.filter(pl.col('id').gtEq(lo).and(pl.col('id').ltEq(hi))),
                 pl.col('ra').count().cast(pl.Int64), pl.col('ra').sum());
    },
    pqt: true,
    pqtArgs: ({ n }) => {
      const { lo, hi } = w2Range(n);
      return fsum([`id >= ${lo} and id <= ${hi}`], ['ra']);
    },
    // the row groups the id range touches (footer statistics of id), id and ra there
    floor: ({ n }) => {
      const { lo, hi } = w2Range(n);
      return { columns: ['id', 'ra'], range: `id,${lo},${hi}` };
    },
  },
  {
    id: 'W3', title: "survey = 'rare': count, sum ra, dec, mass, z", files: CAT_FILES,
    cols: ['count:i', 'sum_ra:f', 'sum_dec:f', 'sum_mass:f', 'sum_z:f'],
    duckdb: (src) => `SELECT count(*), sum(ra), sum(dec), sum(mass), sum(z::DOUBLE) FROM ${src}
                      WHERE survey = 'rare'`,
    polars: (pl, lf) => sel(lf.filter(pl.col('survey').eq(pl.lit('rare'))),
                            pl.col('ra').count().cast(pl.Int64), pl.col('ra').sum(),
                            pl.col('dec').sum(), pl.col('mass').sum(), f64(pl, 'z').sum()),
    pqt: true,
    pqtArgs: fsum(['survey == "rare"'], ['ra', 'dec', 'mass', 'z']),
    // 'rare' rows are scattered over every page: every chunk of the five columns
    floor: { columns: ['survey', 'ra', 'dec', 'mass', 'z'] },
  },
  {
    id: 'W4', title: 'mass > 1e12: count, sum ra', files: CAT_FILES,
    cols: ['count:i', 'sum_ra:f'],
    duckdb: (src) => `SELECT count(*), sum(ra) FROM ${src} WHERE mass > 1e12`,
    polars: (pl, lf) => sel(lf.filter(pl.col('mass').gt(1e12)),
                            pl.col('ra').count().cast(pl.Int64), pl.col('ra').sum()),
    pqt: true,
    pqtArgs: fsum(['mass > 1e12'], ['ra']),
    floor: { columns: ['mass', 'ra'] },
  },
  {
    id: 'W5', title: 'total length of `name` (bytes)', files: CAT_FILES,
    cols: ['bytes:i'],
    duckdb: (src) => `SELECT sum(strlen(name)) FROM ${src}`,
    // nodejs-polars has only str.lengths() (characters); names are ASCII, so chars = bytes.
    polars: (pl, lf) => sel(lf, pl.col('name').str.lengths().cast(pl.Int64).sum()),
    pqt: true,
  },
  {
    id: 'W6', title: 'non-null `quality`: count, sum', files: CAT_FILES,
    cols: ['count:i', 'sum:i'],
    duckdb: (src) => `SELECT count(quality), sum(quality) FROM ${src}`,
    polars: (pl, lf) => sel(lf, pl.col('quality').count().cast(pl.Int64),
                                pl.col('quality').cast(pl.Int64).sum()),
    pqt: true,
  },
  {
    id: 'W7', title: 'ids of the 100 largest masses', files: CAT_FILES,
    cols: ['count:i', 'sum_id:i', 'rank_weighted_id:i'],
    duckdb: (src) => `SELECT id FROM ${src} ORDER BY mass DESC LIMIT 100`,
    duckdbPost: (rows) => idDigest(rows.map((r) => r[0])),
    polars: (pl, lf) => lf.select('id', 'mass').sort('mass', true).head(100).select('id'),
    polarsPost: (df) => idDigest(df.getColumn('id').toArray()),
    pqt: true,
  },
  {
    // The whole catalogue sorted; ties (none expected in mass) go by id, the file's order,
    // which is what pqt's stable sort keeps. The ids in order are folded into a digest
    // inside each engine: count, sum, and sum((id mod P) * (rank mod P) mod P).
    id: 'W10', title: 'sort the catalogue by `survey, -mass`, ids in order', files: CAT_FILES,
    cols: ['count:i', 'sum_id:i', 'rank_digest:i'],
    duckdb: (src) => `SELECT count(*), sum(id), sum(((id % ${W10_P}) * (rn % ${W10_P})) % ${W10_P})
                      FROM (SELECT id, row_number() OVER (ORDER BY survey, mass DESC, id) AS rn
                            FROM ${src})`,
    polars: (pl, lf) => {
      const s = lf.select('id', 'survey', 'mass')
        .sort(['survey', 'mass', 'id'], [false, true, false]).withRowIndex('rn', 1);
      const rank = pl.col('rn').cast(pl.Int64).modulo(W10_P);
      return sel(s, pl.col('id').count().cast(pl.Int64), pl.col('id').sum(),
                 pl.col('id').modulo(W10_P).mul(rank).modulo(W10_P).sum());
    },
    pqt: true,
  },
  {
    id: 'W8', title: 'open `wide` (2000 cols), sum c1000', files: ['wide'],
    cols: ['sum:f'],
    duckdb: (src) => `SELECT sum(c1000) FROM ${src}`,
    polars: (pl, lf) => sel(lf, pl.col('c1000').sum()),
    pqt: true,
  },
  {
    id: 'W9', title: 'sum of all `mag` elements (FLOAT[5])', files: CAT_FILES,
    cols: ['sum:f'],
    duckdb: (src) => `SELECT sum(m::DOUBLE) FROM (SELECT unnest(mag) AS m FROM ${src})`,
    polars: (pl, lf) => sel(lf, pl.col('mag').explode().cast(pl.Float64).sum()),
    pqt: true,
  },
  {
    id: 'W13', title: `cone r = ${CONE.r}° around (${CONE.ra0}°, ${CONE.dec0}°): count, sums id, mass, z, quality`,
    files: CAT_FILES,
    cols: ['count:i', 'sum_id:i', 'sum_mass:f', 'sum_z:f', 'sum_quality:i'],
    duckdb: (src) => W13_SQL(src),
    polars: (pl, lf) => W13_POLARS(pl, lf),
    pqt: true,
    pqtArgs: coneArgs('W13'),
  },
  photWorkload('W14', 'colour cut `g - r > 0.5 and r < 20`', PHOT_FILES),
  photWorkload('W15', 'magnitude from flux `-2.5 * log10(flux) + 22.5 < 21`', PHOT_FILES),
  photWorkload('W16', 'bright, pruned by statistics `-2.5 * log10(flux) + 22.5 < 17`', ['rsorted']),
  // ---- datasets of many files (issue 31): 1,000 hive partitions of the catalogue by blocks of
  // N/1000 ids (part = floor((id - 1) * 1000 / N)) and a HATS layout of it ----
  {
    id: 'D1', title: 'dataset: open 1,000 hive files + count', files: ['hive1000'],
    cols: ['count:i'],
    duckdb: (src) => `SELECT count(*) FROM ${src}`,
    polars: (pl, lf) => sel(lf, pl.len().cast(pl.Int64)),
    pqt: true, pqtArgs: ['--workload', 'FSUM', '--sum', ''],
  },
  {
    id: 'D2', title: `dataset: partition filter \`part in (${D2_PARTS.join(', ')})\` (1%): count, sum ra`,
    files: ['hive1000'], cols: ['count:i', 'sum_ra:f'],
    duckdb: (src) => `SELECT count(*), sum(ra) FROM ${src} WHERE part IN (${D2_PARTS.join(', ')})`,
    polars: (pl, lf) => sel(lf.filter(pl.col('part').isIn(D2_PARTS)),
                            pl.col('ra').count().cast(pl.Int64), pl.col('ra').sum()),
    pqt: true, pqtArgs: fsum([`part in (${D2_PARTS.join(', ')})`], ['ra']),
  },
  {
    id: 'D3', title: "dataset: W2's 1% `id` range, pruned by file statistics: count, sum ra",
    files: ['hive1000'], cols: ['count:i', 'sum_ra:f'],
    duckdb: (src, { n }) => {
      const { lo, hi } = w2Range(n);
      return `SELECT count(*), sum(ra) FROM ${src} WHERE id BETWEEN ${lo} AND ${hi}`;
    },
    polars: (pl, lf, { n }) => {
      const { lo, hi } = w2Range(n);
      return sel(lf.filter(pl.col('id').gtEq(lo).and(pl.col('id').ltEq(hi))),
                 pl.col('ra').count().cast(pl.Int64), pl.col('ra').sum());
    },
    pqt: true,
    pqtArgs: ({ n }) => {
      const { lo, hi } = w2Range(n);
      return fsum([`id >= ${lo} and id <= ${hi}`], ['ra']);
    },
  },
  {
    // FSUM gives the count first, so every engine does
    id: 'D4', title: 'dataset: W1 (sum ra, dec, mass, z) over the 1,000 files, with the count', files: ['hive1000'],
    cols: ['count:i', 'sum_ra:f', 'sum_dec:f', 'sum_mass:f', 'sum_z:f'],
    duckdb: (src) => `SELECT count(*), sum(ra), sum(dec), sum(mass), sum(z::DOUBLE) FROM ${src}`,
    polars: (pl, lf) => sel(lf, pl.len().cast(pl.Int64), pl.col('ra').sum(), pl.col('dec').sum(),
                                pl.col('mass').sum(), f64(pl, 'z').sum()),
    pqt: true, pqtArgs: ['--workload', 'FSUM', '--sum', 'ra,dec,mass,z'],
  },
  {
    // The peers run W13's expression (no HEALPix pruning: they read every partition); pqt the
    // filter language's cone (haversine), which prunes partitions by pixel, row groups by
    // _healpix_29 ranges and the box. The two formulas agree on every row here (W13's rows).
    id: 'D5', title: `dataset: W13's cone over the HATS layout: count, sums id, mass, z, quality`,
    files: ['hats'], cols: ['count:i', 'sum_id:i', 'sum_mass:f', 'sum_z:f', 'sum_quality:i'],
    duckdb: (src) => W13_SQL(src),
    polars: (pl, lf) => W13_POLARS(pl, lf),
    pqt: true,
    pqtArgs: fsum([`cone(ra, dec, ${CONE.ra0}, ${CONE.dec0}, ${CONE.r})`], W13_SUMS),
  },
  // ---- exports: every column of every row as text, to /dev/null ----
  {
    id: 'X1', title: 'export all columns to csv (/dev/null)', files: ['snappy'],
    cols: ['rows:i'], exportFormat: 'csv',
    duckdb: (src) => `COPY (SELECT * FROM ${src}) TO '/dev/null' (FORMAT csv)`,
    duckdbPost: (rows) => [Number(rows[0][0])],
    pqt: true,
  },
  {
    id: 'X2', title: 'export all columns to jsonl (/dev/null)', files: ['snappy'],
    cols: ['rows:i'], exportFormat: 'jsonl',
    duckdb: (src) => `COPY (SELECT * FROM ${src}) TO '/dev/null' (FORMAT json)`,
    duckdbPost: (rows) => [Number(rows[0][0])],
    pqt: true,
  },
  // ---- pqt only ----
  {
    id: 'W1ra', title: 'sum ra over the whole file (S1 baseline)', files: CAT_FILES,
    cols: ['sum_ra:f'], pqt: true, pqtOnly: true, ref: ['W1', 'sum_ra'],
  },
  {
    id: 'S1', title: 'slice: middle quarter of the row groups, sum ra', files: CAT_FILES,
    cols: ['rows:i', 'sum_ra:f'], pqt: true, pqtOnly: true,
  },
  {
    id: 'W1nocrc', title: 'W1 with PQT_OPT_VERIFY_CRC 0', files: CAT_FILES,
    cols: ['sum_ra:f', 'sum_dec:f', 'sum_mass:f', 'sum_z:f'], pqt: true, pqtOnly: true,
    pqtArgs: ['--workload', 'W1', '--crc', '0'], ref: ['W1', 'sum_ra', 'sum_dec', 'sum_mass', 'sum_z'],
  },
  {
    id: 'P1', title: 'table: open + prefetch ra, dec, mass, z (threads across columns), sum views',
    files: CAT_FILES, cols: ['sum_ra:f', 'sum_dec:f', 'sum_mass:f', 'sum_z:f'], pqt: true,
    pqtOnly: true, ref: ['W1', 'sum_ra', 'sum_dec', 'sum_mass', 'sum_z'],
  },
  {
    id: 'W1t', title: "W1 through the README's path: table open + pqt_table_get_alloc per column",
    files: CAT_FILES, cols: ['sum_ra:f', 'sum_dec:f', 'sum_mass:f', 'sum_z:f'], pqt: true,
    pqtOnly: true, ref: ['W1', 'sum_ra', 'sum_dec', 'sum_mass', 'sum_z'],
  },
  {
    id: 'W5t', title: "W5 through the README's path: table open + pqt_table_get_strings_alloc",
    files: CAT_FILES, cols: ['bytes:i'], pqt: true, pqtOnly: true, ref: ['W5', 'bytes'],
  },
  {
    id: 'W9t', title: "W9 through the README's path: table open + pqt_table_get_alloc of mag",
    files: CAT_FILES, cols: ['sum:f'], pqt: true, pqtOnly: true, ref: ['W9', 'sum'],
  },
  // ---- "no pushdown" baselines: open unfiltered, read the filter column whole, a mask by
  // hand in C, then each payload column whole, summed under the mask ----
  {
    id: 'W2n', title: 'no pushdown: read id whole, mask in C, read ra whole', files: CAT_FILES,
    cols: ['count:i', 'sum_ra:f'], pqt: true, pqtOnly: true, baselineOf: 'W2',
    ref: ['W2', 'count', 'sum_ra'],
    pqtArgs: ({ n }) => {
      const { lo, hi } = w2Range(n);
      return ['--workload', 'W2n', '--lo', lo, '--hi', hi, '--sum', 'ra'];
    },
  },
  {
    id: 'W3n', title: 'no pushdown: read survey whole, mask in C, read ra, dec, mass, z whole',
    files: CAT_FILES, cols: ['count:i', 'sum_ra:f', 'sum_dec:f', 'sum_mass:f', 'sum_z:f'],
    pqt: true, pqtOnly: true, baselineOf: 'W3',
    ref: ['W3', 'count', 'sum_ra', 'sum_dec', 'sum_mass', 'sum_z'],
    pqtArgs: ['--workload', 'W3n', '--sum', 'ra,dec,mass,z'],
  },
  {
    id: 'W4n', title: 'no pushdown: read mass whole, mask in C, read ra whole', files: CAT_FILES,
    cols: ['count:i', 'sum_ra:f'], pqt: true, pqtOnly: true, baselineOf: 'W4',
    ref: ['W4', 'count', 'sum_ra'], pqtArgs: ['--workload', 'W4n', '--sum', 'ra'],
  },
  {
    id: 'W13h', title: 'by hand: box rules at open, distance in C on the box rows, payload summed under the mask',
    files: CAT_FILES, cols: ['count:i', 'sum_id:i', 'sum_mass:f', 'sum_z:f', 'sum_quality:i'],
    pqt: true, pqtOnly: true, baselineOf: 'W13',
    ref: ['W13', 'count', 'sum_id', 'sum_mass', 'sum_z', 'sum_quality'], pqtArgs: coneArgs('W13h'),
  },
  {
    id: 'W13n', title: 'no pushdown: read ra, dec whole, distance in C, read the payload whole',
    files: CAT_FILES, cols: ['count:i', 'sum_id:i', 'sum_mass:f', 'sum_z:f', 'sum_quality:i'],
    pqt: true, pqtOnly: true, baselineOf: 'W13',
    ref: ['W13', 'count', 'sum_id', 'sum_mass', 'sum_z', 'sum_quality'], pqtArgs: coneArgs('W13n'),
  },
  ...photBaselines('W14', PHOT_FILES),
  ...photBaselines('W15', PHOT_FILES),
  ...photBaselines('W16', ['rsorted']),
  {
    id: 'T2', title: 'per-thread pattern: one open + read of mass per row group', files: CAT_FILES,
    cols: ['sum_mass:f'], pqt: true, pqtOnly: true, ref: ['W1', 'sum_mass'],
  },
];

// The cold-cache copies follow the main workloads; F1 after them.
export const WORKLOADS = [
  ...BASE_WORKLOADS.filter((w) => !w.pqtOnly),
  ...['W1', 'W3'].map((id) => coldOf(BASE_WORKLOADS.find((w) => w.id === id))),
  ...f1Workloads(),
  ...BASE_WORKLOADS.filter((w) => w.pqtOnly),
];

export function selectedFiles(w) {
  const only = process.env.BENCH_FILES ? process.env.BENCH_FILES.split(',') : null;
  return w.files.filter((f) => !only || only.includes(f) || !FILES[f].catalogue);
}

export function selectedWorkloads() {
  const only = process.env.BENCH_WORKLOADS ? process.env.BENCH_WORKLOADS.split(',') : null;
  return WORKLOADS.filter((w) => !only || only.includes(w.id));
}
