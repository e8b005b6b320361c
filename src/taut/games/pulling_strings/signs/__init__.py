"""Recognising ASL fingerspelling from 21 hand landmarks.

The 24 still letters are read by a model learnt from real signers (:mod:`.learnt`, trained
by :mod:`.train` from ``data/signs``, shipped as ``recogniser.json``) over the hand's shape
numbers (:mod:`.shape`); it answers only when sure and adapts to a learner's calibration.
The drawings' hand model stays as its prior and for motion: the 26 handshapes of
:mod:`taut.games.pulling_strings.handshape_poses` are posed as a 3-D skeleton
(:mod:`.skeleton`, :mod:`.model`), whose features (:mod:`.features`) become each letter's
template (:mod:`.templates`, ``templates.json``); :mod:`.classify` reads J and Z from the
motion of a sequence against them, and a hand far from every template is no letter.
``signs.js`` is the same recogniser for the browser, reading the same JSON; :mod:`.synth`
makes synthetic hands for the prior, tests and benchmarks; :mod:`.commands` is ``taut
signs recognize`` and ``taut signs train``; :mod:`.guide` is the documentation's section
on recognition.

Reading a hand imports only the standard library, so the command line stays fast;
training needs scikit-learn.
"""
