"""A Parquet file writer for the record tables: numba encoders, zstd from Arrow, one row group.

In three layers: :mod:`~pipeline.parquet.encodings` (the page encodings, compiled by numba),
:mod:`~pipeline.parquet.thrift` (page headers and the footer in the Thrift compact protocol) and
:mod:`~pipeline.parquet.writer` (columns into pages, pages and footer into a file).

Why not a library's writer: writing is a quarter of a record's cost once the kernels are fast
(docs/performance.md), and most of it went to the list columns ``parts`` and ``conjugate`` (≈ 23 and 17
elements per record at n = 72). On the first LCTR shard at n = 72, one thread each, per record
(``benchmarks/bench.py``): pyarrow 630 ns, polars 237 (161 of them for the two lists: ~4 ns
per list element), this module 101, DuckDB's ``COPY`` 1,031; a tuned pyarrow writer
(docs/performance.md, ``benchmarks/parquet_writers.py``) stays several times slower. The
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


from pipeline.parquet.writer import RANGE_DICTIONARY_SPAN, ChunkReuse, write_table

__all__ = ["RANGE_DICTIONARY_SPAN", "ChunkReuse", "write_table"]
