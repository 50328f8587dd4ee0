"""Whether two stores hold byte-identical record files: every ``part-*.parquet`` of ``--before``
compared byte for byte with the one of ``--after`` at the same ``game=<id>/n=<n>`` and shard
number (a committed file's name ends in a token of its run, ``part-00007-3fa2.parquet``, so
files are paired by folder and shard, not by name). A file's footer names the code that wrote it
(``created_by``: ``partgames version V (code <16 hex digits>)``, :func:`pipeline.source_digest`),
which differs between two checkouts whatever they compute: those 16 digits are set aside (read
as zeros in both files) and every other byte is compared.

    python benchmarks/identical_records.py --before /tmp/store-main --after /tmp/store-branch

Prints each pair compared and every difference (a file in one store only, or differing bytes);
exits 1 on a difference (or when there is nothing to compare), 0 otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

_SHARD = re.compile(r"part-(\d{5})(?:-[0-9a-f]{1,32})?\.parquet")
_CODE = re.compile(rb"(partgames version [^ ()]+ \(code )[0-9a-f]{16}\)")


def comparable_bytes(path: Path) -> tuple[bytes, bytes]:
    """The bytes of ``path`` with the code digest of its ``created_by`` read as zeros, and that
    digest (empty when the footer names none)."""
    data = path.read_bytes()
    codes = [m.group(0)[-17:-1] for m in _CODE.finditer(data)]
    return _CODE.sub(lambda m: m.group(1) + b"0" * 16 + b")", data), b",".join(codes)


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
        (old_bytes, old_code), (new_bytes, new_code) = comparable_bytes(old[key]), comparable_bytes(new[key])
        same = old_bytes == new_bytes
        print(f"{'same     ' if same else 'DIFFERENT'} {old[key].relative_to(before)}"
              f"  {new[key].name}  (code {old_code.decode()} / {new_code.decode()})")
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
