"""The generic solver: any impartial game given by its rules (:mod:`pipeline.rules`), as a
:class:`~pipeline.games.base.Game` whose records are the board games' (docs/definitions.md §3–§6).

A position is a small integer array; the rules' ``options(position)`` yields its options
(run as a plain function that writes each yielded option, :func:`expansion`). The
values of a position do not depend on where play started, so one table of positions serves
every start of a shard: an open-addressing hash table from a position's values to an id (each
slot keeps its position's hash), and
per id its options (as ids, one per move, or one per distinct option when two moves to one
position count once), its Sprague-Grundy pair, nodes, leaves, height and the CGH summaries of
:mod:`pipeline.games.cgh`. A start is solved depth first with an explicit stack (a position is
expanded, its options solved, then it is solved from them); ``states`` is a walk over the ids
reachable from the start (docs/definitions.md §4: the distinct positions, the start included),
in a compact table of its own. The rules get a copy of the position and each option is read
before the next is asked for, so an option may be a view or a reused array (docs/rules.md).
An option already expanded and not yet solved is a move back to a position on the current
line of play: the rules are not a finite game, and the kernel says so.

The table is flushed before a start once it holds more than ``table_limit`` positions (a
start's own reachable positions are always held: ``states`` needs every one of them).

(tests/test_rules.py holds its records equal to the bespoke kernels'.)

>>> TABLE_LIMIT
2097152
"""

from __future__ import annotations

import ast
import functools
import linecache
import threading
import types
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
import pyarrow as pa

from pipeline.errors import PartgamesError
from pipeline.games.base import Game
from pipeline.games.cgh import ALL_AND, F_ALL, sadd, summarize
from pipeline.games.columns import (
    common_columns,
    list_array,
    value_columns,
)
from pipeline.games.single_partition import solve_chosen_table, zeroed_outputs
from pipeline.games.walk import write_features
from pipeline.partitions import enumerate_partitions, flatten_prefixes, partition_numbers, plan_shards
from pipeline.schema import ARRAY_SCHEMA, BOARD_SCHEMA, STATE_SCHEMA

if TYPE_CHECKING:
    from pipeline.rules import Rules

#: Positions a shard's table holds before it is flushed (between two starts), by default:
#: about 130 bytes a position plus its values and options, so some hundreds of MB per thread.
TABLE_LIMIT = 1 << 21
_table_limit = TABLE_LIMIT


def set_table_limit(positions: int) -> None:
    """The table limit of the games made from now on (``run --table-limit``)."""
    global _table_limit
    if positions < 1:
        raise ValueError("the table limit is at least 1 position")
    _table_limit = int(positions)

_NEW, _OPEN, _SOLVED = 0, 1, 2
# Fields of a position's entry.
(E_KEY, E_LEN, E_ADJ, E_DEG, E_STATE, E_SG, E_SGM, E_NODES, E_LEAVES, E_HEIGHT, E_AND, E_OR,
 E_SEEN) = range(13)
_FIELDS = 13
# Fields of a position's row in the states walk's own table.
W_STAMP, W_ADJ, W_DEG = range(3)


@numba.njit(cache=True, inline="always")
def _hash(pool, a, length):  # pragma: no cover - compiled
    h = np.uint64(0xCBF29CE484222325) ^ np.uint64(length)
    for i in range(length):
        h = (h ^ np.uint64(pool[a + i])) * np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    return h


@numba.njit(cache=True, nogil=True)
def _grow1(a, need):  # pragma: no cover - compiled
    size = a.shape[0]
    while size < need:
        size *= 2
    b = np.zeros(size, a.dtype)
    b[: a.shape[0]] = a
    return b


@numba.njit(cache=True, nogil=True)
def _grow2(a, need):  # pragma: no cover - compiled
    size = a.shape[0]
    while size < need:
        size *= 2
    b = np.zeros((size, a.shape[1]), a.dtype)
    b[: a.shape[0]] = a
    return b


@numba.njit(cache=True, nogil=True)
def _rehash(slots, hashes):  # pragma: no cover - compiled
    """(slots, hashes) of the positions, in a table twice as large: each slot keeps
    its position's hash, so a rehash reads no position and a probe compares a position's
    values only when the hashes are equal."""
    old_slots, old_hashes = slots, hashes
    slots = np.full(2 * old_slots.shape[0], -1, np.int64)
    hashes = np.zeros(2 * old_slots.shape[0], np.uint64)
    mask = np.uint64(slots.shape[0] - 1)
    for s in range(old_slots.shape[0]):
        e = old_slots[s]
        if e < 0:
            continue
        full = old_hashes[s]
        h = full & mask
        while slots[h] >= 0:
            h = (h + np.uint64(1)) & mask
        slots[h] = e
        hashes[h] = full
    return slots, hashes


@numba.njit(cache=True, inline="always")
def _find(pool, at, length, slots, hashes, ent):  # pragma: no cover - compiled
    """(id, slot, hash) of the position ``pool[at:at + length]``: id -1 and its free slot if
    absent."""
    mask = np.uint64(slots.shape[0] - 1)
    full = _hash(pool, at, length)
    h = full & mask
    while slots[h] >= 0:
        if hashes[h] == full:
            e = slots[h]
            if ent[e, E_LEN] == length:
                k0 = ent[e, E_KEY]
                same = True
                for i in range(length):
                    if pool[k0 + i] != pool[at + i]:
                        same = False
                        break
                if same:
                    return e, h, full
        h = (h + np.uint64(1)) & mask
    return -1, h, full


