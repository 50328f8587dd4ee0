"""A Parquet file writer for the record tables: numba encoders, zstd from Arrow, one row group.

Why not a library's writer: writing is a quarter of a record's cost once the kernels are fast
(docs/performance.md), and most of it went to the list columns ``parts`` and ``conjugate`` (≈ 23 and 17
elements per record at n = 72). On the first LCTR shard at n = 72, one thread each, per record
(``benchmarks/bench.py``): pyarrow 630 ns, polars 237 (161 of them for the two lists: ~4 ns
per list element), this module 101, DuckDB's ``COPY`` 1,031. The
encodings below are simple, and the three readers that matter (DuckDB, pyarrow, polars) read
every file back to the same values (tests/test_parquet.py).

The file (Apache Parquet format 2, data pages v1, one row group, one page per column):

* integer columns: ``RLE_DICTIONARY`` — a PLAIN dictionary page, then the values' indices in
  the RLE / bit-packing hybrid. A small range of values (sg, height, the partition features:
  tens of values; at most ``RANGE_DICTIONARY_SPAN``) has the whole range low..high as its
  dictionary, and its indices ``value - low`` bit-packed without a search for repeats (zstd
  finds those); a wider one (game-tree counts) a dictionary of the distinct values in order of
  first appearance, and runs of 8 or more equal indices as RLE runs;
* boolean columns: ``PLAIN`` (bit-packed, which is Arrow's own bitmap layout: no work);
* list columns (lists of integers, no nulls): repetition and definition levels in the RLE
  hybrid; elements ``RLE_DICTIONARY`` over the whole range min..max, with indices one or two
  bytes wide (bit-packed with a byte-aligned width). Consecutive records of a shard share most
  of their parts, and zstd finds those repeats in byte-aligned values (2.6 B per record for
  ``parts`` at n = 66), not in 7-bit packed ones;
* every bit-packed stretch of the RLE hybrid is one run, however long: Arrow's writer starts a
  new run (a header byte) every 504 values, which shifts the later repeats that zstd finds
  across it and costs zstd its repeat offsets (20–28 % of the list columns' bytes, 11–21 % of
  writing's time at n = 66);
* every page is compressed with zstd level 1; every column chunk has min / max / null count
  statistics (so DuckDB skips row groups, e.g. ``WHERE nodes IS NULL``);
* the Arrow schema is stored under ``ARROW:schema`` as pyarrow does, so pyarrow and polars read
  back the exact types (``int16``, ``list<item: int16>``).

Supported: int8/16/32/64 (nullable or not), bool (no nulls), and lists of int8/16/32/64 without
nulls whose elements span fewer than 2**16 values. Anything else is a programming error and
raises ``TypeError`` before the file is opened.

    >>> import pyarrow as pa, pyarrow.parquet as pq, tempfile, os
    >>> t = pa.table({"parts": pa.array([[3, 1], [2, 2]], pa.list_(pa.int16())),
    ...               "sg": pa.array([1, 0], pa.int16())})
    >>> path = os.path.join(tempfile.mkdtemp(), "x.parquet")
    >>> len(write_table(t, path))  # the SHA-256 of the file, in hex
    64
    >>> pq.read_table(path).equals(t)
    True
"""

from __future__ import annotations

import base64
import hashlib
import struct
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa

from pipeline.memory import pool_array

# Parquet's enums (parquet.thrift).
_BOOLEAN, _INT32, _INT64 = 0, 1, 2
_REQUIRED, _OPTIONAL, _REPEATED = 0, 1, 2
_PLAIN, _RLE, _RLE_DICTIONARY = 0, 3, 8
_ZSTD = 6
_DATA_PAGE, _DICTIONARY_PAGE = 0, 2
_CONVERTED_LIST, _CONVERTED_INT = 3, {8: 15, 16: 16, 32: 17, 64: 18}  # LIST, INT_8 … INT_64

# Thrift compact protocol type codes.
_T_TRUE, _T_FALSE, _T_BYTE, _T_I16, _T_I32, _T_I64 = 1, 2, 3, 4, 5, 6
_T_BINARY, _T_LIST, _T_STRUCT = 8, 9, 12

_ZSTD_CODEC = pa.Codec("zstd", compression_level=1)
_INT_TYPES = {pa.int8(): 8, pa.int16(): 16, pa.int32(): 32, pa.int64(): 64}


