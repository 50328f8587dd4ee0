"""The errors that ``partgames`` reports as one line and exit status 2 (bad input, an unusable
store), apart from the modules that raise them.

Each module keeps its own subclass (``StoreError``, ``GameError``, …); the command line catches
this base class, so that ``sql``, ``verify`` and ``search`` need not import the run machinery
and its numba kernels just to name the errors they could not raise.
"""

from __future__ import annotations


class PartgamesError(Exception):
    """Input or a store that partgames cannot use: the message is the whole report."""


class UsageError(PartgamesError):
    """Command-line input that argparse cannot check."""
