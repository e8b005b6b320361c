"""Numba for the compiled kernels of games and solvers, when it can be had.

A kernel's functions are compiled with Numba when it can be imported (the optional extra
``fast``) and the environment variable ``TAUT_NO_NUMBA`` is not ``1``; otherwise they run
as plain Python (slowly, but with the same results, which is how the tests check them).
This is the one module that imports ``numba`` for them.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def _load_numba() -> Any:
    """The ``numba`` module, or None when it is missing or ``TAUT_NO_NUMBA=1``."""
    if os.environ.get("TAUT_NO_NUMBA") == "1":
        return None
    try:
        return importlib.import_module("numba")  # no type information: kept from mypy's sight
    except ImportError:
        return None


_numba = _load_numba()
#: True when kernels are compiled (they then take NumPy arrays of fixed types).
COMPILED: bool = _numba is not None


def jit(function: F) -> F:
    """``function`` compiled in nopython mode (machine code cached on disk; the GIL let go,
    so that a progress display can run beside a search), or as is."""
    if _numba is None:
        return function
    compiled: F = _numba.njit(cache=True, nogil=True)(function)
    return compiled
