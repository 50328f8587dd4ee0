"""The record contract (docs/definitions.md §6): one Parquet row per (game, start position).

Every column is listed here once; the kernels fill numpy arrays with these names and
:mod:`pipeline.games.columns` turns them into Arrow tables with exactly this schema.

``nodes`` and ``leaves`` are exact; a value beyond 2**63 - 1 is NULL (docs/definitions.md §4).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

#: The board games of the papers (docs/definitions.md §2.1–2.2), whose records have :data:`BOARD_SCHEMA`, in
#: the order runs and reports list them: the ids of ``pipeline.games.moveset.BUILTIN``. Here, not
#: there, so that reading a store (``sql``, ``verify``) needs no game module and no numba.
BOARD_GAMES: tuple[str, ...] = ("lctr", "downright", "pawn", "pawn_t", "knight", "bishop", "king",
                                "rook", "queen")

#: The non-repetitive variants of LCTR and Downright (docs/definitions.md §2.5,
#: :mod:`pipeline.games.nonrepetitive`): records with :data:`BOARD_SCHEMA`, one per partition.
NR_GAMES: tuple[str, ...] = ("lctr_nr", "downright_nr")

#: d-dimensional LCTR for d = 2, 3, 4 (docs/definitions.md §2.6, :mod:`pipeline.games.lctr_d`,
#: whose ``DIMENSIONS`` they are): records with :data:`LCTR_D_SCHEMA`.
LCTR_D_GAMES: tuple[str, ...] = ("lctr_d2", "lctr_d3", "lctr_d4")

#: Columns shared by every game.
COMMON_FIELDS: list[pa.Field] = [
    pa.field("n", pa.int16(), nullable=False),
    pa.field("parts", pa.list_(pa.int16()), nullable=False),
    pa.field("sg", pa.int16(), nullable=False),
    pa.field("sg_misere", pa.int16(), nullable=False),
    pa.field("nodes", pa.int64(), nullable=True),
    pa.field("leaves", pa.int64(), nullable=True),
    pa.field("states", pa.int64(), nullable=False),
    pa.field("height", pa.int32(), nullable=False),
    pa.field("domestic", pa.bool_(), nullable=False),
    pa.field("tame", pa.bool_(), nullable=False),
    pa.field("pet", pa.bool_(), nullable=False),
    pa.field("miserable", pa.bool_(), nullable=False),
    pa.field("forced", pa.bool_(), nullable=False),
    pa.field("returnable", pa.bool_(), nullable=False),
    # Features for SQL mining (docs/definitions.md §1).
    pa.field("num_parts", pa.int16(), nullable=False),  # r
    pa.field("largest", pa.int16(), nullable=False),  # λ1
    pa.field("durfee", pa.int16(), nullable=False),  # max{ℓ : λℓ ≥ ℓ}
    pa.field("rank", pa.int16(), nullable=False),  # λ1 − r (signed)
    pa.field("distinct_sizes", pa.int16(), nullable=False),  # = number of corners
    pa.field("conjugate", pa.list_(pa.int16()), nullable=False),
    # Shape and key (docs/records.md): one bit per family (pipeline.games.features.SHAPE_BITS),
    # and the position among the partitions of n in the solvers' order (NULL past p(n) = 2**63).
    pa.field("shape", pa.int32(), nullable=False),
    pa.field("ordinal", pa.int64(), nullable=True),
]

#: Extra columns of Slow SetNim records (docs/definitions.md §2.3, §6).
SLOWNIM_FIELDS: list[pa.Field] = [
    pa.field("stacks", pa.int16(), nullable=False),  # s
    pa.field("moves", pa.list_(pa.int16()), nullable=False),  # A, increasing
    pa.field("reduced", pa.bool_(), nullable=False),  # min(A) * max <= total
    pa.field("reduced_parts", pa.list_(pa.int16()), nullable=False),  # NIRB reduced form
    pa.field("odd_stacks", pa.int16(), nullable=False),  # odd stacks of the reduced form
    pa.field("sum_mod", pa.int16(), nullable=False),  # Σ(reduced) mod 2·min(A)
]

#: The records of d-dimensional LCTR (docs/records.md, docs/definitions.md §2.6): a start is a
#: d-dimensional partition, not a partition, so the partition features of COMMON_FIELDS
#: (conjugate, durfee, rank, shape, ...) are left out and these describe the diagram instead.
#: ``parts`` holds its heights (the cells above each point of the (d−1)-dimensional base) in
#: the lexicographic order of the base: for d = 2 the partition, for d = 3 the plane
#: partition's entries row by row.
LCTR_D_FIELDS: list[pa.Field] = [
    *COMMON_FIELDS[:14],  # n, parts, sg, sg_misere, nodes, leaves, states, height, the flags
    pa.field("dims", pa.int16(), nullable=False),  # d
    pa.field("num_parts", pa.int16(), nullable=False),  # nonzero heights (the base's points)
    pa.field("largest", pa.int16(), nullable=False),  # the height at the origin
    # the lengths of the rows (runs of heights along the base's last coordinate), in order
    pa.field("row_lengths", pa.list_(pa.int16()), nullable=False),
    # the corners (maximal cells), d coordinates each (1-based, the height last), in order
    pa.field("corners", pa.list_(pa.int16()), nullable=False),
]

#: The columns that depend on the start position only, not on the game (n, parts and the docs/definitions.md
#: §1 features). Games that solve the same positions in the same order (``Game.record_order``)
#: share them in a run: the shard's first game computes them, the others borrow its arrays, and
#: the writer compresses them once (:class:`pipeline.parquet.ChunkReuse`).
PARTITION_COLUMNS = ("n", "parts", "num_parts", "largest", "durfee", "rank", "distinct_sizes",
                     "conjugate", "shape", "ordinal")

#: The columns added to the record contract after its first stores (docs/records.md): a query
#: that reads them from a file without them stops with a line that names ``partgames run
#: --force`` (pipeline.query.OLD_STORE_HINT, queries/macros.sql old_store_message).
ADDED_COLUMNS = ("shape", "ordinal")

BOARD_SCHEMA = pa.schema(COMMON_FIELDS)
#: The records of a game given by rules whose positions carry state (``STATE`` = k > 0,
#: docs/rules.md): the board games' columns, of the start's partition, and ``state``, the
#: start's k integers after its parts.
STATE_SCHEMA = BOARD_SCHEMA.append(pa.field("state", pa.list_(pa.int64())))
SLOWNIM_SCHEMA = pa.schema(COMMON_FIELDS + SLOWNIM_FIELDS)
LCTR_D_SCHEMA = pa.schema(LCTR_D_FIELDS)
#: The records of a game given by rules whose positions are not partitions (``POSITIONS =
#: "arrays"``, docs/rules.md): a start is any nonempty integer array, the game's own encoding of
#: a position of size n, so no partition feature describes it. ``parts`` holds the start's
#: integers as the rules encode it (the name the views, the summaries and the report read a
#: record's position by); the rest are the values of COMMON_FIELDS.
ARRAY_SCHEMA = pa.schema(COMMON_FIELDS[:14])

FLAG_NAMES = ("domestic", "tame", "pet", "miserable", "forced", "returnable")

#: The kinds of record a game writes (``Game.record_kind``), each with its schema: a partition's
#: (the board games, the non-repetitive games, rules games), a partition's with the ``state``
#: column (rules games with ``STATE``), Slow SetNim's (the ``slownim`` view unites these),
#: d-dimensional LCTR's and a rules game's whose positions are its own arrays.
RECORD_KINDS: dict[str, pa.Schema] = {"partition": BOARD_SCHEMA, "state": STATE_SCHEMA,
                                      "slownim": SLOWNIM_SCHEMA, "lctr_d": LCTR_D_SCHEMA,
                                      "arrays": ARRAY_SCHEMA}


def record_kind(columns: Any) -> str:
    """The kind (:data:`RECORD_KINDS`) of records with these columns (names, or a schema): told
    by the columns that only one kind has, so that a store's views (whose columns add ``game``)
    tell it too.

    >>> record_kind(SLOWNIM_SCHEMA), record_kind(["n", "parts", "state", "game"])
    ('slownim', 'state')
    >>> record_kind(ARRAY_SCHEMA), record_kind(BOARD_SCHEMA)
    ('arrays', 'partition')
    """
    names = set(columns.names if isinstance(columns, pa.Schema) else columns)
    if {"stacks", "moves"} <= names:
        return "slownim"
    if "dims" in names:
        return "lctr_d"
    if "state" in names:
        return "state"
    # every kind but a rules game's own arrays has its position's features (num_parts)
    return "partition" if "num_parts" in names else "arrays"


#: The columns whose minimum and maximum a (game, n)'s summary keeps (:mod:`pipeline.summaries`),
#: in this order.
SUMMARY_MEASURES = ("nodes", "leaves", "states", "height")


_PARTITIONS = pa.list_(pa.list_(pa.int16()))
#: The ``summaries`` view's columns (docs/records.md): one row per (game, n).
SUMMARY_SCHEMA = pa.schema(
    [pa.field("game", pa.string()), pa.field("n", pa.int64()), pa.field("records", pa.int64()),
     pa.field("kept", pa.string()), pa.field("kept_records", pa.int64()),
     pa.field("p_positions", pa.int64()), pa.field("misere_p_positions", pa.int64()),
     pa.field("p_in_both", pa.int64()), pa.field("overflow_records", pa.int64())]
    + [pa.field(f"{side}_{m}{suffix}", kind)
       for m in SUMMARY_MEASURES for side in ("min", "max")
       for suffix, kind in (("", pa.int64()), ("_count", pa.int64()), ("_at", _PARTITIONS),
                            ("_next", pa.int64()))]
    + [pa.field("pairs", pa.list_(pa.struct([("sg", pa.int16()), ("sg_misere", pa.int16()),
                                             ("records", pa.int64())]))),
       pa.field("regions", pa.list_(pa.struct(
           [(f, pa.bool_()) for f in FLAG_NAMES]
           + [("records", pa.int64()), ("first", pa.list_(pa.int16())), ("first_sg", pa.int16()),
              ("first_sg_misere", pa.int16())])))])


def summary_row(game: str, n: int, record: dict[str, Any]) -> dict[str, Any]:
    """The ``summaries`` row (:data:`SUMMARY_SCHEMA`) of a commit record that has a summary."""
    s = record["summary"]
    pairs = {(sg, sgm): c for sg, sgm, c in s["pairs"]}
    row: dict[str, Any] = {
        "game": game, "n": n, "records": s["records"], "kept": record.get("kept", "all"),
        "kept_records": record.get("kept_records", record.get("records")),
        "p_positions": sum(c for (sg, _), c in pairs.items() if sg == 0),
        "misere_p_positions": sum(c for (_, sgm), c in pairs.items() if sgm == 0),
        "p_in_both": pairs.get((0, 0), 0), "overflow_records": s["overflow"],
        "pairs": [{"sg": sg, "sg_misere": sgm, "records": c} for (sg, sgm), c in sorted(pairs.items())],
        "regions": [{**{f: bool(mask >> k & 1) for k, f in enumerate(FLAG_NAMES)}, "records": count,
                     "first": first, "first_sg": sg, "first_sg_misere": sgm}
                    for mask, count, first, sg, sgm in s["regions"]],
    }
    for m in SUMMARY_MEASURES:
        e = s["extremes"][m]
        for side in ("min", "max"):
            row[f"{side}_{m}"] = e[side]
            for suffix in ("_count", "_at", "_next"):
                row[f"{side}_{m}{suffix}"] = e[f"{side}{suffix}"]
    return row


def schema_digest(schema: pa.Schema) -> str:
    """A digest of a record schema: its columns' names, types and nullability (SHA-256, hex),
    the ``schema`` of a (game, n)'s commit record, by which the views read the files of one
    digest as one schema (:func:`pipeline.query.read_files_sql`). A list is told by its items'
    type, not their name, so a file's schema read back from its footer (``element``) has the
    digest of the schema it was written with (``item``).

    >>> schema_digest(pa.schema([("n", pa.int64())])) == schema_digest(pa.schema([("n", pa.int64())]))
    True
    >>> schema_digest(pa.schema([("n", pa.int64())])) == schema_digest(pa.schema([("n", pa.int32())]))
    False
    >>> items = pa.list_(pa.field("item", pa.int16()))
    >>> elements = pa.list_(pa.field("element", pa.int16()))
    >>> schema_digest(pa.schema([("parts", items)])) == schema_digest(pa.schema([("parts", elements)]))
    True
    """
    import hashlib

    def text(t: pa.DataType) -> str:
        return f"list<{text(t.value_type)}>" if pa.types.is_list(t) else str(t)

    columns = ";".join(f"{f.name}:{text(f.type)}:{f.nullable}" for f in schema)
    return hashlib.sha256(columns.encode()).hexdigest()
