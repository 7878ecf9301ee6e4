#!/usr/bin/env python3
"""make_seeds.py - (re)writes the committed seed corpora under tests/fuzz/seeds/<target>/.

File-derived seeds (footer, page_header, page_index, codec) are cut from the parquet-testing
files with a minimal Thrift compact reader; value-decoder and RLE seeds are built here by
small reference encoders, one per (encoding, physical type), in the input layout of
fuzz_vdec.c / fuzz_rle.c. Seeds are capped in size so the whole corpus stays small.
usage: python3 tests/fuzz/make_seeds.py [parquet-testing dir]  (run from the repo root)
"""
import glob, os, struct, sys

DATA = sys.argv[1] if len(sys.argv) > 1 else "tests/data/parquet-testing"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7F) << s; s += 7
        if c < 0x80: return v, i


def zz(v): return (v >> 1) ^ -(v & 1)


def value(b, i, t):
    """Thrift compact value of type t at b[i]: (python value, next index)."""
    if t in (1, 2): return t == 1, i
    if t == 3: return b[i], i + 1
    if t in (4, 5, 6): v, i = varint(b, i); return zz(v), i
    if t == 7: return struct.unpack_from("<d", b, i)[0], i + 8
    if t == 8: n, i = varint(b, i); return bytes(b[i:i + n]), i + n
    if t in (9, 10):
        h = b[i]; i += 1; n = h >> 4; et = h & 15
        if n == 15: n, i = varint(b, i)
        out = []
        for _ in range(n):
            if et in (1, 2): out.append(b[i] == 1); i += 1
            else: v, i = value(b, i, et); out.append(v)
        return out, i
    if t == 11:
        n, i = varint(b, i)
        if n: i += 1  # key/value types: maps do not occur in what we read
        assert n == 0
        return {}, i
    if t == 12:
        d = {}; fid = 0
        while True:
            h = b[i]; i += 1
            if h == 0: return d, i
            ft = h & 15
            if h >> 4: fid += h >> 4
            else: fid, i = value(b, i, 4)
            d[fid], i = value(b, i, ft)
    raise ValueError("thrift type %d" % t)


def put(target, name, data):
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name), "wb") as f: f.write(data)


def from_files():
    codecs_seen = {}
    for path in sorted(glob.glob(DATA + "/data/*.parquet")):
        b = open(path, "rb").read()
        base = os.path.basename(path)[:-8]
        n = struct.unpack("<I", b[-8:-4])[0]
        foot = b[-8 - n:-8]
        put("footer", base, foot)
        try: meta, _ = value(foot, 0, 12)
        except (IndexError, ValueError, AssertionError): continue
        for rg in meta.get(4, [])[:1]:
            for c, cc in enumerate(rg.get(1, [])[:3]):
                md = cc.get(3, {})
                start = md.get(11) or md.get(9)
                if start:
                    put("page_header", "%s.c%d" % (base, c), b[start:start + 512])
                    try: ph, hn = value(b, start, 12)
                    except (IndexError, ValueError, AssertionError): ph = None
                    codec = md.get(4, 0)
                    if ph and codec and ph[3] <= 4096 and ph[2] < 1 << 20 and codecs_seen.get(codec, 0) < 4:
                        codecs_seen[codec] = codecs_seen.get(codec, 0) + 1
                        put("codec", "%s.c%d" % (base, c), bytes([codec]) +
                            ph[2].to_bytes(3, "little") + b[start + hn:start + hn + ph[3]])
                if 6 in cc: put("page_index", "%s.c%d.colidx" % (base, c),
                                b"\0" + b[cc[6]:cc[6] + cc[7]])
                if 4 in cc: put("page_index", "%s.c%d.offidx" % (base, c),
                                b"\1" + b[cc[4]:cc[4] + min(cc[5], 2048)])
                if 14 in md: put("page_index", "%s.c%d.bloom" % (base, c),
                                 b"\2" + b[md[14]:md[14] + 64])


# ---- reference encoders for the synthetic value-decoder seeds ----
def uvar(v):
    out = bytearray()
    while True:
        if v < 0x80: out.append(v); return bytes(out)
        out.append(v & 0x7F | 0x80); v >>= 7


