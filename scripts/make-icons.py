#!/usr/bin/env python3
"""Draws Gridclash's icon (a grid with two opposing tokens) and writes it as PNG, Windows ICO
and macOS ICNS into assets/icons/. Standard library only; rerun after changing the drawing."""
import os
import struct
import zlib

SIZE = 256
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "assets", "icons")


def draw(size):
    """RGBA rows: a dark board, a light 4x4 grid, a red token top-left, a blue one bottom-right."""
    px = [[(0, 0, 0, 0)] * size for _ in range(size)]
    margin = size // 16
    cell = (size - 2 * margin) // 4
    board = (34, 40, 52, 255)
    line = (120, 136, 160, 255)
    for y in range(size):
        for x in range(size):
            if margin <= x < size - margin and margin <= y < size - margin:
                gx, gy = (x - margin) % cell, (y - margin) % cell
                px[y][x] = line if gx < 3 or gy < 3 else board
    tokens = [((margin + cell * 0.5 + 1, margin + cell * 0.5 + 1), (214, 72, 64, 255)),
              ((margin + cell * 3.5 + 1, margin + cell * 3.5 + 1), (70, 130, 220, 255)),
              ((margin + cell * 1.5 + 1, margin + cell * 2.5 + 1), (70, 130, 220, 255)),
              ((margin + cell * 2.5 + 1, margin + cell * 1.5 + 1), (214, 72, 64, 255))]
    r = cell * 0.38
    for (cx, cy), colour in tokens:
        for y in range(int(cy - r) - 1, int(cy + r) + 2):
            for x in range(int(cx - r) - 1, int(cx + r) + 2):
                if 0 <= x < size and 0 <= y < size and (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                    px[y][x] = colour
    # The attack between the two central tokens: a bright diagonal stroke.
    a = (margin + cell * 1.5, margin + cell * 2.5)
    b = (margin + cell * 2.5, margin + cell * 1.5)
    for i in range(cell):
        t = i / cell
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        for dx in range(-3, 4):
            for dy in range(-3, 4):
                xi, yi = int(x) + dx, int(y) + dy
                if 0 <= xi < size and 0 <= yi < size and abs(dx) + abs(dy) <= 4:
                    px[yi][xi] = (250, 214, 90, 255)
    return px


def png(px):
    size = len(px)
    raw = b"".join(b"\x00" + bytes(c for p in row for c in p) for row in px)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def ico(png_bytes):
    # One 256x256 image stored as PNG (width/height 0 mean 256), as Vista and later read it.
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", 0, 0, 0, 0, 1, 32, len(png_bytes), 6 + 16)
    return header + entry + png_bytes


def icns(png_bytes):
    # 'ic08' is the 256x256 slot; macOS reads PNG data in it.
    body = b"ic08" + struct.pack(">I", 8 + len(png_bytes)) + png_bytes
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main():
    os.makedirs(OUT, exist_ok=True)
    data = png(draw(SIZE))
    for name, content in (("gridclash.png", data), ("gridclash.ico", ico(data)),
                          ("gridclash.icns", icns(data))):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(content)


if __name__ == "__main__":
    main()
