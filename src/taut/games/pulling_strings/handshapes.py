"""The 26 American Sign Language fingerspelling handshapes, A..Z, drawn by taut.

Each :class:`Handshape` has its letter, an accessible name ("ASL handshape for K"), a
one-sentence description and an SVG picture (``viewBox="0 0 100 100"``, ``role="img"``,
``aria-label`` and ``<title>`` both the name). The poses are data
(``handshape_poses``) drawn by one function (``handshape_render``) from shared parts
(``handshape_parts``), so all 26 share one style: a right hand in flat skin colour with a
dark outline, and motion (J, Z) as a blue arrow.

Conventions, the same in every picture:

* The hand is a right hand seen by a person facing the signer, so with the palm toward
  the viewer the thumb is on the viewer's right, and a traced letter (the Z) appears
  mirrored, as the viewer sees it.
* The palm side is the light skin colour and shows palm creases; the back of the hand is
  a darker shade and shows knuckle marks and fingernails (G, H, P and Q are seen from the
  back). On the palm side a nail marks a fingertip or thumb tip turned toward the
  viewer: the bent fingers of D and E, and the thumb tip wherever it shows (so the
  thumb of A, S, T, M and N can be told from the fingers).
* C and O are seen edge-on from the thumb side, palm to the viewer's right, because only
  from there does their curve show.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from taut.games.pulling_strings.handshape_poses import POSES
from taut.games.pulling_strings.handshape_render import render


@dataclass(frozen=True)
class Handshape:
    """One handshape: its letter, accessible name, one-sentence description and SVG."""

    letter: str
    name: str
    description: str
    svg: str


def _handshape(letter: str) -> Handshape:
    name = f"ASL handshape for {letter}"
    pose = POSES[letter]
    return Handshape(letter, name, pose.description, render(pose, name))


#: Handshapes by capital letter, A..Z.
HANDSHAPES: dict[str, Handshape] = {ch: _handshape(ch) for ch in string.ascii_uppercase}
