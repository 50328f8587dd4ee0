"""Parquet's metadata in the Thrift compact protocol: page headers, column statistics, the
schema and the file footer (parquet.thrift), written by :mod:`pipeline.parquet.writer`.

    >>> encode_struct([(1, T_I32, 2), (4, T_BINARY, "x")]).hex()
    '150438017800'
"""

from __future__ import annotations

import base64
import struct

import pyarrow as pa

# Parquet's enums (parquet.thrift).
BOOLEAN, INT32, INT64 = 0, 1, 2
_REQUIRED, _OPTIONAL, _REPEATED = 0, 1, 2
PLAIN, RLE, DELTA_BINARY_PACKED, RLE_DICTIONARY = 0, 3, 5, 8
_ZSTD = 6
DATA_PAGE, DICTIONARY_PAGE = 0, 2
_CONVERTED_LIST, _CONVERTED_INT = 3, {8: 15, 16: 16, 32: 17, 64: 18}  # LIST, INT_8 … INT_64

# Thrift compact protocol type codes.
T_TRUE, T_FALSE, T_BYTE, T_I16, T_I32, T_I64 = 1, 2, 3, 4, 5, 6
T_BINARY, T_LIST, T_STRUCT = 8, 9, 12

#: The integer types the writer supports, with their widths in bits.
INT_TYPES = {pa.int8(): 8, pa.int16(): 16, pa.int32(): 32, pa.int64(): 64}


def varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def zigzag(value: int) -> bytes:
    return varint(2 * value if value >= 0 else -2 * value - 1)


def _value(ttype: int, value: object) -> bytes:
    if ttype in (T_I16, T_I32, T_I64):
        return zigzag(int(value))  # type: ignore[call-overload]
    if ttype == T_BYTE:
        return struct.pack("<b", value)
    if ttype == T_BINARY:
        data = value.encode() if isinstance(value, str) else bytes(value)  # type: ignore[arg-type]
        return varint(len(data)) + data
    if ttype == T_STRUCT:  # bytes: a struct encoded already (see schema_footer)
        return value if isinstance(value, bytes) else encode_struct(value)  # type: ignore[arg-type]
    if ttype == T_LIST:
        etype, items = value  # type: ignore[misc]
        if len(items) < 15:
            head = bytes([(len(items) << 4) | etype])
        else:
            head = bytes([0xF0 | etype]) + varint(len(items))
        return head + b"".join(_value(etype, item) for item in items)
    raise TypeError(ttype)


def encode_struct(fields: list[tuple[int, int, object]]) -> bytes:
    """A Thrift compact struct from (field id, type, value) in increasing id; ``None`` skipped."""
    out = bytearray()
    last = 0
    for fid, ttype, value in fields:
        if value is None:
            continue
        if ttype == T_TRUE:  # booleans live in the field header
            ttype = T_TRUE if value else T_FALSE
        delta = fid - last
        out += bytes([(delta << 4) | ttype]) if 0 < delta <= 15 else bytes([ttype]) + zigzag(fid)
        if ttype not in (T_TRUE, T_FALSE):
            out += _value(ttype, value)
        last = fid
    out.append(0)
    return bytes(out)



def statistics(ptype: int, low: object, high: object, nulls: int) -> list[tuple[int, int, object]]:
    if low is None:
        return [(3, T_I64, nulls)]
    fmt = {BOOLEAN: "<?", INT32: "<i", INT64: "<q"}[ptype]
    lo, hi = struct.pack(fmt, low), struct.pack(fmt, high)
    # the legacy max/min (1, 2) as well: same signed order for integers and booleans
    return [(1, T_BINARY, hi), (2, T_BINARY, lo), (3, T_I64, nulls),
            (5, T_BINARY, hi), (6, T_BINARY, lo)]


def page_header_fields(kind: int, uncompressed: int, compressed: int, num_values: int,
                        encoding: int) -> list[tuple[int, int, object]]:
    """A PageHeader as :func:`encode_struct` fields: type, sizes, and a DictionaryPageHeader (field 7)
    or a DataPageHeader (field 5, its levels in the RLE hybrid)."""
    if kind == DICTIONARY_PAGE:
        nested = (7, T_STRUCT, [(1, T_I32, num_values), (2, T_I32, encoding)])
    else:
        nested = (5, T_STRUCT, [(1, T_I32, num_values), (2, T_I32, encoding),
                                 (3, T_I32, RLE), (4, T_I32, RLE)])
    return [(1, T_I32, kind), (2, T_I32, uncompressed), (3, T_I32, compressed), nested]


def page_header(kind: int, uncompressed: int, compressed: int, num_values: int, encoding: int) -> bytes:
    """``encode_struct(page_header_fields(...))`` written out: a shard has about 35 pages, and the
    generic encoder's calls per field are a large part of a shard's fixed cost of writing
    (docs/performance.md).
    Field headers are (id delta << 4) | type: 0x15 an i32 one id on, 0x2C / 0x4C a struct two /
    four ids on; 0x00 ends a struct. tests/test_parquet.py checks it against the generic form."""
    head = b"\x15" + zigzag(kind) + b"\x15" + zigzag(uncompressed) + b"\x15" + zigzag(compressed)
    tail = b"\x15" + zigzag(num_values) + b"\x15" + zigzag(encoding)
    if kind == DICTIONARY_PAGE:
        return head + b"\x4c" + tail + b"\x00\x00"
    return head + b"\x2c" + tail + b"\x15" + zigzag(RLE) + b"\x15" + zigzag(RLE) + b"\x00\x00"


