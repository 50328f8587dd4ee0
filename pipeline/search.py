"""`partgames search NAME`: exploratory queries of ``queries/search/`` that save their findings.

A search file is a header (``-- description: …``, continued on ``--   `` lines) and one SQL
query. Its result table is printed and saved as ``RESULTS/search/<name>.csv`` (ready for an
integer-sequence lookup or a spreadsheet).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.query import connect, format_result, queries_dir
from pipeline.storage import write_text_atomic
from pipeline.verify import StatementError


def search_files() -> dict[str, Path]:
    """Each search of ``queries/search/`` by name (its file's stem), in name order."""
    return {p.stem: p for p in sorted((queries_dir() / "search").glob("*.sql"))}


def _description(path: Path) -> str:
    lines = path.read_text().splitlines()
    for k, line in enumerate(lines):
        if line.startswith("-- description:"):
            text = line.split(":", 1)[1].strip()
            for cont in lines[k + 1:]:
                if cont.startswith("--  "):
                    text += " " + cont[2:].strip()
                else:
                    break
            return text
    return ""


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
    out_dir = Path(results) / "search"
    out_dir.mkdir(exist_ok=True)
    csv_path = out_dir / f"{name}.csv"
    write_text_atomic(csv_path, format_result(table, "csv") + "\n")
    shown = format_result(table, fmt)
    return shown + (f"\nsaved {table.num_rows} rows to {csv_path}" if fmt == "table" else "")
