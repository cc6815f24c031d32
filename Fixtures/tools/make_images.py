#!/usr/bin/env python3
"""Generate the fixture site's images (Fixtures/html/images/**) with the Python standard library.

Every image is a small abstract "poster" (sky gradient, sun, hills, letterbox band) drawn from a
palette seeded by the file name, so each page gets its own picture (the verifier's CT008 "same
image on many pages" rule must not fire on the fixture) while the files stay a few KB.

PNG: 8-bit truecolour, one IDAT, filter type 0, zlib level 9.
JPEG: baseline sequential JFIF, YCbCr 4:4:4, Annex K quantisation (quality 90) and Huffman tables.

The pixel sizes here are the ones the pages declare in og:image:width/height and <img> width/height;
keep them in sync with Fixtures/html/MANIFEST.md. Run: python3 Fixtures/tools/make_images.py
"""
import math
import os
import random
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "html", "images")

# (relative path, width, height)
IMAGES = [
    ("favicon.png", 32, 32),
    ("apple-touch-icon.png", 180, 180),
    ("logo.png", 512, 512),
    ("site/home.png", 1200, 630),
    ("site/movies.png", 1200, 630),
    ("site/family.png", 1200, 630),
    ("site/colleagues.png", 1200, 630),
    ("site/about.png", 1200, 630),
    ("site/markup-tests.png", 1200, 630),
    ("site/office.jpg", 1200, 630),
    ("site/staff-handbook.png", 1200, 630),
]
for slug in ("the-incredibles", "paddington-2", "my-neighbor-totoro", "up"):
    IMAGES.append((f"movies/{slug}-wide.png", 1200, 630))
    IMAGES.append((f"movies/{slug}-poster.jpg", 600, 900))
for person in ("anna-lindqvist", "ben-lindqvist", "erik-lindqvist"):
    IMAGES.append((f"family/{person}.jpg", 400, 400))
for person in ("priya-raman", "tomas-herrera", "grace-mensah"):
    IMAGES.append((f"colleagues/{person}.png", 400, 400))
BROKEN = [
    "sab-app-id-not-digits", "sab-missing-app-id", "sab-duplicate-tags", "sab-in-body",
    "sab-comma-in-app-argument", "sab-relative-app-argument", "og-missing-image",
    "og-image-relative-url", "og-orphan-image-width", "jsonld-trailing-comma",
    "jsonld-unrecoverable", "microdata-relative-itemtype", "rating-out-of-range", "noindex",
    "canonical-mismatch", "title-too-long", "missing-description", "applinks-missing-url",
    "twitter-app-id-mismatch", "twitter-app-url-no-scheme", "no-deep-link",
]
for name in BROKEN:
    IMAGES.append((f"broken/{name}.png", 1200, 630))


# ---------------------------------------------------------------- drawing

def _hsv(h, s, v):
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return (int(r * 255), int(g * 255), int(b * 255))


def render(name, w, h):
    """Return a list of h rows, each a bytearray of w*3 RGB bytes."""
    rnd = random.Random(name)
    hue = rnd.random()
    sky_top = _hsv(hue, 0.55, 0.35)
    sky_low = _hsv((hue + 0.08) % 1, 0.45, 0.95)
    sun = _hsv((hue + 0.5) % 1, 0.35, 1.0)
    hill1 = _hsv((hue + 0.30) % 1, 0.60, 0.55)
    hill2 = _hsv((hue + 0.36) % 1, 0.70, 0.40)
    band = _hsv(hue, 0.25, 0.12)
    horizon = int(h * rnd.uniform(0.55, 0.7))
    shapes = [
        ("circle", w * rnd.uniform(0.2, 0.8), horizon - h * rnd.uniform(0.05, 0.25), min(w, h) * rnd.uniform(0.08, 0.16), sun),
        ("circle", w * rnd.uniform(-0.1, 0.4), horizon + w * 0.55, w * 0.62, hill1),
        ("circle", w * rnd.uniform(0.6, 1.1), horizon + w * 0.62, w * 0.66, hill2),
        ("rect", 0, h - max(2, h // 12), w, h, band),
    ]
    rows = []
    for y in range(h):
        t = min(1.0, y / max(1, horizon))
        c = tuple(int(a + (b - a) * t) for a, b in zip(sky_top, sky_low))
        row = bytearray(bytes(c) * w)
        yc = y + 0.5
        for shape in shapes:
            if shape[0] == "circle":
                _, cx, cy, r, col = shape
                dy = yc - cy
                if abs(dy) >= r:
                    continue
                half = math.sqrt(r * r - dy * dy)
                x0, x1 = max(0, int(round(cx - half))), min(w, int(round(cx + half)))
            else:
                _, x0, y0, x1, y1, col = shape
                if not (y0 <= y < y1):
                    continue
            if x1 > x0:
                row[x0 * 3:x1 * 3] = bytes(col) * (x1 - x0)
        rows.append(row)
    return rows


# ---------------------------------------------------------------- PNG

def png_bytes(rows, w, h):
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter type 0 (None): runs of one colour deflate well as they are
        raw += row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------- JPEG (baseline)

ZIGZAG = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27,
    20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58,
    59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]
Q_LUM = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
]
Q_CHR = [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
    47, 66, 99, 99, 99, 99, 99, 99] + [99] * 32
# Annex K.3 tables: (BITS[1..16], HUFFVAL)
DC_LUM = ([0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], list(range(12)))
DC_CHR = ([0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], list(range(12)))
AC_LUM = ([0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D], bytes.fromhex(
    "01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728"
    "292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a83848586878889"
    "8a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2"
    "e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa"))
