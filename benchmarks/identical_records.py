"""Whether two stores hold byte-identical record files: every ``part-*.parquet`` of ``--before``
compared byte for byte with the one of ``--after`` at the same ``game=<id>/n=<n>`` and shard
number (a committed file's name ends in a token of its run, ``part-00007-3fa2.parquet``, so
files are paired by folder and shard, not by name).

    python benchmarks/identical_records.py --before /tmp/store-main --after /tmp/store-branch

Prints each pair compared and every difference (a file in one store only, or differing bytes);
exits 1 on a difference (or when there is nothing to compare), 0 otherwise.
"""

from __future__ import annotations

import argparse
import filecmp
import re
import sys
from pathlib import Path

_SHARD = re.compile(r"part-(\d{5})(?:-[0-9a-f]{1,32})?\.parquet")


def record_files(store: Path) -> dict[tuple[str, str], Path]:
    """The record files of ``store`` by (folder relative to the store, shard number)."""
    found: dict[tuple[str, str], Path] = {}
    for path in sorted(store.rglob("part-*.parquet")):
        match = _SHARD.fullmatch(path.name)
        if match:
            found[(path.parent.relative_to(store).as_posix(), match.group(1))] = path
    return found


def compare(before: Path, after: Path) -> int:
    """Print each pair of record files compared and each difference; the number of differences."""
    old, new = record_files(before), record_files(after)
    differences = 0
    for key in sorted(old.keys() | new.keys()):
        folder, shard = key
        if key not in new or key not in old:
            where = after if key not in new else before
            print(f"DIFFERENT {folder} shard {shard}: missing from {where}")
            differences += 1
            continue
        same = filecmp.cmp(old[key], new[key], shallow=False)
        print(f"{'same     ' if same else 'DIFFERENT'} {old[key].relative_to(before)}"
              f"  {new[key].name}")
        differences += not same
    print(f"{len(old.keys() & new.keys())} pairs compared, {differences} differences")
    return differences


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="a store written by one checkout")
    ap.add_argument("--after", type=Path, required=True, help="the same run by another checkout")
    args = ap.parse_args()
    for store in (args.before, args.after):
        if not store.is_dir():
            print(f"partgames: {store}: not a directory", file=sys.stderr)
            raise SystemExit(2)
    differences = compare(args.before, args.after)
    if differences or not record_files(args.before):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
