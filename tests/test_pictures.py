"""``partgames draw`` (pipeline/pictures.py): the value grids of SPEC §7 read back from the SVG.

Every box's value is a ``<text>`` element inside a group ``<value>-<i>-<j>``; the tests read
them back in order and compare them with the grids printed in docs/definitions.md §7 (the
papers' figures), with the plain-Python reference for misère values, and with a wrong value
planted in the store.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import reference

from pipeline.cli import main

SVG = "{http://www.w3.org/2000/svg}"
LCTR_GRID = "01010101 / 2010101 / 120101 / 01202 / 10121 / 01 / 1".split(" / ")
KING_GRID = "21021 / 03210 / 210 / 10 / 0".split(" / ")


def box_rows(svg: Path, value: str = "sg") -> list[str]:
    """The texts of the boxes ``<value>-<i>-<j>`` of an SVG, row by row, left to right."""
    boxes = {}
    for g in ET.parse(svg).iter(f"{SVG}g"):
        name = g.get("id", "")
        if name.startswith(value + "-") and name.count("-") == 2 + value.count("-"):
            i, j = map(int, name[len(value) + 1:].split("-"))
            (text,) = g.iter(f"{SVG}text")
            boxes[(i, j)] = text.text
    rows = max(i for i, _ in boxes) + 1
    return ["".join(boxes[(i, j)] for j in range(max(j for r, j in boxes if r == i) + 1))
            for i in range(rows)]


def test_lctr_grid_solved_without_a_store(tmp_path: Path) -> None:
    """No store: every value solved by the kernels, in a real ``partgames draw`` process."""
    out = tmp_path / "lctr.svg"
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "draw", "lctr", "8,7,6,5,5,2,1",
                           "--results", str(tmp_path / "none"), "--out", str(out)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {out} (values of n = 1, 2,") and "34 solved" in done.stdout
    assert box_rows(out) == LCTR_GRID
    assert out.stat().st_size < 30_000 and "<path d" not in out.read_text().split("sg-0-0")[1][:400]


def test_king_grid_from_the_store_and_solved(small_store: Path, tmp_path: Path, capsys) -> None:
    """The store holds n ≤ 14; λ itself (n = 16) and λ[0,1] (n = 11 ≤ 14, stored) mix both."""
    out = tmp_path / "king.svg"
    args = ["draw", "king", "5,5,3,2,1", "--results", str(small_store), "--out", str(out), "--both"]
    assert main(args) == 0
    assert capsys.readouterr().out == f"wrote {out} (values of n = 16 solved: not in {small_store})\n"
    assert box_rows(out) == KING_GRID
    lam = (5, 5, 3, 2, 1)
    misere = ["".join(str(reference.board_record("king", [x - j for x in lam[i:] if x > j])["sg_misere"])
                      for j in range(lam[i])) for i in range(len(lam))]
    assert box_rows(out, "sg_misere") == misere


def test_a_planted_value_shows(small_store: Path, plant, tmp_path: Path) -> None:
    """king on (5,5,3,2,1): box (1,1) holds sg of λ[1,1] = (4,2,1), 3 in the store; planted 9."""
    store = plant(small_store, "king", [4, 2, 1], sg=9)
    out = tmp_path / "planted.svg"
    assert main(["draw", "king", "5,5,3,2,1", "--results", str(store), "--out", str(out)]) == 0
    planted = box_rows(out)
    assert planted[1] == "09210" and planted[:1] + planted[2:] == KING_GRID[:1] + KING_GRID[2:]


def test_png_and_default_name(small_store: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["draw", "queen", "3,2", "--results", str(small_store), "--misere"]) == 0
    assert (tmp_path / "queen-3-2-misere.svg").is_file()
    assert main(["draw", "queen", "3,2", "--results", str(small_store), "--out", "q.png"]) == 0
    assert (tmp_path / "q.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["nosuchgame", "3,2"], "partgames: error: unknown"),
    (["sn5_4", "3,2"], "partgames: error: sn5_4 is not a board game"),
    (["king", "3,x"], "partgames: error: PARTS '3,x' is not a list"),
    (["king", "2,3"], "partgames: error: (2, 3) is not a partition"),
    (["king", "3,2", "--out", "/nonexistent/dir/k.svg"], "partgames: error: --out /nonexistent/dir/k.svg: "
                                                         "directory /nonexistent/dir does not exist"),
    (["king", "3,2", "--out", "k.jpg"], "partgames: error: k.jpg: the picture format"),
    (["king", "3,2", "--out", "."], "partgames: error: --out . is a directory"),
])
def test_bad_input_is_one_line_and_exit_2(small_store: Path, tmp_path: Path, monkeypatch, capsys,
                                          args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["draw", *args, "--results", str(small_store)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_folder(small_store: Path, tmp_path: Path, capsys) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert main(["draw", "king", "3,2", "--results", str(small_store), "--out", str(locked / "k.svg")]) == 2
    err = capsys.readouterr().err
    assert err == f"partgames: error: --out {locked / 'k.svg'}: not writable by this user\n"


def test_a_file_the_system_refuses(small_store: Path, capsys) -> None:
    """A folder that passes the checks but refuses the file (even to root): /proc."""
    assert main(["draw", "king", "3,2", "--results", str(small_store), "--out", "/proc/k.svg"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("partgames: error: ") and err.count("\n") == 1, err
