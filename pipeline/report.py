"""``partgames report``: one self-contained HTML file on a store (docs/pictures.md).

The page holds the store's contents and provenance, the statement catalogue with the results of
the last ``partgames verify`` (``RESULTS/VERIFY.json``) and each counterexample or erratum
witness drawn, per game the counts against n as charts, the CGH regions of the chess paper's
Figure 7 with the smallest witness of each occupied region drawn, and the value grids of every
game on the families of the theorems. Every figure is drawn by matplotlib and inlined as SVG, the
page is filled from a Jinja2 template: it reads nothing from the network.

The numbers are aggregates computed by DuckDB: the ``summaries`` view (one row per (game, n))
where the store has it, else one grouped pass over the records; records themselves are read
only for the handful of partitions drawn, with a constant list of n so that DuckDB opens those
n's files only. Each chart's numbers are in the page as JSON beside it (``data-chart``), the
rows of the SQL they come from.
"""

from __future__ import annotations

import json
import math
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import duckdb

from pipeline.pictures import ValueGrid, draw_grid, partition_label, read_grids, svg_text
from pipeline.query import connect, held_prefix, stored_n
from pipeline.schema import BOARD_GAMES
from pipeline.storage import write_text_atomic
from pipeline.verify import Statement, games_read, load_catalogue

TEMPLATE = "report.html.j2"
#: The regions of the CGH classification (impartial-chess.txt Figure 7, Table 1), as
#: ``queries/search/cgh_regions.sql`` names them: class 1 (nested) P = pet, M = miserable not
#: pet, T = tame not miserable, D = domestic not tame, N = not domestic; class 2 F = forced,
#: R = returnable not forced, N' = not returnable.
CLASS1 = ("P", "M", "T", "D", "N")
CLASS2 = ("F", "R", "N'")


def class_sql(record: str = "") -> tuple[str, str]:
    """SQL for a record's class 1 and class 2 (:data:`CLASS1`, :data:`CLASS2`) from its flags,
    read as fields of ``record`` (a table alias or a struct, with its dot) or as columns.

    >>> print(class_sql("r.")[1])
    CASE WHEN r.forced THEN 'F' WHEN r.returnable THEN 'R' ELSE 'N''' END
    """
    c1 = (f"CASE WHEN {record}pet THEN 'P' WHEN {record}miserable THEN 'M' WHEN {record}tame THEN 'T' "
          f"WHEN {record}domestic THEN 'D' ELSE 'N' END")
    c2 = f"CASE WHEN {record}forced THEN 'F' WHEN {record}returnable THEN 'R' ELSE 'N''' END"
    return c1, c2


CLASS1_SQL, CLASS2_SQL = class_sql()
#: Pairs (sg, sg_misere) charted one by one per game (the most frequent); the rest are "other".
PAIRS_SHOWN = 7
#: Counterexamples drawn per statement.
DRAWN_PER_STATEMENT = 3


def write_report(results: str | Path, out: str | Path, min_n: int | None = None, max_n: int | None = None,
                 settings: dict[str, str] | None = None) -> tuple[float, int]:
    """Write the report of the store at ``results`` (records with min_n ≤ n ≤ max_n) to ``out``;
    (seconds taken, bytes written)."""
    start = time.perf_counter()
    html = build_report(results, min_n=min_n, max_n=max_n, settings=settings)
    write_text_atomic(Path(out), html)
    return time.perf_counter() - start, len(html.encode())


