"""slide.render: the pictures decoded here (PNG and GIF headers and blocks read by hand, SVG parsed as XML), the
frame count of animations against a BFS of reference.py, and bad input."""

import struct
import xml.etree.ElementTree as ET
import zlib

import pytest

import slide
from reference import bfs


def png_size(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    w, h = struct.unpack(">II", data[16:24])
    # Every chunk's CRC holds.
    at = 8
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n : at + 12 + n])
        assert zlib.crc32(kind + body) == crc, kind
        at += 12 + n
        if kind == b"IEND":
            break
    assert at == len(data)
    return w, h


def gif_frames(data: bytes) -> int:
    """The number of images in a GIF, walking its blocks."""
    assert data[:6] in (b"GIF87a", b"GIF89a")
    flags = data[10]
    at = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)

    def sub_blocks(at):
        while data[at]:
            at += data[at] + 1
        return at + 1

    frames = 0
    while True:
        kind = data[at]
        if kind == 0x3B:
            assert at == len(data) - 1
            return frames
        if kind == 0x21:
            at = sub_blocks(at + 2)
        elif kind == 0x2C:
            frames += 1
            local = data[at + 9]
            at += 10 + (3 * 2 ** ((local & 7) + 1) if local & 0x80 else 0)
            at = sub_blocks(at + 1)  # LZW minimum code size, then the data
        else:
            raise AssertionError(f"unknown GIF block {kind:#x} at {at}")


def test_still_pictures():
    svg = slide.render("4 1 2/5 0 3")
    root = ET.fromstring(svg.decode())
    numbers = sorted(t.text.strip() for t in root.iter() if t.tag.endswith("text") and t.text and t.text.strip())
    assert numbers == ["1", "2", "3", "4", "5"]
    w, h = png_size(slide.render([[4, 1, 2], [5, 0, 3]], format="png", size=300))
    assert max(w, h) == 300 and w > h
    dark = slide.render("4 1 2/5 0 3", format="png", theme="dark", scheme="fringe")
    assert dark != slide.render("4 1 2/5 0 3", format="png")
    assert slide.render("4 1 2/5 0 3") == svg  # reproducible


def test_animations_have_a_frame_per_position():
    dist = bfs(2, 3)
    board = [[4, 1, 2], [5, 0, 3]]
    d = dist[(4, 1, 2, 5, 0, 3)]
    assert gif_frames(slide.render(board, solve=True, format="gif", inbetweens=0, size=120)) == d + 1
    assert gif_frames(slide.render(board, "RDL2U", format="gif", inbetweens=2, size=120)) == 5 + 1 + 2 * 5
    assert gif_frames(slide.render(board, [5, 4, 1, 2, 3], format="gif", inbetweens=0, size=120)) == 6
    assert gif_frames(slide.render(board, "LURRD", blank=True, format="gif", inbetweens=0, size=120)) == 6
    animated = slide.render(board, "RDL2U").decode()
    assert "animateTransform" in animated
    ET.fromstring(animated)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: slide.render("4 1 2/5 0 3", format="bmp"), ValueError, "unknown format"),
        (lambda: slide.render("4 1 2/5 0 3", "RDL", format="png"), ValueError, "still picture"),
        (lambda: slide.render("4 1 2/5 0 3", "RDL", solve=True), ValueError, "not both"),
        (lambda: slide.render("4 1 2/5 0 3", "UUU"), slide.BoardError, "move"),
        (lambda: slide.render("1 2 3/5 4 0", solve=True), slide.BoardError, "solve=True"),
        (lambda: slide.render("4 1 2/5 0 3", size=5), slide.BoardError, "out of range"),
        (lambda: slide.render("4 1 2/5 0 3", size=10**12), slide.BoardError, "1000000000000 is out of range"),
        (lambda: slide.render("4 1 2/5 0 3", scheme="rainbow"), slide.BoardError, "scheme"),
        (lambda: slide.render("4 1 2/5 0 3", theme="sepia"), slide.BoardError, "theme"),
        (lambda: slide.render("4 1 2/5 0 3", "RDL", tps=0.0), slide.BoardError, "tiles per second"),
        (lambda: slide.render("4 1 2/5 0 3", "RDL", format="gif", inbetweens=-1), slide.BoardError, "-1 is out"),
        (lambda: slide.render("4 1 2/5 0 3", "RDL", format="gif", inbetweens=11), slide.BoardError, "in-between"),
        (lambda: slide.render("4 1 2/5 0 3", 42), TypeError, "moves"),
        (lambda: slide.render(None), TypeError, None),
        (lambda: slide.render("1 2/3 0", "R" * 40, format="gif", size=4096), slide.BoardError, "move 2"),
        (lambda: slide.render("1 2/3 0", "RDLU" * 2000, format="gif", size=4096), slide.BoardError, "10000000"),
    ],
)
def test_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()
