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
  return { run, close: () => c.closeSync?.() };
}

export function catalogueSelect(n) {
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
      [${mags}]::FLOAT[5] AS mag
    FROM range(1, ${n} + 1) t(i)`;
}
