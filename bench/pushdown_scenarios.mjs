// pushdown_scenarios.mjs - THE table of the pushdown scenarios (docs/pruning.md, "Scenarios", 1-9;
// scenario 10 is tests/unit/test_pushdown_torture.c). One entry per case; each engine's query
// is derived from the same conjuncts and projection, so pqt, DuckDB and Polars run the same
// thing.
//
// A case:
//   id, scenario (1..9), title
//   file      key of gen_pushdown.mjs's files (sorted, sorted_pi, shuffled_bloom, ...)
//   where     conjuncts [column, op, value], AND-combined in this written order; op is one of
//             == != < <= > >= is_null starts_with
//   cols      projected columns; the checksum is the count then one value per column
//             (numbers: sum; bool: trues; strings: bytes; mag: sum of the elements)
//   goal      { max: r }          pqt / pqt-baseline <= r
//             { maxVs: [id, r] }  pqt / pqt time of case id <= r
//             { spread: group, r } slowest / fastest pqt time over the cases of the group <= r
//             counters: { name: 'zero' | 'below_baseline' } checked on pqt's counters too
//   goalText  the goal as the scenario states it
//   pqtOnly   no peers (a reference time)
import { SURVEYS } from './catalogue_sql.mjs';

export const ALL = ['id', 'ra', 'dec', 'mass', 'z', 'quality', 'flag', 'survey', 'name', 'mag'];
const PAYLOAD = ['ra', 'dec', 'mass', 'z'];
// Every column but the FLOAT[5] list `mag`: pqt finds a list's fixed width by reading the
// whole column once per open when the schema cannot tell (DuckDB and Polars write a plain
// LIST), which hides what pushdown saves; the "-flat" cases show it without that cost.
const FLAT = ALL.filter((c) => c !== 'mag');

// ---- how each engine says a conjunct ----
const isStr = (v) => typeof v === 'string';
const sqlLit = (v) => (isStr(v) ? `'${v.replace(/'/g, "''")}'`
  : typeof v === 'boolean' ? String(v)
  : Number.isInteger(v) ? String(v) : `CAST('${v}' AS DOUBLE)`);
const pqtLit = (v) => (isStr(v) ? `"${v.replace(/"/g, '""')}"` : String(v));

export function pqtRule([c, op, v]) {
  if (op === 'is_null') return `${c} is_null`;
  return `${c} ${op} ${pqtLit(v)}`;
}
export function sqlCond([c, op, v]) {
  if (op === 'is_null') return `${c} IS NULL`;
  if (op === 'starts_with') return `starts_with(${c}, ${sqlLit(v)})`;
  const o = { '==': '=', '!=': '<>' }[op] ?? op;
  return `${c} ${o} ${sqlLit(v)}`;
}
export function polarsCond(pl, [c, op, v]) {
  const e = pl.col(c);
  switch (op) {
  case 'is_null': return e.isNull();
  case 'starts_with': return e.str.startsWith(v);
  case '==': return e.eq(pl.lit(v));
  case '!=': return e.neq(pl.lit(v));
  case '<': return e.lt(pl.lit(v));
  case '<=': return e.ltEq(pl.lit(v));
  case '>': return e.gt(pl.lit(v));
  case '>=': return e.gtEq(pl.lit(v));
  default: throw new Error(`unknown op ${op}`);
  }
}

// ---- the checksum, per engine ----
export function sqlChecksum(cols) {
  const one = (c) => {
    if (c === 'z') return 'sum(z::DOUBLE)';
    if (c === 'flag') return 'sum(flag::INTEGER)';
    if (c === 'survey' || c === 'name') return `sum(strlen(${c}))`;
    if (c === 'mag') return `sum(${[1, 2, 3, 4, 5].map((k) => `mag[${k}]::DOUBLE`).join(' + ')})`;
    return `sum(${c})`;
  };
  return ['count(*)', ...cols.map(one)].join(', ');
}
export function polarsChecksum(pl, cols) {
  const one = (c) => {
    if (c === 'id' || c === 'quality' || c === 'flag') return pl.col(c).cast(pl.Int64).sum();
    if (c === 'z') return pl.col(c).cast(pl.Float64).sum();
    if (c === 'survey' || c === 'name') return pl.col(c).str.lengths().cast(pl.Int64).sum();
    if (c === 'mag') return pl.col(c).explode().cast(pl.Float64).sum();
    return pl.col(c).sum();
  };
  return [pl.len().cast(pl.Int64), ...cols.map(one)].map((e, i) => e.alias(`v${i}`));
}

// ---- the cases ----
const pct = (f) => `${+(f * 100).toPrecision(6)}%`;

