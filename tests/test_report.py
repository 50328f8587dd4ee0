"""``partgames report`` (pipeline/report.py): one self-contained HTML file, held to the SQL.

The report of a small store must hold every section, every statement id of the catalogue, no
reference to a network resource, and charts whose numbers (the JSON beside each chart) equal
what plain SQL over the records gives; a real headless Chromium renders it without console
errors and its DOM holds the sections.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import pipeline.report
from pipeline.cli import main
from pipeline.query import connect
from pipeline.storage import COMPLETE, record_checksum
from pipeline.verify import load_catalogue

#: Statements verified before the report (an erratum, whose printed form fails, and a theorem).
VERIFIED = ("lctr2.proposition28", "chess.thm3_8")


@pytest.fixture(scope="module")
def report_store(small_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the small store (board games and Slow SetNim, n ≤ 14) with a VERIFY.json of a
    few statements, and its report."""
    root = tmp_path_factory.mktemp("report") / "results"
    shutil.copytree(small_store, root)
    only = [arg for st in VERIFIED for arg in ("--only", st)]
    assert main(["verify", "--results", str(root), *only]) == 0
    assert main(["report", "--results", str(root)]) == 0
    return root


def without_summaries(store: Path, dest: Path) -> Path:
    """A copy of ``store`` whose commit records have no summary, as an older partgames wrote
    them: the report then counts the records themselves."""
    shutil.copytree(store, dest)
    for path in dest.glob(f"game=*/n=*/{COMPLETE}"):
        record = json.loads(path.read_text())
        del record["summary"]
        record["checksum"] = record_checksum(record)
        path.write_text(json.dumps(record, sort_keys=True))
    return dest


