"""Independent plain-Python reference ("oracle") for partgames, written straight from docs/definitions.md.

Nothing here is shared with ``pipeline/``: positions are explicit tuples, the game graph is built by
applying the rules of docs/definitions.md §2 literally, values are memoised recursions (docs/definitions.md
§3-§4) and the flags evaluate the local conditions of docs/definitions.md §5 at every position found by an
explicit graph search. It favours clarity over speed and is meant for small n only.

Public API::

    partitions(n)                          -> list of partitions of n
    board_record(game, parts)              -> record dict (lctr, downright, pawn, ..., queen, lctr_nr,
                                              downright_nr, sn<s>_<A>)
    moveset_record(steps, rays, parts)     -> record dict for a user-defined moveset game
    slownim_record(s, A, parts)            -> record dict for Slow SetNim SN(s, A)
    sub_partition(parts, i, j), conjugate(parts), sn_reduced(heights, a)

>>> board_record("lctr", (5, 3, 3, 2, 1, 1))["states"]
12
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache

Partition = tuple[int, ...]
Position = Hashable

INT64_MAX = 2**63 - 1

MOVESETS: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {
    # game id: (finite steps, rays)                 -- docs/definitions.md §2.2 table
    "downright": (((0, 1), (1, 0)), ()),
    "pawn": (((0, 1), (1, 1)), ()),
    "pawn_t": (((1, 0), (1, 1)), ()),
    "knight": (((1, 2), (2, 1)), ()),
    "bishop": ((), ((1, 1),)),
    "king": (((0, 1), (1, 0), (1, 1)), ()),
    "rook": ((), ((1, 0), (0, 1))),
    "queen": ((), ((1, 0), (0, 1), (1, 1))),
}
GAMES: tuple[str, ...] = ("lctr", *MOVESETS)

RECORD_KEYS: tuple[str, ...] = (
    "sg", "sg_misere", "nodes", "leaves", "states", "height",
    "domestic", "tame", "pet", "miserable", "forced", "returnable",
    "num_parts", "largest", "durfee", "rank", "distinct_sizes", "conjugate",
)  # fmt: skip
FLAGS: tuple[str, ...] = ("domestic", "tame", "pet", "miserable", "forced", "returnable")


# --------------------------------------------------------------------------------------------------
# Partitions (docs/definitions.md §1)
# --------------------------------------------------------------------------------------------------
def partitions(n: int) -> list[Partition]:
    """All partitions of ``n`` as non-increasing tuples (docs/definitions.md §1); ``partitions(0) == [()]``.

    >>> sorted(partitions(3))
    [(1, 1, 1), (2, 1), (3,)]
    """
    if n < 0:
        raise ValueError("n must be >= 0")

    def gen(rest: int, cap: int) -> Iterable[Partition]:
        if rest == 0:
            yield ()
            return
        for first in range(min(rest, cap), 0, -1):
            for tail in gen(rest - first, first):
                yield (first, *tail)

    return list(gen(n, n))


def check_partition(parts: Sequence[int]) -> Partition:
    """Return ``parts`` as a tuple after checking it is a partition (positive, non-increasing)."""
    lam = tuple(int(p) for p in parts)
    if any(p <= 0 for p in lam) or any(a < b for a, b in zip(lam, lam[1:], strict=False)):
        raise ValueError(f"not a partition (positive, non-increasing): {parts!r}")
    return lam


def sub_partition(lam: Partition, i: int, j: int) -> Partition:
    """``λ[i,j]`` (docs/definitions.md §1): what lies weakly below and right of cell (i, j); ``()`` if no such
    cell.

    >>> sub_partition((5, 3, 3, 2), 1, 1)
    (2, 2, 1)
    >>> sub_partition((2, 1), 0, 2)
    ()
    """
    return tuple(p - j for p in lam[i:] if p > j)


def conjugate(lam: Partition) -> Partition:
    """Column lengths of the Young diagram (docs/definitions.md §1).

    >>> conjugate((3, 1))
    (2, 1, 1)
    """
    return tuple(sum(1 for p in lam if p > j) for j in range(lam[0] if lam else 0))


def durfee(lam: Partition) -> int:
    """Durfee length ``max{ℓ : λ_ℓ ≥ ℓ}`` (docs/definitions.md §1), 0 for ``()``.

    >>> durfee((5, 3, 3, 2, 1, 1))
    3
    """
    return max((ell for ell, p in enumerate(lam, start=1) if p >= ell), default=0)


def features(lam: Partition) -> dict:
    """Shape features of a record (docs/definitions.md §6 "more columns"): r, λ1, Durfee length,
    signed rank, …

    >>> features((3, 1))["rank"]
    1
    """
    largest = lam[0] if lam else 0
    return {
        "num_parts": len(lam),
        "largest": largest,
        "durfee": durfee(lam),
        "rank": largest - len(lam),
        "distinct_sizes": len(set(lam)),
        "conjugate": conjugate(lam),
    }


# --------------------------------------------------------------------------------------------------
# Generic finite impartial game with memoised values (docs/definitions.md §3, §4, §5)
# --------------------------------------------------------------------------------------------------
def mex(values: Iterable[int]) -> int:
    """Minimum excluded non-negative integer.

    >>> mex([0, 1, 3])
    2
    """
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


class Game:
    """A finite impartial game given by ``moves(x)``, the tuple of options of x, one entry per move
    (an option reached by two different moves appears twice: docs/definitions.md §4 counts edges per move).

    All per-position values are memoised in plain dicts; positions must be hashable.
    """

    def __init__(self, moves: Callable[[Position], tuple[Position, ...]]) -> None:
        self._moves_fn = moves
        self._moves: dict[Position, tuple[Position, ...]] = {}
        self._sg: dict[Position, int] = {}
        self._sgm: dict[Position, int] = {}
        self._nodes: dict[Position, int] = {}
        self._leaves: dict[Position, int] = {}
        self._height: dict[Position, int] = {}

    def options(self, x: Position) -> tuple[Position, ...]:
        """Options of x, with multiplicity (one per move)."""
        if x not in self._moves:
            self._moves[x] = tuple(self._moves_fn(x))
        return self._moves[x]

    def is_terminal(self, x: Position) -> bool:
        return not self.options(x)

    def sg(self, x: Position) -> int:
        """Sprague-Grundy value: mex of the options' values, terminal → 0 (docs/definitions.md §3)."""
        if x not in self._sg:
            self._sg[x] = mex(self.sg(y) for y in self.options(x))
        return self._sg[x]

    def sg_misere(self, x: Position) -> int:
        """Misère value: the same recursion with terminal positions valued 1 (docs/definitions.md §3)."""
        if x not in self._sgm:
            opts = self.options(x)
            self._sgm[x] = mex(self.sg_misere(y) for y in opts) if opts else 1
        return self._sgm[x]

    def pair(self, x: Position) -> tuple[int, int]:
        """The Sprague-Grundy pair ``p(x) = (sg, sg_misere)`` (docs/definitions.md §3)."""
        return (self.sg(x), self.sg_misere(x))

    def nodes(self, x: Position) -> int:
        """Nodes of the game tree from x: ``1 + Σ nodes(child)`` over moves (docs/definitions.md §4).
        Exact."""
        if x not in self._nodes:
            self._nodes[x] = 1 + sum(self.nodes(y) for y in self.options(x))
        return self._nodes[x]

    def leaves(self, x: Position) -> int:
        """Leaves of the game tree = number of complete plays (docs/definitions.md §4). Exact."""
        if x not in self._leaves:
            opts = self.options(x)
            self._leaves[x] = sum(self.leaves(y) for y in opts) if opts else 1
        return self._leaves[x]

    def height(self, x: Position) -> int:
        """Longest play from x, in moves (docs/definitions.md §4)."""
        if x not in self._height:
            opts = self.options(x)
            self._height[x] = 1 + max(self.height(y) for y in opts) if opts else 0
        return self._height[x]

    def reachable(self, start: Position) -> set[Position]:
        """All distinct positions reachable from ``start``, itself included (explicit DFS; docs/definitions.md
        §4)."""
        seen = {start}
        stack = [start]
        while stack:
            x = stack.pop()
            for y in self.options(x):
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        return seen

    # ---- local conditions of docs/definitions.md §5, literally ------------------------------
    def local_domestic(self, x: Position) -> bool:
        """p(x) is not (0,k) nor (k,0) with k ≥ 2."""
        a, b = self.pair(x)
        return not ((a == 0 and b >= 2) or (b == 0 and a >= 2))

    def local_tame(self, x: Position) -> bool:
        """p(x) is (0,1), (1,0) or (k,k)."""
        a, b = self.pair(x)
        return (a, b) in ((0, 1), (1, 0)) or a == b

    def local_pet(self, x: Position) -> bool:
        """p(x) is (0,1), (1,0) or (k,k) with k ≥ 2."""
        a, b = self.pair(x)
        return (a, b) in ((0, 1), (1, 0)) or (a == b and a >= 2)

    def local_miserable(self, x: Position) -> bool:
        """x is swap, or x has no move to a swap position, or x has moves to both (0,1) and (1,0)."""
        swaps = ((0, 1), (1, 0))
        if self.pair(x) in swaps:
            return True
        opt_pairs = {self.pair(y) for y in self.options(x)}
        if not (opt_pairs & set(swaps)):
            return True
        return (0, 1) in opt_pairs and (1, 0) in opt_pairs

    def local_forced(self, x: Position) -> bool:
        """If p(x) = (0,1) every move goes to a (1,0) position, and vice versa."""
        p = self.pair(x)
        if p == (0, 1):
            return all(self.pair(y) == (1, 0) for y in self.options(x))
        if p == (1, 0):
            return all(self.pair(y) == (0, 1) for y in self.options(x))
        return True

    def local_returnable(self, x: Position) -> bool:
        """If p(x) is (0,1) (resp. (1,0)), every non-terminal option y has a move to a (0,1)
        (resp. (1,0)) position."""
        p = self.pair(x)
        if p not in ((0, 1), (1, 0)):
            return True
        for y in self.options(x):
            if self.is_terminal(y):
                continue
            if not any(self.pair(z) == p for z in self.options(y)):
                return False
        return True

    def record(self, start: Position) -> dict:
        """The value part of a record (docs/definitions.md §6) for the game started at ``start``."""
        reach = self.reachable(start)
        nodes, leaves = self.nodes(start), self.leaves(start)
        rec: dict = {
            "sg": self.sg(start),
            "sg_misere": self.sg_misere(start),
            "nodes": nodes if nodes <= INT64_MAX else None,
            "leaves": leaves if leaves <= INT64_MAX else None,
            "states": len(reach),
            "height": self.height(start),
        }
        for flag in FLAGS:
            local = getattr(self, f"local_{flag}")
            rec[flag] = all(local(x) for x in reach)
        return rec