def build_report(results: str | Path, min_n: int | None = None, max_n: int | None = None,
                 settings: dict[str, str] | None = None) -> str:
    """The report's HTML text."""
    import jinja2

    con = connect(results, min_n=min_n, max_n=max_n, settings=settings)
    stored = stored_n(con)
    games = _order(stored)
    unsummarised = group_records(con)
    per_n = per_n_rows(con)
    per_n.source = (f"the summaries, and the records of the {len(unsummarised)} (game, n) without one"
                    if unsummarised else "the summaries")
    pairs = pair_rows(con)
    regions = region_rows(con)
    verify = verify_rows(con, Path(results))
    drawings = _Drawings(con, stored)
    for row in verify["rows"]:
        for ex in row["examples"]:
            drawings.want(ex["game"], ex["parts"])
    witnesses = {key: r["first"] for key, r in regions.items()}
    for (game, _, _), parts in witnesses.items():
        drawings.want(game, parts)
    drawn = diagram_games(games)
    families = {g: family_partitions(held_prefix(stored[g])) for g in games if g in drawn}
    for g, named in families.items():
        for _, parts in named:
            drawings.want(g, parts)
    drawings.read()

    sections = []
    for g in games:
        if g not in per_n:
            continue
        charts = game_charts(g, per_n[g], pairs.get(g, {}))
        sections.append({
            "game": g, "chart": charts["svg"], "data": charts["data"],
            "regions": _region_table(g, regions, witnesses, drawings),
            "families": [{"name": name, "parts": partition_label(p), "svg": drawings.svg(g, p)}
                         for name, p in families.get(g, [])],
        })
    for row in verify["rows"]:
        row["drawings"] = [{"label": f"{ex['game']} {partition_label(ex['parts'])}",
                            "svg": drawings.svg(ex["game"], ex["parts"])} for ex in row["examples"]]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.filters["number"] = lambda v: "–" if v is None else f"{v:,}"
    return env.get_template(TEMPLATE).render(
        results=str(results), store=store_rows(con), per_n_source=per_n.source,
        verify=verify, games=sections, class1=CLASS1, class2=CLASS2,
        board_games=[g for g in games if g in drawn], generated=time.strftime("%Y-%m-%d %H:%M UTC",
                                                                               time.gmtime()))


def diagram_games(games: Iterable[str]) -> set[str]:
    """Those of ``games`` whose values the report draws on diagrams: the games that say their
    positions are partitions with a box's sub-partition among them
    (:attr:`pipeline.games.base.Game.diagram_positions`). A game this process does not know (a
    rules game whose rules were not given: ``report --rules FILE``) is charted, not drawn."""
    from pipeline.games import known_game  # the game says what it offers

    out = set()
    for g in games:
        game = known_game(g)
        if game is not None and game.diagram_positions:
            out.add(g)
    return out


def _order(stored: dict[str, set[int]]) -> list[str]:
    """The games of the store, the papers' board games first in their usual order."""
    return [g for g in BOARD_GAMES if g in stored] + sorted(g for g in stored if g not in BOARD_GAMES)


