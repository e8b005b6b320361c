"""A serving process collects young objects less often and leaves its start-up objects out
of every collection."""

from __future__ import annotations

import gc

from taut.server.web.collector import FULL, MIDDLE, YOUNG, tune_for_serving


def test_serving_freezes_what_exists_and_collects_less_often() -> None:
    before = gc.get_threshold()
    try:
        tune_for_serving()
        assert gc.get_threshold() == (YOUNG, MIDDLE, FULL)
        assert before[0] < YOUNG
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