@numba.njit(cache=True, inline="always")
def _solve_position(x, ent, adj, gbits, mbits):  # pragma: no cover - compiled
    """Solve position ``x`` from its solved options (docs/definitions.md §3–§5); ``gbits`` and
    ``mbits`` are scratch of more than its number of options + 1 entries."""
    deg = ent[x, E_DEG]
    a = ent[x, E_ADJ]
    if deg == 0:
        g, m, nodes, leaves, height = 0, 1, np.int64(1), np.int64(1), 0
        agg_and, agg_or = ALL_AND, 0
    else:
        for v in range(deg + 2):
            gbits[v] = False
            mbits[v] = False
        nodes = np.int64(1)
        leaves = np.int64(0)
        height = 0
        agg_and = ALL_AND
        agg_or = 0
        for k in range(a, a + deg):
            c = adj[k]
            if ent[c, E_SG] <= deg:  # the mex of deg values is at most deg
                gbits[ent[c, E_SG]] = True
            if ent[c, E_SGM] <= deg:
                mbits[ent[c, E_SGM]] = True
            nodes = sadd(nodes, ent[c, E_NODES])
            leaves = sadd(leaves, ent[c, E_LEAVES])
            height = max(height, ent[c, E_HEIGHT] + 1)
            agg_and &= ent[c, E_AND]
            agg_or |= ent[c, E_OR]
        g = 0
        while gbits[g]:
            g += 1
        m = 0
        while mbits[m]:
            m += 1
    own_and, own_or = summarize(g, m, deg == 0, agg_and, agg_or)
    ent[x, E_SG] = g
    ent[x, E_SGM] = m
    ent[x, E_NODES] = nodes
    ent[x, E_LEAVES] = leaves
    ent[x, E_HEIGHT] = height
    ent[x, E_AND] = own_and
    ent[x, E_OR] = own_or
    ent[x, E_STATE] = _SOLVED


@numba.njit(cache=True, nogil=True)
def _states(root, adj, walk, seen, token):  # pragma: no cover - compiled
    """(states, seen): the distinct positions reachable from ``root``, itself included
    (docs/definitions.md §4), marked with ``token``; ``seen`` is the walk's stack (grown).
    ``walk`` holds per id its mark, first option in ``adj`` and number of options, apart from
    the entries: the walk visits some tens of positions per start, and three values in a row
    are one cache line where an entry's row is two."""
    states = 1
    walk[root, W_STAMP] = token
    seen[0] = root
    top = 0
    while top >= 0:
        x = seen[top]
        top -= 1
        a = walk[x, W_ADJ]
        for k in range(a, a + walk[x, W_DEG]):
            c = adj[k]
            if walk[c, W_STAMP] != token:
                walk[c, W_STAMP] = token
                states += 1
                if top + 2 > seen.shape[0]:
                    seen = _grow1(seen, top + 2)
                top += 1
                seen[top] = c
    return states, seen


@numba.njit(cache=True, inline="always")
def _write(p, root, states, ent, out_sg, out_sgm, out_nodes, out_leaves, out_states, out_height,
           out_flags):  # pragma: no cover - compiled
    out_sg[p] = ent[root, E_SG]
    out_sgm[p] = ent[root, E_SGM]
    out_nodes[p] = ent[root, E_NODES]
    out_leaves[p] = ent[root, E_LEAVES]
    out_height[p] = ent[root, E_HEIGHT]
    out_states[p] = states
    for f in range(6):
        out_flags[f, p] = (ent[root, E_AND] & F_ALL) >> f & 1


@numba.njit(cache=True, inline="always")
def _add(pool, plen, length, h, full, slots, hashes, ent, count):  # pragma: no cover - compiled
    """Enter the position ``pool[plen:plen + length]`` as id ``count`` at slot ``h``; the table
    of entries (grown)."""
    if count >= ent.shape[0]:
        ent = _grow2(ent, count + 1)
    ent[count, :] = 0
    ent[count, E_KEY] = plen
    ent[count, E_LEN] = length
    ent[count, E_SEEN] = -1
    slots[h] = count
    hashes[h] = full
    return ent


#: The signature of a rules' expansion (:func:`expansion`): (position, values, lengths, total)
#: -> number of options; the options' values one after the other in ``values``, their lengths
#: in ``lengths``, the number of values in ``total[0]``.
EXPAND = numba.types.int64(numba.types.int64[::1], numba.types.int64[::1],
                           numba.types.int64[::1], numba.types.int64[::1])
_I64 = numba.types.int64[::1]

_EXPANSIONS: dict[int, tuple[object, object]] = {}
_EXPANSIONS_LOCK = threading.Lock()


@numba.njit(cache=True, nogil=True)
def _emit(q, values, lengths, total):  # pragma: no cover - compiled
    """Write the option ``q`` after the ``total[1]`` options of ``total[0]`` values already
    written; options past the arrays' room are counted, not written: the caller grows them and
    asks again (the rules are deterministic)."""
    pos = total[0]
    k = total[1]
    length = q.shape[0]
    if k < lengths.shape[0] and pos + length <= values.shape[0]:
        for i in range(length):
            values[pos + i] = q[i]
        lengths[k] = length
    total[0] = pos + length
    total[1] = k + 1


_EMIT = "_partgames_emit"
_SINK = ("_partgames_values", "_partgames_lengths", "_partgames_total")


