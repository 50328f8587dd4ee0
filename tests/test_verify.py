"""`partgames verify`: statuses, reports, discoveries and errata, and the code named for the records."""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness import cli

import pipeline.runner as runner
from pipeline.storage import COMPLETE, record_checksum


def test_verify_reports_planted_counterexample(capsys, small_store: Path, plant) -> None:
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--format", "json",
                       "--only", "lctr1.lemma2")
    results = json.loads(out)
    assert code == 0 and [r["status"] for r in results] == ["holds"]
    assert set(results[0]) >= {"id", "source", "kind", "status", "rows", "max_n", "counterexamples",
                               "examples"}
    assert results[0]["max_n"] == 14 and results[0]["rows"] > 0
    planted = plant(small_store, "lctr", [3, 3, 1], sg=3)
    code, out, _ = cli(capsys, "verify", "--results", str(planted), "--format", "json",
                       "--only", "lctr1.lemma2")
    results = json.loads(out)
    assert code == 1 and results[0]["status"] == "fails" and results[0]["counterexamples"] == 1
    assert results[0]["examples"][0]["parts"] == [3, 3, 1]
    assert (planted / "VERIFY.md").is_file()


def test_verify_prints_each_statement_as_it_ends(capsys, small_store: Path, monkeypatch) -> None:
    """Over an overnight store a statement takes minutes: its line (with its time) is printed
    when it ends, before the next one runs, and the summary adds up the times."""
    import pipeline.verify as verify_module

    printed_before: list[str] = []
    run_statement = verify_module.run_statement

    def spy(con, st, *args, **kwargs):
        printed_before.append(capsys.readouterr().out)  # what was out when this statement began
        return run_statement(con, st, *args, **kwargs)

    monkeypatch.setattr(verify_module, "run_statement", spy)
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--only", "lctr1.lemma3", "--report", "-")
    assert code == 0 and printed_before[0] == ""
    assert re.match(r"lctr1\.lemma2 .* holds .*\(\d+\.\d s\)\n$", printed_before[1])
    assert re.match(r"lctr1\.lemma3 .*\(\d+\.\d s\)\n2 statements: 2 hold.*; \d+\.\d s\n"
                    r"records of \d+ \(game, n\) computed by code [0-9a-f]{16} \(partgames .*\)\n$", out)
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--format", "json",
                       "--only", "lctr1.lemma2", "--report", "-")
    (result,) = json.loads(out)
    assert result["seconds"] > 0


def test_verify_no_data(capsys, tmp_path: Path) -> None:
    out = tmp_path / "results"
    runner.run(["rook"], max_n=5, out=str(out), jobs=1, progress=False)
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--format", "json", "--only", "lctr1.*")
    results = json.loads(text)
    assert code == 0 and results and all(r["status"] == "no data" for r in results)


def test_conjecture_counterexample_is_a_discovery_not_a_failure(capsys, small_store: Path, plant) -> None:
    """A conjecture that fails is reported loudly, and verify still exits 0."""
    planted = plant(small_store, "lctr", [3, 3, 3], nodes=1)
    code, out, _ = cli(capsys, "verify", "--results", str(planted), "--only", "lctr2.conjecture27")
    assert code == 0
    assert "DISCOVERY" in out
    code, out, _ = cli(capsys, "verify", "--results", str(planted), "--format", "json",
                       "--only", "lctr2.conjecture27")
    (result,) = json.loads(out)
    assert result["kind"] == "conjecture" and result["status"] == "fails"
    assert result["counterexamples"] > 0 and all(e["n"] == 9 for e in result["examples"])


def test_erratum_reports_printed_form(capsys, small_store: Path) -> None:
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--format", "json",
                       "--only", "lctr2.proposition28")
    (result,) = json.loads(out)
    assert code == 0 and result["kind"] == "erratum" and result["status"] == "holds"
    assert result["printed_counterexamples"] > 0 and result["erratum_confirmed"] is True


def test_verify_names_the_code_of_the_records(capsys, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "results"
    runner.run(["lctr"], max_n=6, out=str(out), jobs=1, progress=False)
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--only", "lctr1.lemma2")
    import pipeline

    line = f"records of 6 (game, n) computed by code {pipeline.source_digest()[:16]} (partgames "
    assert code == 0 and line in text and "mixes" not in text
    assert line in (out / "VERIFY.md").read_text()
    old = out / "game=lctr" / "n=2" / COMPLETE
    record = json.loads(old.read_text())
    del record["code"]  # a commit record that does not name its code
    record["checksum"] = record_checksum(record)
    old.write_text(json.dumps(record))
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--only", "lctr1.lemma2", "--report", "-")
    assert "records of 5 (game, n) computed by code" in text
    assert "records of 1 (game, n) computed by code not recorded" in text
    assert "the store mixes records of 2 versions of the code" in text
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--only", "lctr1.lemma2", "--report", "-",
                        "--min-n", "3")
    assert "records of 4 (game, n)" in text and "mixes" not in text


def test_follower_examples_are_the_smallest_whatever_the_passes(small_store: Path, monkeypatch) -> None:
    """A follower erratum's printed examples (lctr2.equation4 fails on most records) are its
    first failures by n, read in passes of three records as in passes of the default size: the
    same rows as its printed query over the table macro ``neighbourhood`` gives, in order."""
    import pipeline.verify as verify_module
    from pipeline.query import connect

    (st,) = verify_module.load_catalogue(select=["lctr2.equation4"])
    con = connect(small_store)
    reference = con.sql(f"SELECT * FROM ({st.printed_query}) ORDER BY n, len(parts), parts "
                        f"LIMIT {verify_module.EXAMPLES}").to_arrow_table().to_pylist()
    assert len(reference) == verify_module.EXAMPLES
    for size in (verify_module.EXAMPLE_CHUNK_RECORDS, 3):
        monkeypatch.setattr(verify_module, "EXAMPLE_CHUNK_RECORDS", size)
        assert verify_module.first_examples(con, st, st.printed_query) == reference, size
