// make_mpi_write_expect.mjs - DuckDB's reading of the shared file 4 MPI ranks write in
// mpi/tests/test_mpi_write.c (duckdb_truth: each rank's rows as rows_of makes them, row
// groups of 4 rows, a fixed DATE), written to tests/data/mpi_write_duckdb.txt, which is
// committed: the test compares pqt's reading of the file it writes with these lines
// (independent truth: another engine decoding the same bytes, offsets and footer included).
// Run from the repository root, with @duckdb/node-api installed somewhere:
//   PQT_MPI_WRITE_KEEP=/tmp/four.parquet mpirun --oversubscribe -np 4 build/mpi/test_mpi_write
//   NODE_PATH=bench/peers/node_modules node tests/data/make_mpi_write_expect.mjs /tmp/four.parquet
//
// One line per row in file order, "id|x|s|[v1,v2,...]" (NULL for a null), then one line per
// row group, "rowgroup <index> <rows> <min id> <max id>" (the chunk statistics of id).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');

const file = process.argv[2];
if (!file) throw new Error('usage: node make_mpi_write_expect.mjs FILE.parquet');
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads = 1'); // file order
const show = (v) => (v === null ? 'NULL' : String(v));
const out = [];
const rows = await con.runAndReadAll(
  `SELECT id, x, s, v FROM read_parquet('${file}')`);
for (const [id, x, s, v] of rows.getRows()) {
  const items = v === null ? [] : v.items.map(show);
  out.push(`${show(id)}|${show(x)}|${show(s)}|[${items.join(',')}]`);
}
const rgs = await con.runAndReadAll(
  `SELECT row_group_id, row_group_num_rows, stats_min_value, stats_max_value FROM parquet_metadata('${file}')
   WHERE path_in_schema = 'id' ORDER BY row_group_id`);
for (const [g, n, lo, hi] of rgs.getRows())
  out.push(`rowgroup ${show(g)} ${show(n)} ${show(lo)} ${show(hi)}`);
writeFileSync('tests/data/mpi_write_duckdb.txt', out.join('\n') + '\n');
console.log(`${rows.getRows().length} rows, ${rgs.getRows().length} row groups`);
