"""3-dimensional LCTR (docs/definitions.md §2.6, the built-in `lctr_d3`) on plane partitions.

A position is a plane partition given by its rows: the number of rows r, each row's length,
then the entries row by row (positive; () is [0]). A move removes the first row, the first
column, or one from every entry (the layer at height 1): three moves from every nonempty one.
"""
import numba
import numpy as np

GAME_ID = "lctr_d3_rules"
POSITIONS = "arrays"  # positions are not partitions: each is its own integer array


@numba.njit
def encode(m):  # a plane partition as a matrix (zero outside it) -> its position
    r = 0
    while r < m.shape[0] and m.shape[1] > 0 and m[r, 0] > 0:
        r += 1
    out = [r]
    for i in range(r):
        out.append(np.count_nonzero(m[i]))
    for i in range(r):
        for j in range(np.count_nonzero(m[i])):
            out.append(m[i, j])
    return np.array(out, dtype=np.int64)


@numba.njit
def options(p):
    r = p[0]
    if r > 0:
        m = np.zeros((r, p[1]), np.int64)
        at = r + 1
        for i in range(r):
            m[i, :p[1 + i]] = p[at:at + p[1 + i]]
            at += p[1 + i]
        yield encode(m[1:])
        yield encode(m[:, 1:])
        yield encode(np.maximum(m - 1, 0))


def _rows(budget, above, row=()):  # nonempty rows under `above`, non-increasing, sum <= budget
    if row:
        yield row
    if len(row) < len(above):
        for v in range(1, min(above[len(row)], budget, row[-1] if row else budget) + 1):
            yield from _rows(budget - v, above, row + (v,))


def _plane(n, above):  # the plane partitions of n whose first row is under `above`
    if n == 0:
        yield []
    for row in _rows(n, above):
        for rest in _plane(n - sum(row), row):
            yield [row, *rest]


def starts(n):
    for rows in _plane(n, (n,) * n):
        yield [len(rows), *map(len, rows), *(v for row in rows for v in row)]
