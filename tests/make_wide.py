#!/usr/bin/env python3
"""make_wide.py OUT NCOLS NROWS - a Parquet file of NCOLS required INT32 columns c0, c1, ...
in one row group, each one uncompressed PLAIN data page, written byte by byte (Thrift compact
protocol, as the Parquet format's parquet.thrift defines it). Column k, row r (0-based) holds
k * 10 + r: the truth tests/test_cli_behaviour.sh checks pqt's output against.
"""
import struct
import sys

I32, I64, BINARY, LIST, STRUCT = 5, 6, 8, 9, 12


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return varint((n << 1) ^ (n >> 63))


class Struct:
    """One Thrift compact struct: fields in increasing id order."""

    def __init__(self):
        self.buf = bytearray()
        self.last = 0

    def head(self, fid, ftype):
        delta = fid - self.last
        assert 0 < delta <= 15
        self.buf.append((delta << 4) | ftype)
        self.last = fid

    def i32(self, fid, v):
        self.head(fid, I32)
        self.buf += zigzag(v)

    def i64(self, fid, v):
        self.head(fid, I64)
        self.buf += zigzag(v)

    def binary(self, fid, b):
        self.head(fid, BINARY)
        self.buf += varint(len(b)) + b

    def struct(self, fid, s):
        self.head(fid, STRUCT)
        self.buf += s.end()

    def lst(self, fid, etype, items):
        self.head(fid, LIST)
        n = len(items)
        self.buf += bytes([(n << 4) | etype]) if n < 15 else bytes([0xF0 | etype]) + varint(n)
        for it in items:
            if etype == STRUCT:
                self.buf += it.end()
            elif etype == BINARY:
                self.buf += varint(len(it)) + it
            else:
                self.buf += zigzag(it)

    def end(self):
        return bytes(self.buf) + b"\x00"


def main():
    out, ncols, nrows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    body = bytearray(b"PAR1")
    chunks = []
    for k in range(ncols):
        data = struct.pack("<%di" % nrows, *[k * 10 + r for r in range(nrows)])
        dph = Struct()
        dph.i32(1, nrows)  # num_values
        dph.i32(2, 0)  # PLAIN
        dph.i32(3, 3)  # RLE definition levels (none: required)
        dph.i32(4, 3)
        ph = Struct()
        ph.i32(1, 0)  # DATA_PAGE
        ph.i32(2, len(data))
        ph.i32(3, len(data))
        ph.struct(5, dph)
        page = ph.end() + data
        offset = len(body)
        body += page
        md = Struct()
        md.i32(1, 1)  # INT32
        md.lst(2, I32, [0])  # PLAIN
        md.lst(3, BINARY, [b"c%d" % k])
        md.i32(4, 0)  # UNCOMPRESSED
        md.i64(5, nrows)
        md.i64(6, len(page))
        md.i64(7, len(page))
        md.i64(9, offset)
        cc = Struct()
        cc.i64(2, offset)
        cc.struct(3, md)
        chunks.append((cc, len(page)))
    schema = []
    root = Struct()
    root.binary(4, b"schema")
    root.i32(5, ncols)
    schema.append(root)
    for k in range(ncols):
        se = Struct()
        se.i32(1, 1)  # INT32
        se.i32(3, 0)  # REQUIRED
        se.binary(4, b"c%d" % k)
        schema.append(se)
    rg = Struct()
    rg.lst(1, STRUCT, [c for c, _ in chunks])
    rg.i64(2, sum(n for _, n in chunks))
    rg.i64(3, nrows)
    fm = Struct()
    fm.i32(1, 1)
    fm.lst(2, STRUCT, schema)
    fm.i64(3, nrows)
    fm.lst(4, STRUCT, [rg])
    footer = fm.end()
    body += footer + struct.pack("<I", len(footer)) + b"PAR1"
    with open(out, "wb") as f:
        f.write(body)


main()
