"""Numba for the Track Tiles solver's kernel, when it can be had: the shared switch of
:mod:`taut.core.jit` (compiled with the optional extra ``fast`` unless ``TAUT_NO_NUMBA=1``;
otherwise the kernel runs as plain Python on lists)."""

from __future__ import annotations

from taut.core.jit import COMPILED as COMPILED
from taut.core.jit import jit as jit
