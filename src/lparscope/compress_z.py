"""Unix ``compress`` (.Z, LZW) expanded in pure Python: AIX ``snap -c`` writes ``snap.pax.Z``.

The format, as ``compress`` writes it: the bytes 1F 9D, a flags byte (the largest code width in
its low five bits, 9 to 16; bit 7: block mode, where code 256 clears the table), then the codes,
least significant bit first. Codes start 9 bits wide and grow by one bit each time the table
outgrows the width. ``compress`` reads and writes codes in groups of eight (a group of n-bit
codes is n bytes): when the width changes, or the table is cleared, the rest of the current
group is padding and skipped.
"""

from __future__ import annotations

MAGIC = b"\x1f\x9d"
_BLOCK_MODE = 0x80
_CLEAR = 256


class TooLargeZ(Exception):
    """The expanded data would pass the limit given."""


def is_z(data: bytes) -> bool:
    return data[:2] == MAGIC


def expand_z(data: bytes, limit: int) -> bytes:
    """The data a .Z stream holds. ValueError when it is damaged (a code that cannot be there,
    a bad header); TooLargeZ past ``limit`` bytes. A stream cut short gives what it held."""
    if len(data) < 3 or data[:2] != MAGIC:
        raise ValueError("not compress (.Z) data")
    max_bits = data[2] & 0x1F
    block_mode = bool(data[2] & _BLOCK_MODE)
    if not 9 <= max_bits <= 16:
        raise ValueError(f"compress (.Z) data with {max_bits}-bit codes (9 to 16 are possible)")
    top = 1 << max_bits  # table size once the widest codes are in use
    first_free = 257 if block_mode else 256
    table: list[bytes] = [bytes((i,)) for i in range(256)] + [b""] * (top - 256)
    out: list[bytes] = []
    size = 0
    at = 3  # byte where the next group of eight codes starts (groups are byte-aligned)
    n_bits = 9
    max_code = 511  # past this the codes are one bit wider (counted so even at -b9, as uncompress does)
    free = first_free
    prev_str = b""
    cleared = False
    while at < len(data):
        if cleared:  # at a group's start: the rest of the last group was padding
            n_bits, max_code, cleared = 9, 511, False
        elif free > max_code:
            n_bits += 1
            max_code = top if n_bits == max_bits else (1 << n_bits) - 1
        group = data[at:at + n_bits]
        at += n_bits
        bits = int.from_bytes(group, "little")
        mask = (1 << n_bits) - 1
        for _ in range(min(8, len(group) * 8 // n_bits)):  # a cut last group holds fewer
            code = bits & mask
            bits >>= n_bits
            if not prev_str:  # the first code is a byte
                if code > 255:
                    raise ValueError("damaged compress (.Z) data: the first code is not a byte")
                prev_str = table[code]
                out.append(prev_str)
                size += 1
                continue
            if code == _CLEAR and block_mode:  # the rest of the group is padding
                cleared, free = True, first_free - 1  # 9-bit codes again from the next group
                break
            if code < free:
                entry = table[code]
            elif code == free:  # the string being defined: the previous one and its own first byte
                entry = prev_str + prev_str[:1]
            else:
                raise ValueError(f"damaged compress (.Z) data near byte {at}: code {code} not yet defined")
            out.append(entry)
            size += len(entry)
            if size > limit:
                raise TooLargeZ(f"expands beyond {limit} bytes")
            if free < top:
                table[free] = prev_str + entry[:1]
                free += 1
            prev_str = entry
            if free > max_code:  # wider codes from the next group on
                break
    return b"".join(out)