# --------------------------------------------------------------------------------------------------
# LCTR and moveset games (docs/definitions.md §2.1, §2.2)
# --------------------------------------------------------------------------------------------------
def lctr_moves(lam: Partition) -> tuple[Partition, ...]:
    """LCTR (docs/definitions.md §2.1): from λ ≠ () exactly two moves, T → λ[1,0] and L → λ[0,1]; () is
    terminal.

    >>> lctr_moves((1,))
    ((), ())
    """
    if not lam:
        return ()
    return (sub_partition(lam, 1, 0), sub_partition(lam, 0, 1))


@cache
def _lctr_game() -> Game:
    return Game(lctr_moves)


def _check_offset(off: Sequence[int]) -> tuple[int, int]:
    a, b = (int(v) for v in off)
    if a < 0 or b < 0 or (a, b) == (0, 0):
        raise ValueError(f"offset must have a, b >= 0 and not be (0,0): {off!r}")
    return (a, b)


@cache
def _moveset_game(steps: frozenset[tuple[int, int]], rays: frozenset[tuple[int, int]]) -> Game:
    def moves(mu: Partition) -> tuple[Partition, ...]:
        # The moveset is a *set* of offsets: a ray multiple that coincides with a step is one move.
        offsets = set(steps)
        for a, b in rays:
            k = 1
            while sub_partition(mu, k * a, k * b):
                offsets.add((k * a, k * b))
                k += 1
        targets = (sub_partition(mu, a, b) for a, b in sorted(offsets))
        return tuple(t for t in targets if t)  # legal iff μ[a,b] ≠ ()

    return Game(moves)


