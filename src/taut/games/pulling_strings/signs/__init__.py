"""Recognising ASL fingerspelling from 21 hand landmarks, built from the handshape data.

The 26 handshapes of :mod:`taut.games.pulling_strings.handshape_poses` are posed as a
3-D hand skeleton (:mod:`.skeleton`, :mod:`.model`); the features of each posed letter
(:mod:`.features`) become the letter's template (:mod:`.templates`, shipped as
``templates.json``), and :mod:`.classify` scores a hand against every template. J and Z
add the motion their arrows draw (:mod:`.motion`). ``signs.js`` is the same classifier
for the browser, reading the same JSON; :mod:`.synth` makes noisy synthetic hands for
tests and benchmarks; :mod:`.commands` is ``taut signs recognize``; :mod:`.guide` is the
documentation's section on recognition.

The modules import only the standard library, so the command line stays fast.
"""