class _Yields(ast.NodeTransformer):
    """``yield q`` as a statement becomes ``_emit(q, values, lengths, total)``; any other use
    of ``yield`` (a value, ``yield from``, a nested function) leaves the rules as they are."""

    def __init__(self) -> None:
        self.plain = True

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Yield) and node.value.value is not None:
            call = ast.Call(ast.Name(_EMIT, ast.Load()),
                            [self.visit(node.value.value), *(ast.Name(a, ast.Load()) for a in _SINK)],
                            [])
            return ast.copy_location(ast.Expr(ast.copy_location(call, node)), node)
        return self.generic_visit(node)

    def visit_Yield(self, node: ast.Yield) -> ast.AST:
        self.plain = False
        return node

    def visit_YieldFrom(self, node: ast.YieldFrom) -> ast.AST:
        self.plain = False
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        if node.value is not None:
            self.plain = False
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.plain = False
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]
    visit_Lambda = visit_FunctionDef  # type: ignore[assignment]


def _holds(compiled: types.CodeType, code: types.CodeType) -> bool:
    """Whether ``code`` is ``compiled`` or one of the code objects it defines."""
    return compiled == code or any(_holds(c, code) for c in compiled.co_consts
                                   if isinstance(c, types.CodeType))


def _rewrite(options: Any) -> tuple[Any, str]:
    """(writer, refusal): the rules' ``options`` generator as a compiled function of (position,
    values, lengths, total) that writes each option where it is yielded (:func:`_emit`), and
    ""; or None and why its source does not allow it (:func:`rewrite_refusal`).

    Why: numba's generators never free what they yield nor their arguments (numba issues 1807
    and 5350): solving by the generator keeps every option ever yielded, some hundred bytes an
    option, gigabytes for one start of chomp at n = 66. A plain function frees them."""
    py = getattr(options, "py_func", None)
    if py is None:
        return None, "not a numba function with Python source"
    if py.__closure__:
        return None, "a closure: it reads variables of the function that defines it"
    code = py.__code__
    # The file as it is now holds the function only if it compiles to the function's code (a
    # file changed since it was loaded must not give other rules under the same label).
    linecache.checkcache(code.co_filename)
    text = "".join(linecache.getlines(code.co_filename, py.__globals__))
    try:
        module = ast.parse(text)
        compiled = compile(module, code.co_filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None, "its file does not compile as it is now"
    fn = next((node for node in ast.walk(module) if isinstance(node, ast.FunctionDef)
               and node.name == code.co_name
               and min([node.lineno] + [d.lineno for d in node.decorator_list])
               == code.co_firstlineno), None)
    if fn is None or not _holds(compiled, code):
        return None, "its file no longer defines it as it was loaded (the file changed since)"
    tree = ast.Module([fn], [])
    args = fn.args
    if (len(args.args) != 1 or args.posonlyargs or args.kwonlyargs or args.vararg
            or args.kwarg or args.defaults):
        return None, "it takes other than one plain argument, the position"
    yields = _Yields()
    fn.body = [yields.visit(statement) for statement in fn.body]
    if not yields.plain:
        return None, ("it uses yield other than as a statement (yield q), returns a value or "
                      "defines a function")
    fn.decorator_list = []
    fn.name = "_partgames_writer"
    fn.args.args += [ast.arg(a) for a in _SINK]
    ast.fix_missing_locations(tree)
    space = dict(py.__globals__)
    space[_EMIT] = _emit
    try:
        exec(compile(tree, py.__code__.co_filename, "exec", dont_inherit=True), space)  # noqa: S102 - the rules' own code
    except Exception as exc:  # the rules as they are, by their generator
        return None, f"its rewritten source fails to run ({type(exc).__name__})"
    return numba.njit(nogil=True)(space[fn.name]), ""


def rewrite_refusal(options: Any) -> str:
    """Why the solver runs the rules' ``options`` as their generator, which keeps what it yields
    until the process ends (docs/rules.md), rather than their source rewritten so that each
    ``yield q`` writes q at once: one phrase, or "" when it rewrites them. The source is read
    from the rules' file as it is now, as the next :func:`expansion` of them reads it.

    >>> rewrite_refusal(lambda position: iter(()))
    'not a numba function with Python source'
    """
    return _rewrite(options)[1]


def forget_expansion(options: Any) -> None:
    """Drop the compiled expansion of ``options`` (:func:`expansion`): the next solve of their
    rules compiles it again, from the rules' file as it is then, as a new process does."""
    with _EXPANSIONS_LOCK:
        _EXPANSIONS.pop(id(options), None)


def expansion(options: Any) -> Any:
    """The rules' ``options`` generator as a compiled function of type :data:`EXPAND`, which
    :func:`solve_starts` (compiled once, cached) calls: only this small function is compiled
    for each rules, once per process (about 1 s). It runs the rules' source with each
    ``yield q`` writing q at once (:func:`_rewrite`), and the generator itself only when its
    source does not allow that (docs/rules.md: such rules keep what they yield until the
    process ends)."""
    with _EXPANSIONS_LOCK:
        found = _EXPANSIONS.get(id(options))
        if found is not None and found[0] is options:
            return found[1]
        writer, _ = _rewrite(options)
        if writer is not None:
            @numba.njit(EXPAND, nogil=True)
            def expand(position, values, lengths, total):  # pragma: no cover - compiled
                counts = np.zeros(2, np.int64)
                writer(position, values, lengths, counts)
                total[0] = counts[0]
                return counts[1]
        else:
            @numba.njit(EXPAND, nogil=True)
            def expand(position, values, lengths, total):  # pragma: no cover - compiled
                # Options past the arrays' room are counted, not written: the caller grows them
                # and asks again (the rules are deterministic).
                k = 0
                pos = 0
                for q in options(position):
                    length = q.shape[0]
                    if k < lengths.shape[0] and pos + length <= values.shape[0]:
                        for i in range(length):
                            values[pos + i] = q[i]
                        lengths[k] = length
                    pos += length
                    k += 1
                total[0] = pos
                return k

        _EXPANSIONS[id(options)] = (options, expand)
        return expand


@numba.njit(cache=True, inline="always")
def _solve_open(x, ent, adj, gbits, mbits):  # pragma: no cover - compiled
    """Solve position ``x``, whose options are all solved (:func:`_solve_position`); returns
    the scratch ``gbits``, ``mbits``, replaced by larger ones when x has too many options."""
    deg = ent[x, E_DEG]
    if deg + 2 > gbits.shape[0]:
        gbits = np.zeros(2 * (deg + 2), np.bool_)
        mbits = np.zeros(2 * (deg + 2), np.bool_)
    _solve_position(x, ent, adj, gbits, mbits)
    return gbits, mbits


@numba.njit(cache=True, inline="always")
def _expanded(x, deg, ent, walk):  # pragma: no cover - compiled
    """Record that position ``x`` has ``deg`` options, from ``ent[x, E_ADJ]`` on in the
    adjacency list: in its entry and in ``walk``, the copy that :func:`_states` reads; returns
    ``walk``, grown when it had no row for x."""
    ent[x, E_DEG] = deg
    if x >= walk.shape[0]:
        walk = _grow2(walk, x + 1)
    walk[x, W_ADJ] = ent[x, E_ADJ]
    walk[x, W_DEG] = deg
    return walk


@numba.njit(cache=True, inline="always")
def _position_id(source, at, length, pool, plen, slots, hashes, ent, count):  # pragma: no cover - compiled
    """The id of the position ``source[at:at + length]`` in the table of positions, entered
    (:func:`_add`) when it is not there yet: it is copied to ``pool[plen:]`` (its key), and the
    slots (``slots``, ``hashes``) are rehashed when half full. Returns (id, pool, plen, slots,
    hashes, ent, count): the arrays, grown when they had no room, ``plen`` past the key of a
    new position and ``count`` (the number of ids) one more then."""
    if plen + length > pool.shape[0]:
        pool = _grow1(pool, plen + length)
    for i in range(length):
        pool[plen + i] = source[at + i]
    if 2 * (count + 1) > slots.shape[0]:  # rehash at half full
        slots, hashes = _rehash(slots, hashes)
    c, h, full = _find(pool, plen, length, slots, hashes, ent)
    if c < 0:
        ent = _add(pool, plen, length, h, full, slots, hashes, ent, count)
        c = count
        plen += length
        count += 1
    return c, pool, plen, slots, hashes, ent, count


@numba.njit(cache=True, inline="always")
def _options_of_position(options, x, ent, pool, scratch, values, lengths,
                         total):  # pragma: no cover - compiled
    """(k, scratch, values, lengths): the k options of position ``x`` (its key in ``pool``,
    located by ``ent``) by the rules' expansion ``options`` (:data:`EXPAND`), their values one
    after the other in ``values``, their lengths in ``lengths`` (``total[0]``: the number of
    values). The position is given as a copy in ``scratch`` (rules that change their argument
    leave the table alone); the arrays are grown, and the rules asked again, when the options
    do not fit."""
    k0 = ent[x, E_KEY]
    xl = ent[x, E_LEN]
    if xl > scratch.shape[0]:
        scratch = np.zeros(2 * xl, np.int64)
    for i in range(xl):
        scratch[i] = pool[k0 + i]
    position = scratch[:xl]
    k = options(position, values, lengths, total)
    if k > lengths.shape[0] or total[0] > values.shape[0]:
        lengths = _grow1(lengths, k)
        values = _grow1(values, total[0])
        k = options(position, values, lengths, total)
    return k, scratch, values, lengths


@numba.njit(cache=True, inline="always")
def _link_option(x, c, multi, ent, adj, alen, stack, top):  # pragma: no cover - compiled
    """Link position ``c``, reached by a move from ``x`` (being expanded), as an option of x: its
    id appended to the adjacency list ``adj[:alen]``, and c pushed on the solver's stack
    (``stack[:top + 1]``) when it is new, to be expanded in turn. Returns (linked, adj, alen,
    stack, top), the arrays grown when full: ``linked`` is 1 when c is linked, 0 when a move
    from x reached c before and, without ``multi``, two moves to one position are one option,
    -1 when c is open, a line of play back to a position on it (the rules are not a finite
    game)."""
    if not multi:
        if ent[c, E_SEEN] == x:
            return 0, adj, alen, stack, top
        ent[c, E_SEEN] = x
    if ent[c, E_STATE] == _OPEN:
        return -1, adj, alen, stack, top
    if alen + 1 > adj.shape[0]:
        adj = _grow1(adj, alen + 1)
    adj[alen] = c
    alen += 1
    if ent[c, E_STATE] == _NEW:
        if top + 2 > stack.shape[0]:
            stack = _grow1(stack, top + 2)
        top += 1
        stack[top] = c
    return 1, adj, alen, stack, top


@numba.njit(cache=True, inline="always")
def _empty_table():  # pragma: no cover - compiled
    """An empty table of positions, as (slots, hashes, ent, pool): the open-addressing slots
    (-1: free) and their positions' hashes, the entries (``_FIELDS`` per id), and the pool of
    the positions' values (their keys); each grows as it fills."""
    slots = np.full(2048, -1, np.int64)
    hashes = np.zeros(2048, np.uint64)
    ent = np.zeros((1024, _FIELDS), np.int64)
    pool = np.zeros(8192, np.int64)
    return slots, hashes, ent, pool


#: :func:`solve_starts`' compiled signature: the rules come in as a function of type
#: :data:`EXPAND`, so one machine code serves every rules file.
_SOLVE_STARTS_TYPE = numba.types.int64(numba.types.FunctionType(EXPAND), numba.types.boolean, _I64, _I64,
                                       numba.types.int64, _I64, _I64, _I64, _I64, _I64, _I64,
                                       numba.types.boolean[:, ::1])


@functools.cache
def _compiled(name: str) -> Any:
    """The kernel ``name`` (:func:`_solve_starts` or :func:`_options_of_rules`) compiled for its
    explicit signature, on its first use rather than when this module is imported: compiling
    for a signature happens at once, and importing the module (every run of a rules game) must
    not compile; a first run compiles it up front with the other kernels
    (:mod:`pipeline.warmup`), later ones load it from numba's cache."""
    func, signature = {"solve_starts": (_solve_starts, _SOLVE_STARTS_TYPE),
                       "options_of": (_options_of_rules, _OPTIONS_OF_TYPE)}[name]
    return numba.njit(signature, cache=True, nogil=True)(func)


def solve_starts(options: Any, multi: bool, starts: np.ndarray, offsets: np.ndarray, limit: int,
                 out_sg: np.ndarray, out_sgm: np.ndarray, out_nodes: np.ndarray,
                 out_leaves: np.ndarray, out_states: np.ndarray, out_height: np.ndarray,
                 out_flags: np.ndarray) -> int:
    """:func:`_solve_starts`, compiled (see there)."""
    return _compiled("solve_starts")(options, multi, starts, offsets, limit, out_sg, out_sgm,
                                     out_nodes, out_leaves, out_states, out_height, out_flags)


def _solve_starts(options, multi, starts, offsets, limit, out_sg, out_sgm, out_nodes, out_leaves,
                  out_states, out_height, out_flags):  # pragma: no cover - compiled
    """Solve the game of ``options`` from each start ``starts[offsets[p]:offsets[p+1]]`` and write
    record p's values. ``multi``: two moves to one position are two edges of the game tree (for
    nodes and leaves, docs/definitions.md §4); otherwise the distinct options count once.
    Returns the number of positions the table held at its fullest, or -1 - p when start p
    reaches a position again along a line of play (the rules are not a finite game).

    ``options`` is the rules' :func:`expansion`, so this function is compiled once and cached."""
    slots, hashes, ent, pool = _empty_table()
    adj = np.zeros(4096, np.int64)
    stack = np.zeros(64, np.int64)
    seen = np.zeros(64, np.int64)
    walk = np.zeros((1024, 3), np.int64)
    scratch = np.zeros(64, np.int64)
    gbits = np.zeros(64, np.bool_)
    mbits = np.zeros(64, np.bool_)
    values = np.zeros(1024, np.int64)
    lengths = np.zeros(64, np.int64)
    total = np.zeros(1, np.int64)
    count = plen = alen = peak = 0  # ids given, pool values and adj entries used; most ids held
    for p in range(offsets.shape[0] - 1):
        if count > limit:  # flush: every later start is solved afresh
            slots[:] = -1
            count = plen = alen = 0
        root, pool, plen, slots, hashes, ent, count = _position_id(
            starts, offsets[p], offsets[p + 1] - offsets[p], pool, plen, slots, hashes, ent, count)
        # ---- solve depth first: expand a position, solve its options, then it ----
        top = 0
        stack[0] = root
        while top >= 0:
            x = stack[top]
            state = ent[x, E_STATE]
            if state != _NEW:  # solved, or open with every option solved: solve it, then pop it
                if state == _OPEN:
                    gbits, mbits = _solve_open(x, ent, adj, gbits, mbits)
                top -= 1
                continue
            # expand x: its options entered in the table and linked to it, the new ones pushed
            ent[x, E_STATE] = _OPEN
            ent[x, E_ADJ] = alen
            deg = 0
            k, scratch, values, lengths = _options_of_position(options, x, ent, pool, scratch, values,
                                                               lengths, total)
            at = 0
            for o in range(k):
                c, pool, plen, slots, hashes, ent, count = _position_id(
                    values, at, lengths[o], pool, plen, slots, hashes, ent, count)
                at += lengths[o]
                linked, adj, alen, stack, top = _link_option(x, c, multi, ent, adj, alen, stack, top)
                if linked < 0:
                    return -1 - p
                deg += linked
            walk = _expanded(x, deg, ent, walk)
        states, seen = _states(root, adj, walk, seen, p + 1)
        _write(p, root, states, ent, out_sg, out_sgm, out_nodes, out_leaves, out_states,
               out_height, out_flags)
        peak = max(peak, count)
    return peak


_OPTIONS_OF_TYPE = numba.types.Tuple((_I64, _I64, _I64))(numba.types.FunctionType(EXPAND), _I64, _I64)


def _options_of_rules(options, values, offsets):  # pragma: no cover - compiled
    """The options of each position ``values[offsets[p]:offsets[p+1]]`` by the rules' expansion:
    (their values one after the other, their lengths, the number of options of each position)."""
    out = np.zeros(1024, np.int64)
    out_len = np.zeros(256, np.int64)
    counts = np.zeros(offsets.shape[0] - 1, np.int64)
    vals = np.zeros(256, np.int64)
    lengths = np.zeros(64, np.int64)
    total = np.zeros(1, np.int64)
    pos = 0
    k_all = 0
    for p in range(offsets.shape[0] - 1):
        position = values[offsets[p]:offsets[p + 1]].copy()  # the rules may change their argument
        k = options(position, vals, lengths, total)
        if k > lengths.shape[0] or total[0] > vals.shape[0]:
            lengths = _grow1(lengths, k)
            vals = _grow1(vals, total[0])
            k = options(position, vals, lengths, total)
        if pos + total[0] > out.shape[0]:
            out = _grow1(out, pos + total[0])
        if k_all + k > out_len.shape[0]:
            out_len = _grow1(out_len, k_all + k)
        for i in range(total[0]):
            out[pos + i] = vals[i]
        for o in range(k):
            out_len[k_all + o] = lengths[o]
        pos += total[0]
        k_all += k
        counts[p] = k
    return out[:pos], out_len[:k_all], counts


def options_arrow(rules: Rules, lists: pa.Array) -> pa.Array:
    """The options of each position of ``lists`` (a list array of integers; NULL stays NULL) by
    the rules, one list per move (the SQL function ``rules_options(game, position)``,
    :mod:`pipeline.query`): the follower edges of docs/definitions.md §4 as the solver sees them,
    before ``MULTI_EDGES`` merges two moves to one position."""
    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks() if lists.num_chunks != 1 else lists.chunk(0)
    offsets = lists.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    values = lists.values.to_numpy(zero_copy_only=False).astype(np.int64)
    values, offsets = np.ascontiguousarray(values[offsets[0]:offsets[-1]]), offsets - offsets[0]
    valid = np.asarray(lists.is_valid().to_numpy(zero_copy_only=False), np.bool_)
    out, lengths, counts = _compiled("options_of")(expansion(rules.options), values,
                                                   np.ascontiguousarray(offsets))
    inner = pa.ListArray.from_arrays(pa.array(np.concatenate([[0], np.cumsum(lengths)]), pa.int32()),
                                     pa.array(out, pa.int64()))
    outer = np.concatenate([[0], np.cumsum(counts)])
    return pa.ListArray.from_arrays(pa.array(outer, pa.int32()), inner, mask=pa.array(~valid))


def rules_options_arrow(games: pa.Array, lists: pa.Array) -> pa.Array:
    """The SQL function ``rules_options(game, position)``: :func:`options_arrow` of each row by
    the rules of its game (a rules game this process knows: ``--rules``, an entry point)."""
    import pyarrow.compute as pc

    from pipeline.rules import RulesError, find_rules

    if isinstance(games, pa.ChunkedArray):
        games = games.combine_chunks() if games.num_chunks != 1 else games.chunk(0)
    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks() if lists.num_chunks != 1 else lists.chunk(0)
    out = pa.nulls(len(games), pa.list_(pa.list_(pa.int64())))
    pieces, order = [], []
    for name in pc.unique(games).to_pylist():
        if name is None:
            continue
        rules = find_rules(name)
        if rules is None:
            raise RulesError(f"rules_options: {name!r} is not a rules game this process knows "
                             "(--rules FILE, docs/rules.md)")
        where = np.flatnonzero(pc.equal(games, name).fill_null(False).to_numpy(zero_copy_only=False))
        pieces.append(options_arrow(rules, pc.take(lists, pa.array(where))))
        order.append(where)
    if not pieces:
        return out
    where = np.concatenate(order)
    rest = np.setdiff1d(np.arange(len(games)), where)
    pieces.append(out.slice(0, len(rest)))
    inverse = np.empty(len(games), np.int64)
    inverse[np.concatenate([where, rest])] = np.arange(len(games))
    return pa.concat_arrays(pieces).take(pa.array(inverse))


@numba.njit(cache=True, nogil=True)
def partition_features(values, offsets, out):  # pragma: no cover
    """The features (docs/definitions.md §1) of each partition ``values[offsets[p]:offsets[p+1]]``
    (positive parts, non-increasing) as record p of ``out`` (a
    :class:`~pipeline.games.walk.KernelOutput`), by :func:`~pipeline.games.walk.write_features`."""
    ppos = 0
    cpos = 0
    out.parts_offsets[0] = 0
    out.conjugate_offsets[0] = 0
    for p in range(offsets.shape[0] - 1):
        a0 = offsets[p]
        r = offsets[p + 1] - a0
        ppos, cpos = write_features(p, values[a0:a0 + r], r, ppos, cpos, out)


def _spliced(values: np.ndarray, offsets: np.ndarray, k: int, drop: bool
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each sequence ``values[offsets[p]:offsets[p+1]]`` with its last k entries dropped
    (``drop``) or k zeros appended: (values, offsets, the indices of the kept entries in the
    longer of the two)."""
    lengths = np.diff(offsets)
    new_lengths = lengths - k if drop else lengths + k
    new_offsets = np.zeros(len(offsets), np.int64)
    np.cumsum(new_lengths, out=new_offsets[1:])
    short, short_off = (new_lengths, new_offsets) if drop else (lengths, offsets)
    long_off = offsets if drop else new_offsets
    within = np.arange(int(short.sum()), dtype=np.int64) - np.repeat(short_off[:-1], short)
    at = np.repeat(long_off[:-1], short) + within
    if drop:
        return np.ascontiguousarray(values[at]), new_offsets, at
    out = np.zeros(int(new_offsets[-1]), np.int64)
    out[at] = values
    return out, new_offsets, at


def with_zero_state(values: np.ndarray, offsets: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The positions of the partitions ``values[offsets[p]:offsets[p+1]]`` with k zeros of
    state after their parts (the default start of rules with ``STATE = k``).

    >>> v, o = with_zero_state(np.array([2, 1, 3]), np.array([0, 2, 3]), 2)
    >>> v.tolist(), o.tolist()
    ([2, 1, 0, 0, 3, 0, 0], [0, 4, 7])
    """
    offsets = np.asarray(offsets, np.int64)
    out, new_offsets, _ = _spliced(np.asarray(values, np.int64)[:offsets[-1]], offsets, k, False)
    return out, new_offsets


class RulesLoopError(PartgamesError, RuntimeError):
    """The rules let play return to a position: not a finite game."""


def solve_partitions(rules: Rules, values: np.ndarray, offsets: np.ndarray, n: int,
                     table_limit: int = TABLE_LIMIT,
                     partition_columns: dict[str, pa.Array] | None = None,
                     walk_order: bool = False) -> pa.Table:
    """The records (:data:`~pipeline.schema.BOARD_SCHEMA`) of ``rules`` started at each position
    ``values[offsets[p]:offsets[p+1]]`` of n, in that order: a partition of n, followed by the
    rules' ``state`` integers (then the records are :data:`STATE_SCHEMA`'s, the partition
    columns of the partition, ``state`` the integers), or, for rules whose positions are arrays,
    any start of size n (:func:`solve_arrays`). ``walk_order``: consecutive partitions of n in
    the solvers' order, :func:`pipeline.partitions.enumerate_partitions`."""
    records = len(offsets) - 1
    values = np.ascontiguousarray(values, dtype=np.int64)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if rules.arrays:
        return solve_arrays(rules, values, offsets, n, table_limit)
    k = rules.state
    parts, parts_offsets = values, offsets
    if k:
        values = values[:offsets[-1]]
        parts, parts_offsets, kept = _spliced(values, offsets, k, True)
        tail = np.ones(len(values), np.bool_)
        tail[kept] = False
        state = pa.ListArray.from_arrays(pa.array(np.arange(records + 1, dtype=np.int32) * k),
                                         pa.array(values[tail], pa.int64()))
    nonempty = parts_offsets[1:] > parts_offsets[:-1]
    firsts = int(parts[parts_offsets[:-1][nonempty]].sum())
    out = zeroed_outputs(records, int(parts_offsets[-1]), firsts)
    _solved(rules, values, offsets, table_limit, out)
    partition_features(parts, parts_offsets, out)
    columns = common_columns(n, out, partition_columns, walk_order=walk_order)
    if k:
        return pa.Table.from_arrays([*columns, state], schema=STATE_SCHEMA)
    return pa.Table.from_arrays(columns, schema=BOARD_SCHEMA)


def _solved(rules: Rules, values: np.ndarray, offsets: np.ndarray, table_limit: int,
            out: Any) -> None:
    """Solve the starts ``values[offsets[p]:offsets[p+1]]`` into ``out``'s value arrays; a
    :class:`RulesLoopError` when play returns to a position."""
    got = solve_starts(expansion(rules.options), bool(rules.multi_edges), values, offsets,
                       int(table_limit),
                       out.sg, out.sg_misere, out.nodes, out.leaves, out.states, out.height, out.flags)
    if got < 0:
        p = -1 - got
        lam = ",".join(str(int(v)) for v in values[offsets[p]:offsets[p + 1]])
        raise RulesLoopError(f"{rules.game_id}: play from {lam} returns to a position it passed "
                             "(the rules must give a finite game)")


def solve_arrays(rules: Rules, values: np.ndarray, offsets: np.ndarray, n: int,
                 table_limit: int = TABLE_LIMIT) -> pa.Table:
    """The records (:data:`~pipeline.schema.ARRAY_SCHEMA`) of rules whose positions are arrays
    (``POSITIONS = "arrays"``) started at each ``values[offsets[p]:offsets[p+1]]``, a start of
    size n (:meth:`pipeline.rules.Rules.start_arrays` checked it: nonempty, in int16's range),
    in that order: ``parts`` holds the start's integers."""
    records = len(offsets) - 1
    out = zeroed_outputs(records, 0, 0)
    _solved(rules, values, offsets, table_limit, out)
    low, high = (int(values.min()), int(values.max())) if len(values) else (0, 0)
    if low < -(1 << 15) or high >= 1 << 15:  # start_arrays refuses them before
        raise RuntimeError(f"{rules.game_id} n={n}: a start's integer outside int16")
    columns = [
        pa.array(np.full(records, n, np.int16)),
        list_array(values[:offsets[-1]].astype(np.int16), offsets, pa.int16()),
        *value_columns(n, out),
    ]
    return pa.Table.from_arrays(columns, schema=ARRAY_SCHEMA)


class GenericGame(Game):
    """A game given by its rules (:class:`pipeline.rules.Rules`) as the runner sees it. Its starts
    are every partition of n, in the board games' shards and order (so it shares their
    :data:`~pipeline.schema.PARTITION_COLUMNS` in a run), or the rules' own ``starts(n)`` (the
    only starts of rules whose positions are arrays, whose records are
    :data:`~pipeline.schema.ARRAY_SCHEMA`'s)."""

    parallel = True
    #: The rules solve any chosen partition (with ``STATE`` = k, followed by k zeros).
    solves_chosen = True

    def __init__(self, rules: Rules, table_limit: int | None = None):
        self.rules = rules
        self.game_id = rules.game_id
        self.schema = (ARRAY_SCHEMA if rules.arrays else STATE_SCHEMA if rules.state
                       else BOARD_SCHEMA)
        self.table_limit = _table_limit if table_limit is None else table_limit
        self.record_order = "partitions" if rules.starts is None else None
        #: A position with no state is a partition, and so is a box's sub-partition: the rules
        #: solve any partition (:meth:`solve_chosen`); with state, a box's position would need
        #: state no diagram gives.
        self.diagram_positions = not rules.state and not rules.arrays
        self.rules_source = rules.source
        self.positions_are = (f"partitions followed by {rules.state} integers (STATE = "
                              f"{rules.state}), so the boxes of a diagram are not its positions"
                              if rules.state else "partitions")
        self.family = "the games given by their rules"
        if rules.arrays:
            # no partition is a position: nothing that takes a partition takes the game
            self.solves_chosen = False
            self.positions_are = 'integer arrays of its rules\' own encoding (POSITIONS = "arrays")'
            self.family = 'games given by rules on integer arrays (POSITIONS = "arrays")'
        self.commit_fields = {"rules": rules.label} if rules.label else {}
        if rules.state:  # verify says no consistency statement checks such records
            self.commit_fields["rules_state"] = str(rules.state)
        self._plans: dict[tuple[int, int], list] = {}
        self._starts: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._lock = threading.Lock()

    def _listed(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            if n not in self._starts:
                self._starts[n] = self.rules.start_arrays(n)
            return self._starts[n]

    def positions(self, n: int) -> int:
        if self.rules.starts is None:
            return partition_numbers(n)[n] if n >= 1 else 0
        return len(self._listed(n)[1]) - 1

    def plan(self, n: int, max_records: int) -> list:
        key = (n, max_records)
        with self._lock:
            if key not in self._plans:
                if self.rules.starts is None:
                    self._plans[key] = [(s.prefixes, s.records, s.part_values)
                                        for s in plan_shards(n, max_records)]
                else:
                    count = len(self._listed_unlocked(n)[1]) - 1
                    per = max(1, max_records)
                    self._plans[key] = [((a, min(a + per, count)), min(a + per, count) - a, 0)
                                        for a in range(0, count, per)] or [((0, 0), 0, 0)]
            return self._plans[key]

    def _listed_unlocked(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        if n not in self._starts:
            self._starts[n] = self.rules.start_arrays(n)
        return self._starts[n]

    def solve_chosen(self, n: int, values: np.ndarray, offsets: np.ndarray,
                     partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        """The records of the partitions ``values[offsets[p]:offsets[p+1]]`` of n, in that order
        (with rules' ``STATE`` = k, each followed by k zeros: the default start); refused for
        rules whose positions are arrays (:attr:`solves_chosen` is False: no partition is one)."""
        if self.rules.arrays:
            from pipeline.rules import RulesError

            raise RulesError(f"{self.game_id}: its positions are {self.positions_are}, not partitions")
        if self.rules.state:
            values, offsets = with_zero_state(values, offsets, self.rules.state)
        return solve_partitions(self.rules, values, offsets, n, self.table_limit, partition_columns)

    def solve_table(self, partitions: list[tuple[int, ...]]) -> pa.Table:
        """The records of the given partitions, all of one n
        (:func:`~pipeline.games.single_partition.solve_chosen_table`)."""
        return solve_chosen_table(self, partitions)

    def shard_records(self, n: int, shard: int, max_records: int) -> int:
        return self.plan(n, max_records)[shard][1]

    def solve_shard(self, n: int, shard: int, max_records: int,
                    partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        spec, records, part_values = self.plan(n, max_records)[shard]
        if self.rules.starts is None:
            prefix_values, prefix_offsets = flatten_prefixes(spec)
            values = np.zeros(max(part_values, 1), np.int64)
            offsets = np.zeros(records + 1, np.int64)
            got = enumerate_partitions(n, prefix_values, prefix_offsets, values, offsets)
            if got != records:
                raise RuntimeError(f"{self.game_id} n={n} shard {shard}: {got} records, "
                                   f"expected {records}")
            if self.rules.state:
                values, offsets = with_zero_state(values, offsets[:records + 1], self.rules.state)
            return solve_partitions(self.rules, values, offsets, n, self.table_limit,
                                    partition_columns, walk_order=True)
        a, b = spec
        values, offsets = self._listed(n)
        part = values[offsets[a]:offsets[b]]
        return solve_partitions(self.rules, part, offsets[a:b + 1] - offsets[a], n,
                                self.table_limit, partition_columns)


__all__ = ["TABLE_LIMIT", "GenericGame", "RulesLoopError", "forget_expansion", "options_arrow",
           "rewrite_refusal", "rules_options_arrow", "solve_arrays", "solve_partitions",
           "solve_starts", "with_zero_state"]
