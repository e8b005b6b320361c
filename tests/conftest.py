"""Settings for the whole test run."""

from __future__ import annotations

import os
import tempfile

# Tables a run computes go to a fresh cache folder, not the user's: every run starts cold,
# and nothing is left in the home folder.
os.environ.setdefault("TAUT_CACHE", tempfile.mkdtemp(prefix="taut-test-cache-"))
