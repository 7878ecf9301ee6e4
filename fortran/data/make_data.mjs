// make_data.mjs - the parquet files the Fortran examples and tests read (fortran/data/), and
// fortran/data/expected.txt: what each program must print, computed here by DuckDB over the
// same files (independent truth: DuckDB writes and answers, pqt reads through module parquet).
// Run from the repository root with @duckdb/node-api installed somewhere, e.g.
//   NODE_PATH=bench/peers/node_modules node fortran/data/make_data.mjs
// Deterministic: every value is a formula of the row number.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + '/' : import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run('SET threads = 1'); // row groups come out in row order
const out = 'fortran/data';
const one = async (sql) => (await c.runAndReadAll(sql)).getRows()[0];
const expected = [];
const expect = (name, ...values) => expected.push([name, ...values.map(String)].join(' '));

// big.parquet: 2,000,000 rows (slice_open.f90's slice 1000001..2000000 is its second half) in row
// groups of 100,000. mass is a whole number of kg below 2^53 in every partial sum, so any
// summation order gives the exact total; one row in 100 is above 1e10.
await c.run(`COPY (SELECT id::BIGINT AS id,
    (CASE WHEN id % 100 = 0 THEN 2.0e10 ELSE 0 END + (id % 1000) * 1.0e6)::DOUBLE AS mass
  FROM range(1, 2000001) t(id) ORDER BY id)
  TO '${out}/big.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000,
  PARQUET_VERSION V2)`);
const B = `'${out}/big.parquet'`;
let r = await one(`SELECT sum(mass)::HUGEINT FROM ${B}`);
expect('per_thread_slices', r[0]);
expect('slice_open', 1000000, 1000000);
r = await one(`SELECT count(*) FROM ${B} WHERE id BETWEEN 1000001 AND 2000000 AND mass > 1.0e10`);
expect('slice_filter', r[0]);
// write_subset writes those rows in row groups of 5000: ceil(count / 5000) of them
r = await one(`SELECT count(*), sum(id)::HUGEINT, ceil(count(*) / 5000)::BIGINT FROM ${B}
  WHERE id BETWEEN 1000001 AND 2000000 AND mass > 1.0e10`);
expect('write_subset', r[0], r[1], r[2]);
r = await one(`SELECT count(*), sum(id)::HUGEINT FROM ${B} WHERE mass > 1.0e10`);
expect('row_index', r[0], r[1]);
r = await one(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata(${B})`);
// whole-file table: both forms of %row_group_bounds and the footer-only call agree
expect('row_group_bounds', r[0], 'T', 'T');

// catalogue.parquet: the examples' catalogue. mass and MASS_KG are different columns (the MAML
// remaps the internal name mass to MASS_KG, shadowing the file's own mass); quality has
// nulls; two row groups of 500.
await c.run(`CREATE TABLE cat AS SELECT i::BIGINT AS id,
    round(pow(10.0, 10.0 + 4.0 * ((hash(i) % 1000000)::DOUBLE / 1000000.0)), 1) AS mass,
    round(pow(10.0, 9.0 + 5.0 * ((hash(i + 17) % 1000000)::DOUBLE / 1000000.0)), 1) AS MASS_KG,
    round(360.0 * ((hash(i + 31) % 1000000)::DOUBLE / 1000000.0), 6) AS ra,
    round(360.0 * ((hash(i + 53) % 1000000)::DOUBLE / 1000000.0), 6) AS RA_J2000,
    CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 5)::INTEGER END AS quality
  FROM range(1, 1001) t(i)`);
await c.run(`COPY (SELECT * FROM cat WHERE id <= 500 UNION ALL SELECT * FROM cat WHERE id > 500)
  TO '${out}/catalogue.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500)`);
const C = `'${out}/catalogue.parquet'`;
r = await one(`SELECT count(*), max(mass) FROM ${C} WHERE mass > 1.0e12 AND quality IS NOT NULL`);
expect('filter_sort_qc', r[0], r[1]);
r = await one(`SELECT count(*) FROM ${C} WHERE MASS_KG > 1.0e12`);
expect('remap_filter', r[0]);
r = await one(`SELECT sum(MASS_KG), count(*) FROM ${C}`);
expect('remap_get', r[0], r[1]);
expect('units', 'kg', 0);      // the MAML's unit; residency RES_EMPTY: nothing read
expect('validate_qc', 0, 0);    // passes; residency left RES_EMPTY, stat 0

// from_another_tool.parquet: a variable-length LIST column `spec` (DOUBLE[]) whose rows all
// hold 4 elements in the first row group and 1..3 in the second: the whole file is ragged
// (width 0), a slice inside the first row group is uniform (width 4).
await c.run(`CREATE TABLE spec AS SELECT id::BIGINT AS id,
    CASE WHEN id <= 100 THEN [id * 1.0, id + 0.25, id + 0.5, id + 0.75]
         ELSE list_transform(range(1 + id % 3), k -> id + k * 0.5) END AS spec
  FROM range(1, 201) t(id)`);
