"""Source trees of other revisions, for the benchmarks that compare the current tree with
an earlier one (``--rev REV`` beside ``--src DIR``).

A comparison needs the earlier tree's ``src`` folder as it was. Rather than ask for a
worktree, :func:`exported_src` writes that folder out of the repository's history (``git
archive``) into a temporary folder named for the revision, so that a benchmark's table
labels the tree by it: ``serve_load.py --rev 1920fdd`` measures the server as it was there.
Files that git ignores (the browser's vendored packages) are not in it; the benchmarks do
not load them.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import tarfile
from pathlib import Path

#: The repository the benchmarks belong to.
ROOT = Path(__file__).resolve().parent.parent


class UnknownRevision(ValueError):
    """The revision is not in this repository's history (or there is no history)."""


def exported_src(rev: str, into: Path) -> str:
    """Write revision ``rev``'s ``src`` folder into ``into/<rev>/src`` and return that
    path; raises :class:`UnknownRevision`, naming the revision and git's answer, where
    git cannot give it."""
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        raise UnknownRevision(f"--rev {rev}: git is not installed here") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        reason = said[-1] if said else f"git exited with {done.returncode}"
        raise UnknownRevision(f"--rev {rev}: not a revision of {ROOT} ({reason})")
    folder = into / (re.sub(r"[^A-Za-z0-9._-]", "_", rev) or "rev")
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later check each member
            archive.extractall(folder, filter="data")
        else:  # git's own archive of its own tree: nothing outside the folder
            archive.extractall(folder)
    src = folder / "src"
    if not (src / "taut").is_dir():
        raise UnknownRevision(f"--rev {rev}: that revision has no src/taut package")
    return str(src)


def other_tree(
    parser: argparse.ArgumentParser, src: str | None, rev: str | None, into: Path
) -> str | None:
    """The other tree's ``src`` folder that a benchmark measures beside this one: ``--src
    DIR`` as given, or ``--rev REV`` written out into ``into`` (which must outlive the
    measure); None for neither. A folder without the package, an unknown revision, or both
    options end the program through ``parser.error``, naming what was wrong."""
    if src is not None and not (Path(src) / "taut").is_dir():
        parser.error(f"--src {src}: no taut package there (give a tree's src folder)")
    if rev is None:
        return src
    if src is not None:
        parser.error("give --src or --rev, not both")
    try:
        return exported_src(rev, into)
    except UnknownRevision as exc:
        parser.error(str(exc))