def store_rows(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """One row per game: n held, records, bytes, and the code (and release) that computed them."""
    rows = con.sql("""
        SELECT game, count(*) AS jobs, min(n) AS min_n, max(n) AS max_n, sum(records)::BIGINT AS records,
               sum(bytes)::BIGINT AS bytes,
               list(DISTINCT coalesce(left(code, 16), 'not recorded') ORDER BY 1) AS codes,
               list(DISTINCT coalesce(version, '?') ORDER BY 1) AS versions
        FROM jobs GROUP BY game""").to_arrow_table().to_pylist()
    order = {g: k for k, g in enumerate(_order({r["game"]: set() for r in rows}))}
    for r in sorted(rows, key=lambda r: order[r["game"]]):
        r["gaps"] = r["max_n"] - r["min_n"] + 1 - r["jobs"]
    return sorted(rows, key=lambda r: order[r["game"]])


#: The (game, n) of the store without a summary (committed by an older partgames, before
#: ``check --adopt``), whose counts are taken from their records.
UNSUMMARISED_SQL = "SELECT game, n FROM jobs ANTI JOIN summaries USING (game, n) ORDER BY game, n"
#: The records of those (game, n) grouped by everything the charts and tables count: one pass
#: over the records (``{where}`` keeps those (game, n)), into a small table.
GROUPS_SQL = f"""
    CREATE OR REPLACE TEMP TABLE report_groups AS
    SELECT game, n::INTEGER AS n, sg, sg_misere, {CLASS1_SQL} AS class1, {CLASS2_SQL} AS class2,
           count(*) AS records, min(parts) AS first, max(nodes) AS max_nodes, max(leaves) AS max_leaves,
           count(*) FILTER (WHERE nodes IS NULL OR leaves IS NULL) AS overflow_records,
           min(states) AS min_states, max(height) AS max_height
    FROM records {{where}} GROUP BY ALL"""
#: Per (game, n): records, P-positions (sg 0), misère P-positions, the largest game tree (nodes
#: and leaves over the values below 2^63; ``overflow_records`` are beyond, docs/definitions.md
#: §4), the fewest states, the longest play. From the summaries, and the groups of the others.
PER_N_SQL = """
    SELECT game, n::INTEGER AS n, records, p_positions, misere_p_positions, max_nodes, max_leaves,
           overflow_records, min_states, max_height
    FROM summaries
    UNION ALL
    SELECT game, n, sum(records)::BIGINT, coalesce(sum(records) FILTER (WHERE sg = 0), 0)::BIGINT,
           coalesce(sum(records) FILTER (WHERE sg_misere = 0), 0)::BIGINT, max(max_nodes), max(max_leaves),
           sum(overflow_records)::BIGINT, min(min_states), max(max_height)
    FROM report_groups GROUP BY game, n
    ORDER BY game, n"""
#: Records per (game, n, sg, sg_misere).
PAIRS_SQL = """
    SELECT game, n::INTEGER AS n, p.sg, p.sg_misere, p.records FROM summaries, unnest(pairs) AS t(p)
    UNION ALL
    SELECT game, n, sg, sg_misere, sum(records)::BIGINT FROM report_groups GROUP BY ALL
    ORDER BY game, n, sg, sg_misere"""
#: Records per CGH region (see :data:`CLASS1`) and its smallest partition, by n then parts (the
#: ``cgh_regions`` search's witness).
REGIONS_SQL = f"""
    WITH per_n AS (
        SELECT game, n::INTEGER AS n, {class_sql("r.")[0]} AS class1, {class_sql("r.")[1]} AS class2,
               r.records, r.first
        FROM (SELECT game, n, unnest(regions) AS r FROM summaries)
        UNION ALL
        SELECT game, n, class1, class2, records, first FROM report_groups
    )
    SELECT game, class1, class2, sum(records)::BIGINT AS records,
           min({{'n': n, 'parts': first}}).parts AS first
    FROM per_n GROUP BY ALL ORDER BY ALL"""


def group_records(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int]]:
    """Group the records of the (game, n) without a summary (:data:`GROUPS_SQL`; none in a
    store of this partgames) into the temporary table ``report_groups`` that the other queries
    read beside the ``summaries`` view; those (game, n)."""
    missing = con.execute(UNSUMMARISED_SQL).fetchall()
    if missing:
        ns = ", ".join(str(n) for n in sorted({n for _, n in missing}))
        pairs = ", ".join(f"('{g.replace(chr(39), chr(39) * 2)}', {n})" for g, n in missing)
        # a constant list of n, so that DuckDB opens those n's files only (n is the partition key)
        where = f"WHERE n IN ({ns}) AND (game, n) IN (VALUES {pairs})"
    else:
        where = "WHERE false"
    con.execute(GROUPS_SQL.format(where=where))
    return missing


class PerN(dict):
    """Rows of the per-(game, n) aggregates by game, and where they were read (``source``)."""

    source: str = ""


def per_n_rows(con: duckdb.DuckDBPyConnection) -> PerN:
    """Records, P-positions, misère P-positions, the largest game tree and the fewest states per
    (game, n), by game (after :func:`group_records`)."""
    out = PerN()
    for row in con.sql(PER_N_SQL).to_arrow_table().to_pylist():
        out.setdefault(row.pop("game"), []).append(row)
    return out


def pair_rows(con: duckdb.DuckDBPyConnection) -> dict[str, dict[tuple[int, int], dict[int, int]]]:
    """Records per pair (sg, sg_misere) and n, by game: {game: {(sg, sg_misere): {n: records}}}."""
    out: dict[str, dict[tuple[int, int], dict[int, int]]] = {}
    for game, n, sg, mis, k in con.execute(PAIRS_SQL).fetchall():
        out.setdefault(game, {}).setdefault((sg, mis), {})[n] = k
    return out


def region_rows(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str, str], dict]:
    """{(game, class1, class2): {records, first}} for the occupied regions."""
    return {(g, c1, c2): {"records": k, "first": list(first)}
            for g, c1, c2, k, first in con.execute(REGIONS_SQL).fetchall()}


