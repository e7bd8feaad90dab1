"""Unix compress (.Z) streams expanded by lparscope.compress_z.

The streams are made here by a small encoder written for these tests from the format's rules
(codes in groups of eight, the rest of a group skipped when the width changes or the table is
cleared), so widths 9-16, table clears and cut streams are all exercised; when the system has
``compress`` (ncompress), its output is checked too.
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from lparscope.compress_z import TooLargeZ, expand_z, is_z


def encode(data: bytes, max_bits: int = 16, clear_when_full: bool = True) -> bytes:
    """A .Z stream of ``data`` in block mode (code 256 clears the table)."""
    top = 1 << max_bits
    codes: list[int] = []
    table = {bytes((i,)): i for i in range(256)}
    nxt = 257
    w = b""
    for byte in data:
        wc = w + bytes((byte,))
        if wc in table:
            w = wc
            continue
        codes.append(table[w])
        if nxt < top:
            table[wc] = nxt
            nxt += 1
        elif clear_when_full:
            codes.append(256)
            table = {bytes((i,)): i for i in range(256)}
            nxt = 257
        w = bytes((byte,))
    if w:
        codes.append(table[w])
    return b"\x1f\x9d" + bytes((0x80 | max_bits,)) + _pack(codes, max_bits)


def _pack(codes: list[int], max_bits: int) -> bytes:
    """The codes at the widths the reader expects: it tracks the table as it decodes."""
    top = 1 << max_bits
    out = bytearray()
    acc = nacc = 0  # bits not yet written, and how many
    in_group = 0  # codes written in the current group of eight
    n_bits, max_code, free, first = 9, 511, 257, True

    def end_group() -> None:
        nonlocal acc, nacc, in_group
        if in_group:  # the group is padded to its full n_bits bytes
            nacc += (8 - in_group) * n_bits
        while nacc > 0:
            out.append(acc & 0xFF)
            acc >>= 8
            nacc -= 8
        acc = nacc = in_group = 0

    cleared = False
    for code in codes:
        if cleared:
            end_group()
            n_bits, max_code, cleared = 9, 511, False
        elif free > max_code:
            end_group()
            n_bits += 1
            max_code = top if n_bits == max_bits else (1 << n_bits) - 1
        acc |= code << nacc
        nacc += n_bits
        in_group = (in_group + 1) % 8
        if in_group == 0:
            end_group()
        if first:
            first = False
        elif code == 256:
            cleared, free = True, 256
        elif free < top:
            free += 1
    while nacc > 0:  # the last group is not padded
        out.append(acc & 0xFF)
        acc >>= 8
        nacc -= 8
    return bytes(out)


def _text(n: int, seed: int) -> bytes:
    rnd = random.Random(seed)
    words = [b"lsattr", b"hdisk", b"queue_depth", b"20", b"True", b"\n", b" ", b"ent0", b"Queue DEPTH"]
    return b"".join(rnd.choice(words) for _ in range(n))


@pytest.mark.parametrize("max_bits", [10, 12, 16])
def test_round_trip_widths(max_bits: int) -> None:
    data = _text(40_000, max_bits)
    z = encode(data, max_bits)
    assert is_z(z)
    assert expand_z(z, len(data)) == data


def test_table_clears_and_starts_again() -> None:
    data = _text(20_000, 7) + bytes(random.Random(3).randrange(256) for _ in range(30_000))
    z = encode(data, 10)
    assert expand_z(z, 10**7) == data


def test_full_table_without_clearing() -> None:
    data = bytes(random.Random(5).randrange(256) for _ in range(20_000))
    assert expand_z(encode(data, 9 + 3, clear_when_full=False), 10**7) == data


def test_repeats_use_the_code_being_defined() -> None:
    for data in (b"a" * 5000, b"ab" * 3000, b"x"):
        assert expand_z(encode(data), 10**6) == data


def test_empty_stream() -> None:
    assert expand_z(b"\x1f\x9d\x90", 100) == b""


def test_limit() -> None:
    data = _text(5000, 1)
    with pytest.raises(TooLargeZ):
        expand_z(encode(data), len(data) - 1)


def test_damage_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        expand_z(b"\x1f\x9d\x85" + b"\xff" * 20, 100)  # 5-bit codes do not exist
    with pytest.raises(ValueError):
        expand_z(b"\x1f\x9d\x90\xff\xff\xff", 100)  # the first code is no byte
    z = bytearray(encode(_text(3000, 2)))
    z[40:48] = b"\xff" * 8  # codes far above the table
    with pytest.raises(ValueError):
        expand_z(bytes(z), 10**6)


def test_cut_stream_gives_what_it_held() -> None:
    data = _text(3000, 4)
    z = encode(data)
    got = expand_z(z[: len(z) // 2], 10**6)
    assert got and data.startswith(got)


@pytest.mark.skipif(shutil.which("compress") is None, reason="no compress (ncompress) on this machine")
@pytest.mark.parametrize("bits", [12, 16])
def test_what_compress_writes(bits: int) -> None:
    data = _text(60_000, 11) + bytes(random.Random(9).randrange(256) for _ in range(50_000))
    z = subprocess.run(["compress", "-c", f"-b{bits}"], input=data, capture_output=True, check=True).stdout
    assert expand_z(z, len(data)) == data