// fed as two chunks so that the writer's row-group cut falls at row 100
await c.run(`COPY (SELECT * FROM spec WHERE id <= 100 UNION ALL SELECT * FROM spec WHERE id > 100)
  TO '${out}/from_another_tool.parquet' (FORMAT parquet, ROW_GROUP_SIZE 100)`);
r = await one(`SELECT count(DISTINCT row_group_id), min(row_group_num_rows)
  FROM parquet_metadata('${out}/from_another_tool.parquet')`);
if (r[0] !== 2n || r[1] !== 100n) throw new Error('from_another_tool.parquet: expected 2 row groups of 100');
expect('list_width', 0, 0, 4);

// nested.parquet: a struct column main with a leaf main.inner.deep.value.
await c.run(`COPY (SELECT id::BIGINT AS id,
    {'inner': {'deep': {'value': (id * 2.5)::DOUBLE}}, 'tag': 'x' || id} AS main
  FROM range(1, 11) t(id) ORDER BY id) TO '${out}/nested.parquet' (FORMAT parquet)`);
r = await one(`SELECT sum(main.inner.deep.value), count(*) FROM '${out}/nested.parquet'`);
expect('struct_leaf', r[0], r[1]);

// kinds.parquet: one column per kind %get reads, scalar and vector, each with nulls
// (tests/test_kinds.f90 checks values row by row against these formulas).
await c.run(`COPY (SELECT id::BIGINT AS id,
    CASE WHEN id % 4 = 0 THEN NULL ELSE (id * 3)::INTEGER END AS i32,
    CASE WHEN id % 5 = 0 THEN NULL ELSE id * 1000000000000 END AS i64,
    CASE WHEN id % 6 = 0 THEN NULL ELSE (id / 4.0)::FLOAT END AS f32,
    CASE WHEN id % 7 = 0 THEN NULL ELSE id * 0.5 END AS f64,
    CASE WHEN id % 8 = 0 THEN NULL ELSE id % 3 = 0 END AS flag,
    CASE WHEN id % 9 = 0 THEN NULL ELSE repeat('s', (id % 4)::INTEGER) || id END AS str,
    CASE WHEN id % 10 = 0 THEN NULL ELSE DATE '1970-01-01' + (id * 10)::INTEGER END AS day,
    CASE WHEN id % 11 = 0 THEN NULL ELSE make_time(0, 0, id::DOUBLE) END AS tod,
    CASE WHEN id % 12 = 0 THEN NULL
         ELSE make_timestamp(id * 1000000) END AS ts,
    id::UINTEGER AS u32,
    [id::INTEGER, -id::INTEGER]::INTEGER[2] AS vi32,
    [id, id * 10, id * 100]::BIGINT[3] AS vi64,
    [id / 2.0, id / 4.0]::FLOAT[2] AS vf32,
    [id * 1.5, CASE WHEN id % 3 = 0 THEN NULL ELSE -id * 1.5 END]::DOUBLE[2] AS vf64,
    [id % 2 = 0, id % 2 = 1]::BOOLEAN[2] AS vflag
  FROM range(1, 31) t(id) ORDER BY id) TO '${out}/kinds.parquet' (FORMAT parquet)`);

// odd.parquet: a MAP (read as m.key / m.value lists) and a plain binary column beside an integer one.
await c.run(`COPY (SELECT id::BIGINT AS id, MAP {'a': id} AS m, ('x' || id)::BLOB AS raw
  FROM range(1, 6) t(id) ORDER BY id) TO '${out}/odd.parquet' (FORMAT parquet)`);

// lists.parquet: variable-length lists (int32 and string elements, null rows and null
// elements, empty lists) and a fixed-width vector of strings (tests/test_lists.f90 checks
// them against these formulas).
await c.run(`COPY (SELECT id::BIGINT AS id,
    CASE WHEN id % 5 = 0 THEN NULL ELSE list_transform(range(id % 4),
      k -> CASE WHEN (id + k) % 7 = 0 THEN NULL ELSE (id * 10 + k)::INTEGER END) END AS li,
    CASE WHEN id % 6 = 0 THEN NULL ELSE list_transform(range(id % 3), k -> 'w' || id || '_' || k) END AS ls,
    ['a' || id, CASE WHEN id % 4 = 0 THEN NULL ELSE 'bb' || id END]::VARCHAR[2] AS vs
  FROM range(1, 13) t(id) ORDER BY id) TO '${out}/lists.parquet' (FORMAT parquet)`);

writeFileSync(`${out}/expected.txt`,
  '# written by fortran/data/make_data.mjs: NAME then the values the program prints\n' +
  expected.join('\n') + '\n');
console.log(expected.join('\n'));
