// make_meta_truth.mjs - what DuckDB (an independent reader) says about the footers of a few
// files, for tests/test_cli.sh to check `pqt meta --format json` and `pqt schema --format
// json` against: parquet_file_metadata, parquet_metadata (row groups and column chunks),
// parquet_kv_metadata, parquet_schema, and the lengths of LIST columns (what --measure
// settles). Writes tests/cli/meta_truth.json. Run from the repository root:
//   NODE_PATH=/path/to/node_modules node tests/cli/make_meta_truth.mjs
// (any node_modules holding @duckdb/node-api, e.g. bench/peers/node_modules after npm ci).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + '/' : import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

const D = 'tests/data/parquet-testing/data/';
const files = {
  'examples/catalogue.parquet': ['mag'],
  [D + 'data_index_bloom_encoding_stats.parquet']: [],
  [D + 'alltypes_plain.parquet']: [],
  [D + 'nested_maps.snappy.parquet']: [],
  [D + 'list_columns.parquet']: ['int64_list', 'utf8_list'],
};

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const q = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();
const num = (v) => (v === null || v === undefined ? null : Number(v));

const truth = {};
for (const [file, lists] of Object.entries(files)) {
  const fm = (await q(`SELECT created_by, num_rows, num_row_groups FROM parquet_file_metadata('${file}')`))[0];
  const chunks = await q(`SELECT * FROM parquet_metadata('${file}') ORDER BY row_group_id, column_id`);
  const rgs = [];
  for (const c of chunks) {
    const id = Number(c.row_group_id);
    if (!rgs[id]) {
      rgs[id] = { num_rows: num(c.row_group_num_rows), bytes: num(c.row_group_bytes),
                  compressed_bytes: num(c.row_group_compressed_bytes), chunks: [] };
    }
    rgs[id].chunks.push({
      path: c.path_in_schema.split(', ').join('.'),
      type: c.type,
      compression: c.compression,
      encodings: c.encodings.split(', '),
      num_values: num(c.num_values),
      total_compressed_size: num(c.total_compressed_size),
      total_uncompressed_size: num(c.total_uncompressed_size),
      min: c.stats_min_value, max: c.stats_max_value,
      null_count: num(c.stats_null_count), distinct_count: num(c.stats_distinct_count),
      min_is_exact: c.min_is_exact, max_is_exact: c.max_is_exact,
      bloom: c.bloom_filter_offset !== null,
    });
  }
  const kv = await q(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${file}')`);
  const schema = (await q(`SELECT * FROM parquet_schema('${file}')`)).map((s) => ({
    name: s.name, type: s.type, type_length: num(s.type_length), repetition: s.repetition_type,
    num_children: num(s.num_children), converted_type: s.converted_type, logical_type: s.logical_type,
  }));
  const list_lengths = {};
  for (const col of lists) {
    const r = (await q(`SELECT min(len("${col}")) AS lo, max(len("${col}")) AS hi,
                               count(*) FILTER (WHERE "${col}" IS NULL) AS nulls
                        FROM read_parquet('${file}')`))[0];
    list_lengths[col] = { min: num(r.lo), max: num(r.hi), null_rows: num(r.nulls) };
  }
  truth[file] = { created_by: fm.created_by, num_rows: num(fm.num_rows),
                  num_row_groups: num(fm.num_row_groups), row_groups: rgs, kv, schema, list_lengths };
}
writeFileSync('tests/cli/meta_truth.json', JSON.stringify(truth, null, 1) + '\n');
