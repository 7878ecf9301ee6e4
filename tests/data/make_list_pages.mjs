// Writes tests/data/list_pages.parquet with Polars (nodejs-polars from bench/peers):
// a variable-length list column and a fixed-width one over many small pages with a page
// index, so selective reads of list columns can skip pages by the offset index.
// Run: (cd bench/peers && npm ci) && node tests/data/make_list_pages.mjs
import { createRequire } from 'node:module';
const require = createRequire(new URL('../../bench/peers/package.json', import.meta.url));
const pl = require('nodejs-polars');
const n = 20000;
const ragged = [], fixed = [], id = [];
for (let i = 0; i < n; i++) {
  id.push(i + 1);
  const len = i % 7 === 3 ? 0 : (i * 31) % 5 + 1;
  ragged.push(i % 11 === 5 ? null : Array.from({ length: len }, (_, k) => i * 10 + k));
  fixed.push([i, -i, 2 * i]);
}
const df = pl.DataFrame({ id, ragged: pl.Series('ragged', ragged, pl.List(pl.Int64)),
                          fixed: pl.Series('fixed', fixed, pl.List(pl.Int32)) });
df.writeParquet(new URL('list_pages.parquet', import.meta.url).pathname,
                { compression: 'snappy', rowGroupSize: 8000, dataPageSize: 4096, statistics: true });
