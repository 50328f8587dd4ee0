"""The neighbourhood of a record: the record with the records of T(λ) = λ[1,0] (the top row
removed), L(λ) = λ[0,1] (the left column removed), λ[1,1] (both), λ⁻ (every corner removed),
the conjugate λ', λ[2,0] and λ[0,2] beside it, as one row.

The statements of the papers relate a position's values to those of these partitions (LCTR's
moves are T and L, Downright's down and right moves reach λ[1,0] and λ[0,1]; λ[1,1] is
Downright's diagonal, lctr-sg-complexity.txt Lemma 10; λ⁻ is trunc_M(λ) of
impartial-chess.txt Corollary 4.5 and Equation 7 of lctr-sg-complexity.txt; conjugation is
Lemma 4 of lctr-some-results.txt and Lemma 6 of lctr-sg-complexity.txt; λ[2,0], λ[1,1] and
λ[0,2] are the positions two moves away in LCTR and Downright, which the returnable flag reads,
docs/definitions.md §5).
A follower statement in the predicate form (queries/FORMAT.md, ``needs: followers``) reads its
columns, so that ``verify`` evaluates all of a game's such statements in one join pass per chunk
of n instead of one join per statement.

The row holds every column of the record, the keys ``t_key``, ``l_key``, ``d_key``,
``minus_key``, ``conj_key``, ``tt_key``, ``ll_key`` (the key of () is 0) and, for each column c
of :data:`COLUMNS` (the values, ``parts`` and ``conjugate``), ``t_c``, ``l_c``, ``d_c``,
``minus_c``, ``conj_c``, ``tt_c`` and ``ll_c``: the value of that partition's record, the
terminal position's value when the partition is () (:data:`EMPTY`: () has no record), NULL when
its record is not in the store.

Two ways to the same rows: the table macro ``neighbourhood(game)`` of every connection computes
the keys from the record's lists (``part_key``; ad-hoc SQL, and the reference the tests compare
with), and ``verify`` joins the keys that :func:`pipeline.games.features.neighbour_key_table`
computes from n alone, per chunk of n (no list is read).
"""

from __future__ import annotations

import re

#: The value columns of a record that the neighbourhood carries for each neighbour.
VALUE_COLUMNS: tuple[str, ...] = ("sg", "sg_misere", "nodes", "leaves", "states", "height",
                                  "domestic", "tame", "pet", "miserable", "forced", "returnable")

#: The columns of each neighbour: the values, and the parts and conjugate (lists).
COLUMNS: tuple[str, ...] = (*VALUE_COLUMNS, "parts", "conjugate")

#: The values of the terminal position () (docs/definitions.md §3-5: no move, so sg 0, misère
#: value 1, one node, one leaf, one state, height 0, and every flag, a condition on the
#: positions reachable, holds).
EMPTY: dict[str, str] = {"sg": "0", "sg_misere": "1", "nodes": "1", "leaves": "1", "states": "1",
                         "height": "0", "domestic": "true", "tame": "true", "pet": "true",
                         "miserable": "true", "forced": "true", "returnable": "true",
                         "parts": "[]::SMALLINT[]", "conjugate": "[]::SMALLINT[]"}

#: The neighbours: column prefix, key column, and the SQL computing the key from a record's lists.
NEIGHBOURS: tuple[tuple[str, str], ...] = (
    ("t", "part_key(parts[2:])"),
    ("l", "part_key(list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0))"),
    ("d", "part_key(list_filter(list_transform(parts[2:], lambda x: x - 1), lambda x: x > 0))"),
    ("minus", "part_key(list_filter(list_transform(parts, lambda x, i: CASE WHEN i = len(parts) "
              "OR parts[i + 1] < x THEN x - 1 ELSE x END), lambda x: x > 0))"),
    ("conj", "part_key(conjugate)"),
    ("tt", "part_key(parts[3:])"),
    ("ll", "part_key(list_filter(list_transform(parts, lambda x: x - 2), lambda x: x > 0))"),
)