# ---- numba encoders ------------------------------------------------------------------------

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


def _rle_capacity(count: int, bit_width: int) -> int:
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
    values' count). The caller allocates them (:func:`_dictionary_scratch`), from Arrow's pool:
    fresh pages for these megabytes per column were a visible share of a run's page faults.
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


def _dictionary_scratch(count: int, span: int) -> tuple[np.ndarray, ...]:
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
    base = offsets[0]
    entries = list_entries(offsets)
    empty = entries - (offsets[records] - base)  # an empty list is an entry without an element
    # repetition levels: a bitmap (bit e set iff entry e continues its record), one bit-packed
    # run of the RLE hybrid. One run, not Arrow's runs of 63 groups: a header inside the data
    # shifts every later match that zstd finds across it by a byte, so it can no longer reuse
    # the previous offset (see the elements below). Every entry but a record's first continues
    # it, so the bytes start as all ones and one bit per record is cleared (an empty list is one
    # entry, its first): work per record, not per entry.
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
    # definition levels
    level_width = 1 if max_def < 2 else 2
    if empty == 0:
        start = pos
        pos = _put_varint(np.int64(entries) << 1, out, pos + 4)
        out[pos] = max_def
        pos = _close_length(out, start, pos + 1)
    else:
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
        pos = _put_prefixed_levels(levels, level_width, out, pos)
    # elements: bit width, then one bit-packed run of the RLE hybrid (runs may hold up to
    # 2**31 - 1 values, parquet-format Encodings.md). Arrow's writer cuts runs at 63 groups of
    # 8, and a one-byte header every 504 elements cost zstd 0.5 (parts) to 0.75 (conjugate)
    # bytes per record at n = 72, 20 % of the column: the records after a header repeat a
    # record before it one byte further back, so zstd's repeat-offset codes no longer apply.
    count = offsets[records] - base
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


def _list_page_capacity(entries: int, elements: int, byte_width: int) -> int:
    repetition = 4 + 5 + (entries + 7) // 8  # length, one run's header, bytes of bits
    definition = 4 + _rle_capacity(entries, 2)
    values = 1 + 5 + (elements + 8) * byte_width
    return repetition + definition + values


# ---- Thrift compact protocol (page headers and the footer) -----------------------------------

def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _zigzag(value: int) -> bytes:
    return _varint(2 * value if value >= 0 else -2 * value - 1)


def _value(ttype: int, value: object) -> bytes:
    if ttype in (_T_I16, _T_I32, _T_I64):
        return _zigzag(int(value))  # type: ignore[call-overload]
    if ttype == _T_BYTE:
        return struct.pack("<b", value)
    if ttype == _T_BINARY:
        data = value.encode() if isinstance(value, str) else bytes(value)  # type: ignore[arg-type]
        return _varint(len(data)) + data
    if ttype == _T_STRUCT:  # bytes: a struct encoded already (see _schema_footer)
        return value if isinstance(value, bytes) else _struct(value)  # type: ignore[arg-type]
    if ttype == _T_LIST:
        etype, items = value  # type: ignore[misc]
        if len(items) < 15:
            head = bytes([(len(items) << 4) | etype])
        else:
            head = bytes([0xF0 | etype]) + _varint(len(items))
        return head + b"".join(_value(etype, item) for item in items)
    raise TypeError(ttype)


def _struct(fields: list[tuple[int, int, object]]) -> bytes:
    """A Thrift compact struct from (field id, type, value) in increasing id; ``None`` skipped."""
    out = bytearray()
    last = 0
    for fid, ttype, value in fields:
        if value is None:
            continue
        if ttype == _T_TRUE:  # booleans live in the field header
            ttype = _T_TRUE if value else _T_FALSE
        delta = fid - last
        out += bytes([(delta << 4) | ttype]) if 0 < delta <= 15 else bytes([ttype]) + _zigzag(fid)
        if ttype not in (_T_TRUE, _T_FALSE):
            out += _value(ttype, value)
        last = fid
    out.append(0)
    return bytes(out)


# ---- columns -----------------------------------------------------------------------------------

