"""Numba's on-disk cache of the kernels, keyed per kernel on the sources it depends on.

Numba keeps a cached function while *its own* file is unchanged (a content hash of that file,
its "source stamp"), not when a function it calls or inlines from another file changes (e.g.
``cgh.summarize`` inside the moveset kernel), so a fix there could silently keep old machine
code. :class:`KernelCacheLocator` gives each function of the package a source stamp that covers
exactly what its machine code is made of: its own file, the file of every jitted function it
calls or inlines (transitively, through the globals its bytecode names, attributes of modules
included), the values of the constants it reads (numba freezes a global's value into the
code, wherever the global was defined) and the versions of the compiling libraries. Editing a
file no kernel reads (``cli.py``) therefore recompiles nothing, and editing ``cgh.py``
recompiles exactly the kernels that inline it.

``pipeline/__init__.py`` names this locator in ``NUMBA_CACHE_LOCATOR_CLASSES`` (numba reads it
when it caches a function), ahead of numba's own locators, which keep every other function.
The records' ``code`` digest (:func:`pipeline.source_digest`, provenance) is separate and
unchanged: it covers every source file.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import sys
import types
from pathlib import Path

import numpy as np
from numba.core import config
from numba.core.caching import UserProvidedCacheLocator

from pipeline import distribution_version

#: Top-level packages whose functions this locator keys (a test adds a temporary one).
PACKAGES = {"pipeline"}

#: The libraries whose versions change the machine code numba makes of the same source (numba
#: checks its own version in the index as well).
COMPILERS = ("numba", "llvmlite", "numpy")

_CONSTANTS = (bool, int, float, complex, str, bytes, type(None), np.generic)


def _package_root(module_name: str) -> Path | None:
    """The folder of the top-level package of ``module_name`` when it is one of
    :data:`PACKAGES`, else None."""
    top = module_name.partition(".")[0]
    if top not in PACKAGES or top not in sys.modules:
        return None
    origin = getattr(sys.modules[top], "__file__", None)
    return Path(origin).resolve().parent if origin else None


def _codes(code: types.CodeType) -> list[types.CodeType]:
    """``code`` and the code objects nested in it (inner functions, comprehensions)."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found.extend(_codes(const))
    return found


class _Dependencies:
    """The files and constant values a function's machine code is made of (see the module's
    docstring), collected from the function's bytecode and globals."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: set[Path] = set()
        self.constants: list[str] = []
        self._seen: set[int] = set()

    def _file(self, obj: object) -> bool:
        """Add ``obj``'s file if it is in the package; whether it is."""
        try:
            path = _package_file(inspect.getfile(obj))  # type: ignore[arg-type]
        except (TypeError, OSError):
            return False
        if not path.is_relative_to(self.root):
            return False  # a library's: its version is in the key (COMPILERS)
        self.files.add(path)
        return True

    def function(self, func: types.FunctionType) -> None:
        if id(func) in self._seen:
            return
        self._seen.add(id(func))
        if not self._file(func):
            return
        names = [name for code in _codes(func.__code__) for name in code.co_names]
        attributes = set(names)  # LOAD_ATTR names share co_names with globals
        for name in names:
            if name in func.__globals__:
                self.value(f"{func.__module__}.{name}", func.__globals__[name], attributes)
        for cell in func.__closure__ or ():
            try:
                self.value(f"{func.__qualname__}.<cell>", cell.cell_contents, attributes)
            except ValueError:  # an empty cell
                continue

    def value(self, name: str, value: object, attributes: set[str]) -> None:
        py_func = getattr(value, "py_func", None)  # a numba dispatcher
        if isinstance(py_func, types.FunctionType):
            self.function(py_func)
        elif isinstance(value, types.FunctionType):
            self.function(value)
        elif isinstance(value, types.ModuleType):
            if id(value) in self._seen:
                return
            self._seen.add(id(value))
            if not self._file(value):
                return
            for attribute in sorted(attributes):
                if attribute in vars(value):
                    self.value(f"{value.__name__}.{attribute}", vars(value)[attribute], attributes)
        elif isinstance(value, np.ndarray):
            digest = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
            self.constants.append(f"{name}={value.dtype.str}{value.shape}:{digest}")
        elif isinstance(value, _CONSTANTS):
            self.constants.append(f"{name}={type(value).__name__}:{value!r}")
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                self.value(f"{name}[{index}]", item, attributes)
        elif isinstance(value, type):
            self._file(value)  # a class of the package (its file); a library's: its version


@functools.cache
def _file_digest(path: Path, _mtime_ns: int, _size: int) -> bytes:
    """SHA-256 of a file's bytes, read once per version of the file (its time and size)."""
    return hashlib.sha256(path.read_bytes()).digest()


@functools.cache
def _compilers() -> bytes:
    """:data:`COMPILERS` and their versions, as every kernel's key ends (looked up once)."""
    return "".join(f"{name}=={distribution_version(name)}\0" for name in COMPILERS).encode()


@functools.cache
def _package_file(where: str) -> Path:
    """The resolved path of a function's or module's file (resolved once per file)."""
    return Path(where).resolve()


@functools.cache
def kernel_key(func: types.FunctionType) -> str:
    """SHA-256 (hex) of what ``func``'s machine code depends on: the bytes of its file and of
    the files of the package's functions it calls or inlines (named relative to the package),
    the constants it reads, and :data:`COMPILERS`' versions. Numba's source stamp of ``func``
    (:class:`KernelCacheLocator`). Once a process, as numba reads a kernel's stamp once: the
    first run's check of what is compiled (:func:`pipeline.warmup.compile_kernels`) and numba's
    loading of the kernels share one computation."""
    root = _package_root(func.__module__)
    if root is None:
        raise ValueError(f"{func.__module__} is not in {sorted(PACKAGES)}")
    deps = _Dependencies(root)
    deps.function(func)
    digest = hashlib.sha256()
    for path in sorted(deps.files):
        status = path.stat()
        digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
        digest.update(_file_digest(path, status.st_mtime_ns, status.st_size))
    for constant in sorted(set(deps.constants)):
        digest.update(f"{constant}\0".encode())
    digest.update(_compilers())
    return digest.hexdigest()


class _LazyStamp:
    """A source stamp computed when first compared or saved, not when the function is decorated:
    a kernel may call functions defined after it in its module, which do not exist yet then.
    Pickled (into numba's index) as the plain string."""

    def __init__(self, func: types.FunctionType) -> None:
        self._func = func
        self._key: str | None = None

    @property
    def key(self) -> str:
        if self._key is None:
            self._key = kernel_key(self._func)
        return self._key

    def __eq__(self, other: object) -> bool:
        return self.key == (other.key if isinstance(other, _LazyStamp) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return str, (self.key,)


class KernelCacheLocator(UserProvidedCacheLocator):
    """Numba's cache locator for the package's functions: numba's cache folder
    (``NUMBA_CACHE_DIR``, one subfolder per source folder, as numba's own), with the source
    stamp :func:`kernel_key` instead of the hash of the function's own file."""

    def __init__(self, py_func: types.FunctionType, py_file: str) -> None:
        super().__init__(py_func, py_file)
        self._stamp = _LazyStamp(py_func)

    def get_source_stamp(self) -> _LazyStamp:
        return self._stamp

    @classmethod
    def from_function(cls, py_func: types.FunctionType, py_file: str
                      ) -> KernelCacheLocator | None:
        if not config.CACHE_DIR or _package_root(py_func.__module__) is None:
            return None
        if not os.path.exists(py_file):
            return None
        return super().from_function(py_func, py_file)
