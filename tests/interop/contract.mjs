// contract.mjs - the `pqt cat --format jsonl` contract (tests/golden/README.md) as code, shared by
// the golden generator (tests/golden/tool/make_expected.mjs) and the interop matrix
// (tests/interop/interop.mjs): which Parquet columns pqt reads, the key each is printed under,
// and how a value of each kind is printed. No package imports, so either tool's node_modules
// can load it.
//
// The schema comes from DuckDB's parquet_schema() rows (buildTree); the kinds are decided from
// the physical, converted and logical types there, never from a reader's own type mapping.
// ---------------------------------------------------------------------------------------------
// Schema: parquet_schema() lists the SchemaElements depth-first; rebuild the tree.
export function buildTree(rows) {
  let pos = 0;
  function node() {
    const r = rows[pos++];
    const n = {
      name: r.name, type: r.type, typeLength: r.type_length === null ? null : Number(r.type_length),
      rep: r.repetition_type, converted: r.converted_type, logical: r.logical_type,
      scale: r.scale === null ? null : Number(r.scale), precision: r.precision,
      nchildren: r.num_children === null ? 0 : Number(r.num_children), children: [],
    };
    // A group is an element with children or without a physical type.
    n.isGroup = n.nchildren > 0 || n.type === null;
    for (let i = 0; i < n.nchildren; i++) n.children.push(node());
    return n;
  }
  const root = node();
  if (pos !== rows.length) throw new Error(`schema has ${rows.length - pos} elements after the root's children`);
  return root;
}