def moveset_record(
    steps: Iterable[Sequence[int]], rays: Iterable[Sequence[int]], parts: Sequence[int]
) -> dict:
    """Record for a moveset game (docs/definitions.md §2.2) started on the nonempty partition ``parts``.

    ``steps`` are single offsets (a, b); each ray (a, b) contributes the offsets (ka, kb), k ≥ 1, as
    separate moves (like the rook). A move (a, b) from μ is legal iff μ[a,b] ≠ ().

    >>> moveset_record([(0, 1), (1, 0)], [], (2, 2))["sg"]
    0
    """
    lam = check_partition(parts)
    if not lam:
        raise ValueError("moveset games start on a nonempty partition")
    game = _moveset_game(frozenset(map(_check_offset, steps)), frozenset(map(_check_offset, rays)))
    return {**game.record(lam), **features(lam)}


def board_record(game: str, parts: Sequence[int]) -> dict:
    """Record for ``game`` ∈ {lctr, downright, pawn, pawn_t, knight, bishop, king, rook, queen,
    lctr_nr, downright_nr} (or a Slow SetNim id ``sn<s>_<A>``, docs/definitions.md §2.3) started at
    the partition ``parts``.

    >>> r = board_record("lctr", (2, 2))
    >>> (r["sg"], r["states"], r["leaves"])
    (0, 5, 6)
    """
    m = re.fullmatch(r"sn(\d+)_(\d+(?:-\d+)*)", game)
    if m:
        return slownim_record(int(m.group(1)), tuple(int(v) for v in m.group(2).split("-")), parts)
    lam = check_partition(parts)
    if game == "lctr":
        return {**_lctr_game().record(lam), **features(lam)}
    if game in NR_GAMES:
        return {**_nr_game(game).record((lam, "")), **features(lam)}
    if game not in MOVESETS:
        raise ValueError(f"unknown game {game!r}; expected one of {GAMES} or sn<s>_<A>")
    steps, rays = MOVESETS[game]
    return moveset_record(steps, rays, lam)


