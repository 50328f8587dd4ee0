"""The writer: a record table's columns encoded into pages (:mod:`pipeline.parquet.encodings`),
each compressed with zstd level 1 by Arrow, and the file closed by its footer
(:mod:`pipeline.parquet.thrift`). The format and its choices are described in
:mod:`pipeline.parquet`.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.memory import pool_array
from pipeline.parquet.encodings import (
    bitmap_all_any,
    delta_capacity,
    delta_page,
    dictionary_indices,
    dictionary_scratch,
    integer_page,
    is_ascending,
    list_entries,
    list_page,
    list_page_capacity,
    range_page,
    rle_capacity,
    value_range,
)
from pipeline.parquet.thrift import (
    BOOLEAN,
    DATA_PAGE,
    DELTA_BINARY_PACKED,
    DICTIONARY_PAGE,
    INT32,
    INT64,
    INT_TYPES,
    PLAIN,
    RLE,
    RLE_DICTIONARY,
    file_footer,
    page_header,
    schema_footer,
    statistics,
)

_ZSTD_CODEC = pa.Codec("zstd", compression_level=1)


class ColumnChunk:
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
        header = page_header(kind, body.nbytes, compressed.size, num_values, encoding)
        self.pages.append((header, compressed))
        self.size += len(header) + compressed.size
        self.uncompressed += len(header) + body.nbytes
        if kind == DICTIONARY_PAGE:
            self.dictionary_size = self.size


def _dictionary_page(chunk: ColumnChunk, values: np.ndarray) -> None:
    plain = np.ascontiguousarray(values, dtype="<i4" if chunk.ptype == INT32 else "<i8")
    chunk.page(DICTIONARY_PAGE, plain.view(np.uint8), len(values), PLAIN)


def _primitive_values(array: pa.Array, dtype: np.dtype) -> np.ndarray:
    """The value buffer as numpy (no copy); null slots hold arbitrary values."""
    buf = array.buffers()[1]
    return np.frombuffer(buf, dtype=dtype, count=array.offset + len(array))[array.offset:]


#: Widest range of values whose dictionary is the whole range (``range_page``): its dictionary page
#: has one entry per value of the range, used or not, so it is kept for small ranges (sg, height,
#: the partition features: tens of values), and the game-tree counts keep a dictionary of the
#: values that occur.
RANGE_DICTIONARY_SPAN = 1 << 12


def _integer_chunk(name: str, array: pa.Array, bits: int, nullable: bool) -> ColumnChunk:
    ptype = INT64 if bits == 64 else INT32
    values = _primitive_values(array, np.dtype(f"int{bits}"))
    nulls = array.null_count
    if nulls and not nullable:
        raise TypeError(f"column {name!r} is declared not null but holds nulls")
    chunk = ColumnChunk([name], ptype, len(array), [PLAIN, RLE, RLE_DICTIONARY])
    valid = np.ones(0, np.uint8)  # no nulls: a nullable column's levels are one run of 1s
    if nulls:
        mask = array.is_valid().to_numpy(zero_copy_only=False)
        valid, values = mask.view(np.uint8), values[mask]
    if len(values):
        low, high = (int(v) for v in value_range(values))
    else:
        low = high = None
    span = high - low + 1 if low is not None else 0  # Python ints: no overflow at the extremes
    if not nulls and span > 1 and is_ascending(values):
        # A column that never decreases (``ordinal``: up by one within a shard) as its deltas:
        # a dictionary of its distinct values and their indices would take about 3 bytes a value.
        chunk.encodings = [RLE, DELTA_BINARY_PACKED]
        out = pool_array(delta_capacity(len(values)), np.uint8)
        size = delta_page(values, nullable, out)
        chunk.page(DATA_PAGE, out[:size], len(array), DELTA_BINARY_PACKED)
        chunk.stats = statistics(ptype, low, high, nulls)
        return chunk
    if not nulls and 0 < span <= min(RANGE_DICTIONARY_SPAN, 2 * len(values) + 64):
        # The dictionary is low..high and an index is value - low: no lookup per value.
        bit_width = max(1, (span - 1).bit_length())
        # low + 0 .. low + span - 1, in int64: np.arange(low, high + 1) wraps at high = 2^63 - 1
        _dictionary_page(chunk, np.int64(low) + np.arange(span, dtype=np.int64))
        out = pool_array(5 + 4 + rle_capacity(len(values), bit_width), np.uint8)
        size = range_page(values, low, bit_width, nullable, out)
    else:
        span = span if span < 1 << 62 else 0
        indices, distinct, keys, slots = dictionary_scratch(len(values), span)
        distinct = distinct[:dictionary_indices(values, low or 0, span, indices, distinct, keys, slots)]
        bit_width = max(1, int(len(distinct) - 1).bit_length())
        _dictionary_page(chunk, distinct)
        out = pool_array(rle_capacity(len(valid), 1) + 15 + rle_capacity(len(indices), bit_width),
                          np.uint8)
        size = integer_page(valid, nullable, indices, bit_width, out)
    chunk.page(DATA_PAGE, out[:size], len(array), RLE_DICTIONARY)
    chunk.stats = statistics(ptype, low, high, nulls)
    return chunk


def _boolean_chunk(name: str, array: pa.Array) -> ColumnChunk:
    if array.null_count:
        raise TypeError(f"boolean column {name!r} holds nulls (not supported)")
    if array.offset % 8 == 0:  # Arrow's bitmap is Parquet's PLAIN boolean encoding
        start = array.offset // 8
        bits = np.frombuffer(array.buffers()[1], np.uint8)[start : start + (len(array) + 7) // 8]
    else:
        bits = np.packbits(array.to_numpy(zero_copy_only=False), bitorder="little")
    chunk = ColumnChunk([name], BOOLEAN, len(array), [PLAIN, RLE])
    chunk.page(DATA_PAGE, bits, len(array), PLAIN)
    if len(array):
        all_set, any_set = bitmap_all_any(bits, len(array))
        chunk.stats = statistics(BOOLEAN, bool(all_set), bool(any_set), 0)
    else:
        chunk.stats = statistics(BOOLEAN, None, None, 0)
    return chunk


def _list_chunk(name: str, array: pa.Array, field: pa.Field, bits: int) -> ColumnChunk:
    if array.null_count or array.values.null_count:
        raise TypeError(f"list column {name!r} holds nulls (not supported)")
    ptype = INT64 if bits == 64 else INT32
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
    chunk = ColumnChunk([name, "list", "element"], ptype, entries, [PLAIN, RLE, RLE_DICTIONARY])
    _dictionary_page(chunk, np.arange(low, high + 1))
    out = np.empty(list_page_capacity(entries, len(used), byte_width), np.uint8)
    size = list_page(offsets, elements, low, byte_width, max_def, empty_def, out)
    chunk.page(DATA_PAGE, out[:size], entries, RLE_DICTIONARY)
    chunk.stats = statistics(ptype, low, high, 0) if len(used) else statistics(ptype, None, None, 0)
    return chunk


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
        self._kept: dict[str, tuple[tuple, pa.Array, ColumnChunk]] = {}
        self.reused = 0  # chunks taken from an earlier table

    @staticmethod
    def _identity(field: pa.Field, array: pa.Array) -> tuple:
        return (field, _layout(array))

    def chunk(self, field: pa.Field, array: pa.Array) -> ColumnChunk:
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


def _chunk_for(field: pa.Field, column: pa.ChunkedArray, reuse: ChunkReuse | None = None) -> ColumnChunk:
    array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return reuse.chunk(field, array) if reuse is not None else _chunk_of(field, array)


def _chunk_of(field: pa.Field, array: pa.Array) -> ColumnChunk:
    if field.type == pa.bool_():
        return _boolean_chunk(field.name, array)
    if field.type in INT_TYPES:
        return _integer_chunk(field.name, array, INT_TYPES[field.type], field.nullable)
    return _list_chunk(field.name, array, field, INT_TYPES[field.type.value_type])


def write_table(table: pa.Table, path: str | Path, created_by: str = "partgames",
                reuse: ChunkReuse | None = None) -> str:
    """Write ``table`` to ``path`` as one Parquet row group (see the module docstring), taking
    the chunks of columns it shares with an earlier table from ``reuse`` (see :class:`ChunkReuse`).
    Returns the SHA-256 (hex) of the file's bytes, hashed from memory as they are written: the
    store records it in the (game, n)'s commit record (:mod:`pipeline.storage`)."""
    schema = schema_footer(table.schema)  # TypeError on an unsupported column, before encoding
    chunks = [_chunk_for(field, table.column(i), reuse) for i, field in enumerate(table.schema)]
    starts, offset = [], 4
    parts: list[bytes | pa.Buffer] = [b"PAR1"]
    for chunk in chunks:
        starts.append(offset)
        for header, body in chunk.pages:
            parts += [header, body]
        offset += chunk.size
    footer = file_footer(schema, table.num_rows, chunks, starts, created_by)
    parts += [footer, struct.pack("<i", len(footer)), b"PAR1"]
    digest = hashlib.sha256()
    with open(path, "wb") as fh:
        for part in parts:
            fh.write(part)
            digest.update(part)
    return digest.hexdigest()