def schema_elements(schema: pa.Schema) -> list[list[tuple[int, int, object]]]:
    """The SchemaElements of ``schema`` as :func:`encode_struct` fields: the root, then each
    column (a list column as the three-level LIST structure); TypeError for a type the writer
    does not support."""

    def integer(bits: int) -> list[tuple[int, int, object]]:
        return [(6, T_I32, _CONVERTED_INT[bits]),
                (10, T_STRUCT, [(10, T_STRUCT, [(1, T_BYTE, bits), (2, T_TRUE, True)])])]

    elements = [[(4, T_BINARY, "schema"), (5, T_I32, len(schema))]]
    for field in schema:
        rep = _OPTIONAL if field.nullable else _REQUIRED
        if field.type == pa.bool_():
            elements.append([(1, T_I32, BOOLEAN), (3, T_I32, rep), (4, T_BINARY, field.name)])
        elif field.type in INT_TYPES:
            bits = INT_TYPES[field.type]
            ptype = INT64 if bits == 64 else INT32
            elements.append([(1, T_I32, ptype), (3, T_I32, rep), (4, T_BINARY, field.name),
                             *integer(bits)])
        elif pa.types.is_list(field.type) and field.type.value_type in INT_TYPES:
            bits = INT_TYPES[field.type.value_type]
            ptype = INT64 if bits == 64 else INT32
            elements.append([(3, T_I32, rep), (4, T_BINARY, field.name), (5, T_I32, 1),
                             (6, T_I32, _CONVERTED_LIST), (10, T_STRUCT, [(3, T_STRUCT, [])])])
            elements.append([(3, T_I32, _REPEATED), (4, T_BINARY, "list"), (5, T_I32, 1)])
            item = _OPTIONAL if field.type.value_field.nullable else _REQUIRED
            elements.append([(1, T_I32, ptype), (3, T_I32, item), (4, T_BINARY, "element"),
                             *integer(bits)])
        else:
            raise TypeError(f"column {field.name!r}: type {field.type} is not supported by the writer")
    return elements


_FOOTERS: dict[bytes, tuple[list[bytes], bytes]] = {}  # by serialized Arrow schema


def schema_footer(schema: pa.Schema) -> tuple[list[bytes], bytes]:
    """The footer's schema elements and its ``ARROW:schema`` key-value, Thrift-encoded once per
    schema (metadata included): every shard of a game has the same, and encoding them in Python
    is a large part of a shard's fixed cost of writing (docs/performance.md)."""
    arrow_schema = schema.serialize().to_pybytes()
    footer = _FOOTERS.get(arrow_schema)
    if footer is None:  # threads racing here compute the same value
        elements = [encode_struct(element) for element in schema_elements(schema)]
        key_value = [(1, T_BINARY, "ARROW:schema"), (2, T_BINARY, base64.b64encode(arrow_schema))]
        footer = _FOOTERS[arrow_schema] = (elements, encode_struct(key_value))
    return footer


def file_footer(schema: tuple[list[bytes], bytes], num_rows: int, chunks: list, starts: list[int],
                created_by: str) -> bytes:
    """The FileMetaData of a file of one row group: ``schema`` from :func:`schema_footer`,
    ``chunks`` the writer's column chunks (:class:`pipeline.parquet.writer.ColumnChunk`: type,
    encodings, path, values, sizes and statistics), ``starts`` their offsets in the file."""
    elements, arrow_schema = schema
    column_meta = []
    for chunk, start in zip(chunks, starts, strict=True):
        dictionary = start if chunk.dictionary_size else None
        meta = [(1, T_I32, chunk.ptype), (2, T_LIST, (T_I32, chunk.encodings)),
                (3, T_LIST, (T_BINARY, chunk.path)), (4, T_I32, _ZSTD),
                (5, T_I64, chunk.num_values), (6, T_I64, chunk.uncompressed), (7, T_I64, chunk.size),
                (9, T_I64, start + chunk.dictionary_size), (11, T_I64, dictionary),
                (12, T_STRUCT, chunk.stats)]
        column_meta.append([(2, T_I64, start), (3, T_STRUCT, meta)])
    data_size = sum(c.size for c in chunks)
    row_group = [(1, T_LIST, (T_STRUCT, column_meta)),
                 (2, T_I64, sum(c.uncompressed for c in chunks)), (3, T_I64, num_rows),
                 (5, T_I64, 4), (6, T_I64, data_size), (7, T_I16, 0)]
    return encode_struct([
        (1, T_I32, 2),
        (2, T_LIST, (T_STRUCT, elements)),
        (3, T_I64, num_rows),
        (4, T_LIST, (T_STRUCT, [row_group])),
        (5, T_LIST, (T_STRUCT, [arrow_schema])),
        (6, T_BINARY, created_by),
        (7, T_LIST, (T_STRUCT, [[(1, T_STRUCT, [])] for _ in chunks])),  # TYPE_ORDER
    ])