# --------------------------------------------------------------------------------------------------
# The non-repetitive variants (docs/definitions.md §2.5)
# --------------------------------------------------------------------------------------------------
NR_GAMES: tuple[str, ...] = ("lctr_nr", "downright_nr")


def nr_moves(game: str, position: tuple[Partition, str]) -> tuple[tuple[Partition, str], ...]:
    """Options of a position (μ, last moves) of ``lctr_nr`` / ``downright_nr``: the moves of LCTR
    (T: μ[1,0], L: μ[0,1], from every μ ≠ ()) or of Downright (down (1,0) as T, right (0,1) as L,
    legal iff the target is not ()); a move is forbidden when it and the three moves before it are
    two of each kind. The position keeps the last (up to three) moves, oldest first.

    >>> nr_moves("lctr_nr", ((2, 2), "TLT"))   # L would make TLTL: two of each
    (((2,), 'LTT'),)
    """
    mu, last = position
    if not mu:
        return ()
    out = []
    for move, target in (("T", sub_partition(mu, 1, 0)), ("L", sub_partition(mu, 0, 1))):
        window = last + move
        if len(window) == 4 and window.count("T") == window.count("L"):
            continue
        if game == "downright_nr" and not target:
            continue
        out.append((target, window[-3:]))
    return tuple(out)


@cache
def _nr_game(game: str) -> Game:
    return Game(lambda position: nr_moves(game, position))