class _Chunk:
    """One column chunk: its pages (header bytes, compressed body) and what the footer says."""

    def __init__(self, path: list[str], ptype: int, num_values: int, encodings: list[int]):
        self.path, self.ptype, self.num_values, self.encodings = path, ptype, num_values, encodings
        self.pages: list[tuple[bytes, pa.Buffer]] = []
        self.size = 0  # bytes in the file
        self.dictionary_size = 0  # bytes of the dictionary page (header included), if any
        self.uncompressed = 0
        self.stats: list[tuple[int, int, object]] = []

    def page(self, kind: int, body: np.ndarray, num_values: int, encoding: int) -> None:
        compressed = _ZSTD_CODEC.compress(pa.py_buffer(body))
        header = _page_header(kind, body.nbytes, compressed.size, num_values, encoding)
        self.pages.append((header, compressed))
        self.size += len(header) + compressed.size
        self.uncompressed += len(header) + body.nbytes
        if kind == _DICTIONARY_PAGE:
            self.dictionary_size = self.size


def _dictionary_page(chunk: _Chunk, values: np.ndarray) -> None:
    plain = np.ascontiguousarray(values, dtype="<i4" if chunk.ptype == _INT32 else "<i8")
    chunk.page(_DICTIONARY_PAGE, plain.view(np.uint8), len(values), _PLAIN)


def _stats(ptype: int, low: object, high: object, nulls: int) -> list[tuple[int, int, object]]:
    if low is None:
        return [(3, _T_I64, nulls)]
    fmt = {_BOOLEAN: "<?", _INT32: "<i", _INT64: "<q"}[ptype]
    lo, hi = struct.pack(fmt, low), struct.pack(fmt, high)
    # the legacy max/min (1, 2) as well: same signed order for integers and booleans
    return [(1, _T_BINARY, hi), (2, _T_BINARY, lo), (3, _T_I64, nulls),
            (5, _T_BINARY, hi), (6, _T_BINARY, lo)]


def _page_header_fields(kind: int, uncompressed: int, compressed: int, num_values: int,
                        encoding: int) -> list[tuple[int, int, object]]:
    """A PageHeader as :func:`_struct` fields: type, sizes, and a DictionaryPageHeader (field 7)
    or a DataPageHeader (field 5, its levels in the RLE hybrid)."""
    if kind == _DICTIONARY_PAGE:
        nested = (7, _T_STRUCT, [(1, _T_I32, num_values), (2, _T_I32, encoding)])
    else:
        nested = (5, _T_STRUCT, [(1, _T_I32, num_values), (2, _T_I32, encoding),
                                 (3, _T_I32, _RLE), (4, _T_I32, _RLE)])
    return [(1, _T_I32, kind), (2, _T_I32, uncompressed), (3, _T_I32, compressed), nested]


def _page_header(kind: int, uncompressed: int, compressed: int, num_values: int, encoding: int) -> bytes:
    """``_struct(_page_header_fields(...))`` written out: a shard has about 35 pages, and the
    generic encoder's calls per field were a large part of a shard's fixed cost of writing (profiled;
    with the footer cache, 2.14 -> 1.74 ms per shard).
    Field headers are (id delta << 4) | type: 0x15 an i32 one id on, 0x2C / 0x4C a struct two /
    four ids on; 0x00 ends a struct. tests/test_parquet.py checks it against the generic form."""
    head = b"\x15" + _zigzag(kind) + b"\x15" + _zigzag(uncompressed) + b"\x15" + _zigzag(compressed)
    tail = b"\x15" + _zigzag(num_values) + b"\x15" + _zigzag(encoding)
    if kind == _DICTIONARY_PAGE:
        return head + b"\x4c" + tail + b"\x00\x00"
    return head + b"\x2c" + tail + b"\x15" + _zigzag(_RLE) + b"\x15" + _zigzag(_RLE) + b"\x00\x00"


def _primitive_values(array: pa.Array, dtype: np.dtype) -> np.ndarray:
    """The value buffer as numpy (no copy); null slots hold arbitrary values."""
    buf = array.buffers()[1]
    return np.frombuffer(buf, dtype=dtype, count=array.offset + len(array))[array.offset:]


#: Widest range of values whose dictionary is the whole range (``range_page``): its dictionary page
#: has one entry per value of the range, used or not, so it is kept for small ranges (sg, height,
#: the partition features: tens of values), and the game-tree counts keep a dictionary of the
#: values that occur.
RANGE_DICTIONARY_SPAN = 1 << 12


