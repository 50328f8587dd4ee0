"""`partgames search NAME`: exploratory queries of ``queries/search/`` that save their findings.

A search file is a header (``-- description: …``, continued on ``--   `` lines) and one SQL
query. Its result table is printed and saved as ``RESULTS/search/<name>.csv`` (ready for an
integer-sequence lookup or a spreadsheet). A header line ``-- post: NAME`` passes the query's
table through the Python step ``POST[NAME]`` first (a fit the SQL alone cannot state), which
reads the file's other header keys (``-- features: …`` for ``pset_classes``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.query import connect, format_result, queries_dir
from pipeline.storage import write_text_atomic
from pipeline.verify import StatementError


def search_files() -> dict[str, Path]:
    """Each search of ``queries/search/`` by name (its file's stem), in name order."""
    return {p.stem: p for p in sorted((queries_dir() / "search").glob("*.sql"))}


def _header(path: Path, key: str) -> str:
    lines = path.read_text().splitlines()
    for k, line in enumerate(lines):
        if line.startswith(f"-- {key}:"):
            text = line.split(":", 1)[1].strip()
            for cont in lines[k + 1:]:
                if cont.startswith("--  "):
                    text += " " + cont[2:].strip()
                else:
                    break
            return text
    return ""


def _description(path: Path) -> str:
    return _header(path, "description")


def list_searches() -> list[tuple[str, str]]:
    return [(name, _description(p)) for name, p in search_files().items()]


def run_search(results: str | Path, name: str, fmt: str = "table", min_n: int | None = None,
               max_n: int | None = None, settings: dict[str, str] | None = None) -> str:
    files = search_files()
    if name not in files:
        raise StatementError(f"no search named {name!r} (known: {', '.join(files) or 'none'})")
    con = connect(results, min_n=min_n, max_n=max_n, settings=settings)
    query = files[name].read_text().strip().rstrip(";")
    table = con.sql(query).to_arrow_table()
    post = _header(files[name], "post")
    if post:
        if post not in POST:
            raise StatementError(f"search {name!r}: no post step named {post!r} (known: {', '.join(POST)})")
        table = POST[post](table, files[name])
    out_dir = Path(results) / "search"
    out_dir.mkdir(exist_ok=True)
    csv_path = out_dir / f"{name}.csv"
    write_text_atomic(csv_path, format_result(table, "csv") + "\n")
    shown = format_result(table, fmt)
    return shown + (f"\nsaved {table.num_rows} rows to {csv_path}" if fmt == "table" else "")


# --------------------------------------------------------------------------------------------------
# pset_classes: P-positions as a union of classes of features
# --------------------------------------------------------------------------------------------------
def _features(path: Path) -> list[tuple[str, bool]]:
    """``-- features: sigma mod, odd, …``: the feature columns in order, each with whether it is
    taken mod M (M = 2..4·stacks) rather than as it is."""
    out = []
    for item in _header(path, "features").split(","):
        words = item.split()
        if not words or len(words) > 2 or (len(words) == 2 and words[1] != "mod"):
            raise StatementError(f"{path.name}: a feature is 'COLUMN' or 'COLUMN mod', not {item.strip()!r}")
        out.append((words[0], len(words) == 2))
    if not out:
        raise StatementError(f"{path.name}: post step pset_classes needs a '-- features:' line")
    return out


def _fit(values: list[np.ndarray], records: np.ndarray, p: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Classes of the rows by the tuple of ``values``: (impurity, the class tuples, whether each
    is a P-class (its majority outcome; a tie counts as N))."""
    keys = np.stack(values, axis=1) if values else np.zeros((len(records), 0), dtype=np.int64)
    classes, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    total = np.bincount(inverse, weights=records, minlength=len(classes))
    ps = np.bincount(inverse, weights=p, minlength=len(classes))
    impurity = int(np.minimum(ps, total - ps).sum())
    return impurity, classes, ps * 2 > total


def _render(names: list[str], classes: np.ndarray, is_p: np.ndarray) -> str:
    """The P-classes grouped by the first feature: ``first → tuples of the others``."""
    chosen = [tuple(int(v) for v in c) for c, q in zip(classes, is_p, strict=True) if q]
    if not chosen:
        return "∅"
    if len(names) == 1:
        return "{" + ",".join(str(c[0]) for c in chosen) + "}"
    groups: dict[int, list[str]] = {}
    for c in chosen:
        rest = c[1:]
        text = str(rest[0]) if len(rest) == 1 else "(" + ",".join(map(str, rest)) + ")"
        groups.setdefault(c[0], []).append(text)
    return "; ".join(f"{k}→{{{','.join(v)}}}" for k, v in groups.items())


def pset_classes(table: pa.Table, path: Path) -> pa.Table:
    """Per game of ``table`` (rows: game, stacks, moves, the feature columns, records, p, min_n,
    max_n; one row per feature tuple), the smallest description of its P-positions as a union of
    feature classes, or the least impure one (queries/search/pset_classes.sql)."""
    feats = _features(path)
    needed = ["game", "stacks", "moves", "records", "p", "min_n", "max_n"] + [f for f, _ in feats]
    missing = [c for c in needed if c not in table.column_names]
    if missing:
        raise StatementError(f"{path.name}: the query lacks the column(s) {', '.join(missing)}")
    cols = {c: table.column(c).to_pylist() for c in table.column_names}
    rows_of: dict[str, list[int]] = {}
    for i, g in enumerate(cols["game"]):
        rows_of.setdefault(g, []).append(i)
    out: list[dict[str, object]] = []
    for game, idx in rows_of.items():
        stacks = int(cols["stacks"][idx[0]])
        rec = np.array([cols["records"][i] for i in idx], dtype=np.float64)
        p = np.array([cols["p"][i] for i in idx], dtype=np.float64)
        data = {f: np.array([cols[f][i] for i in idx], dtype=np.int64) for f, _ in feats}
        # M up to 4s, and only where every residue is seen over at least two periods of the
        # largest value present: a larger M splits the data by total alone (it overfits).
        top_m = min(4 * stacks, max(int(data[f].max()) for f, m in feats if m) // 2) if any(
            m for _, m in feats) else 0
        best: tuple | None = None  # (impure?, features, M, P-classes, order, impurity, …)
        sigma_odd: tuple[int, int] | None = None
        order = 0
        for size in range(1, len(feats) + 1):
            for subset in combinations(range(len(feats)), size):
                mods = range(2, top_m + 1) if any(feats[k][1] for k in subset) else [0]
                for m in mods:
                    values = [data[feats[k][0]] % m if feats[k][1] else data[feats[k][0]] for k in subset]
                    impurity, classes, is_p = _fit(values, rec, p)
                    names = [f"{feats[k][0]}%{m}" if feats[k][1] else feats[k][0] for k in subset]
                    if [feats[k][0] for k in subset] == [feats[0][0], feats[1][0]] and (
                            sigma_odd is None or impurity < sigma_odd[1]):
                        sigma_odd = (m, impurity)
                    key = (impurity > 0, impurity if impurity else 0, size, m, int(is_p.sum()), order)
                    if best is None or key < best[0]:
                        best = (key, names, classes, is_p, impurity)
                    order += 1
        assert best is not None
        _, names, classes, is_p, impurity = best
        out.append({
            "game": game, "stacks": stacks, "moves": cols["moves"][idx[0]],
            "min_n": min(cols["min_n"][i] for i in idx), "max_n": max(cols["max_n"][i] for i in idx),
            "records": int(rec.sum()), "p_positions": int(p.sum()),
            "features": ", ".join(names), "classes": len(classes), "p_classes": int(is_p.sum()),
            "impurity": impurity, "pset": _render(names, classes, is_p),
            "pset_json": json.dumps([[int(v) for v in c] for c, q in zip(classes, is_p, strict=True) if q],
                                    separators=(",", ":")),
            "sigma_odd": "" if sigma_odd is None else f"M={sigma_odd[0]}: impurity {sigma_odd[1]}",
        })
    return pa.Table.from_pylist(out) if out else pa.table({"game": pa.array([], pa.string())})


#: The post steps a search file may name (``-- post: NAME``).
POST: dict[str, Callable[[pa.Table, Path], pa.Table]] = {"pset_classes": pset_classes}