def verify_rows(con: duckdb.DuckDBPyConnection, results: Path) -> dict:
    """Every statement of the catalogue with the result of the last ``partgames verify`` on
    this store (``VERIFY.json``; "not run" where it has none), and the examples to draw: the
    first counterexamples (or, for an erratum, the first records the printed form fails on)
    that name a board game and a partition."""
    saved, provenance, written = {}, [], None
    path = results / "VERIFY.json"
    if path.is_file():
        data = json.loads(path.read_text())
        saved = {r["id"]: r for r in data.get("results", [])}
        provenance = data.get("provenance", [])
        written = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(path.stat().st_mtime))
    rows = []
    for st in load_catalogue():
        r = saved.get(st.id, {})
        examples = r.get("examples", []) if r.get("counterexamples") else r.get("printed_examples", [])
        drawn = []
        for ex in examples[:DRAWN_PER_STATEMENT]:
            game = _game_of(con, st, ex) if isinstance(ex, dict) else None
            if game and game in diagram_games([game]) and isinstance(ex.get("parts"), list) and ex["parts"]:
                drawn.append({"game": game, "parts": ex["parts"]})
        rows.append({
            "id": st.id, "source": st.header["source"], "kind": st.kind,
            "status": r.get("status", "not run"),
            "n_range": f"{r['min_n']}–{r['max_n']}" if r.get("rows") else "–",
            "rows": r.get("rows"), "counterexamples": r.get("counterexamples"),
            "printed": r.get("printed_counterexamples"), "examples": drawn,
            "what": "counterexample" if r.get("counterexamples") else "witness of the misprint",
        })
    return {"rows": rows, "provenance": provenance, "written": written, "ran": bool(saved)}


def _game_of(con: duckdb.DuckDBPyConnection, st: Statement, example: dict) -> str | None:
    """The game of a counterexample: its ``game`` column, else the one game the statement reads
    (:func:`pipeline.verify.games_read`), else None (not drawn)."""
    if example.get("game"):
        return str(example["game"])
    read = games_read(con, st, set(BOARD_GAMES))
    return next(iter(read)) if len(read) == 1 else None


