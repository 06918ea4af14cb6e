#!/usr/bin/env python3
"""png_colours.py - count the distinct colours of a PNG (a screenshot), with
only the standard library: zlib inflates the IDAT stream, the five PNG
filters are undone row by row. Prints "WIDTH HEIGHT COLOURS".

    png_colours.py SHOT.png [--has RRGGBB] [--crop Y0 Y1 OUT.png]

--has adds "yes" or "no": whether that exact colour is among them.
--crop writes rows [Y0, Y1) as a new PNG (to look at part of a tall page).
Handles 8-bit greyscale, RGB, RGBA and grey+alpha, not interlaced: what
Chromium writes."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or interlace or ctype not in (0, 2, 4, 6):
        raise SystemExit(f"{path}: unsupported PNG (depth {depth}, type {ctype})")
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, ctype, rows


def write_png(path, w, ctype, rows):
    def chunk(kind, body):
        c = struct.pack(">I", len(body)) + kind + body
        return c + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + r for r in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, len(rows), 8, ctype, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw)))
        f.write(chunk(b"IEND", b""))


def main():
    w, h, bpp, ctype, rows = read_png(sys.argv[1])
    if len(sys.argv) >= 6 and sys.argv[2] == "--crop":
        y0, y1 = int(sys.argv[3]), int(sys.argv[4])
        write_png(sys.argv[5], w, ctype, rows[y0:y1])
        return
    colours = set()
    for r in rows:
        colours.update(r[i:i + bpp] for i in range(0, len(r), bpp))
    if len(sys.argv) >= 4 and sys.argv[2] == "--has":
        want = bytes.fromhex(sys.argv[3])
        found = any(c[:3] == want for c in colours) if bpp >= 3 else False
        print(w, h, len(colours), "yes" if found else "no")
    else:
        print(w, h, len(colours))


main()