def neighbours_read(text: str) -> dict[str, tuple[str, ...]]:
    """The neighbours whose columns ``text`` names (``t_sg``, ``conj_key``, …), each with the
    columns named, in :data:`NEIGHBOURS` and :data:`COLUMNS` order: the joins a pass needs, and
    what their hash tables hold.

    >>> neighbours_read("sg = conj_sg AND (t_sg = 0 OR minus_nodes > 1) AND l_key > 0")
    {'t': ('sg',), 'l': (), 'minus': ('nodes',), 'conj': ('sg',)}
    """
    out = {}
    for p, _ in NEIGHBOURS:
        cols = tuple(c for c in COLUMNS if re.search(rf"\b{p}_{c}\b", text))
        if cols or re.search(rf"\b{p}_key\b", text):
            out[p] = cols
    return out


def _columns(alias: str, neighbours: dict[str, tuple[str, ...]]) -> str:
    cols = []
    for prefix, names in neighbours.items():
        for c in names:
            cols.append(f"CASE WHEN {alias}.{prefix}_key = 0 THEN {EMPTY[c]} ELSE {prefix}_.{c} END "
                        f"AS {prefix}_{c}")
    return ", ".join(cols)


def neighbourhood_sql(source: str, keys: str | None = None, lo: int | None = None,
                      hi: int | None = None, neighbours: dict[str, tuple[str, ...]] | None = None,
                      sources: dict[str, str] | None = None) -> str:
    """The neighbourhood rows of the records of ``source`` (a view, or ``query_table(…)``).

    ``keys`` None: the keys are computed from the record's lists. Otherwise ``keys`` names a
    relation (n, ordinal and each neighbour's key) and the records are those of the n it holds;
    ``lo``, ``hi``: the n of those records, so that the neighbours are read at n <= ``hi`` only
    (a follower has a smaller n, the conjugate the same). ``neighbours``: only these are joined,
    each with the columns given (default: all, with every column). ``sources``: per neighbour, a
    query over the records of ``source`` that holds every record its keys name (the files that
    hold them), read instead of ``source``."""
    if neighbours is None:
        neighbours = {p: COLUMNS for p, _ in NEIGHBOURS}
    if keys is None:
        base = (f"SELECT *, {', '.join(f'{sql} AS {p}_key' for p, sql in NEIGHBOURS)} "
                f"FROM {source} WHERE verify_subject(n)")
    else:
        base = (f"SELECT r_.*, {', '.join(f'k_.{p}_key' for p, _ in NEIGHBOURS)} FROM {source} r_ "
                f"JOIN {keys} k_ ON k_.n = r_.n AND k_.ordinal = r_.ordinal")
        if lo is not None and hi is not None:
            base += f" WHERE r_.n BETWEEN {lo} AND {hi}"
    below = f" WHERE n <= {hi}" if hi is not None else ""
    same = f" WHERE n BETWEEN {lo} AND {hi}" if lo is not None and hi is not None else ""
    joins = []
    for prefix, names in neighbours.items():
        where = same if prefix == "conj" else below
        src = source
        if sources is not None and prefix in sources:
            src, where = f"({sources[prefix]})", ""
        if keys is not None:
            # only the records some key names: the join's hash table then holds a pass's
            # neighbours, not every record below its n (at n <= 80, 123 M a game)
            named = f"record_key(n, ordinal) IN (SELECT {prefix}_key FROM {keys})"
            where += f" AND {named}" if where else f" WHERE {named}"
        cols = "".join(f", {c}" for c in names)
        joins.append(f"LEFT JOIN (SELECT record_key(n, ordinal) AS key_{cols} FROM {src}{where}) "
                     f"{prefix}_ ON {prefix}_.key_ = a_.{prefix}_key")
    cols = _columns("a_", neighbours)
    return f"SELECT a_.*{', ' if cols else ''}{cols} FROM ({base}) a_ " + " ".join(joins)


def neighbourhood_macro() -> str:
    """The table macro ``neighbourhood(game)``: the neighbourhood rows of the game's records with
    ``verify_subject(n)`` (every record outside ``partgames verify``)."""
    return (f"CREATE OR REPLACE MACRO neighbourhood(game_) AS TABLE "
            f"{neighbourhood_sql('query_table(game_)')}")