def _integer_chunk(name: str, array: pa.Array, bits: int, nullable: bool) -> _Chunk:
    ptype = _INT64 if bits == 64 else _INT32
    values = _primitive_values(array, np.dtype(f"int{bits}"))
    nulls = array.null_count
    if nulls and not nullable:
        raise TypeError(f"column {name!r} is declared not null but holds nulls")
    chunk = _Chunk([name], ptype, len(array), [_PLAIN, _RLE, _RLE_DICTIONARY])
    valid = np.ones(0, np.uint8)  # no nulls: a nullable column's levels are one run of 1s
    if nulls:
        mask = array.is_valid().to_numpy(zero_copy_only=False)
        valid, values = mask.view(np.uint8), values[mask]
    if len(values):
        low, high = (int(v) for v in value_range(values))
    else:
        low = high = None
    span = high - low + 1 if low is not None else 0  # Python ints: no overflow at the extremes
    if not nulls and 0 < span <= min(RANGE_DICTIONARY_SPAN, 2 * len(values) + 64):
        # The dictionary is low..high and an index is value - low: no lookup per value.
        bit_width = max(1, (span - 1).bit_length())
        _dictionary_page(chunk, np.arange(low, high + 1))
        out = pool_array(5 + 4 + _rle_capacity(len(values), bit_width), np.uint8)
        size = range_page(values, low, bit_width, nullable, out)
    else:
        span = span if span < 1 << 62 else 0
        indices, distinct, keys, slots = _dictionary_scratch(len(values), span)
        distinct = distinct[:dictionary_indices(values, low or 0, span, indices, distinct, keys, slots)]
        bit_width = max(1, int(len(distinct) - 1).bit_length())
        _dictionary_page(chunk, distinct)
        out = pool_array(_rle_capacity(len(valid), 1) + 15 + _rle_capacity(len(indices), bit_width),
                          np.uint8)
        size = integer_page(valid, nullable, indices, bit_width, out)
    chunk.page(_DATA_PAGE, out[:size], len(array), _RLE_DICTIONARY)
    chunk.stats = _stats(ptype, low, high, nulls)
    return chunk