def family_partitions(k: int) -> list[tuple[str, tuple[int, ...]]]:
    """The families of the theorems (docs/definitions.md §1) at a size the store holds whole
    (every n ≤ ``k``): the largest staircase S(m), rectangle R(r, c) and hook H(r, c) up to 8
    rows and columns.

    >>> family_partitions(12)  # doctest: +NORMALIZE_WHITESPACE
    [('staircase S(4)', (4, 3, 2, 1)), ('rectangle R(3,4)', (4, 4, 4)),
     ('hook H(7,6)', (6, 1, 1, 1, 1, 1, 1))]
    >>> family_partitions(0)
    []
    """
    out: list[tuple[str, tuple[int, ...]]] = []
    m = min(8, (math.isqrt(8 * k + 1) - 1) // 2)
    if m >= 1:
        out.append((f"staircase S({m})", tuple(range(m, 0, -1))))
    r = min(6, math.isqrt(k))
    if r >= 1:
        c = min(8, k // r)
        out.append((f"rectangle R({r},{c})", (c,) * r))
    c = min(8, (k + 1) // 2)
    if c >= 1:
        rows = min(8, k + 1 - c)
        out.append((f"hook H({rows},{c})", (c,) + (1,) * (rows - 1)))
    return out


class _Drawings:
    """The diagrams of the page: asked for first, then every game's grids read in one query
    (:func:`pipeline.pictures.read_grids`) and drawn once each."""

    def __init__(self, con: duckdb.DuckDBPyConnection, stored: dict[str, set[int]]):
        self.con, self.stored = con, stored
        self.wanted: dict[str, set[tuple[int, ...]]] = defaultdict(set)
        self.grids: dict[tuple[str, tuple[int, ...]], ValueGrid] = {}
        self.svgs: dict[tuple[str, tuple[int, ...]], str] = {}

    def want(self, game: str, parts: Iterable[int]) -> None:
        self.wanted[game].add(tuple(parts))

    def read(self) -> None:
        for game, partitions in self.wanted.items():
            if game not in self.stored:
                continue
            ordered = sorted(partitions)
            for p, grid in zip(ordered, read_grids(self.con, game, ordered, self.stored[game]), strict=True):
                self.grids[(game, p)] = grid

    def svg(self, game: str, parts: Iterable[int]) -> str | None:
        key = (game, tuple(parts))
        if key not in self.grids:
            return None
        if key not in self.svgs:
            fig = draw_grid(self.grids[key], ("sg", "sg_misere"), box=0.24,
                            title=f"{game} {partition_label(key[1])}")
            self.svgs[key] = inline_svg(svg_text(fig))
        return self.svgs[key]


def inline_svg(document: str) -> str:
    """An SVG document as an element to place inside HTML: from its ``<svg`` tag on (the XML
    declaration and doctype belong to a file, not to a page)."""
    return document[document.index("<svg"):]


def _region_table(game: str, regions: dict, witnesses: dict, drawings: _Drawings) -> list[list[dict]]:
    """Figure 7 for one game: a row per class 2, a cell per class 1, each with its records and
    the smallest witness drawn."""
    table = []
    for c2 in CLASS2:
        row = []
        for c1 in CLASS1:
            r = regions.get((game, c1, c2))
            parts = witnesses.get((game, c1, c2))
            row.append({"region": f"{c1}∩{c2}", "records": r["records"] if r else 0,
                        "parts": json.dumps(parts) if parts else "",
                        "witness": partition_label(parts) if parts else None,
                        "svg": drawings.svg(game, parts) if parts else None})
        table.append(row)
    return table


def game_charts(game: str, rows: list[dict], pairs: dict[tuple[int, int], dict[int, int]]) -> dict:
    """One figure of charts against n for a game, as SVG, and the numbers it draws (``data``:
    the rows of the SQL, and the pairs' records per n)."""
    from matplotlib.figure import Figure

    ns = [r["n"] for r in rows]
    fig = Figure(figsize=(12, 6.4))
    (a, b, c), (d, e, f) = fig.subplots(2, 3)
    # placed by hand: a layout engine measures every text, slow
    fig.subplots_adjust(left=0.06, right=0.98, bottom=0.08, top=0.9, wspace=0.25, hspace=0.4)
    a.plot(ns, [r["p_positions"] for r in rows], "o-", ms=3, label="P-positions")
    a.plot(ns, [r["misere_p_positions"] for r in rows], "s-", ms=3, label="misère P-positions")
    a.plot(ns, [r["records"] for r in rows], ":", color="0.5", label="records (p(n))")
    a.set_yscale("log")
    a.set_title("P-positions")
    a.legend(fontsize=7)
    b.plot(ns, [r["p_positions"] / r["records"] for r in rows], "o-", ms=3, label="P")
    b.plot(ns, [r["misere_p_positions"] / r["records"] for r in rows], "s-", ms=3, label="misère P")
    b.set_title("share of the records of n")
    b.legend(fontsize=7)
    totals = {p: sum(by_n.values()) for p, by_n in pairs.items()}
    top = sorted(totals, key=lambda p: (-totals[p], p))[:PAIRS_SHOWN]
    records = {r["n"]: r["records"] for r in rows}
    stacks = [[pairs[p].get(n, 0) / records[n] for n in ns] for p in top]
    other = [1 - sum(s[k] for s in stacks) for k in range(len(ns))]
    c.stackplot(ns, *stacks, other, labels=[f"({p[0]},{p[1]})" for p in top] + ["other"])
    c.set_ylim(0, 1)
    c.set_title("share of each (sg, sg_misere) pair")
    c.legend(fontsize=6, ncol=2, loc="upper right")
    d.plot(ns, [r["max_nodes"] for r in rows], "o-", ms=3, label="nodes")
    d.plot(ns, [r["max_leaves"] for r in rows], "s-", ms=3, label="leaves")
    d.set_yscale("log")
    d.set_title("largest game tree of n")
    d.legend(fontsize=7)
    e.plot(ns, [r["min_states"] for r in rows], "o-", ms=3)
    e.set_title("fewest states of n")
    f.plot(ns, [r["max_height"] for r in rows], "o-", ms=3)
    f.set_title("longest play of n (height)")
    for ax in (a, b, c, d, e, f):
        ax.set_xlabel("n", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    fig.suptitle(game)
    data = {"per_n": rows,
            "pairs": [{"sg": p[0], "sg_misere": p[1], "n": n, "records": k}
                      for p in sorted(pairs) for n, k in sorted(pairs[p].items())]}
    return {"svg": inline_svg(svg_text(fig)), "data": json.dumps(data)}