AC_CHR = ([0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77], bytes.fromhex(
    "00010203110405213106124151076171132232810814429 1a1b1c109233352f0156272d10a162434e125f11718191a"
    "262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a8283848586"
    "8788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9"
    "dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9fa".replace(" ", "")))


def _scale(table, quality):
    s = 5000 // quality if quality < 50 else 200 - quality * 2
    return [min(255, max(1, (q * s + 50) // 100)) for q in table]


def _codes(spec):
    bits, vals = spec
    codes, code, k = {}, 0, 0
    for length in range(1, 17):
        for _ in range(bits[length - 1]):
            codes[vals[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return codes


class _Bits:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, value, length):
        self.acc = (self.acc << length) | (value & ((1 << length) - 1))
        self.n += length
        while self.n >= 8:
            self.n -= 8
            byte = (self.acc >> self.n) & 0xFF
            self.out.append(byte)
            if byte == 0xFF:
                self.out.append(0)
        self.acc &= (1 << self.n) - 1

    def flush(self):
        if self.n:
            self.put((1 << (8 - self.n)) - 1, 8 - self.n)


_C = [[(math.sqrt(0.5) if u == 0 else 1.0) * 0.5 * math.cos((2 * x + 1) * u * math.pi / 16)
       for x in range(8)] for u in range(8)]


def _fdct(block):
    tmp = [[sum(_C[u][x] * block[y * 8 + x] for x in range(8)) for u in range(8)] for y in range(8)]
    return [sum(_C[v][y] * tmp[y][u] for y in range(8)) for v in range(8) for u in range(8)]


def _category(v):
    v = abs(v)
    n = 0
    while v:
        n += 1
        v >>= 1
    return n


def jpeg_bytes(rows, w, h, quality=90):
    qt = [_scale(Q_LUM, quality), _scale(Q_CHR, quality)]
    dc = [_codes(DC_LUM), _codes(DC_CHR)]
    ac = [_codes(AC_LUM), _codes(AC_CHR)]
    # colour conversion, planes padded to multiples of 8 by edge replication
    pw, ph = (w + 7) // 8 * 8, (h + 7) // 8 * 8
    planes = [[], [], []]
    for y in range(ph):
        row = rows[min(y, h - 1)]
        yl, cbl, crl = [], [], []
        for x in range(pw):
            i = min(x, w - 1) * 3
            r, g, b = row[i], row[i + 1], row[i + 2]
            yl.append(0.299 * r + 0.587 * g + 0.114 * b - 128)
            cbl.append(-0.168736 * r - 0.331264 * g + 0.5 * b)
            crl.append(0.5 * r - 0.418688 * g - 0.081312 * b)
        planes[0].append(yl)
        planes[1].append(cbl)
        planes[2].append(crl)
    bits = _Bits()
    pred = [0, 0, 0]
    for by in range(0, ph, 8):
        for bx in range(0, pw, 8):
            for comp in range(3):
                t = 0 if comp == 0 else 1
                plane = planes[comp]
                block = [plane[by + j][bx + i] for j in range(8) for i in range(8)]
                first = block[0]
                if all(abs(v - first) < 1e-9 for v in block):
                    coeffs = [8 * first] + [0.0] * 63
                else:
                    coeffs = _fdct(block)
                q = [int(round(coeffs[ZIGZAG[k]] / qt[t][ZIGZAG[k]])) for k in range(64)]
                diff = q[0] - pred[comp]
                pred[comp] = q[0]
                s = _category(diff)
                bits.put(*dc[t][s])
                if s:
                    bits.put(diff if diff >= 0 else diff + (1 << s) - 1, s)
                run = 0
                last = max([k for k in range(1, 64) if q[k]] or [0])
                for k in range(1, last + 1):
                    v = q[k]
                    if v == 0:
                        run += 1
                        continue
                    while run > 15:
                        bits.put(*ac[t][0xF0])
                        run -= 16
                    s = _category(v)
                    bits.put(*ac[t][(run << 4) | s])
                    bits.put(v if v >= 0 else v + (1 << s) - 1, s)
                    run = 0
                if last < 63:
                    bits.put(*ac[t][0x00])
    bits.flush()

    def seg(marker, data):
        return struct.pack(">BBH", 0xFF, marker, len(data) + 2) + data

    out = bytearray(b"\xFF\xD8")
    out += seg(0xE0, b"JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00")
    for tid in (0, 1):
        out += seg(0xDB, bytes([tid]) + bytes(qt[tid][ZIGZAG[k]] for k in range(64)))
    out += seg(0xC0, struct.pack(">BHHB", 8, h, w, 3) + bytes([1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))
    for cls_id, spec in ((0x00, DC_LUM), (0x10, AC_LUM), (0x01, DC_CHR), (0x11, AC_CHR)):
        out += seg(0xC4, bytes([cls_id]) + bytes(spec[0]) + bytes(spec[1]))
    out += seg(0xDA, bytes([3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]))
    out += bits.out
    out += b"\xFF\xD9"
    return bytes(out)


for _spec in (DC_LUM, DC_CHR, AC_LUM, AC_CHR):
    assert sum(_spec[0]) == len(_spec[1]), "Huffman table size mismatch"


def main():
    only = set(sys.argv[1:])
    for rel, w, h in IMAGES:
        if only and rel not in only:
            continue
        path = os.path.join(OUT, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        rows = render(rel, w, h)
        data = jpeg_bytes(rows, w, h) if rel.endswith(".jpg") else png_bytes(rows, w, h)
        with open(path, "wb") as f:
            f.write(data)
        print(f"{rel}\t{w}x{h}\t{len(data)} bytes")


if __name__ == "__main__":
    main()
