// pages.mjs - count the page types (dictionary, data v1, data v2) a Parquet file really holds,
// so the matrix reports what the writers did rather than what their options promised (DuckDB's
// PARQUET_VERSION V2, for one, changes the encodings but still writes DATA_PAGE headers).
//
// Walks each column chunk's pages from the footer's offsets (DuckDB's parquet_metadata()), reading
// only PageHeader fields 1 (type) and 3 (compressed_page_size) with a minimal Thrift compact
// protocol reader; every other field is skipped.

import fs from 'node:fs';
import { lit } from './contract.mjs';

const PAGE_TYPE = { 0: 'v1', 1: 'index', 2: 'dict', 3: 'v2' };

function reader(buf, pos) {
  const varint = () => {
    let r = 0n, s = 0n;
    for (;;) {
      const b = buf[pos++];
      r |= BigInt(b & 0x7f) << s;
      s += 7n;
      if (!(b & 0x80)) return r;
    }
  };
  const zigzag = () => { const v = varint(); return Number((v >> 1n) ^ -(v & 1n)); };
  function skip(type) {
    switch (type) {
      case 1: case 2: return;                     // bool true/false: no payload
      case 3: pos++; return;                      // byte
      case 4: case 5: case 6: varint(); return;   // i16/i32/i64
      case 7: pos += 8; return;                   // double
      case 8: { const n = Number(varint()); pos += n; return; } // binary (length first: `pos +=` would read pos before varint moves it)
      case 9: case 10: {                          // list/set
        const h = buf[pos++];
        let n = h >> 4;
        if (n === 15) n = Number(varint());
        for (let i = 0; i < n; i++) skip(h & 15);
        return;
      }
      case 12: struct(); return;
      default: throw new Error(`thrift type ${type} at ${pos}`);
    }
  }
  // Reads a struct; returns its top-level i32 fields (others are skipped).
  function struct() {
    const ints = {};
    let id = 0;
    for (;;) {
      const h = buf[pos++];
      if (h === 0) return ints;
      const type = h & 15;
      id = h >> 4 ? id + (h >> 4) : zigzag();
      if (type === 5) ints[id] = zigzag();
      else skip(type);
    }
  }
  return { header: () => ({ ...struct(), end: pos }) };
}

// { v1: n, v2: n, dict: n } over all column chunks of the file.
export async function pageCensus(con, file) {
  const chunks = (await con.runAndReadAll(
    `select coalesce(dictionary_page_offset, data_page_offset)::BIGINT s, total_compressed_size::BIGINT n ` +
    `from parquet_metadata(${lit(file)})`)).getRows();
  const buf = fs.readFileSync(file);
  const count = {};
  for (const [s, n] of chunks) {
    let pos = Number(s);
    const end = pos + Number(n);
    while (pos < end) {
      const h = reader(buf, pos).header();
      const t = PAGE_TYPE[h[1]] ?? `type${h[1]}`;
      count[t] = (count[t] || 0) + 1;
      pos = h.end + h[3];
    }
  }
  return count;
}
