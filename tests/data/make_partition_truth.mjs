// make_partition_truth.mjs - writes tests/data/partition_input.parquet (200 rows, by DuckDB)
// and tests/data/partition_truth.tsv for tests/test_cli_copy_partition.sh: pqt copy
// --partition-by survey,year writes a hive dataset from the input, and DuckDB reads it back
// (read_parquet('OUT/**/*.parquet', hive_partitioning = true)): per file, the survey and
// year DuckDB decodes from the folder names, the rows, sum(id), sum(mag), count(mag). The
// survey values include '/', '=', '%', a blank and a null, so the folder names' encoding is
// checked against DuckDB's decoding. Run from the repository root with @duckdb/node-api on
// NODE_PATH and a built pqt:
//   NODE_PATH=/path/to/node_modules node tests/data/make_partition_truth.mjs build/pqt
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const pqt = process.argv[2] || 'build/pqt';
const input = 'tests/data/partition_input.parquet';
const truth = 'tests/data/partition_truth.tsv';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
// rows in a shuffled order, so every partition's rows are spread over the file
await c.run(`COPY (SELECT id,
    (['gaia', 'ztf', 'a/b', 'x=y', '50%', 'two words', NULL])[id % 7 + 1] AS survey,
    CASE WHEN id % 11 = 0 THEN NULL ELSE 2019 + id % 3 END::INTEGER AS year,
    CASE WHEN id % 13 = 0 THEN NULL ELSE id * 0.25 END::DOUBLE AS mag,
    'n' || id AS name
  FROM range(1, 201) r(id) ORDER BY (id * 37) % 200)
  TO '${input}' (FORMAT parquet, ROW_GROUP_SIZE 64)`);

const dir = mkdtempSync(join(tmpdir(), 'pqt_partition_'));
const out = join(dir, 'ds');
execFileSync(pqt, ['copy', input, out, '--partition-by', 'survey,year']);
const r = await c.runAndReadAll(`SELECT
    replace(filename, '${out}/', '') AS file, survey, year, count(*) AS n, sum(id) AS sum_id,
    sum(mag) AS sum_mag, count(mag) AS n_mag
  FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true, filename = true)
  GROUP BY ALL ORDER BY file`);
let text = 'file\tsurvey\tyear\tn\tsum_id\tsum_mag\tn_mag\n';
for (const row of r.getRows())
  text += row.map((v) => (v === null ? 'NULL' : String(v))).join('\t') + '\n';
writeFileSync(truth, text);
rmSync(dir, { recursive: true });
console.log(`${truth}: ${r.getRows().length} partitions`);