# --------------------------------------------------------------------------------------------------
# Slow SetNim SN(s, A) (docs/definitions.md §2.3; paper slow-exact-k-nim.txt §2)
# --------------------------------------------------------------------------------------------------
def slownim_moves(x: tuple[int, ...], moves_allowed: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Options of the multiset ``x`` (non-increasing, zeros included) in SN(len(x), A): pick ℓ ∈ A
    and ℓ distinct nonempty stacks, take one token from each; distinct resulting multisets are
    distinct moves (docs/definitions.md §2.3). Done literally: every index choice, then deduplicated.

    >>> slownim_moves((2, 1, 0), (2,))
    ((1, 0, 0),)
    """
    nonempty = [i for i, h in enumerate(x) if h > 0]
    results: set[tuple[int, ...]] = set()
    for ell in moves_allowed:
        for chosen in itertools.combinations(nonempty, ell):
            y = list(x)
            for i in chosen:
                y[i] -= 1
            results.add(tuple(sorted(y, reverse=True)))
    return tuple(sorted(results, reverse=True))


@cache
def _slownim_game(moves_allowed: tuple[int, ...]) -> Game:
    return Game(lambda x: slownim_moves(x, moves_allowed))


def ctt(heights: Sequence[int], m: int) -> tuple[int, ...]:
    """The paper's "chop the top": ``ctt(p, m)_i = min(p_i, m)``."""
    return tuple(min(h, m) for h in heights)


def is_reduced(heights: Sequence[int], a: int) -> bool:
    """NIRB condition (Theorems 2.2/2.3): ``a · max ≤ Σ`` with ``a = min A``."""
    return a * max(heights, default=0) <= sum(heights)


def sn_reduced(heights: Sequence[int], a: int) -> tuple[int, ...]:
    """Reduced form r(p) = ctt(p, m) for the largest m ≤ max(p) with ctt(p, m) reduced (Lemma 2.7).
    Order and zeros of ``heights`` are kept.

    >>> sn_reduced((1, 2, 5, 6), 3)
    (1, 2, 3, 3)
    """
    for m in range(max(heights, default=0), -1, -1):
        q = ctt(heights, m)
        if is_reduced(q, a):
            return q
    raise AssertionError("unreachable: ctt(p, 0) is always reduced")


def slownim_record(s: int, A: Sequence[int], parts: Sequence[int]) -> dict:
    """Record for SN(s, A) (docs/definitions.md §2.3) started at the stack heights ``parts`` (nonzero heights,
    any order; zeros allowed), padded with zeros to ``s`` stacks.

    Extra keys: ``stacks``, ``moves`` (sorted A), ``reduced`` (min(A)·max ≤ total), ``reduced_parts``
    (nonzero parts of the reduced form), ``odd_stacks`` and ``sum_mod`` (Σ mod 2·min A) of the
    reduced form.

    >>> r = slownim_record(4, (3, 4), (2, 2, 2, 2))
    >>> (r["sg"], r["odd_stacks"], r["sum_mod"])
    (0, 0, 2)
    """
    moves_allowed = tuple(sorted(set(int(v) for v in A)))
    if s < 1 or not moves_allowed or moves_allowed[0] < 1 or moves_allowed[-1] > s:
        raise ValueError(f"need s >= 1 and a nonempty A within 1..s, got s={s}, A={A!r}")
    heights = sorted((int(h) for h in parts), reverse=True)
    if any(h < 0 for h in heights):
        raise ValueError(f"negative stack height in {parts!r}")
    lam = tuple(h for h in heights if h > 0)
    if len(lam) > s:
        raise ValueError(f"{len(lam)} nonempty stacks do not fit in s={s} stacks")
    x = lam + (0,) * (s - len(lam))
    a = moves_allowed[0]
    red = sn_reduced(x, a)
    rec = _slownim_game(moves_allowed).record(x)
    return {
        **rec,
        **features(lam),
        "stacks": s,
        "moves": moves_allowed,
        "reduced": is_reduced(x, a),
        "reduced_parts": tuple(h for h in red if h > 0),
        "odd_stacks": sum(1 for h in red if h % 2 == 1),
        "sum_mod": sum(red) % (2 * a),
    }


# --------------------------------------------------------------------------------------------------
# d-dimensional LCTR (docs/definitions.md §2.6; lctr-sg-complexity.txt §8)
# --------------------------------------------------------------------------------------------------
Corners = frozenset  # of d-tuples of coordinates ≥ 1: the maximal cells of a diagram


def lctr_d_moves(corners: Corners) -> tuple[Corners, ...]:
    """d-dimensional LCTR, as the paper states it: for each direction i, every corner's i-th
    coordinate decreases by one and a corner whose i-th coordinate was 1 disappears; d moves
    from every nonempty diagram (one per direction, even when two reach the same diagram).

    >>> lctr_d_moves(frozenset({(1, 1, 2)}))
    (frozenset(), frozenset(), frozenset({(1, 1, 1)}))
    """
    if not corners:
        return ()
    d = len(next(iter(corners)))
    return tuple(frozenset(c[:i] + (c[i] - 1,) + c[i + 1:] for c in corners if c[i] >= 2)
                 for i in range(d))


@cache
def _lctr_d_game() -> Game:
    return Game(lctr_d_moves)


def diagrams(n: int, d: int) -> list[frozenset]:
    """Every d-dimensional Young diagram of n cells (a set of cells, 1-based coordinates, closed
    under lowering any coordinate to 1), grown one addable cell at a time."""
    level: set[frozenset] = {frozenset()}
    for _ in range(n):
        grown = set()
        for cells in level:
            candidates = {(1,) * d} | {c[:i] + (c[i] + 1,) + c[i + 1:] for c in cells for i in range(d)}
            for x in candidates - cells:
                if all(x[i] == 1 or x[:i] + (x[i] - 1,) + x[i + 1:] in cells for i in range(d)):
                    grown.add(cells | {x})
        level = grown
    return list(level)


def corners_of(cells: frozenset) -> Corners:
    """The maximal cells of a diagram."""
    d = len(next(iter(cells))) if cells else 0
    return frozenset(c for c in cells
                     if all(c[:i] + (c[i] + 1,) + c[i + 1:] not in cells for i in range(d)))


def lctr_d_record(cells: frozenset) -> dict:
    """The values of d-dimensional LCTR started at the diagram ``cells`` (docs/definitions.md §3–§5)."""
    return _lctr_d_game().record(corners_of(cells))
