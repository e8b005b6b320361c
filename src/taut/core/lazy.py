"""Names a package re-exports but imports only when first asked for (PEP 562).

Packages whose modules pull in heavy libraries (NumPy, process pools) re-export their names
through :func:`lazy_exports`, so that importing the package, as every command does, costs
nothing until a name is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, namespace: dict[str, Any], table: Mapping[str, str]
) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` that imports each name of ``table``
    (``name -> module``) on first use and keeps it in ``namespace`` (the package's
    ``globals()``)."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
