// Writes tests/data/dotted_names.parquet with DuckDB: a top-level column named "a.b" next to
// (after) a struct a {b}, so lookup of "a.b" must prefer the top-level name over the struct path
// even though the struct leaf comes first.
// Run: (cd tests/golden/tool && npm ci) && node tests/data/make_dotted_names.mjs
import { createRequire } from 'node:module';
const require = createRequire(new URL('../golden/tool/package.json', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');
const out = new URL('dotted_names.parquet', import.meta.url).pathname;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`COPY (SELECT {'b': i * 10, 'c': 'x' || i} AS a, i AS "a.b" FROM range(1, 4) t(i))
               TO '${out}' (FORMAT parquet)`);
