"""Value grids of a board game on a Young diagram, drawn with matplotlib (``partgames draw``).

The papers argue with pictures of this kind (LCTR paper 1 Figure 1, the chess paper's King and
Queen grids): the Young diagram of λ in the English convention (docs/definitions.md §1: row 0
on top, cell (i, j) in row i, column j) with each box carrying the value of the game started at
the sub-partition λ[i,j], what lies weakly below and right of the box. Box (0, 0) carries the
value of λ itself, a corner carries that of (1).

The values come from the store's records (one SQL join, like the ``cell_grid`` macro of
``queries/macros.sql``) where it holds the (game, n) of a box, and are otherwise solved here,
box by box, by the single-partition solver (:func:`solve_values`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from pipeline.errors import UsageError

if TYPE_CHECKING:  # matplotlib and DuckDB load when a figure is drawn or a store read
    import duckdb
    from matplotlib.figure import Figure

#: Value kinds a grid can show: the normal-play and the misère Sprague-Grundy value (§3).
VALUES = ("sg", "sg_misere")
TITLES = {"sg": "sg", "sg_misere": "misère sg"}
#: Picture formats ``draw`` writes, by the output file's extension.
FORMATS = ("svg", "png", "pdf")
#: matplotlib settings for writing: texts as SVG ``<text>`` elements, not glyph outlines; ids
#: the same in every run; one font named (matplotlib's own, the one it measured the texts with)
#: rather than its list of fallbacks in every element.
SVG_SETTINGS = {"svg.fonttype": "none", "svg.hashsalt": "partgames", "font.sans-serif": ["DejaVu Sans"]}


def parse_parts(text: str) -> tuple[int, ...]:
    """A partition written as ``8,7,6,5,5,2,1`` (brackets and spaces allowed), checked.

    >>> parse_parts("5,5,3,2,1")
    (5, 5, 3, 2, 1)
    >>> parse_parts("[3, 1]")
    (3, 1)
    >>> parse_parts("3,x")
    Traceback (most recent call last):
    pipeline.errors.UsageError: PARTS '3,x' is not a list of positive integers such as 5,5,3,2,1
    """
    body = text.strip().strip("[]() ")
    if not re.fullmatch(r"[0-9]+(\s*,\s*[0-9]+)*", body):  # ASCII: int() reads ٣ too
        raise UsageError(f"PARTS {text!r} is not a list of positive integers such as 5,5,3,2,1")
    return check_partition([int(x) for x in body.split(",")])


def check_partition(parts: Iterable[int]) -> tuple[int, ...]:
    """``parts`` as a tuple if it is a nonempty partition (positive, non-increasing), else a
    :class:`UsageError` (a picture's partition, of any n; the solver's own check,
    :func:`pipeline.games.single_partition.check_partition`, also bounds n).

    >>> check_partition([4, 4, 1])
    (4, 4, 1)
    >>> check_partition([1, 2])
    Traceback (most recent call last):
    pipeline.errors.UsageError: (1, 2) is not a partition: its parts must be positive and non-increasing
    """
    from pipeline.games.single_partition import partition_fault  # numba: only where a partition is checked

    out = tuple(int(x) for x in parts)
    if partition_fault(out) is not None:
        raise UsageError(f"{out} is not a partition: its parts must be positive and non-increasing")
    return out


def board_game_id(game: str) -> str:
    """The id (its view name) of a game whose values fill a diagram box by box
    (:attr:`pipeline.games.base.Game.diagram_positions`): a built-in id as it is, a user moveset
    in its canonical ``moves_…`` form. Any other game (Slow SetNim's positions are stacks) is
    refused with what the game says its positions are.

    >>> board_game_id("king")
    'king'
    >>> board_game_id("{(1,3),(3,1)}")
    'moves_1.3_3.1'
    """
    from pipeline.games import get_game  # numba: the game says what it offers

    parsed = get_game(game)
    if not parsed.diagram_positions:
        raise UsageError(f"{game} is not a board game: its positions are {parsed.positions_are}, "
                         "not cells of a partition's diagram")
    return parsed.game_id


def cells(parts: Sequence[int]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every cell (i, j) of λ, row by row, with its sub-partition λ[i,j] = (λ_{i+1} − j,
    λ_{i+2} − j, …) keeping the positive entries (docs/definitions.md §1).

    >>> cells([3, 1])
    [(0, 0, (3, 1)), (0, 1, (2,)), (0, 2, (1,)), (1, 0, (1,))]
    """
    return [(i, j, tuple(x - j for x in parts[i:] if x > j))
            for i, row in enumerate(parts) for j in range(row)]


@dataclass(frozen=True)
class ValueGrid:
    """The values of ``game`` on every cell of ``parts``, row by row (None: not known, the
    store lacking the record and nothing solved). ``solved``: the sizes n whose records were
    solved here rather than read from a store."""

    game: str
    parts: tuple[int, ...]
    sg: tuple[tuple[int | None, ...], ...]
    sg_misere: tuple[tuple[int | None, ...], ...]
    solved: tuple[int, ...] = ()

    def rows(self, value: str = "sg") -> list[str]:
        """The grid as the papers print it, one string per row (``?`` where unknown; values
        above 9 in brackets, so that a row reads unambiguously)."""
        return ["".join("?" if v is None else str(v) if v < 10 else f"[{v}]" for v in row)
                for row in getattr(self, value)]


def sizes_of(parts: Sequence[int]) -> set[int]:
    """The sizes |λ[i,j]| of the cells' sub-partitions: the n whose records a grid reads.

    >>> sorted(sizes_of([3, 1]))
    [1, 2, 4]
    """
    return {sum(sub) for _, _, sub in cells(parts)}


def _cells_table(partitions: Sequence[tuple[int, ...]]) -> pa.Table:
    rows = [(k, i, j, sum(sub), list(sub)) for k, p in enumerate(partitions) for i, j, sub in cells(p)]
    return pa.table({
        "k": pa.array([r[0] for r in rows], pa.int32()), "i": pa.array([r[1] for r in rows], pa.int32()),
        "j": pa.array([r[2] for r in rows], pa.int32()), "n": pa.array([r[3] for r in rows], pa.int64()),
        "sub": pa.array([r[4] for r in rows], pa.list_(pa.int16())),
    })


def read_grids(con: duckdb.DuckDBPyConnection, game: str, partitions: Sequence[tuple[int, ...]],
               stored: Iterable[int] | None = None, solved: pa.Table | None = None,
               ) -> list[ValueGrid]:
    """The grids of ``game`` on ``partitions`` from the records of ``con``'s view of the game
    (those of n in ``stored`` only, every n when None) and the table ``solved`` (columns n,
    parts, sg, sg_misere), in one SQL join of every cell's sub-partition with its record, as the
    ``cell_grid`` macro does. The view is read with a constant list of n, so that DuckDB opens
    only those n's files (n is the store's partition key)."""
    from pipeline.query import quote_name

    partitions = [tuple(p) for p in partitions]
    if not partitions:
        return []
    table = _cells_table(partitions)
    ns = sorted(set(table.column("n").to_pylist()) & (set(stored) if stored is not None else {
        n for n in table.column("n").to_pylist()}))
    con.register("_draw_cells", table)
    sources = []
    if ns:
        sources.append(f"SELECT n, parts, sg, sg_misere FROM {quote_name(game)} "
                       f"WHERE n IN ({', '.join(map(str, ns))})")
    if solved is not None:
        con.register("_draw_solved", solved.select(["n", "parts", "sg", "sg_misere"]))
        sources.append("SELECT n, parts, sg, sg_misere FROM _draw_solved")
    if not sources:
        sources.append("SELECT NULL::BIGINT AS n, NULL::SMALLINT[] AS parts, NULL::SMALLINT AS sg, "
                       "NULL::SMALLINT AS sg_misere WHERE false")
    try:
        rows = con.execute(
            f"SELECT c.k, c.i, c.j, v.sg, v.sg_misere FROM _draw_cells c "
            f"LEFT JOIN ({' UNION ALL '.join(sources)}) v ON v.n = c.n AND v.parts = c.sub "
            f"ORDER BY c.k, c.i, c.j").fetchall()
    finally:
        con.unregister("_draw_cells")
        if solved is not None:
            con.unregister("_draw_solved")
    values: dict[int, tuple[list[list], list[list]]] = {
        k: ([[None] * r for r in p], [[None] * r for r in p]) for k, p in enumerate(partitions)}
    for k, i, j, sg, mis in rows:
        values[k][0][i][j], values[k][1][i][j] = sg, mis
    solved_ns = tuple(sorted(set(solved.column("n").to_pylist()))) if solved is not None else ()
    return [ValueGrid(game, p, tuple(map(tuple, values[k][0])), tuple(map(tuple, values[k][1])),
                      tuple(n for n in solved_ns if n in sizes_of(p)))
            for k, p in enumerate(partitions)]


def solve_values(game: str, parts: Sequence[int], sizes: Iterable[int]) -> pa.Table:
    """The records (n, parts, sg, sg_misere) of ``game`` started at each sub-partition λ[i,j] of
    λ = ``parts`` whose size is in ``sizes``, solved by the single-partition solver
    (:mod:`pipeline.games.single_partition`, docs/families.md: memory O(cells), no bound on n but the
    columns' types) rather than every partition of each n."""
    from pipeline.games.single_partition import solve_table

    wanted = set(sizes)
    by_n: dict[int, set[tuple[int, ...]]] = {}
    for _, _, sub in cells(parts):
        if sum(sub) in wanted:
            by_n.setdefault(sum(sub), set()).add(sub)
    tables = [solve_table(game, sorted(subs)).select(["n", "parts", "sg", "sg_misere"])
              for _, subs in sorted(by_n.items())]
    if not tables:
        return pa.table({"n": pa.array([], pa.int16()), "parts": pa.array([], pa.list_(pa.int16())),
                         "sg": pa.array([], pa.int16()), "sg_misere": pa.array([], pa.int16())})
    return pa.concat_tables(tables)


def value_grid(game: str, parts: Sequence[int], results: str | Path | None = None,
               con: duckdb.DuckDBPyConnection | None = None) -> ValueGrid:
    """The grid of ``game`` on λ = ``parts``: the records of the store at ``results`` (or of the
    views of ``con``, a :func:`pipeline.query.connect` connection) where it holds the (game, n)
    of a cell's sub-partition, the others solved (:func:`solve_values`). Without a store
    (``results`` None or no such folder, no ``con``) every value is solved."""
    import duckdb

    from pipeline.query import connect

    game = board_game_id(game)
    parts = check_partition(parts)
    need = sizes_of(parts)
    if con is None and results is not None and Path(results).is_dir():
        con = connect(results, min_n=min(need), max_n=max(need))
    stored: set[int] = set()
    if con is not None:
        stored = {n for (n,) in con.execute("SELECT n FROM jobs WHERE game = ?", [game]).fetchall()}
    else:
        con = duckdb.connect()
    missing = need - stored
    solved = solve_values(game, parts, missing) if missing else None
    return read_grids(con, game, [parts], stored & need, solved)[0]


def partition_label(parts: Sequence[int]) -> str:
    """λ in exponent notation, as the papers write it.

    >>> partition_label([5, 4, 4, 2, 1, 1])
    '(5,4²,2,1²)'
    """
    out, k = [], 0
    while k < len(parts):
        m = k
        while m < len(parts) and parts[m] == parts[k]:
            m += 1
        mult = m - k
        out.append(f"{parts[k]}" + ("" if mult == 1 else str(mult).translate(_SUPERSCRIPTS)))
        k = m
    return "(" + ",".join(out) + ")"


_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def draw_grid(grid: ValueGrid, values: Sequence[str] = ("sg",), title: str | None = None,
              box: float = 0.36) -> Figure:
    """The Young diagram of ``grid.parts`` with each box (i, j) showing the value of λ[i,j], one
    panel per entry of ``values`` (``sg``, ``sg_misere``). Boxes are coloured by value; the
    P-positions (value 0) are the dark boxes with white figures, a box without a known value
    holds ``?``. Every box's figure is a text artist with the id ``<value>-<i>-<j>``, which an
    SVG keeps as a ``<g id=…>`` around a ``<text>`` element (:func:`save_figure`)."""
    from matplotlib import colormaps
    from matplotlib.collections import PatchCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    for v in values:
        if v not in VALUES:
            raise ValueError(f"unknown value {v!r} (one of {VALUES})")
    rows, cols = len(grid.parts), grid.parts[0]
    # The axes placed by hand (inches: a margin around each panel, room for the titles above):
    # a layout engine measures every text of the figure, most of a report's time.
    shown = " and ".join(TITLES[v] for v in values)
    title = title or f"{grid.game} on λ = {partition_label(grid.parts)}: {shown} of λ[i,j]"
    pad, head = 0.15, 0.45 if len(values) == 1 else 0.65
    panels = len(values) * (cols * box + pad) + pad
    width = max(panels, 0.075 * len(title) + 0.3)  # the title's width at 10 pt, roughly
    left = (width - panels) / 2
    height = rows * box + head + pad
    fig = Figure(figsize=(width, height))
    axes = [fig.add_axes(((left + pad + k * (cols * box + pad)) / width, pad / height,
                          cols * box / width, rows * box / height)) for k in range(len(values))]
    cmap = colormaps["YlGnBu"]
    for ax, v in zip(axes, values, strict=True):
        grid_values = getattr(grid, v)
        top = max([x for row in grid_values for x in row if x is not None] + [1])
        boxes, faces = [], []
        for i, row in enumerate(grid_values):
            for j, x in enumerate(row):
                if x is None:
                    face, ink, label = "white", "0.45", "?"
                elif x == 0:
                    face, ink, label = "0.2", "white", "0"
                else:  # the light half of the map, where black figures stay legible
                    face, ink, label = cmap(0.08 + 0.45 * x / top), "black", str(x)
                boxes.append(Rectangle((j, i), 1, 1))
                faces.append(face)
                ax.text(j + 0.5, i + 0.52, label, ha="center", va="center", color=ink,
                        fontsize=9 if len(label) < 3 else 7, fontweight="bold" if x == 0 else "normal",
                        gid=f"{v}-{i}-{j}")
        # the boxes as one collection, drawn at once: half the time of an artist per box
        ax.add_collection(PatchCollection(boxes, facecolors=faces, edgecolors="0.1", linewidths=0.8,
                                          zorder=1))
        ax.set_xlim(-0.05, cols + 0.05)
        ax.set_ylim(rows + 0.05, -0.05)  # English convention: row 0 on top
        ax.set_aspect("equal")
        ax.axis("off")
        if len(values) > 1:
            ax.set_title(TITLES[v], fontsize=9, pad=3)
    fig.suptitle(title, fontsize=10, x=0.5, y=1 - 0.08 / height, va="top")
    return fig


def picture_format(path: str | Path) -> str:
    """The format of a picture file by its extension, one of :data:`FORMATS`.

    >>> picture_format("king.PNG")
    'png'
    >>> picture_format("king.jpg")
    Traceback (most recent call last):
    pipeline.errors.UsageError: king.jpg: the picture format is read from the extension: .svg, .png, .pdf
    """
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(f"{path}: the picture format is read from the extension: "
                         f"{', '.join('.' + f for f in FORMATS)}")
    return fmt


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as SVG, PNG or PDF by the extension of ``path``. In an SVG every text is a
    ``<text>`` element (``svg.fonttype = 'none'``), not glyph outlines: the file is small and its
    values can be searched and read back."""
    import matplotlib

    path = Path(path)
    fmt = picture_format(path)
    with matplotlib.rc_context(SVG_SETTINGS):
        fig.savefig(path, format=fmt, dpi=150, metadata=_metadata(fmt))
    return path


def svg_text(fig: Figure) -> str:
    """``fig`` as the text of an SVG document (for inlining into HTML), its texts as ``<text>``."""
    import io

    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(SVG_SETTINGS):
        fig.savefig(buf, format="svg", metadata=_metadata("svg"))
    return buf.getvalue()


def _metadata(fmt: str) -> dict[str, object] | None:
    """No creation date in the files, so that one drawing is always the same bytes."""
    if fmt == "svg":
        return {"Date": None, "Creator": None}
    return {"CreationDate": None} if fmt == "pdf" else None