def _boolean_chunk(name: str, array: pa.Array) -> _Chunk:
    if array.null_count:
        raise TypeError(f"boolean column {name!r} holds nulls (not supported)")
    if array.offset % 8 == 0:  # Arrow's bitmap is Parquet's PLAIN boolean encoding
        start = array.offset // 8
        bits = np.frombuffer(array.buffers()[1], np.uint8)[start : start + (len(array) + 7) // 8]
    else:
        bits = np.packbits(array.to_numpy(zero_copy_only=False), bitorder="little")
    chunk = _Chunk([name], _BOOLEAN, len(array), [_PLAIN, _RLE])
    chunk.page(_DATA_PAGE, bits, len(array), _PLAIN)
    if len(array):
        all_set, any_set = bitmap_all_any(bits, len(array))
        chunk.stats = _stats(_BOOLEAN, bool(all_set), bool(any_set), 0)
    else:
        chunk.stats = _stats(_BOOLEAN, None, None, 0)
    return chunk


def _list_chunk(name: str, array: pa.Array, field: pa.Field, bits: int) -> _Chunk:
    if array.null_count or array.values.null_count:
        raise TypeError(f"list column {name!r} holds nulls (not supported)")
    ptype = _INT64 if bits == 64 else _INT32
    offsets = array.offsets.to_numpy()
    elements = _primitive_values(array.values, np.dtype(f"int{bits}"))
    used = elements[offsets[0] : offsets[-1]]
    low, high = (int(v) for v in value_range(used)) if len(used) else (0, 0)
    if high - low >= 1 << 16:
        raise TypeError(f"list column {name!r}: elements span more than 2**16 values (not supported)")
    byte_width = 1 if high - low < 256 else 2
    empty_def = int(field.nullable)  # an empty list: defined down to the list itself
    max_def = empty_def + 1 + int(field.type.value_field.nullable)
    entries = list_entries(offsets)
    chunk = _Chunk([name, "list", "element"], ptype, entries, [_PLAIN, _RLE, _RLE_DICTIONARY])
    _dictionary_page(chunk, np.arange(low, high + 1))
    out = np.empty(_list_page_capacity(entries, len(used), byte_width), np.uint8)
    size = list_page(offsets, elements, low, byte_width, max_def, empty_def, out)
    chunk.page(_DATA_PAGE, out[:size], entries, _RLE_DICTIONARY)
    chunk.stats = _stats(ptype, low, high, 0) if len(used) else _stats(ptype, None, None, 0)
    return chunk


def _schema_elements(schema: pa.Schema) -> list[list[tuple[int, int, object]]]:
    def integer(bits: int) -> list[tuple[int, int, object]]:
        return [(6, _T_I32, _CONVERTED_INT[bits]),
                (10, _T_STRUCT, [(10, _T_STRUCT, [(1, _T_BYTE, bits), (2, _T_TRUE, True)])])]

    elements = [[(4, _T_BINARY, "schema"), (5, _T_I32, len(schema))]]
    for field in schema:
        rep = _OPTIONAL if field.nullable else _REQUIRED
        if field.type == pa.bool_():
            elements.append([(1, _T_I32, _BOOLEAN), (3, _T_I32, rep), (4, _T_BINARY, field.name)])
        elif field.type in _INT_TYPES:
            bits = _INT_TYPES[field.type]
            ptype = _INT64 if bits == 64 else _INT32
            elements.append([(1, _T_I32, ptype), (3, _T_I32, rep), (4, _T_BINARY, field.name),
                             *integer(bits)])
        elif pa.types.is_list(field.type) and field.type.value_type in _INT_TYPES:
            bits = _INT_TYPES[field.type.value_type]
            ptype = _INT64 if bits == 64 else _INT32
            elements.append([(3, _T_I32, rep), (4, _T_BINARY, field.name), (5, _T_I32, 1),
                             (6, _T_I32, _CONVERTED_LIST), (10, _T_STRUCT, [(3, _T_STRUCT, [])])])
            elements.append([(3, _T_I32, _REPEATED), (4, _T_BINARY, "list"), (5, _T_I32, 1)])
            item = _OPTIONAL if field.type.value_field.nullable else _REQUIRED
            elements.append([(1, _T_I32, ptype), (3, _T_I32, item), (4, _T_BINARY, "element"),
                             *integer(bits)])
        else:
            raise TypeError(f"column {field.name!r}: type {field.type} is not supported by the writer")
    return elements


class ChunkReuse:
    """Column chunks kept from one :func:`write_table` for the next ones that hold the very same
    arrays: a column of the same field whose array has the same buffers (address and size), offset
    and length is the same data (Arrow arrays are immutable, and the arrays kept here keep their
    buffers from being freed and reused), so its chunk is the same bytes.

    The run writes the shards of one (n, shard) of every board game in turn through one of these,
    so the columns they share (:data:`pipeline.schema.PARTITION_COLUMNS`) are encoded and
    compressed once: about 160 of the 200 ns per record of writing an LCTR shard at n = 72.
    Only the columns named in ``names`` are kept (the others would only hold memory).

        >>> import pyarrow as pa, tempfile, os
        >>> parts = pa.array([[3, 1], [2, 2]], pa.list_(pa.int16()))
        >>> reuse, d = ChunkReuse(["parts"]), tempfile.mkdtemp()
        >>> _ = write_table(pa.table({"parts": parts, "sg": [1, 0]}), os.path.join(d, "a"), reuse=reuse)
        >>> _ = write_table(pa.table({"parts": parts, "sg": [0, 0]}), os.path.join(d, "b"), reuse=reuse)
        >>> reuse.reused
        1
    """

    def __init__(self, names: list[str] | tuple[str, ...]):
        self.names = frozenset(names)
        self._kept: dict[str, tuple[tuple, pa.Array, _Chunk]] = {}
        self.reused = 0  # chunks taken from an earlier table

    @staticmethod
    def _identity(field: pa.Field, array: pa.Array) -> tuple:
        return (field, _layout(array))

    def chunk(self, field: pa.Field, array: pa.Array) -> _Chunk:
        """The chunk of ``array``: the kept one if it is the same array, else a new one."""
        if field.name not in self.names:
            return _chunk_of(field, array)
        identity = self._identity(field, array)
        kept = self._kept.get(field.name)
        if kept is not None and kept[0] == identity:
            self.reused += 1
            return kept[2]
        chunk = _chunk_of(field, array)
        self._kept[field.name] = (identity, array, chunk)
        return chunk


def _layout(array: pa.Array) -> tuple:
    """Where an array's data lies: its buffers (address, size), offset and length, and its
    child's for a list (whose own offset is not the parent's)."""
    buffers = tuple((b.address, b.size) if b is not None else None for b in array.buffers())
    child = _layout(array.values) if isinstance(array, pa.ListArray) else None
    return (array.offset, len(array), buffers, child)


def _chunk_for(field: pa.Field, column: pa.ChunkedArray, reuse: ChunkReuse | None = None) -> _Chunk:
    array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return reuse.chunk(field, array) if reuse is not None else _chunk_of(field, array)


def _chunk_of(field: pa.Field, array: pa.Array) -> _Chunk:
    if field.type == pa.bool_():
        return _boolean_chunk(field.name, array)
    if field.type in _INT_TYPES:
        return _integer_chunk(field.name, array, _INT_TYPES[field.type], field.nullable)
    return _list_chunk(field.name, array, field, _INT_TYPES[field.type.value_type])


_FOOTERS: dict[bytes, tuple[list[bytes], bytes]] = {}  # by serialized Arrow schema


def _schema_footer(schema: pa.Schema) -> tuple[list[bytes], bytes]:
    """The footer's schema elements and its ``ARROW:schema`` key-value, Thrift-encoded once per
    schema (metadata included): every shard of a game has the same, and encoding them in Python
    was a large part of a shard's fixed cost of writing (profiled)."""
    arrow_schema = schema.serialize().to_pybytes()
    footer = _FOOTERS.get(arrow_schema)
    if footer is None:  # threads racing here compute the same value
        elements = [_struct(element) for element in _schema_elements(schema)]
        key_value = [(1, _T_BINARY, "ARROW:schema"), (2, _T_BINARY, base64.b64encode(arrow_schema))]
        footer = _FOOTERS[arrow_schema] = (elements, _struct(key_value))
    return footer


def write_table(table: pa.Table, path: str | Path, created_by: str = "partgames",
                reuse: ChunkReuse | None = None) -> str:
    """Write ``table`` to ``path`` as one Parquet row group (see the module docstring), taking
    the chunks of columns it shares with an earlier table from ``reuse`` (see :class:`ChunkReuse`).
    Returns the SHA-256 (hex) of the file's bytes, hashed from memory as they are written: the
    store records it in the (game, n)'s commit record (:mod:`pipeline.storage`)."""
    elements, arrow_schema = _schema_footer(table.schema)  # TypeError on an unsupported column
    chunks = [_chunk_for(field, table.column(i), reuse) for i, field in enumerate(table.schema)]
    column_meta, offset = [], 4
    parts: list[bytes | pa.Buffer] = [b"PAR1"]
    for chunk in chunks:
        start, size = offset, chunk.size
        for header, body in chunk.pages:
            parts += [header, body]
        offset += size
        dictionary = start if chunk.dictionary_size else None
        meta = [(1, _T_I32, chunk.ptype), (2, _T_LIST, (_T_I32, chunk.encodings)),
                (3, _T_LIST, (_T_BINARY, chunk.path)), (4, _T_I32, _ZSTD),
                (5, _T_I64, chunk.num_values), (6, _T_I64, chunk.uncompressed), (7, _T_I64, size),
                (9, _T_I64, start + chunk.dictionary_size), (11, _T_I64, dictionary),
                (12, _T_STRUCT, chunk.stats)]
        column_meta.append([(2, _T_I64, start), (3, _T_STRUCT, meta)])
    row_group = [(1, _T_LIST, (_T_STRUCT, column_meta)),
                 (2, _T_I64, sum(c.uncompressed for c in chunks)), (3, _T_I64, table.num_rows),
                 (5, _T_I64, 4), (6, _T_I64, offset - 4), (7, _T_I16, 0)]
    footer = _struct([
        (1, _T_I32, 2),
        (2, _T_LIST, (_T_STRUCT, elements)),
        (3, _T_I64, table.num_rows),
        (4, _T_LIST, (_T_STRUCT, [row_group])),
        (5, _T_LIST, (_T_STRUCT, [arrow_schema])),
        (6, _T_BINARY, created_by),
        (7, _T_LIST, (_T_STRUCT, [[(1, _T_STRUCT, [])] for _ in chunks])),  # TYPE_ORDER
    ])
    parts += [footer, struct.pack("<i", len(footer)), b"PAR1"]
    digest = hashlib.sha256()
    with open(path, "wb") as fh:
        for part in parts:
            fh.write(part)
            digest.update(part)
    return digest.hexdigest()
