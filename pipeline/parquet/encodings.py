"""The page encodings of the writer (:mod:`pipeline.parquet`), compiled by numba: the RLE /
bit-packing hybrid, the dictionary indices of an integer column, a list column's levels and
elements, and the capacity each needs. Each encoder appends to a byte array and returns the new
end; the writer (:mod:`pipeline.parquet.writer`) compresses the result into a page.
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.memory import pool_array


@numba.njit(cache=True, nogil=True)
def _put_varint(value, out, pos):  # pragma: no cover - compiled
    while value >= 0x80:
        out[pos] = (value & 0x7F) | 0x80
        value >>= 7
        pos += 1
    out[pos] = value
    return pos + 1


@numba.njit(cache=True, nogil=True, inline="always")
def _put_bitpacked_header(groups, out, pos):  # pragma: no cover - compiled
    """The header of a bit-packed run of the RLE hybrid holding ``groups`` groups of 8 values:
    the varint of ``groups << 1 | 1``; returns the new end."""
    return _put_varint((np.int64(groups) << 1) | 1, out, pos)


@numba.njit(cache=True, nogil=True)
def rle_hybrid(values, bit_width, out, pos):  # pragma: no cover - compiled
    """Append ``values`` (each in [0, 2**bit_width)) to ``out`` at ``pos`` in Parquet's RLE /
    bit-packing hybrid; returns the new end. A repeat of 8 or more is one RLE run, anything else
    goes into one bit-packed run of groups of 8 up to the next such repeat (the last group is
    padded with zeros, which the format allows at the end only)."""
    n = values.shape[0]
    byte_width = (bit_width + 7) // 8
    i = 0
    while i < n:
        v = values[i]
        j = i + 1
        while j < n and values[j] == v:
            j += 1
        if j - i >= 8:
            pos = _put_varint(np.int64(j - i) << 1, out, pos)
            for b in range(byte_width):
                out[pos] = (np.int64(v) >> (8 * b)) & 0xFF
                pos += 1
            i = j
            continue
        # a bit-packed run up to the next repeat of 8 or more that starts a group: its length
        # first, for the header (one run however long, as in list_page)
        start = i
        groups = 0
        while True:
            i += 8
            groups += 1
            if i >= n:
                break
            j = i + 1
            while j < n and j - i < 8 and values[j] == values[i]:
                j += 1
            if j - i >= 8:
                break
        pos = _put_bitpacked_header(groups, out, pos)
        for g in range(groups):
            acc = np.int64(0)
            bits = 0
            for k in range(start + 8 * g, start + 8 * g + 8):
                x = np.int64(values[k]) if k < n else np.int64(0)
                acc |= x << bits
                bits += bit_width
                while bits >= 8:
                    out[pos] = acc & 0xFF
                    pos += 1
                    acc >>= 8
                    bits -= 8
    return pos


def rle_capacity(count: int, bit_width: int) -> int:
    # per 8 values: a bit-packed group (bit_width bytes, and a run's header of ≤ 5 bytes) or a
    # share of an RLE run (≤ 10 header bytes + the value): bit_width + 16 bytes covers both
    return (count // 8 + 2) * (bit_width + 16)


@numba.njit(cache=True, nogil=True)
def value_range(values):  # pragma: no cover - compiled
    """(min, max) of a non-empty array, in one pass (numpy's ``min()`` and ``max()`` are two,
    plus a Python call each: about 2 % of a run's CPU over the columns of a shard; perf)."""
    low = np.int64(values[0])
    high = low
    for i in range(1, values.shape[0]):
        v = np.int64(values[i])
        low = min(low, v)
        high = max(high, v)
    return low, high


@numba.njit(cache=True, nogil=True)
def range_bitpacked(values, low, bit_width, out, pos):  # pragma: no cover - compiled
    """Append the indices ``values[i] - low`` (each in [0, 2**bit_width), bit_width ≤ 16) to
    ``out`` at ``pos`` as one bit-packed run of the RLE hybrid (a varint header, then groups of
    8, the last one padded with zeros; one run for the same reason as :func:`list_page`'s);
    returns the new end.

    No search for repeats: the page is compressed with zstd anyway, which finds them, and the
    search cost more than the packing (a shard's constant column ``n``: 0.6 ns per value for
    one RLE run). A group of 8 indices is one or two 64-bit words, written out byte by byte.
    """
    n = values.shape[0]
    u = np.uint64
    lo = np.int64(low)
    w = u(bit_width)
    if n == 0:
        return pos
    groups = (n + 7) // 8
    pos = _put_bitpacked_header(groups, out, pos)
    for g in range(groups):
        base = 8 * g
        count = min(8, n - base)  # 8 but in the last group
        acc = u(0)  # indices 0..3 (or all 8 when they fit in 64 bits)
        acc2 = u(0)  # indices 4..7, at bit 4 * bit_width, when they do not
        if bit_width <= 8:
            for k in range(count):
                acc |= u(np.int64(values[base + k]) - lo) << (u(k) * w)
        else:
            for k in range(min(count, 4)):
                acc |= u(np.int64(values[base + k]) - lo) << (u(k) * w)
            for k in range(4, count):
                acc2 |= u(np.int64(values[base + k]) - lo) << (u(k - 4) * w)
        if bit_width <= 8:
            for b in range(bit_width):
                out[pos + b] = (acc >> u(8 * b)) & u(0xFF)
        else:
            # 8 indices are bit_width bytes: the low word's 4 * bit_width bits, then the
            # high word's, joined at that bit (not always a byte boundary: odd widths)
            half = u(4) * w
            for b in range(bit_width):
                bit = u(8 * b)
                byte = u(0)
                if bit < half:
                    byte = acc >> bit
                    if bit + u(8) > half:
                        byte |= acc2 << (half - bit)
                else:
                    byte = acc2 >> (bit - half)
                out[pos + b] = byte & u(0xFF)
        pos += bit_width
    return pos


@numba.njit(cache=True, nogil=True)
def direct_table_fits(count, span):  # pragma: no cover - compiled
    """Whether ``count`` values spanning ``span`` (0: too wide) are indexed by a direct table
    of the span rather than a hash table."""
    return 0 < span <= 2 * count + 1024


@numba.njit(cache=True, nogil=True)
def dictionary_indices(values, low, span, indices, distinct, keys, slots):  # pragma: no cover
    """Dictionary (distinct values in order of first appearance) into ``distinct`` and each
    value's index into ``indices``; returns the number of distinct values.

    A small range (``span`` = max − min + 1 values from ``low``; 0 if wider than 2**62) is
    indexed by a direct table (``slots``, at least ``span`` long), a wide one (game-tree counts)
    by an open-addressing hash table (``keys`` and ``slots``, a power of two at least twice the
    values' count). The caller allocates them (:func:`dictionary_scratch`), from Arrow's pool:
    fresh pages for these megabytes per column are a visible share of a run's page faults.
    """
    n = values.shape[0]
    d = 0
    if direct_table_fits(n, span):
        table = slots[:span]
        table[:] = -1
        for i in range(n):
            k = np.int64(values[i]) - low
            slot = table[k]
            if slot < 0:
                slot = d
                table[k] = d
                distinct[d] = values[i]
                d += 1
            indices[i] = slot
    else:
        cap = slots.shape[0]
        mask = cap - 1
        slots[:] = -1
        for i in range(n):
            v = np.int64(values[i])
            h = ((v * np.int64(-7046029254386353131)) >> 29) & mask
            while slots[h] >= 0 and keys[h] != v:
                h = (h + 1) & mask
            if slots[h] < 0:
                slots[h] = d
                keys[h] = v
                distinct[d] = v
                d += 1
            indices[i] = slots[h]
    return d


def dictionary_scratch(count: int, span: int) -> tuple[np.ndarray, ...]:
    """The arrays :func:`dictionary_indices` fills, for ``count`` values spanning ``span``."""
    if direct_table_fits(count, span):
        cap = span
    else:
        cap = 64
        while cap < 2 * count:
            cap <<= 1
    return (pool_array(count, np.int32), pool_array(count, np.int64),
            pool_array(cap, np.int64), pool_array(cap, np.int32))


@numba.njit(cache=True, nogil=True)
def _close_length(out, start, end):  # pragma: no cover - compiled
    """Write at ``start`` the 4-byte little-endian length of ``out[start + 4 : end]`` (v1 data
    pages put one before each run of levels); returns ``end``."""
    size = end - start - 4
    for b in range(4):
        out[start + b] = (size >> (8 * b)) & 0xFF
    return end


@numba.njit(cache=True, nogil=True)
def _put_prefixed_levels(levels, bit_width, out, pos):  # pragma: no cover - compiled
    """Levels of a v1 data page: their RLE-hybrid bytes after a 4-byte little-endian length."""
    return _close_length(out, pos, rle_hybrid(levels, bit_width, out, pos + 4))


@numba.njit(cache=True, nogil=True)
def _put_all_defined(count, out, pos):  # pragma: no cover - compiled
    """The definition levels of a nullable column without nulls: one RLE run of ``count``
    1s (bit width 1), after its 4-byte length."""
    end = _put_varint(np.int64(count) << 1, out, pos + 4)
    out[end] = 1
    return _close_length(out, pos, end + 1)


@numba.njit(cache=True, nogil=True)
def integer_page(valid, nullable, indices, bit_width, out):  # pragma: no cover - compiled
    """Body of a dictionary-encoded data page: definition levels (nullable columns: 1 = value,
    0 = null; ``valid`` empty for a column without nulls), the indices' bit width, then the
    indices in the RLE hybrid. Returns its size."""
    pos = 0
    if nullable:
        if valid.shape[0] == 0 and indices.shape[0] > 0:
            pos = _put_all_defined(indices.shape[0], out, pos)
        else:
            pos = _put_prefixed_levels(valid, 1, out, pos)
    out[pos] = bit_width
    return rle_hybrid(indices, bit_width, out, pos + 1)


@numba.njit(cache=True, nogil=True)
def range_page(values, low, bit_width, nullable, out):  # pragma: no cover - compiled
    """Body of a data page whose dictionary is the whole range low..high (no nulls): for a
    nullable column one RLE run of definition level 1, then the indices ``value - low``
    bit-packed (:func:`range_bitpacked`). Returns its size."""
    pos = _put_all_defined(values.shape[0], out, 0) if nullable else 0
    out[pos] = bit_width
    return range_bitpacked(values, low, bit_width, out, pos + 1)


@numba.njit(cache=True, nogil=True)
def list_entries(offsets):  # pragma: no cover - compiled
    """Entries of a list column's levels: one per element, and one per empty list."""
    entries = 0
    for r in range(offsets.shape[0] - 1):
        entries += max(offsets[r + 1] - offsets[r], 1)
    return entries


@numba.njit(cache=True, nogil=True)
def list_page(offsets, elements, low, byte_width, max_def, empty_def, out):  # pragma: no cover
    """Body of a list column's data page (no null lists, no null elements). Returns its size.

    Repetition levels (0 opens a record, 1 continues it) are written straight from the offsets
    as one bit-packed run; definition levels are one RLE run of ``max_def`` unless some list is
    empty (``empty_def``); the elements are dictionary indices ``value - low`` of ``byte_width``
    bytes (a dictionary of the whole range low..high), bit-packed with a byte-aligned width so
    that zstd still sees the repeats between consecutive records.
    """
    records = offsets.shape[0] - 1
    entries = list_entries(offsets)
    empty = entries - (offsets[records] - offsets[0])  # an empty list is an entry without an element
    pos = _put_repetition_levels(offsets, entries, out)
    pos = _put_definition_levels(offsets, entries, empty, max_def, empty_def, out, pos)
    return _put_list_elements(offsets, elements, low, byte_width, out, pos)


@numba.njit(cache=True, nogil=True, inline="always")
def _put_repetition_levels(offsets, entries, out):  # pragma: no cover - compiled
    """The repetition levels of :func:`list_page` (``entries`` levels, one per element and per
    empty list of the lists ``offsets``) at the start of ``out``, after their 4-byte length;
    returns the position after them.

    A bitmap (bit e set iff entry e continues its record), one bit-packed run of the RLE hybrid.
    One run, not Arrow's runs of 63 groups: a header inside the data shifts every later match
    that zstd finds across it by a byte, so it can no longer reuse the previous offset (see
    :func:`_put_list_elements`). Every entry but a record's first continues it, so the bytes
    start as all ones and one bit per record is cleared (an empty list is one entry, its
    first): work per record, not per entry."""
    records = offsets.shape[0] - 1
    nbytes = (entries + 7) // 8
    pos = 4
    if nbytes > 0:
        pos = _put_bitpacked_header(nbytes, out, pos)  # a byte per group of 8 levels
    bitmap = out[pos : pos + nbytes]
    bitmap[:] = 0xFF
    e = 0
    for r in range(records):
        bitmap[e >> 3] &= ~np.uint8(1 << (e & 7))
        e += max(offsets[r + 1] - offsets[r], 1)
    if entries & 7:  # the last group's padding: zeros
        bitmap[entries >> 3] &= np.uint8((1 << (entries & 7)) - 1)
    pos += nbytes
    _close_length(out, 0, pos)
    return pos


@numba.njit(cache=True, nogil=True, inline="always")
def _put_definition_levels(offsets, entries, empty, max_def, empty_def, out,
                           pos):  # pragma: no cover - compiled
    """The definition levels of :func:`list_page` at ``pos`` of ``out``, after their 4-byte
    length; returns the position after them: one RLE run of ``max_def`` (a defined element)
    when none of the lists ``offsets`` is ``empty`` (their number), else ``max_def`` per element
    and ``empty_def`` per empty list (``entries`` levels in all) in the RLE hybrid."""
    records = offsets.shape[0] - 1
    level_width = 1 if max_def < 2 else 2
    if empty == 0:
        start = pos
        pos = _put_varint(np.int64(entries) << 1, out, pos + 4)
        out[pos] = max_def
        return _close_length(out, start, pos + 1)
    levels = np.empty(entries, np.uint8)
    p = 0
    for r in range(records):
        length = offsets[r + 1] - offsets[r]
        if length == 0:
            levels[p] = empty_def
            p += 1
        for _ in range(length):
            levels[p] = max_def
            p += 1
    return _put_prefixed_levels(levels, level_width, out, pos)


@numba.njit(cache=True, nogil=True, inline="always")
def _put_list_elements(offsets, elements, low, byte_width, out, pos):  # pragma: no cover - compiled
    """The elements of :func:`list_page` (``elements[offsets[0]:offsets[-1]]``) at ``pos`` of
    ``out``; returns the position after them: the bit width (8 · ``byte_width``), then one
    bit-packed run of the RLE hybrid of the indices ``value - low``, ``byte_width`` bytes each,
    the last group of 8 padded with zeros.

    One run: runs may hold up to 2**31 - 1 values (parquet-format Encodings.md). Arrow's writer
    cuts runs at 63 groups of 8, and a one-byte header every 504 elements cost zstd 0.5 (parts)
    to 0.75 (conjugate) bytes per record at n = 72, 20 % of the column: the records after a
    header repeat a record before it one byte further back, so zstd's repeat-offset codes no
    longer apply."""
    base = offsets[0]
    count = offsets[offsets.shape[0] - 1] - base
    out[pos] = 8 * byte_width
    pos += 1
    if count == 0:
        return pos
    groups = (count + 7) // 8
    pos = _put_bitpacked_header(groups, out, pos)
    lo = np.int64(low)
    src = elements[base : base + count]  # slices: loops from 0 vectorise (20x faster)
    dst = out[pos : pos + count * byte_width]
    if byte_width == 1:
        for k in range(count):
            dst[k] = np.uint8(np.int64(src[k]) - lo)
    else:
        for k in range(count):
            v = np.int64(src[k]) - lo
            dst[2 * k] = np.uint8(v & 0xFF)
            dst[2 * k + 1] = np.uint8(v >> 8)
    pos += count * byte_width
    for _ in range((8 * groups - count) * byte_width):  # zero padding of the last group
        out[pos] = 0
        pos += 1
    return pos


@numba.njit(cache=True, nogil=True)
def bitmap_all_any(bits, count):  # pragma: no cover - compiled
    """(all, any) of the first ``count`` bits of a little-endian bitmap (boolean statistics)."""
    full = count >> 3
    all_set, any_set = True, False
    for i in range(full):
        all_set &= bits[i] == 0xFF
        any_set |= bits[i] != 0
    rest = count & 7
    if rest:
        last = bits[full] & ((1 << rest) - 1)
        all_set &= last == (1 << rest) - 1
        any_set |= last != 0
    return all_set, any_set


def list_page_capacity(entries: int, elements: int, byte_width: int) -> int:
    repetition = 4 + 5 + (entries + 7) // 8  # length, one run's header, bytes of bits
    definition = 4 + rle_capacity(entries, 2)
    values = 1 + 5 + (elements + 8) * byte_width
    return repetition + definition + values


#: DELTA_BINARY_PACKED layout (:func:`delta_page`): blocks of 128 values in 4 miniblocks of 32.
DELTA_BLOCK, DELTA_MINIBLOCKS = 128, 4


@numba.njit(cache=True, nogil=True)
def is_ascending(values):  # pragma: no cover - compiled
    """Whether ``values`` never decrease (a column ``delta_page`` encodes)."""
    for i in range(1, values.shape[0]):
        if values[i] < values[i - 1]:
            return False
    return True


def delta_capacity(count: int) -> int:
    """Bytes :func:`delta_page` may write for ``count`` values (a nullable column's levels included)."""
    blocks = count // DELTA_BLOCK + 1
    return 64 + blocks * (10 + DELTA_MINIBLOCKS + DELTA_BLOCK * 8)


@numba.njit(cache=True, nogil=True, inline="always")
def _put_miniblock(values, a, b, per, low, width_at, out, pos):  # pragma: no cover - compiled
    """A miniblock of :func:`delta_page`: the deltas ``values[k] - values[k - 1] - low`` for
    a ≤ k < b (``low``: the block's least delta, so they are ≥ 0), their bit width written at
    ``width_at`` of ``out`` (the least that holds the largest), and, unless it is 0, the deltas
    bit-packed least significant bit first at ``pos``, padded with zeros to ``per`` deltas (a
    short last miniblock). Returns the position after them (``per · width`` bits is a whole
    number of bytes, as per = 32)."""
    top = np.uint64(0)
    for k in range(a, b):
        d = np.uint64(np.int64(values[k]) - np.int64(values[k - 1]) - low)
        if d > top:
            top = d
    width = 0
    while width < 64 and (top >> np.uint64(width)) != 0:
        width += 1
    out[width_at] = width
    if width == 0:
        return pos
    acc = np.uint64(0)
    bits = 0
    for k in range(a, a + per):  # a short last miniblock is padded with zeros
        d = np.uint64(0)
        if k < b:
            d = np.uint64(np.int64(values[k]) - np.int64(values[k - 1]) - low)
        # append width bits of d to the accumulator, flushing whole bytes
        done = 0
        while done < width:
            take = min(width - done, 64 - bits)
            part = (d >> np.uint64(done)) & ((np.uint64(1) << np.uint64(take)) - np.uint64(1)) \
                if take < 64 else d
            acc |= part << np.uint64(bits)
            bits += take
            done += take
            while bits >= 8:
                out[pos] = acc & np.uint64(0xFF)
                pos += 1
                acc >>= np.uint64(8)
                bits -= 8
    return pos


@numba.njit(cache=True, nogil=True)
def delta_page(values, nullable, out):  # pragma: no cover - compiled
    """Body of a DELTA_BINARY_PACKED data page of non-decreasing ``values`` (no nulls; a
    nullable column gets one RLE run of definition level 1): the header (block size, miniblocks
    per block, count, first value zigzag), then per block of 128 deltas their minimum (zigzag
    varint), the bit width of each miniblock of 32 and the miniblocks, each delta less the
    minimum bit-packed least significant bit first. A column that counts up by one within a
    shard (``ordinal``) has deltas all 1: bit width 0, five bytes per 128 values before zstd.
    Returns its size."""
    count = values.shape[0]
    pos = _put_all_defined(count, out, 0) if nullable else 0
    pos = _put_varint(np.int64(DELTA_BLOCK), out, pos)
    pos = _put_varint(np.int64(DELTA_MINIBLOCKS), out, pos)
    pos = _put_varint(np.int64(count), out, pos)
    first = np.int64(values[0]) if count > 0 else np.int64(0)
    pos = _put_varint(np.uint64((first << 1) ^ (first >> 63)), out, pos)
    per = DELTA_BLOCK // DELTA_MINIBLOCKS
    i = 1
    while i < count:
        end = min(i + DELTA_BLOCK, count)
        low = np.int64(values[i]) - np.int64(values[i - 1])
        for k in range(i + 1, end):
            d = np.int64(values[k]) - np.int64(values[k - 1])
            if d < low:
                low = d
        pos = _put_varint(np.uint64((low << 1) ^ (low >> 63)), out, pos)
        widths = pos
        pos += DELTA_MINIBLOCKS
        for m in range(DELTA_MINIBLOCKS):
            a = i + m * per
            out[widths + m] = 0
            if a >= end:
                continue  # no values: its width is written, its data is not
            pos = _put_miniblock(values, a, min(a + per, end), per, low, widths + m, out, pos)
        i = end
    return pos
