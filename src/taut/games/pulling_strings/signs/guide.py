"""The "Recognising signs" section of ``docs/asl.md``: how the recogniser works, its
measured accuracy on synthetic hands and its limits. The handshape gallery appends it to
the page it generates (``handshape_gallery.asl_page``)."""

from __future__ import annotations

#: The section's Markdown, ending with a newline.
SECTION = """\

## Recognising signs

The learning variants ask each player to make the sign of the letter they pull. taut can
read the sign from the 21 hand landmarks that a hand tracker such as MediaPipe Hands gives
(0 the wrist, 1-4 the thumb, 5-8 the index, 9-12 the middle, 13-16 the ring and 17-20 the
little finger, each from knuckle to tip):

```
taut signs recognize hands.json          # the letter of each hand and its candidates
taut signs recognize hands.json --json   # [{"letter": "A", "top": [["A", 0.93], ...]}, ...]
```

`hands.json` is `{"hands": [{"landmarks": [[x, y, z], ... 21 points]}, ...]}`, x to the
right, y down, z the depth (smaller is nearer the camera), x and y in one unit. A hand may
give `"frames"` instead of `"landmarks"`: a list of landmark sets in time order, for J and
Z. `"handedness": "left"` or `"right"` says which hand the points show (without it the
hand's shape tells: fingers fold toward the palm, and a left hand read as a right one has
them fold toward its back). Landmarks that are fractions of a non-square image's width
(x, z) and height (y), as MediaPipe gives them, need `"image": {"width": W, "height": H}`
beside `"hands"`. Other keys are ignored; anything malformed (not JSON, not 21 points,
NaN, strings, huge numbers, missing keys) is refused with exit status 2. The answer is
the best letter, or "not sure" (`null`) when the hand is far from every letter, and the
five best candidates with scores that sum to at most 1.

The browser gets the same classifier in
`src/taut/games/pulling_strings/signs/signs.js`, a plain script that defines `TautSigns`:
`TautSigns.classify(model, points, handedness)` for one frame and
`TautSigns.classifyFrames(model, frames, handedness)` for a sequence, with `model` the
parsed `templates.json` beside it; both return `{letter, top}`. A test runs it in
Chromium on the hands the Python tests use and requires the same letters and the same
scores to 1e-9.

### How recognition works

Nothing is learnt from recorded hands: every letter's template comes from the drawings
on this page.

1. **A hand model.** Each drawing's data (every finger straight, curled, draped, bent or
   drawn along a path; where the thumb lies; which side of the hand shows; how far it is
   turned) is read as joint angles of a 21-point skeleton with the bone lengths of a
   typical adult hand. A straight finger's lean is its spread; a finger drawn along a path
   is folded, hooked (the X) or curved (the F) by as much as the path turns; the thumb
   follows its drawn line, in front of the palm or beside it; a fingertip drawn on the
   thumb tip touches it (D, F, O). C and O, drawn from the side, curve all four fingers by
   the turn of their drawn curve.
2. **21 features** of a hand, the same for any place and size in the image: for each
   finger the flexion at its knuckle, the bend of its two middle joints and the distance
   from its tip to the thumb tip; how far apart neighbouring fingertips are across the
   palm (negative when crossed, as in R); where the thumb tip is across, up and in front
   of the palm and which way it points; where the hand points in the image (up,
   sideways for G and H, down for P and Q); and which way the palm faces (the camera, or
   away for G, H, P, Q). A left hand is mirrored into a right one first.
3. **Templates.** Each letter's expected features are those of its posed skeleton, each
   with a tolerance and a weight set by what the feature is: joint angles always count;
   a fingertip's distance to the thumb counts most where the letter has them touch; a
   gap between fingertips counts only where both fingers stand straight; the hand's
   direction allows a turn of about 30 degrees. `python -m
   taut.games.pulling_strings.signs.templates` writes them to `templates.json`, and a
   test fails while the shipped file differs from what the drawings give.
4. **Scores.** A hand's distance to a letter is the weighted sum of its squared
   differences from the template in tolerances, each capped at 16 so that one misplaced
   landmark cannot decide alone. Scores are a softmax of the distances (temperature 2)
   over the letters and one more candidate, "none of them", at distance 36: a hand
   farther than 36 from every letter is "not sure". An open hand with spread fingers
   (the "5", no letter) is not sure; so are random points.
5. **J and Z** need a sequence. One frame is scored against the 24 still letters only.
   Over several frames a letter's distance is its mean over the frames plus a price for
   motion: a still letter may move its fingertips 0.4 palm lengths, and J (the little
   fingertip) and Z (the index fingertip) must move theirs at least 0.7 palm lengths
   along the path their arrow draws (compared after scaling both to one length). So a
   still I or D stays I or D, and a J's handshape drawing a Z is not read as J or Z. A
   left hand's motion is mirrored with the hand.

### Accuracy on synthetic hands

`benchmarks/signs_accuracy.py` poses 200 hands per letter at two noise levels from the
same model: every joint angle, bone length, knuckle and the thumb varied (standard
deviation 6 degrees and 0.4 cm at "low", 12 degrees and 0.8 cm at "high"), the hand
turned up to 25 degrees in the image and tilted 8 or 15 degrees out of it, at any size
and place, half of them left hands classified without saying so, and every landmark
jittered by 1% or 2.5% of the palm. Measured:

| Noise | Top-1 (24 still letters) | Top-3 | Not sure | J, Z, still I, still D from sequences |
| --- | --- | --- | --- | --- |
| low | 100.0% | 100.0% | 0.0% | 100%, 100%, 100%, 100% |
| high | 96.1% | 99.9% | 0.2% | 100%, 96%, 100%, 100% |

Random point clouds are "not sure" 100% of the time. At high noise the letters that get
confused are the ones that differ by little: U and V (how far apart the two fingers are),
U and R, M and N (one more finger over the thumb), A and T, S and T (where the thumb
tip is), O and C. Changing the depth (z) scale by half or by two keeps top-1 at 99% and
95% (low noise, right hands); with no depth at all (z = 0) it falls to 56%.

### What these numbers mean, and the limits

The synthetic hands come from the same model as the templates, so these numbers show that
the classifier is consistent (Python and the browser agree), that it ignores the place,
size, turn and side of the hand, and how much variation of the modelled kind it
tolerates. They do not measure how well it reads real signers, whose hands differ from
the model in ways the noise does not cover:

- The drawings are simplified: the thumb positions of A, S, T, M, N and E, and the
  curves of C, O, X and F, come from a cartoon hand and may sit elsewhere on real hands.
- Signers vary: G and H are often shown with the palm toward the body rather than away
  from the camera; the fingers of E and O close more or less; U, V and R differ only in
  the spread or crossing of two fingers.
- A tracker's landmarks have errors of their own, largest for fingers hidden behind
  others (M, N, T, S, E) and in the depth, which the knuckle angles rely on.
- Without `"handedness"` the side of the hand is read from its shape, which fails for
  0.3% of the noisiest synthetic hands; give it when the tracker knows it. (MediaPipe
  labels hands as if the image were mirrored, as a selfie view is: on an unmirrored
  image its "Left" is the hand these points show as a right hand.)
- J and Z are matched against the drawn arrows, in the first frame's hand axes; a J
  drawn with a twist of the wrist, or a very small or fast motion over few frames, may
  be missed.

The aim is 90% top-1 on the 24 still letters for real signers; that is measured outside
this project, on recordings of people signing, and is not claimed here.
"""