@pytest.fixture(scope="module", params=["summaries", "records"])
def counted_store(request, report_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report's store as it is (counts from the summaries), and without summaries (counts
    from one pass over the records), each with its report."""
    if request.param == "summaries":
        return report_store
    root = without_summaries(report_store, tmp_path_factory.mktemp("unsummarised") / "results")
    assert main(["report", "--results", str(root)]) == 0
    assert "the summaries, and the records of the" in (root / "report.html").read_text()
    return root


def chart_data(text: str) -> dict[str, dict]:
    """The numbers beside each chart, by game."""
    return {m.group(1): json.loads(m.group(2))
            for m in re.finditer(r'<script type="application/json" data-chart="([^"]+)">(.*?)</script>',
                                 text, re.S)}


#: URIs that name XML vocabularies in matplotlib's SVG (namespaces, RDF metadata): never fetched.
VOCABULARIES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink", "http://purl.org/dc/elements/1.1/",
                "http://creativecommons.org/ns#", "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
                "http://purl.org/dc/dcmitype/StillImage"}


def test_sections_and_statements(report_store: Path) -> None:
    text = (report_store / "report.html").read_text()
    con = connect(report_store)
    games = [g for (g,) in con.execute("SELECT DISTINCT game FROM jobs ORDER BY 1").fetchall()]
    assert len(games) >= 9
    for section in ["store", "verify", *(f"game-{g}" for g in games)]:
        assert f'<section id="{section}"' in text, section
    for st in load_catalogue():
        assert f'id="st-{st.id}"' in text, st.id
    # the statements verified show their status, the others say they were not run
    assert re.search(r'id="st-chess.thm3_8">.*?status-holds">holds<', text, re.S)
    assert re.search(r'id="st-lctr1.lemma2">.*?status-not-run">not run<', text, re.S)
    # the erratum's first witnesses of the misprint drawn (VERIFY.json's printed examples)
    witnesses = json.loads((report_store / "VERIFY.json").read_text())["results"]
    first = next(r for r in witnesses if r["id"] == "lctr2.proposition28")["printed_examples"][0]
    label = pipeline.report.partition_label(first["parts"])
    assert f"witness of the misprint: lctr {label}" in text


def test_no_network_resource(report_store: Path) -> None:
    """Nothing to fetch: no src/href/url() to http(s), no external script, style sheet or font.
    (The SVG namespace URIs name a vocabulary and are never fetched.)"""
    text = (report_store / "report.html").read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text)
    assert not re.search(r"""url\(\s*["']?\s*(https?:)?//""", text)
    assert "@import" not in text and "<link" not in text and "<img" not in text
    scripts = re.findall(r"<script[^>]*>", text)
    data_only = r'<script type="application/json" data-chart="[^"]+">'
    assert scripts and all(re.fullmatch(data_only, s) for s in scripts)
    assert set(re.findall(r"https?://[^\s\"'<>)]+", text)) <= VOCABULARIES


def test_charts_equal_the_sql(counted_store: Path) -> None:
    """Each chart's numbers against plain SQL over the records, written here from the columns'
    definitions (docs/records.md)."""
    data = chart_data((counted_store / "report.html").read_text())
    con = connect(counted_store)
    per_n = con.execute("""
        SELECT game, n::INTEGER, count(*), count(*) FILTER (WHERE sg = 0),
               count(*) FILTER (WHERE sg_misere = 0), max(nodes), max(leaves), min(states), max(height)
        FROM records GROUP BY game, n ORDER BY game, n""").fetchall()
    columns = ("n", "records", "p_positions", "misere_p_positions", "max_nodes", "max_leaves", "min_states",
               "max_height")
    got = [(g, *(r[c] for c in columns)) for g in sorted(data) for r in data[g]["per_n"]]
    assert got == per_n
    pairs = con.execute(
        "SELECT game, sg, sg_misere, n::INTEGER, count(*) FROM records GROUP BY ALL ORDER BY ALL").fetchall()
    got = sorted((g, p["sg"], p["sg_misere"], p["n"], p["records"]) for g in data for p in data[g]["pairs"])
    assert got == pairs


#: The CGH regions of a record (impartial-chess.txt Figure 7), from its flags: class 1 by the
#: nested pet ⊂ miserable ⊂ tame ⊂ domestic, class 2 by forced ⊂ returnable.
REGIONS = """
    SELECT game,
           CASE WHEN pet THEN 'P' WHEN miserable THEN 'M' WHEN tame THEN 'T' WHEN domestic THEN 'D'
                ELSE 'N' END || '∩' || CASE WHEN forced THEN 'F' WHEN returnable THEN 'R' ELSE 'N''' END,
           count(*), min({'n': n, 'parts': parts}).parts
    FROM records GROUP BY ALL"""


def test_regions_equal_the_sql(counted_store: Path) -> None:
    """The CGH table against SQL over the records: the records of each region and its smallest
    partition, by n then parts."""
    text = (counted_store / "report.html").read_text()
    cells = {}
    for game, body in re.findall(r'<section id="game-([^"]+)" class="game">(.*?)</section>', text, re.S):
        for region, records, witness in re.findall(
                r'data-region="([^"]+)" data-records="(\d+)" data-witness="([^"]*)"', body):
            if int(records):
                cells[(game, html.unescape(region))] = (int(records), json.loads(witness))
    want = {(g, region): (k, list(first)) for g, region, k, first in
            connect(counted_store).execute(REGIONS).fetchall()}
    assert len(want) > 20 and cells == want


def test_a_planted_value_moves_the_chart(small_store: Path, plant, tmp_path: Path) -> None:
    """One record of king n = 7 planted with sg 0 (it has sg 3), in a store without summaries:
    one more P-position at n = 7 in the numbers the chart draws (the report's own queries,
    without drawing the page)."""
    store = without_summaries(plant(small_store, "king", [4, 2, 1], sg=0), tmp_path / "bare" / "results")
    con = connect(store, max_n=8)
    pipeline.report.group_records(con)
    king = {r["n"]: r["p_positions"] for r in pipeline.report.per_n_rows(con)["king"]}
    clean = connect(small_store).execute(
        "SELECT n, count(*) FILTER (WHERE sg = 0) FROM king WHERE n <= 8 GROUP BY n").fetchall()
    assert {n: k + (n == 7) for n, k in clean} == king


@pytest.mark.parametrize("out, message", [
    ("/nonexistent/dir/r.html", "partgames: error: --out /nonexistent/dir/r.html: directory /nonexistent/dir "
                                "does not exist"),
    (".", "partgames: error: --out . is a directory"),
])
def test_bad_output_path(small_store: Path, capsys, out: str, message: str) -> None:
    assert main(["report", "--results", str(small_store), "--out", out]) == 2
    assert capsys.readouterr().err == message + "\n"


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(chromium() is None, reason="no chromium (apt-get install chromium; .ci/run does)")
def test_chromium_renders_the_report(report_store: Path, tmp_path: Path) -> None:
    """A real browser, headless, with no network: the page renders to a PNG with no console
    message, and the DOM it built holds every section."""
    page = (report_store / "report.html").resolve().as_uri()
    flags = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
             f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,2400"]
    png = tmp_path / "report.png"
    shot = subprocess.run([*flags, f"--screenshot={png}", page], capture_output=True, text=True, timeout=120)
    assert shot.returncode == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", shot.stderr
    assert png.stat().st_size > 50_000  # a page drawn, not a blank one
    dom = subprocess.run([*flags, "--dump-dom", page], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr
    for err in (shot.stderr, dom.stderr):
        assert not [line for line in err.splitlines() if ":CONSOLE" in line], err
    assert dom.stdout.count('<section id="game-') >= 9
    for section in ("store", "verify", "game-lctr", "game-king"):
        assert f'<section id="{section}"' in dom.stdout
    assert dom.stdout.count("<svg") > 30