def bitpack(vals, w):
    acc = nb = 0; out = bytearray()
    for v in vals:
        acc |= v << nb; nb += w
        while nb >= 8: out.append(acc & 0xFF); acc >>= 8; nb -= 8
    if nb: out.append(acc)
    return bytes(out)


def rle(vals, w):
    """One bit-packed run of all values (padded to 8) then one RLE run of the first value."""
    pad = vals + [0] * (-len(vals) % 8)
    return (uvar(len(pad) // 8 << 1 | 1) + bitpack(pad, w) + uvar(8 << 1) +
            vals[0].to_bytes((w + 7) // 8, "little"))


def dbp(vals, bits=64):
    """DELTA_BINARY_PACKED: block 128, 4 miniblocks of 32."""
    out = uvar(128) + uvar(4) + uvar(len(vals)) + uvar((vals[0] << 1) ^ (vals[0] >> 63))
    d = [vals[i + 1] - vals[i] for i in range(len(vals) - 1)]
    for s in range(0, len(d), 128):
        blk = d[s:s + 128]; mn = min(blk); out += uvar((mn << 1) ^ (mn >> 63))
        mbs = [[x - mn for x in blk[m:m + 32]] for m in range(0, 128, 32)]
        ws = [max(mb).bit_length() if mb else 0 for mb in mbs]
        out += bytes(ws)
        for mb, w in zip(mbs, ws):
            if mb: out += bitpack(mb + [0] * (32 - len(mb)), w)
    return out


def vdec_seed(enc, pt, tl, nvals, page, dict_page=b"", dict_n=0, ops=b""):
    return (bytes([enc, pt, tl]) + nvals.to_bytes(3, "little") + len(dict_page).to_bytes(2, "little")
            + dict_n.to_bytes(2, "little") + bytes([len(ops)]) + ops + dict_page + page)


def synthetic():
    ints = [5, -3, 1000, 7, 7, 7, -100000, 42, 0, 1, 2, 3]
    n = len(ints)
    i32 = b"".join(struct.pack("<i", v) for v in ints)
    i64 = b"".join(struct.pack("<q", v << 20) for v in ints)
    strs = [b"a", b"bc", b"", b"abcd", b"abce", b"xyz", b"xy", b"", b"hello", b"help", b"q", b"qq"]
    plain_ba = b"".join(struct.pack("<I", len(s)) + s for s in strs)
    mixed_ops = bytes([0x0C, 0x05, 0x08, 0x04, 0x10])  # decode 3, skip 1, decode 2, ...
    fixed = {0: bitpack([v & 1 for v in ints], 1), 1: i32, 2: i64, 3: bytes(range(12 * n)),
             4: struct.pack("<%df" % n, *ints), 5: struct.pack("<%dd" % n, *ints),
             7: bytes(range(5 * n))}
    for pt, page in fixed.items():
        put("vdec", "plain.t%d" % pt, vdec_seed(0, pt, 5, n, page))
        put("vdec", "plain.t%d.ops" % pt, vdec_seed(0, pt, 5, n, page, ops=mixed_ops))
        codes = bytes([3]) + rle([i % 6 for i in range(n)], 3)
        dict_page = page[:len(page) // 2] if pt else page[:1]
        put("vdec", "dict.t%d" % pt, vdec_seed(8, pt, 5, n, codes, dict_page, 6 if pt else 2))
    put("vdec", "plain.ba", vdec_seed(0, 6, 0, n, plain_ba))
    put("vdec", "dict.ba", vdec_seed(8, 6, 0, n, bytes([4]) + rle(list(range(n)), 4), plain_ba, n))
    put("vdec", "dict.ba.ops", vdec_seed(2, 6, 0, n, bytes([4]) + rle(list(range(n)), 4), plain_ba,
                                         n, ops=mixed_ops + b"\x0a"))
    bools = rle([v & 1 for v in ints], 1)
    put("vdec", "rle.bool", vdec_seed(3, 0, 0, n, struct.pack("<I", len(bools)) + bools))
    put("vdec", "dbp.i32", vdec_seed(5, 1, 0, n, dbp(ints)))
    put("vdec", "dbp.i64", vdec_seed(5, 2, 0, 200, dbp([v * v - 7 * v for v in range(200)]),
                                      ops=mixed_ops))
    lens = dbp([len(s) for s in strs])
    put("vdec", "dlba", vdec_seed(6, 6, 0, n, lens + b"".join(strs)))
    pre = [0] + [len(os.path.commonprefix([strs[i - 1], strs[i]])) for i in range(1, n)]
    suf = [s[p:] for s, p in zip(strs, pre)]
    dba = dbp(pre) + dbp([len(s) for s in suf]) + b"".join(suf)
    put("vdec", "dba.ba", vdec_seed(7, 6, 0, n, dba, ops=mixed_ops))
    flba = [bytes([65 + i % 3, 66, 67 + i]) for i in range(n)]
    pre = [0] + [len(os.path.commonprefix([flba[i - 1], flba[i]])) for i in range(1, n)]
    suf = [s[p:] for s, p in zip(flba, pre)]
    put("vdec", "dba.flba", vdec_seed(7, 7, 3, n, dbp(pre) + dbp([len(s) for s in suf]) + b"".join(suf)))
    for pt, w in ((1, 4), (2, 8), (4, 4), (5, 8), (7, 5)):
        vals = fixed[pt][:w * n]
        put("vdec", "bss.t%d" % pt, vdec_seed(9, pt, 5, n, bytes(vals[i * w + k] for k in range(w)
                                                                  for i in range(n))))
    for w in (0, 1, 3, 8, 13, 32):
        vals = [(i * 2654435761) & ((1 << w) - 1) for i in range(40)]
        put("rle", "w%d" % w, bytes([w, 3, 0x20, 0x06, 0x13]) + rle(vals, w))
        put("rle", "w%d.all" % w, bytes([w, 0]) + rle(vals, w))


def list_page():
    """fuzz_list_page: [flags][nv1][nv2][footer nv][rows][v2 num_rows, rep, def, nulls][bodies].
    Rows [1, 2] [] null [3] of list<int32> (max_rep 1, max_def 3), then hostile counts."""
    def runs(rs, w):  # RLE runs (count, value)
        return b"".join(uvar(c << 1) + v.to_bytes((w + 7) // 8, "little") for c, v in rs)
    rep = runs([(1, 0), (1, 1), (3, 0)], 1)
    dfl = runs([(2, 3), (1, 1), (1, 0), (1, 3)], 2)
    vals = struct.pack("<3i", 1, 2, 3)
    sv = b"".join(struct.pack("<I", len(x)) + x for x in (b"a", b"bc", b"def"))
    def seed(flags, nv1, fnv, rows, body, nv2=0, v2=(0, 0, 0, 0)):
        return (bytes([flags]) + struct.pack("<iiIH", nv1, nv2, fnv, rows) +
                struct.pack("<iHHi", *v2) + body)
    v1body = struct.pack("<I", len(rep)) + rep + struct.pack("<I", len(dfl)) + dfl
    put("list_page", "v1", seed(8, 5, 5, 4, v1body + vals))
    put("list_page", "v1.strings", seed(2, 5, 5, 4, v1body + sv))
    put("list_page", "v2", seed(9, 5, 5, 4, rep + dfl + vals, v2=(4, len(rep), len(dfl), 2)))
    put("list_page", "two_pages", seed(12, 5, 10, 8, v1body + vals + v1body + vals, nv2=5))
    big = 2**31 - 1
    hrep = runs([(1, 0), (big - 1, 1)], 1)
    hdef = runs([(big, 2)], 2)
    hbody = struct.pack("<I", len(hrep)) + hrep + struct.pack("<I", len(hdef)) + hdef
    put("list_page", "claims_2g_levels", seed(0, big, 3, 1, hbody))
    put("list_page", "claims_2g_levels.v2", seed(1, big, 3, 1, hrep + hdef,
                                                  v2=(1, len(hrep), len(hdef), big)))
    put("list_page", "claims_64k_levels", seed(0, 2**16 - 1, 2**16 - 1, 1, hbody))


from_files()
synthetic()
list_page()
