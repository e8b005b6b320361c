"""Numba for the Track Tiles solver's kernel, when it can be had.

The kernel's functions are compiled with Numba when it can be imported (the optional extra
``fast``) and the environment variable ``TAUT_NO_NUMBA`` is not ``1``; otherwise they run
as plain Python on lists. This and the kernel's modules are the only ones that touch
``numba``.
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
#: True when the kernel's functions are compiled (they then take NumPy int64 arrays).
COMPILED: bool = _numba is not None


def jit(function: F) -> F:
    """``function`` compiled in nopython mode (machine code cached on disk; the GIL let go,
    so that a progress display can run beside a search), or as is."""
    if _numba is None:
        return function
    compiled: F = _numba.njit(cache=True, nogil=True)(function)
    return compiled
