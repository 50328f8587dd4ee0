"""A game given by its rules: the rules API, the loader of a rules file and of the
``partgames.games`` entry points, and the registry the game ids are looked up in
(docs/rules.md).

A rules file is a Python file that defines

- ``GAME_ID``: the game's id (lower-case letters, digits and ``_``, starting with a letter; not
  an id partgames already has);
- ``options(position)``: a numba-compiled generator (``@numba.njit``) that yields each option
  of a position. A position is a 1-D integer array; a partition's position is its parts,
  non-increasing, positive (``()`` is the empty array). Yield new arrays, never ``position``
  itself changed in place;
- optionally ``STATE``: k, the number of integers a position carries after its partition's
  parts (a piece's cell, the last moves: any values), 0 by default. With k > 0 a position is the
  parts followed by k integers, and a record's ``state`` column holds a start's k integers;
- optionally ``starts(n)``: the start positions of size n, an iterable of positions: each a
  nonempty partition of n followed by ``STATE`` integers (default: every partition of n, in the
  board games' order, followed by k zeros);
- optionally ``POSITIONS``: ``"partitions"`` (the default: a start is a partition of n, followed
  by ``STATE`` integers) or ``"arrays"``: a position is any 1-D integer array, the game's own
  encoding (a plane partition's rows), and ``starts(n)`` (then required) gives the starts of
  size n, each a nonempty array of integers in -32768..32767; the records then have
  :data:`pipeline.schema.ARRAY_SCHEMA` (``parts`` holds the start's integers, no partition
  feature), and no command that takes a partition (``solve``, ``draw``, ``--family``,
  ``--partitions``) takes the game;
- optionally ``MULTI_EDGES``: True (the default) when two moves to one position are two edges
  of the game tree (docs/definitions.md §4: LCTR's two moves from (1), a moveset's offsets),
  False when they are one move (Slow SetNim's multisets). It changes ``nodes`` and ``leaves``
  only.

A package registers games through the entry point group ``partgames.games``: the entry point's
name is the game id, its object a rules module or a :class:`Rules`.

>>> rules = rules_from_namespace({"GAME_ID": "demo", "options": lambda p: iter(())}, "demo")
>>> rules.game_id, rules.multi_edges, rules.starts is None
('demo', True, True)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from pipeline.errors import PartgamesError

#: The entry point group through which installed packages add games.
ENTRY_POINT_GROUP = "partgames.games"

_ID = re.compile(r"[a-z][a-z0-9_]{0,63}")
#: The most integers a position may carry after its parts (``STATE``).
MAX_STATE = 64
#: What a rules game's positions may be (``POSITIONS``): partitions (followed by ``STATE``
#: integers), or integer arrays of the game's own encoding.
POSITION_KINDS = ("partitions", "arrays")
#: The range of a start's integers when positions are arrays: the records' ``parts`` column
#: (list<int16>, as every record's, and the summaries' witnesses) holds them.
ARRAY_RANGE = (-(1 << 15), (1 << 15) - 1)

_REGISTRY: dict[str, Rules] = {}
#: Game ids whose SQL views exist, empty until a record, though this process has no rules for
#: them: those the statements beside a rules file read (``verify --rules``, docs/rules.md).
_VIEWS: set[str] = set()
_LOADED: dict[tuple[str, str], list[Rules]] = {}
_LOCK = threading.Lock()


class RulesError(PartgamesError, ValueError):
    """A rules file or rules object that cannot be used (one line)."""


@dataclass(frozen=True)
class Rules:
    """One game's rules (see the module's docstring)."""

    game_id: str
    options: Any  # a numba dispatcher of a generator: position -> options
    starts: Callable[[int], Iterable[Sequence[int]]] | None = None
    multi_edges: bool = True
    #: Where the rules come from, for the commit record: a file's name and content hash.
    label: str = ""
    #: The rules file's name and text, which a cluster run ships to its workers
    #: (:func:`load_rules_source`); None for rules not read from a file (an entry point's).
    source: tuple[str, str] | None = None
    #: The integers a position carries after its partition's parts (``STATE``).
    state: int = 0
    #: ``"partitions"`` or ``"arrays"`` (``POSITIONS``, :data:`POSITION_KINDS`).
    positions: str = "partitions"

    @property
    def arrays(self) -> bool:
        """Its positions are integer arrays of its own encoding, not partitions."""
        return self.positions == "arrays"

    def start_arrays(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The rules' own starts of n as (values, offsets), each checked to be a nonempty
        partition of n followed by :attr:`state` integers; only for rules with ``starts``."""
        assert self.starts is not None
        if self.arrays:
            return self._array_starts(n)
        k = self.state
        lams: list[tuple[int, ...]] = []
        for lam in self.starts(n):
            t = tuple(int(v) for v in lam)
            parts = t[:len(t) - k]
            if (len(t) < k or not parts or any(v <= 0 for v in parts) or sum(parts) != n
                    or any(a < b for a, b in zip(parts, parts[1:], strict=False))):
                tail = f" followed by {k} integers (STATE = {k})" if k else ""
                raise RulesError(f"{self.game_id}: starts({n}) gave {t}, not a nonempty "
                                 f"partition of {n} (positive parts, non-increasing){tail}")
            lams.append(t)
        return _packed(lams)

    def _array_starts(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The starts of n of rules whose positions are arrays, each checked to be a nonempty
        1-D array of integers in :data:`ARRAY_RANGE` (nonempty: a record's ``parts`` has a first
        value, which the summaries read)."""
        try:
            given = list(self.starts(n))  # type: ignore[misc]
        except Exception as exc:  # the user's code: any error is the rules'
            raise RulesError(f"{self.game_id}: starts({n}) failed: {type(exc).__name__}: "
                             f"{exc}") from exc
        low, high = ARRAY_RANGE
        lams: list[tuple[int, ...]] = []
        for lam in given:
            t = _integers(lam)
            if t is None or not t or not all(low <= v <= high for v in t):
                shown = repr(lam)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                raise RulesError(f"{self.game_id}: starts({n}) gave {shown}, not a nonempty 1-D "
                                 f"array of integers in {low}..{high} (POSITIONS = \"arrays\")")
            lams.append(t)
        return _packed(lams)


def _integers(lam: object) -> tuple[int, ...] | None:
    """``lam`` as a tuple of ints when it is a 1-D array, list or tuple of integers (no bool,
    no float), else None."""
    if isinstance(lam, np.ndarray):
        return tuple(lam.tolist()) if lam.ndim == 1 and lam.dtype.kind in "iu" else None
    if isinstance(lam, (list, tuple)) and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in lam):
        return tuple(int(v) for v in lam)
    return None


def _packed(lams: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """(values, offsets) of these positions, one after the other."""
    values = np.fromiter((v for lam in lams for v in lam), dtype=np.int64)
    offsets = np.zeros(len(lams) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(lam) for lam in lams])
    return values, offsets


def _is_jitted(obj: object) -> bool:
    return hasattr(obj, "py_func") and hasattr(obj, "compile")


def rules_from_namespace(space: Mapping[str, Any], where: str, label: str = "") -> Rules:
    """The :class:`Rules` a module's names define (``where`` names it in errors)."""
    if isinstance(space.get("RULES"), Rules):
        return space["RULES"]
    game_id = space.get("GAME_ID")
    if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
        raise RulesError(f"{where}: GAME_ID must be a string of lower-case letters, digits and _, "
                         f"starting with a letter (got {game_id!r})")
    options = space.get("options")
    if options is None or not callable(options):
        raise RulesError(f"{where}: no options(position) function (a @numba.njit generator)")
    starts = space.get("starts")
    if starts is not None and not callable(starts):
        raise RulesError(f"{where}: starts must be a function of n")
    multi = space.get("MULTI_EDGES", True)
    if not isinstance(multi, bool):
        raise RulesError(f"{where}: MULTI_EDGES must be True or False")
    state = space.get("STATE", 0)
    if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= MAX_STATE:
        raise RulesError(f"{where}: STATE must be a whole number 0..{MAX_STATE}, the integers a "
                         f"position carries after its parts (got {state!r})")
    positions = space.get("POSITIONS", "partitions")
    if positions not in POSITION_KINDS:
        raise RulesError(f"{where}: POSITIONS must be \"partitions\" or \"arrays\" (got "
                         f"{positions!r})")
    return Rules(game_id, options, starts, multi, label, state=state, positions=positions)


def load_rules_file(path: str | Path) -> list[Rules]:
    """The rules a file defines (one game: ``GAME_ID``, ``options``, …; or ``RULES``, a
    :class:`Rules` or a list of them). A missing file, an error while it runs or a bad
    definition is one :class:`RulesError`."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RulesError(f"--rules {path}: {exc.strerror or exc}") from exc
    digest = hashlib.sha256(data).hexdigest()[:16]
    key = (str(path.resolve()), digest)
    with _LOCK:
        if key in _LOADED:  # the same file unchanged: its compiled options again
            return _LOADED[key]
    name = f"partgames_rules_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise RulesError(f"--rules {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba looks the module up by name while it compiles
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's code: any error is the file's
        sys.modules.pop(name, None)
        raise RulesError(f"--rules {path}: {type(exc).__name__}: {exc}") from exc
    label = f"{path.name} sha256:{digest}"
    source = (path.name, data.decode("utf-8", errors="replace"))
    found = getattr(module, "RULES", None)
    if isinstance(found, (list, tuple)):
        if not found or not all(isinstance(r, Rules) for r in found):
            raise RulesError(f"--rules {path}: RULES must be a Rules or a list of them")
        loaded = [dataclasses.replace(r, label=r.label or label, source=source) for r in found]
    else:
        rules = rules_from_namespace(vars(module), f"--rules {path}", label)
        loaded = [dataclasses.replace(rules, label=rules.label or label, source=source)]
    for rules in loaded:
        _check(rules, f"--rules {path}")
    with _LOCK:
        _LOADED[key] = loaded
    return loaded


def load_rules_source(name: str, text: str) -> list[Rules]:
    """The rules of a rules file given by its name and text (:attr:`Rules.source`: what a
    cluster run ships to its workers, which need not see the client's file): written to a
    directory of this user's under the temporary directory, named by the text's hash, and loaded
    from there, so that they get the label the client's file has."""
    import os
    import tempfile

    data = text.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()[:16]
    uid = os.getuid() if hasattr(os, "getuid") else 0
    folder = Path(tempfile.gettempdir()) / f"partgames-rules-{uid}" / digest
    path = folder / Path(name).name
    if not path.is_file() or path.read_bytes() != data:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        part = folder / f".{path.name}.{os.getpid()}.{threading.get_ident()}"
        part.write_bytes(data)
        os.replace(part, path)  # whole or not at all: another task may load it meanwhile
    return load_rules_file(path)


def _check(rules: Rules, where: str) -> None:
    if not _is_jitted(rules.options):
        raise RulesError(f"{where}: options must be compiled with @numba.njit (a generator "
                         "yielding each option)")
    if (isinstance(rules.state, bool) or not isinstance(rules.state, int)
            or not 0 <= rules.state <= MAX_STATE):
        raise RulesError(f"{where}: the rules of {rules.game_id}: state must be a whole number "
                         f"0..{MAX_STATE} (got {rules.state!r})")
    if rules.positions not in POSITION_KINDS:
        raise RulesError(f"{where}: the rules of {rules.game_id}: positions must be "
                         f"\"partitions\" or \"arrays\" (got {rules.positions!r})")
    if rules.arrays and rules.starts is None:
        raise RulesError(f"{where}: the rules of {rules.game_id}: POSITIONS = \"arrays\" needs "
                         "starts(n), the start positions of size n (there is no default)")
    if rules.arrays and rules.state:
        raise RulesError(f"{where}: the rules of {rules.game_id}: STATE is the integers after a "
                         "partition's parts; with POSITIONS = \"arrays\" the array holds them")




def register(rules: Rules, replace: bool = False) -> None:
    """Make ``rules.game_id`` a game id (:func:`pipeline.games.get_game`). An id partgames
    already gives a game (a board game, ``sn…``, ``moves_…``, ``lctr_d<d>``) or another rules'
    is refused (``replace``: other rules of the id are replaced, as on a cluster worker, which
    serves one run after another)."""
    from pipeline.games import reserved_id  # the registry says which ids its families hold

    gid = rules.game_id
    if not _ID.fullmatch(gid):
        raise RulesError(f"rules game id {gid!r}: lower-case letters, digits and _, starting "
                         "with a letter")
    if reserved_id(gid):
        raise RulesError(f"rules game id {gid!r}: partgames has a game of that id (or claims "
                         "ids starting with sn and moves_, and lctr_d<d>); choose another")
    with _LOCK:
        old = _REGISTRY.get(gid)
        if old is not None and old.label != rules.label and not replace:
            raise RulesError(f"rules game id {gid!r}: given twice ({old.label}, {rules.label})")
        _REGISTRY[gid] = rules


def unregister(game_id: str) -> None:
    """Forget a registered rules game (tests)."""
    with _LOCK:
        _REGISTRY.pop(game_id, None)
        _VIEWS.discard(game_id)


@functools.lru_cache(maxsize=256)
def _from_entry_point(game_id: str) -> Rules | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name != game_id:
            continue
        try:
            obj = ep.load()
        except Exception as exc:  # an installed package's code
            raise RulesError(f"entry point {ep.name} = {ep.value}: {type(exc).__name__}: {exc}") from exc
        if isinstance(obj, Rules):
            rules = obj
        elif isinstance(obj, ModuleType):
            rules = rules_from_namespace(vars(obj), f"entry point {ep.name}",
                                         f"entry point {ep.value}")
        else:
            raise RulesError(f"entry point {ep.name} = {ep.value}: not a rules module or Rules")
        if rules.game_id != game_id:
            raise RulesError(f"entry point {ep.name}: its rules' id is {rules.game_id!r}")
        _check(rules, f"entry point {ep.name}")
        return rules
    return None


def forget_entry_points() -> None:
    """Forget the entry points :func:`find_rules` looked up so far (it reads each id's once):
    the next lookup reads the installed ones again, as after installing a package."""
    _from_entry_point.cache_clear()


def find_rules(game_id: str) -> Rules | None:
    """The rules of a registered id, or of an installed entry point of that name, or None."""
    with _LOCK:
        found = _REGISTRY.get(game_id)
    if found is not None or not _ID.fullmatch(game_id):
        return found
    rules = _from_entry_point(game_id)
    if rules is not None:
        register(rules)
    return rules


def declare_views(game_ids: Iterable[str]) -> None:
    """Give each of these game ids (rules game ids, no others) a SQL view, empty while the store
    has no record of it: the games that statements beside a rules file read, so that a statement
    about a game not run is ``no data``, not an error."""
    from pipeline.games import reserved_id  # the built-in families' ids have views of their own

    with _LOCK:
        _VIEWS.update(g for g in game_ids if _ID.fullmatch(g) and not reserved_id(g)
                      and g not in ("records", "slownim", "jobs", "summaries"))


def state_of(game_id: str) -> int:
    """The ``STATE`` of a rules game this process has loaded (0 for any other id): a game with
    state has the ``state`` column (its view's schema, empty before a record)."""
    with _LOCK:
        found = _REGISTRY.get(game_id)
    return found.state if found is not None else 0


def positions_of(game_id: str) -> str:
    """The ``POSITIONS`` of a rules game this process has loaded ("partitions" for any other
    id): a game whose positions are arrays has :data:`pipeline.schema.ARRAY_SCHEMA` (its view's
    schema, empty before a record)."""
    with _LOCK:
        found = _REGISTRY.get(game_id)
    return found.positions if found is not None else "partitions"


def known_game_ids() -> list[str]:
    """The ids of the rules games this process knows without loading any: those registered
    (``--rules``) and the names of the installed ``partgames.games`` entry points (for the SQL
    views, which exist, empty, before a game's first record)."""
    with _LOCK:
        ids = set(_REGISTRY) | _VIEWS
    ids.update(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if _ID.fullmatch(ep.name))
    return sorted(ids)


__all__ = ["ENTRY_POINT_GROUP", "Rules", "RulesError", "declare_views", "find_rules",
           "forget_entry_points", "known_game_ids",
           "load_rules_file", "load_rules_source", "positions_of", "register", "rules_from_namespace",
           "state_of", "unregister"]