export const logicalName = (n) => (n.logical ? n.logical.replace(/\(.*$/s, '') : null);

export function timeUnitOf(logical) {
  if (/MILLIS=MilliSeconds/.test(logical)) return 'ms';
  if (/MICROS=MicroSeconds/.test(logical)) return 'us';
  if (/NANOS=NanoSeconds/.test(logical)) return 'ns';
  return null;
}

// Kind of a primitive leaf under the contract, or {unreadable: why}.
export function leafKind(n) {
  const lt = logicalName(n), ct = n.converted, pt = n.type;
  const bad = (why) => ({ unreadable: why });
  if (lt === 'DecimalType' || (lt === null && ct === 'DECIMAL')) {
    if (['INT32', 'INT64', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'].includes(pt)) return { kind: 'decimal' };
    return bad(`DECIMAL on ${pt}`);
  }
  switch (pt) {
    case 'BOOLEAN':
      return lt || ct ? bad(`BOOLEAN annotated ${lt || ct}`) : { kind: 'bool' };
    case 'FLOAT': case 'DOUBLE':
      // f32: printed as the shortest text that reads back to the same float32
      return lt || ct ? bad(`${pt} annotated ${lt || ct}`) : { kind: 'float', f32: pt === 'FLOAT' };
    case 'INT96': // ns, or us / ms for a file with a value outside int64 ns (int96Unit)
      return { kind: 'timestamp', unit: 'ns', utc: false, int96: true };
    case 'INT32': case 'INT64': {
      if (lt === 'TimestampType')
        return { kind: 'timestamp', unit: timeUnitOf(n.logical), utc: /isAdjustedToUTC=1/.test(n.logical) };
      if (lt === 'TimeType')
        return { kind: 'time', unit: timeUnitOf(n.logical), utc: /isAdjustedToUTC=1/.test(n.logical) };
      if (lt === 'DateType') return { kind: 'date' };
      if (lt === 'IntType') return { kind: 'int' };
      // NullType is the thrift LogicalType field UNKNOWN: an unknown logical type, unreadable.
      if (lt !== null) return bad(`${pt} with logical type ${n.logical}`);
      if (ct === null || /^U?INT_(8|16|32|64)$/.test(ct)) return { kind: 'int' };
      if (ct === 'DATE') return { kind: 'date' };
      if (ct === 'TIME_MILLIS') return { kind: 'time', unit: 'ms', utc: true };
      if (ct === 'TIME_MICROS') return { kind: 'time', unit: 'us', utc: true };
      if (ct === 'TIMESTAMP_MILLIS') return { kind: 'timestamp', unit: 'ms', utc: true };
      if (ct === 'TIMESTAMP_MICROS') return { kind: 'timestamp', unit: 'us', utc: true };
      return bad(`${pt} with converted type ${ct}`);
    }
    case 'BYTE_ARRAY':
      if (['StringType', 'EnumType', 'JsonType'].includes(lt)) return { kind: 'string' };
      if (lt === null && ['UTF8', 'ENUM', 'JSON'].includes(ct)) return { kind: 'string' };
      // plain bytes: kind binary, printed as base64 in a JSON string
      return lt || ct ? bad(`BYTE_ARRAY annotated ${lt || ct}`) : { kind: 'binary' };
    case 'FIXED_LEN_BYTE_ARRAY':
      if (lt === 'UUIDType' && n.typeLength === 16) return { kind: 'uuid' };
      if (lt === 'Float16Type' && n.typeLength === 2) return { kind: 'float', f32: true };
      return lt || ct ? bad(`FIXED_LEN_BYTE_ARRAY annotated ${lt || ct}`) : { kind: 'binary' };
    default:
      return bad(`physical type ${pt}`);
  }
}

export const isListAnn = (n) => logicalName(n) === 'ListType' || (n.logical === null && n.converted === 'LIST');
export const isMapAnn = (n) => logicalName(n) === 'MapType' ||
  (n.logical === null && (n.converted === 'MAP' || n.converted === 'MAP_KEY_VALUE'));

export const q = (id) => '"' + id.replace(/"/g, '""') + '"';
export const lit = (s) => "'" + s.replace(/'/g, "''") + "'";

// Walk the tree into output columns {key, sql (DuckDB access path), kind..., list} and omitted
// columns {key, why}. `access` is the SQL expression reaching the node.
export function classify(root) {
  const cols = [], omitted = [];
  function visit(n, prefix, access) {
    const key = prefix === null ? n.name : `${prefix}.${n.name}`;
    const acc = access === null ? q(n.name) : `struct_extract(${access}, ${lit(n.name)})`;
    if (!n.isGroup) {
      const k = leafKind(n);
      if (k.unreadable) return omitted.push({ key, why: k.unreadable });
      return cols.push({ key, sql: acc, ...k, list: n.rep === 'REPEATED' });
    }
    if (isListAnn(n)) {
      if (n.nchildren !== 1) return omitted.push({ key, why: 'LIST with several children' });
      const r = n.children[0];
      if (r.rep !== 'REPEATED') return omitted.push({ key, why: 'LIST whose child is not repeated' });
      let elem = r;
      if (r.isGroup) {
        if (r.nchildren !== 1 || r.name === 'array' || r.name === `${n.name}_tuple`)
          return omitted.push({ key, why: 'list of structs (legacy two-level form)' });
        elem = r.children[0];
        if (elem.isGroup)
          return omitted.push({ key, why: isListAnn(elem) ? 'list of lists' : isMapAnn(elem) ? 'list of maps' : 'list of structs' });
        if (elem.rep === 'REPEATED') return omitted.push({ key, why: 'list of lists' });
      }
      const k = leafKind(elem);
      if (k.unreadable) return omitted.push({ key, why: `list of ${k.unreadable}` });
      return cols.push({ key, sql: acc, ...k, list: true });
    }
    if (isMapAnn(n)) {
      // A map is read as one list column per field of its repeated key/value group: m.key, m.value.
      if (n.rep === 'REPEATED') return omitted.push({ key, why: 'repeated MAP group' });
      if (n.nchildren !== 1) return omitted.push({ key, why: 'MAP with several children' });
      const kv = n.children[0];
      if (kv.rep !== 'REPEATED' || !kv.isGroup) return omitted.push({ key, why: 'MAP whose child is not a repeated group' });
      if (kv.children.some((f) => f.isGroup)) return omitted.push({ key, why: 'map with nested keys or values' });
      if (kv.children.some((f) => f.rep === 'REPEATED')) return omitted.push({ key, why: 'map with repeated keys or values' });
      kv.children.forEach((f, i) => {
        const k = leafKind(f), fkey = `${key}.${f.name}`;
        if (k.unreadable) return omitted.push({ key: fkey, why: `list of ${k.unreadable}` });
        cols.push({ key: fkey, sql: i === 0 ? `map_keys(${acc})` : `map_values(${acc})`, ...k, list: true,
          mapField: f.name, mapAlone: kv.nchildren === 1 });
      });
      return;
    }
    if (n.rep === 'REPEATED') return omitted.push({ key, why: 'repeated group (list of structs)' });
    for (const c of n.children) visit(c, key, acc);
  }
  for (const c of root.children) visit(c, null, null);
  return { cols, omitted };
}

// SQL turning one value of a column's element type into something JS formats exactly.
export function leafSql(c, x) {
  switch (c.kind) {
    case 'int': case 'decimal': case 'string': case 'uuid': return `(${x})::VARCHAR`;
    case 'float': return `(${x})::DOUBLE`;
    case 'binary': return `to_base64((${x})::BLOB)`;
    case 'bool': return `(${x})::BOOLEAN`;
    case 'date': return `((${x}) - DATE '1970-01-01')::VARCHAR`;
    case 'time': return `date_diff('microsecond', TIME '00:00:00', (${x})::TIME)::VARCHAR`;
    case 'timestamp':
      if (c.int96) return `epoch_us(${x})::VARCHAR`;
      return `epoch_${c.unit}(${x})::VARCHAR`;
    default: throw new Error(`no SQL for kind ${c.kind}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Formatting (the jsonl contract)
// float64: JavaScript's String(v) is the shortest round trip; ".0" keeps integral values floats.
export function fmtFloat(v) {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v); // shortest round-trip representation
  return Number.isInteger(v) && !/e/.test(s) ? s + '.0' : s;
}

// float32 (FLOAT, FLOAT16; v is the exact float32 value as a double): the shortest decimal that
// reads back to the same float32, in fmtFloat's layout (pqt_format_float32 in include/pqt.h).
export function fmtFloat32(v) {
  if (!Number.isFinite(v) || v === 0) return fmtFloat(v);
  if (Math.fround(v) !== v) throw new Error(`not a float32 value: ${v}`);
  for (let p = 1; p <= 9; p++) {
    const y = Number(v.toPrecision(p));
    if (Math.fround(y) === v) return fmtFloat(y);
  }
  throw new Error(`no float32 text for ${v}`);
}

// Decimals: the exact text a reader gives (DuckDB's DECIMAL -> VARCHAR, Polars' Utf8): the
// unscaled integer with exactly `scale` fraction digits (pqt_format_decimal).
export function fmtDecimal(v) {
  const s = String(v);
  if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`not an exact decimal: ${s}`);
  return s;
}

// INT96 unit of a file: ns when every INT96 value fits int64 nanoseconds, else us, else ms --
// what `pqt cat` picks (tools/cat_exact.c). us: the values in microseconds (BigInt).
export function int96Unit(us) {
  const MAX = 9223372036854775807n;
  const fits = (per) => us.every((v) => v === null || (v * per <= MAX && v * per >= -MAX - 1n));
  return fits(1000n) ? 'ns' : fits(1n) ? 'us' : 'ms';
}

export function civil(days) { // days since 1970-01-01 -> [y, m, d], proleptic Gregorian (H. Hinnant)
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}
export const pad = (v, w) => String(v).padStart(w, '0');
export const fmtYear = (y) => (y < 0 ? '-' + pad(-y, 4) : pad(y, 4));
export function fmtDate(days) {
  const [y, m, d] = civil(days);
  return `${fmtYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}
export const UNIT = { ms: [1000n, 3], us: [1000000n, 6], ns: [1000000000n, 9] };
export function fmtTimeOfDay(ticks, unit) { // ticks within a day, BigInt >= 0
  const [per, digits] = UNIT[unit];
  const secs = ticks / per, frac = ticks % per;
  const h = secs / 3600n, mi = (secs / 60n) % 60n, s = secs % 60n;
  return `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(frac, digits)}`;
}
export function fmtTimestamp(ticks, unit, utc) {
  const perDay = UNIT[unit][0] * 86400n;
  let days = ticks / perDay, rem = ticks % perDay;
  if (rem < 0n) { rem += perDay; days -= 1n; }
  return `${fmtDate(Number(days))}T${fmtTimeOfDay(rem, unit)}${utc ? 'Z' : ''}`;
}

export function fmtLeaf(c, v) {
  if (v === null || v === undefined) return 'null';
  switch (c.kind) {
    case 'int': if (!/^-?\d+$/.test(v)) throw new Error(`not an integer: ${v}`); return v;
    case 'decimal': return fmtDecimal(v);
    case 'float': return c.f32 ? fmtFloat32(v) : fmtFloat(v);
    case 'bool': return v ? 'true' : 'false';
    case 'string': case 'binary': return JSON.stringify(v);
    case 'uuid': if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v)) throw new Error(`bad uuid ${v}`);
      return JSON.stringify(v);
    case 'date': return JSON.stringify(fmtDate(Number(v)));
    case 'time': {
      const us = BigInt(v);
      const ticks = c.unit === 'ms' ? us / 1000n : c.unit === 'ns' ? us * 1000n : us;
      return JSON.stringify(fmtTimeOfDay(ticks, c.unit || 'us'));
    }
    case 'timestamp': {
      let t = BigInt(v);
      if (c.int96) t = c.unit === 'ns' ? t * 1000n : c.unit === 'ms' ? (t >= 0n ? t / 1000n : -((-t + 999n) / 1000n)) : t; // DuckDB gives INT96 as microseconds
      return JSON.stringify(fmtTimestamp(t, c.unit, c.utc));
    }
    default: throw new Error(`no format for kind ${c.kind}`);
  }
}

export function fmtValue(c, v) {
  if (!c.list) return fmtLeaf(c, v);
  if (v === null || v === undefined) return 'null';
  return '[' + v.items.map((e) => fmtLeaf(c, e)).join(',') + ']';
}

