// catalogue_sql.mjs - the catalogue's rows as DuckDB SQL, shared by gen_data.mjs (the main
// benchmark's files) and gen_pushdown.mjs (the pushdown scenarios' files), so both hold the
// same rows. See bench/README.md, "Data", for the columns and the random streams.
import { loadPeer } from './lib.mjs';

export const SEED = 1;
export const SURVEYS = ['sdss', 'desi', 'euclid', 'lsst', 'gaia', '2mass', 'wise']; // + 'rare'

// A single-threaded DuckDB session (deterministic output) with the stream macros u and h.
export async function duck() {
  const { DuckDBInstance } = loadPeer('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const run = async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJson();
  await run('SET threads = 1');
  await run('SET preserve_insertion_order = true');
  // Stream k of row i, uniform in [0, 1) with 53 random bits.
  await run(`CREATE MACRO u(i, k) AS
               ((hash((${SEED}::BIGINT << 40) + i * 16 + k) >> 11)::DOUBLE / 9007199254740992.0)`);
  await run(`CREATE MACRO h(i, k) AS hash((${SEED}::BIGINT << 40) + i * 16 + k)`);
  // The photometry's streams (g, r, flux): a family of their own, (SEED + 2) << 40, apart from
  // u/h above and from the wide file's (SEED + 1) << 40, so the older columns keep their values.
  await run(`CREATE MACRO v(i, k) AS
               ((hash((${SEED + 2}::BIGINT << 40) + i * 16 + k) >> 11)::DOUBLE / 9007199254740992.0)`);
  // A standard normal from streams k and k + 1 (Box-Muller; 1 - v is in (0, 1], so ln is finite).
  await run(`CREATE MACRO nrm(i, k) AS sqrt(-2.0 * ln(1.0 - v(i, k))) * cos(2.0 * pi() * v(i, k + 1))`);
  return { run, close: () => c.closeSync?.() };
}

// photometry: also the columns g, r, flux (the main benchmark's files; the pushdown scenarios'
// files leave them out, so their bytes do not change). r ~ N(20, 1.5), g - r ~ N(0.6, 0.4),
// flux = 10^((22.5 - r) / 2.5) with a 5% log-normal jitter (nanomaggies: -2.5 log10(flux) +
// 22.5 is r again, to ~0.05 mag); each column ~1% NULL, independently.
const PHOTOMETRY = `,
      CASE WHEN v(i, 5) < 0.01 THEN NULL ELSE 20.0 + 1.5 * nrm(i, 1) + 0.6 + 0.4 * nrm(i, 3) END AS g,
      CASE WHEN v(i, 6) < 0.01 THEN NULL ELSE 20.0 + 1.5 * nrm(i, 1) END AS r,
      CASE WHEN v(i, 7) < 0.01 THEN NULL
           ELSE pow(10.0, (22.5 - (20.0 + 1.5 * nrm(i, 1))) / 2.5) * exp(0.05 * nrm(i, 8)) END AS flux`;

export function catalogueSelect(n, { photometry = false } = {}) {
  const surveys = `[${SURVEYS.map((s) => `'${s}'`).join(', ')}]`;
  const mags = [10, 11, 12, 13, 14].map((k) => `(14.0 + 10.0 * u(i, ${k}))::FLOAT`).join(', ');
  return `SELECT
      i AS id,
      360.0 * u(i, 1) AS ra,
      -90.0 + 180.0 * u(i, 2) AS dec,
      pow(10.0, 8.0 + 5.0 * u(i, 3)) AS mass,
      (3.0 * u(i, 4))::FLOAT AS z,
      CASE WHEN u(i, 5) < 0.05 THEN NULL ELSE (h(i, 6) % 10)::INTEGER END AS quality,
      (h(i, 7) & 1) = 1 AS flag,
      CASE WHEN u(i, 8) < 0.01 THEN 'rare'
           ELSE ${surveys}[(h(i, 9) % ${SURVEYS.length})::INTEGER + 1] END AS survey,
      'obj_' || i AS name,
      [${mags}]::FLOAT[5] AS mag${photometry ? PHOTOMETRY : ''}
    FROM range(1, ${n} + 1) t(i)`;
}