export function scenarioCases(n) {
  const rg = Math.ceil(n / 10);
  const mid = Math.floor(n / 2) + 1;
  const cases = [];
  const add = (c) => cases.push({ cols: ALL, ...c });

  // 1. Sorted-key point lookup, project all.
  add({ id: '1-stats', scenario: 1, title: `id == ${mid}, project all (DuckDB file: row-group statistics only)`,
        file: 'sorted', where: [['id', '==', mid]], goal: { max: 0.12 },
        goalText: '<= 12% of baseline (1 of 10 row groups read)' });
  add({ id: '1-index', scenario: 1, title: `id == ${mid}, project all (Polars file: page index)`,
        file: 'sorted_pi', where: [['id', '==', mid]], goal: { max: 0.02 },
        goalText: '<= 1-2% of baseline (one page per column)' });
  add({ id: '1-stats-flat', scenario: 1, title: `id == ${mid}, project all but mag (DuckDB file)`,
        file: 'sorted', where: [['id', '==', mid]], cols: FLAT, goal: { max: 0.12 },
        goalText: '<= 12% of baseline' });
  add({ id: '1-index-flat', scenario: 1, title: `id == ${mid}, project all but mag (Polars file: page index)`,
        file: 'sorted_pi', where: [['id', '==', mid]], cols: FLAT, goal: { max: 0.02 },
        goalText: '<= 1-2% of baseline' });

  // 2. Sorted-key range sweep (page-indexed file), project all.
  for (const frac of [0.0001, 0.001, 0.01, 0.1, 0.5, 1]) {
    const len = Math.max(1, Math.round(n * frac));
    const lo = frac === 1 ? 1 : mid - Math.floor(len / 2);
    const hi = lo + len - 1;
    add({ id: `2-${pct(frac)}`, scenario: 2, title: `id in [${lo}, ${hi}] (${pct(frac)}), project all`,
          file: 'sorted_pi', where: [['id', '>=', lo], ['id', '<=', hi]],
          goal: { max: frac === 1 ? 1.02 : frac + 0.05 },
          goalText: frac === 1 ? 'stats prove ALL: <= 1.02x baseline'
            : `tracks the kept fraction plus a constant (here: <= ${pct(frac)} + 5% of baseline)` });
  }
  add({ id: '2-count', scenario: 2, title: `count(*) of id in [${rg + 1}, ${5 * rg}] (row groups 2-5 whole)`,
        file: 'sorted_pi', where: [['id', '>=', rg + 1], ['id', '<=', 5 * rg]], cols: [],
        goal: { counters: { values_decoded: 'zero' } },
        goalText: 'count(*) over whole row groups decodes nothing (values_decoded = 0)' });

  // 3. Dictionary needle and absent value.
  for (const [file, how] of [['sorted', 'DuckDB: dictionary + bloom on survey'], ['sorted_pi', 'Polars: dictionary, no bloom']]) {
    add({ id: `3-rare-${file}`, scenario: 3, title: `survey == 'rare' (1%), sum ra, dec, mass, z (${how})`,
          file, where: [['survey', '==', 'rare']], cols: PAYLOAD, goal: { max: 0.6 },
          goalText: '<= 0.6x baseline (code-level evaluation, payload for 1%)' });
    add({ id: `3-nope-${file}`, scenario: 3, title: `survey == 'nope' (absent), sum ra, dec, mass, z (${how})`,
          file, where: [['survey', '==', 'nope']], cols: PAYLOAD,
          goal: { max: 0.02, counters: { pages_decompressed: 'zero' } },
          goalText: '<= 2% of baseline, zero data pages decompressed' });
  }

  // 4. High-cardinality point lookup on an unsorted column (shuffled rows), project all.
  const needle = `obj_${Math.floor(n * 0.7345123) + 1}`;
  add({ id: '4-bloom', scenario: 4, title: `name == '${needle}', shuffled, bloom filter on name`,
        file: 'shuffled_bloom', where: [['name', '==', needle]], goal: { max: 0.05 },
        goalText: '<= 3-5% of baseline (only one row group opened)' });
  add({ id: '4-name-scan', scenario: 4, title: 'reference: read `name` whole, no filter (shuffled)',
        file: 'shuffled', where: [], cols: ['name'], pqtOnly: true, goalText: '(reference for 4-no-bloom)' });
  add({ id: '4-no-bloom', scenario: 4, title: `name == '${needle}', shuffled, no bloom filter`,
        file: 'shuffled', where: [['name', '==', needle]], goal: { maxVs: ['4-name-scan', 1.1] },
        goalText: '~ the cost of scanning `name` alone (<= 1.1x 4-name-scan); payload ~ free' });
  add({ id: '4-no-bloom-flat', scenario: 4, title: `name == '${needle}', shuffled, no bloom filter, project all but mag`,
        file: 'shuffled', where: [['name', '==', needle]], cols: FLAT, goal: { maxVs: ['4-name-scan', 1.1] },
        goalText: '<= 1.1x 4-name-scan' });

  // 5. Scattered selectivity sweep, wide payload, compressed and uncompressed pages.
  const s5 = [[0.001, 0.5], [0.01, 0.6], [0.1, 0.85], [0.5, 1.05], [0.9, 1.05]];
  for (const file of ['sorted', 'sorted_raw']) {
    for (const [frac, max] of s5) {
      const c = +(360 * frac).toPrecision(6);
      add({ id: `5-${pct(frac)}${file === 'sorted_raw' ? '-raw' : ''}`, scenario: 5,
            title: `ra < ${c} (${pct(frac)}, random), project all${file === 'sorted_raw' ? ', uncompressed' : ''}`,
            file, where: [['ra', '<', c]], goal: { max }, goalText: `<= ${max}x baseline` });
    }
  }

  // 6. Clustered runs with page index: file ordered by (survey, id).
  add({ id: '6-clustered', scenario: 6, title: "survey == 'gaia' and ra < 90, file ordered by (survey, id), project all",
        file: 'clustered_pi', where: [['survey', '==', 'gaia'], ['ra', '<', 90]],
        goal: { max: 0.10, counters: { pages_decompressed: 'below_baseline' } },
        goalText: '<= 0.10x baseline; payload pages outside the kept range never decompressed' });
  add({ id: '6-clustered-flat', scenario: 6, title: "survey == 'gaia' and ra < 90, (survey, id) order, project all but mag",
        file: 'clustered_pi', where: [['survey', '==', 'gaia'], ['ra', '<', 90]], cols: FLAT,
        goal: { max: 0.10, counters: { pages_decompressed: 'below_baseline' } }, goalText: '<= 0.10x baseline' });

  // 7. No-regression traps.
  add({ id: '7a-flag', scenario: 7, title: 'flag == true (50%, random), project all', file: 'sorted',
        where: [['flag', '==', true]], goal: { max: 1.05 }, goalText: '<= 1.05x baseline' });
  add({ id: "7b-survey<>''", scenario: 7, title: "survey != '' (all pass), project survey only", file: 'sorted',
        where: [['survey', '!=', '']], cols: ['survey'], goal: { max: 1.05 }, goalText: '<= 1.05x baseline' });
  // Each conjunct keeps 99.67%: 99.0% pass the chain.
  add({ id: '7c-99%-chain', scenario: 7, title: 'ra < 358.812 and dec > -89.406 and mass < 9.627e12 (99%), project all',
        file: 'sorted', where: [['ra', '<', 358.812], ['dec', '>', -89.406], ['mass', '<', 9.627e12]],
        goal: { max: 1.05 }, goalText: '<= 1.05x baseline' });

  // 8. Conjunct ordering: every written order of the same conjuncts.
  const c3 = { r: ['ra', '<', 300], m: ['mass', '>', 5.6e12], s: ['survey', '==', 'rare'] };
  for (const order of ['rms', 'rsm', 'mrs', 'msr', 'srm', 'smr']) {
    add({ id: `8-${order}`, scenario: 8, group: '8-three',
          title: `${[...order].map((k) => pqtRule(c3[k])).join(' and ')} (83%, 5%, 1%), project all`,
          file: 'sorted', where: [...order].map((k) => c3[k]), goal: { spread: '8-three', r: 1.15 },
          goalText: 'any written order within 15% of the best order' });
  }
  const c2 = { n: ['name', 'starts_with', 'obj_19'], r: ['ra', '<', 300] };
  for (const order of ['nr', 'rn']) {
    add({ id: `8-prefix-${order}`, scenario: 8, group: '8-prefix',
          title: `${[...order].map((k) => pqtRule(c2[k])).join(' and ')}, project all`,
          file: 'sorted', where: [...order].map((k) => c2[k]), goal: { spread: '8-prefix', r: 1.15 },
          goalText: 'either written order within 15% of the other' });
  }

  // 9. Nulls, nested and page versions: V1 / V2 data pages, with and without an offset index.
  const s9files = [['sorted', 'DuckDB V1 pages, no offset index'], ['sorted_v2', 'DuckDB V2 pages, no offset index'],
                   ['sorted_pi', 'Polars, offset index']];
  for (const [file, how] of s9files) {
    add({ id: `9-null-${file}`, scenario: 9, title: `quality is_null (5%), project mag, name (${how})`,
          file, where: [['quality', 'is_null']], cols: ['mag', 'name'], goal: { max: 0.85 },
          goalText: 'as flat columns at that selectivity (S5: <= 0.6x-0.85x); identical results' });
    add({ id: `9-eq3-${file}`, scenario: 9, title: `quality == 3 (9.5%), project mag, name (${how})`,
          file, where: [['quality', '==', 3]], cols: ['mag', 'name'], goal: { max: 0.85 },
          goalText: 'as flat columns at 10% (S5: <= 0.85x); identical results' });
  }
  return cases;
}

// The survey values, for documentation of scenario 3's absent value.
export const SURVEY_VALUES = [...SURVEYS, 'rare'];

export function selectedCases(n) {
  const only = process.env.PD_CASES ? process.env.PD_CASES.split(',') : null;
  const sc = process.env.PD_SCENARIOS ? process.env.PD_SCENARIOS.split(',').map(Number) : null;
  return scenarioCases(n).filter((c) => (!only || only.includes(c.id)) && (!sc || sc.includes(c.scenario)));
}
