"""What the server worked out from objects it holds, kept by those objects' identity.

A picture, a position and a stored move are values: while the server holds the same object,
what it made from it (a picture's tokens, a patch between two pictures, a picture's JSON,
the state a move makes) is the same. Comparing two pictures of 15 KB to find a patch already
made would cost what it saves, so such results are kept by identity, the objects held with
them so that an identity is never reused while it is a key.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """The last ``size`` results, keyed by the identity of one or two objects and a plain
    hashable ``extra`` (a cut, a move as stored); a key of one object takes None as the
    second (always the same object)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int, Hashable], tuple[object, object, V]] = (
            OrderedDict()
        )

    def get(self, first: object, second: object, extra: Hashable) -> tuple[bool, V | None]:
        """(True, the result) where one is kept for these objects and ``extra``; else
        (False, None)."""
        key = (id(first), id(second), extra)
        found = self._items.get(key)
        if found is None or found[0] is not first or found[1] is not second:
            return False, None
        self._items.move_to_end(key)
        return True, found[2]

    def put(self, first: object, second: object, extra: Hashable, value: V) -> None:
        """Keep ``value`` for these objects and ``extra`` (the oldest goes past ``size``)."""
        self._items[(id(first), id(second), extra)] = (first, second, value)
        if len(self._items) > self.size:
            self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every result."""
        self._items.clear()
