// polars_files.mjs - corpus files whose expected output comes from Polars (make_expected_polars.mjs)
// because DuckDB cannot read them. make_expected.mjs leaves these names alone while their
// expected jsonl exists, so it neither overwrites them nor lists them as SKIP.
//
// why: what DuckDB does with the file. twin: a file DuckDB reads whose values agree (checked and
// reported, not required: the corpus does not document them as twins). schemaFromMd: DuckDB
// cannot even list the schema; take it from the corpus .md (parquet-cli's printout). mdValues:
// values the corpus .md states, which Polars must reproduce.
export const POLARS_FILES = {
  'hadoop_lz4_compressed.parquet': {
    why: 'DuckDB does not support the deprecated LZ4 codec (only LZ4_RAW)',
    twin: 'lz4_raw_compressed.parquet',
  },
  'hadoop_lz4_compressed_larger.parquet': {
    why: 'DuckDB does not support the deprecated LZ4 codec (only LZ4_RAW)',
    twin: 'lz4_raw_compressed_larger.parquet',
  },
  'non_hadoop_lz4_compressed.parquet': {
    why: 'DuckDB does not support the deprecated LZ4 codec (only LZ4_RAW)',
    twin: 'lz4_raw_compressed.parquet',
  },
  'map_no_value.parquet': {
    why: 'DuckDB rejects the schema (MAP_KEY_VALUE requires two children)',
    schemaFromMd: 'map_no_value.md',
    // map_no_value.md: "The last two columns comprise 3 equivalent rows of list<Integer>:
    // [1, 2, 3] [4, 5, 6] [7, 8, 9]" (my_map_no_v is a MAP, so only my_list is in our output).
    mdValues: { my_list: ['[1,2,3]', '[4,5,6]', '[7,8,9]'] },
  },
};
