"""Ctrl-C (SIGINT) and SIGTERM in the ``partgames`` command: one line, exit status 130 or 143,
and what a run leaves resumable, whatever the command is doing when the signal arrives.

Python runs a signal's handler in the main thread between two bytecodes. Two things defeat that:

* A DuckDB query with more than one thread: the main thread waits inside DuckDB for its workers
  and runs no bytecode until the query ends (a long ``sql`` query ignored Ctrl-C for its whole
  length). Python's C-level handler still writes each signal's number to the wakeup file
  (:func:`signal.set_wakeup_fd`) at once, so a watcher thread reads it and interrupts the
  connection (``con.interrupt()``); DuckDB then raises in the main thread, which the query's
  guard (:func:`stoppable`) turns into the signal's exception.
* A second signal raised while the first one unwinds lands anywhere: in the middle of the
  report, in a garbage collector's callback ("Exception ignored … KeyboardInterrupt"). Once a
  signal has stopped the command, later ones are noted, not raised: the command is already
  ending (a run's threads finish the shard in hand, seconds), and its line is printed once
  (:func:`report_once`).

SIGTERM raises :class:`Terminated`, a :class:`KeyboardInterrupt`, so that it unwinds every
command exactly as Ctrl-C does (a run's threads finish the shard in hand, nothing half-written
stays; docs/store.md), and the command reports it as ``terminated`` with status 143 (128 + 15,
the shell's status for a process ended by SIGTERM).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM: stops a command as Ctrl-C does, reported as ``terminated`` with status 143."""


#: The exit status and the word of each signal that stops a command.
STATUS = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated")}


class _State:
    """What the handlers share (one command per process): the signal that stopped the command,
    whether a query is running (its connection, to interrupt), and the wakeup pipe's watcher."""

    def __init__(self) -> None:
        self.received: int | None = None  # the stopping signal, once one arrived
        self.stopping = False  # its exception has been raised: the command is ending
        self.reported = False  # the command's line on the stop is printed
        self.query: Any = None  # the DuckDB connection of the running query, if any
        self.deferred = 0  # inside deferred(): a signal is noted, raised when it ends
        self.lock = threading.Lock()


_state = _State()


def _exception(signum: int) -> KeyboardInterrupt:
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _on_signal(signum: int, _frame: object) -> None:
    """The Python-level handler of SIGINT and SIGTERM (main thread)."""
    with _state.lock:
        if _state.received != signal.SIGTERM:  # SIGTERM after Ctrl-C still means terminated
            _state.received = signum
        if _state.query is not None or _state.stopping or _state.deferred:
            # the watcher interrupts the query (stoppable raises), or the command is ending, or
            # an extension is loading and deferred() raises when it is loaded
            return
        _state.stopping = True
    raise _exception(signum)


def status(exc: BaseException | None = None) -> tuple[int, str]:
    """Exit status and word (``interrupted``/``terminated``) for a command stopped by ``exc``
    (a KeyboardInterrupt, or DuckDB's error for an interrupted query) or by the signal received."""
    if isinstance(exc, Terminated) or _state.received == signal.SIGTERM:
        return STATUS[signal.SIGTERM]
    return STATUS[signal.SIGINT]


def stopped_by(exc: BaseException) -> bool:
    """Whether ``exc`` comes of a stopping signal: a KeyboardInterrupt in its chain (a C
    extension's import turns one into an ImportError), or a signal received meanwhile."""
    seen = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return _state.received is not None


def report_once(line: str) -> None:
    """Print the command's line on being stopped (standard error), once however many signals."""
    with _state.lock:
        if _state.reported:
            return
        _state.reported = True
    print(line, file=sys.stderr, flush=True)


def go_on() -> None:
    """The interrupted statement is dropped and the prompt goes on: the next signal stops again."""
    with _state.lock:
        _state.received, _state.stopping, _state.reported = None, False, False


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """The handlers of one command, in place while it runs (restored after: ``main`` also runs
    inside tests). Where a signal is ignored (``nohup``, a background job of a shell), it stays
    ignored; off the main thread nothing can be installed and nothing is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from pipeline import interrupted_early

    old: dict[int, Callable | int | None] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        current = signal.getsignal(signum)
        if current in (signal.default_int_handler, interrupted_early, signal.SIG_DFL):
            old[signum] = current
            signal.signal(signum, _on_signal)
    go_on()
    try:
        yield
    finally:
        # The `partgames` process itself (its SIGINT handler was pipeline's interrupted_early),
        # stopped by a signal, now only exits: a later signal would kill it during Python's
        # shutdown with the signal's own status instead of the one reported.
        ending = _state.stopping and old.get(signal.SIGINT) is interrupted_early
        for signum, handler in old.items():
            signal.signal(signum, signal.SIG_IGN if ending else handler)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Signals that arrive inside are raised when it ends, not inside.

    For loading DuckDB: its module is built with nanobind, and an exception raised in a Python
    callback while nanobind builds the module's types (an enum's members are set from Python)
    aborts the process with "Critical nanobind error" and a C++ backtrace, not a Python
    exception that the command can report in one line.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with _state.lock:
        _state.deferred += 1
    try:
        yield
    finally:
        with _state.lock:
            _state.deferred -= 1
    if _state.deferred == 0:
        signum = _stop_now()
        if signum is not None:  # the signal came while the extension loaded: stop now
            raise _exception(signum)


def load(module: str) -> Any:
    """Import ``module`` (DuckDB) with signals :func:`deferred` until it is loaded."""
    with deferred():
        return importlib.import_module(module)


@contextlib.contextmanager
def stoppable(con: Any) -> Iterator[None]:
    """Run queries on ``con`` that SIGINT and SIGTERM stop at once, whatever DuckDB's threads: a
    watcher thread reads the signals from Python's wakeup file and interrupts ``con``; DuckDB's
    error for the interrupted query is raised here as the signal's exception (so it unwinds as
    a KeyboardInterrupt, and the command reports it by :func:`status`)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # the C handler must never block on a full pipe
    try:
        previous = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter
        os.close(read_end)
        os.close(write_end)
        yield
        return

    def watch() -> None:
        while data := os.read(read_end, 64):  # b"" once the write end is closed
            for signum in data:
                if signum in STATUS:
                    with _state.lock:
                        if _state.received != signal.SIGTERM:
                            _state.received = signum
                        target = _state.query
                    if target is not None:
                        target.interrupt()

    watcher = threading.Thread(target=watch, name="partgames-signals", daemon=True)
    watcher.start()
    with _state.lock:
        _state.query = con
    try:
        yield
    except Exception as exc:
        signum = _stop_now()
        if signum is not None:
            raise _exception(signum) from exc
        raise
    finally:
        with _state.lock:
            _state.query = None
        signal.set_wakeup_fd(previous)
        os.close(write_end)
        watcher.join()
        os.close(read_end)
    signum = _stop_now()
    if signum is not None:  # the signal came as the query ended: stop before the next one
        raise _exception(signum)


def _stop_now() -> int | None:
    """The signal that arrived during a query and now stops the command, if one did."""
    with _state.lock:
        if _state.received is None or _state.stopping:
            return None
        _state.stopping = True
        return _state.received
