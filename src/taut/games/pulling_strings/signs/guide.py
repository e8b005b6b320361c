"""The "Recognising signs" section of ``docs/asl.md``: how the recogniser works, what it was
learnt from, its measured accuracy on real signers (leave-one-signer-out), calibration,
the confidence rule, its speed and its limits. The handshape gallery appends it to the
page it generates (``handshape_gallery.asl_page``)."""

from __future__ import annotations

#: The section's Markdown, ending with a newline.
SECTION = """\

## Recognising signs

The learning variants ask each player to make the sign of the letter they pull. taut reads
the sign from the 21 hand landmarks that a hand tracker such as MediaPipe Hands gives (0 the
wrist, 1-4 the thumb, 5-8 the index, 9-12 the middle, 13-16 the ring and 17-20 the little
finger, each from knuckle to tip):

```
taut signs recognize hands.json          # the letter of each hand and its candidates
taut signs recognize hands.json --json   # [{"letter": "A", "top": [["A", 0.93], ...]}, ...]
taut signs recognize hands.json --calibration mine.json   # read with a learner's own signs
taut signs train                         # learn the recogniser again from data/signs
```

`hands.json` is `{"hands": [{"landmarks": [[x, y, z], ... 21 points]}, ...]}`, x to the
right, y down, z the depth, x and y in one unit. A hand may give `"frames"` instead of
`"landmarks"`: a list of landmark sets in time order, for J and Z. `"handedness"` may say
which hand it is, but nothing needs it: a left hand, a right hand and a mirrored video are
read alike. Landmarks that are fractions of a non-square image's width (x, z) and height
(y), as MediaPipe gives them, need `"image": {"width": W, "height": H}` beside `"hands"`.
Other keys are ignored; anything malformed (not JSON, not 21 points, NaN, strings, huge
numbers, missing keys) is refused with exit status 2. The answer is the best letter, or
"not sure" (`null`) when the recogniser is not sure (sign again), with the five best
candidates and their probabilities.

The browser gets the same recogniser in `src/taut/games/pulling_strings/signs/signs.js`, a
plain script that defines `TautSigns`: `TautSigns.classify(model, points, handedness,
calibration)` for one frame, `TautSigns.classifyFrames(model, frames, handedness,
calibration)` for a sequence and `TautSigns.calibrate(model, [[letter, points], ...])` for a
calibration, with `model` the parsed `recogniser.json` beside it. A test runs it in
Chromium on real signers' hands (mirrored too), synthetic hands, J and Z, random points,
with and without a calibration, and requires the same letters and the same scores to
1e-9 as Python.

### How recognition works

1. **The hand's shape as numbers** (`shape.py`, 100 of them). Only x and y are used (a
   tracker's depth is its least certain number). The wrist goes to the origin; the hand is
   mirrored, when needed, so that the turn from the wrist-to-middle-knuckle line to the
   little-to-index knuckle line always runs one way, which reads a hand and its mirror
   image alike without any handedness label; lengths are divided by the palm's size.
   Then: every landmark turned so that the hand points up (its handshape whatever its
   turn), the distances between fingertips and from each fingertip to the thumb's two
   outer joints (what touches what), every landmark unturned (where the fingers point: H
   and U, K and P differ only there) and the hand's turn.
2. **A model learnt from real signers** (`learnt.py`, `train.py`): a multinomial logistic
   regression over the standardised numbers (scikit-learn, L2 penalty C = 1, fitted to
   convergence), learnt from the seven people of `data/signs` (7,537 hands of the 24 still
   letters; sources and licences in its README). The drawings' hand model is the prior for
   what no signer covers: 40 synthetic hands a letter, each counting 0.3 of a real one
   (it lifts top-1 by about one point leave-one-signer-out). `taut signs train` writes
   `recogniser.json` (under 100 KB) from the data with a fixed seed; a test fails while
   the shipped file differs from what training gives.
3. **Only when sure.** The best letter is the answer only when its log-probability is at
   least 3 above the runner-up's (about 20 times as likely); otherwise the answer is "not
   sure" and the page asks to sign again instead of counting a guess. A hand farther than
   40 from every still letter of the drawings' templates (random points, an open hand at
   rest) is no letter at all; real signers' hands are that far about one time in sixty.
4. **J and Z** keep their motion rule on top. One frame is read as a still letter. Over
   several frames the drawings' templates decide whether the hand draws J's hook (the
   little fingertip) or Z's zigzag (the index fingertip) with that letter's handshape, at
   least 0.7 palm lengths along the path their arrow draws; if so, that is the answer,
   otherwise the still letter the frames show together.

### Calibration

Hands differ more between people than letters differ within one person's signing, so a
learner may teach the camera their hand: in the browser at `/calibrate` (the page shows each
still letter's handshape and keeps three still frames of the learner signing it; see
[docs/server.md](server.md#signing-to-the-camera) for where it is kept and how to delete
it), and in the terminal with `--calibration CAL.json`, where CAL.json has the input's form
with a `"letter"` on each hand, so a learner's own recorded hands are a calibration file as
they are. With a calibration each letter's score loses 8 times the mean squared difference
(in the model's standardised units) between the hand and the nearest of the learner's
signs of that letter (1.5 for a letter the learner did not sign), and the answer needs a
margin of 2.5 instead of 3. Both numbers were chosen leave-one-signer-out on the project's
own data (`benchmarks/signs_real.py`).

### Accuracy on real signers

`benchmarks/signs_real.py` measures leave-one-signer-out: for each person of `data/signs`
the recogniser is trained without them and reads all their hands of the 24 still letters,
one frame each (never a random split of frames of one held pose). "Judged wrong" is a
correct sign answered with another letter; "sign again" is "not sure". With calibration, 3
signs a letter are drawn at random from the person (five draws) and the rest are read
("Cal.": calibrated; "Wrong": judged wrong; "Again": sign again).

| Signer | Hands | Top-1 (95% interval) | Top-3 | Wrong | Again | Cal. top-1 | Wrong | Again |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
| a | 960 | 91.5% (89.5-93.1) | 99.8% | 3.0% | 24.5% | 97.7% | 1.1% | 8.0% |
| b | 965 | 84.4% (81.9-86.5) | 93.4% | 0.0% | 45.2% | 89.7% | 0.2% | 25.8% |
| c | 1,200 | 92.5% (90.9-93.9) | 98.1% | 1.7% | 37.5% | 96.6% | 2.1% | 10.1% |
| d | 1,234 | 74.4% (71.9-76.7) | 92.9% | 2.3% | 46.0% | 80.2% | 5.6% | 26.6% |
| e | 1,440 | 85.3% (83.4-87.0) | 91.3% | 2.3% | 38.3% | 97.4% | 0.6% | 14.4% |
| f | 1,440 | 87.8% (86.0-89.4) | 96.2% | 2.4% | 32.5% | 89.5% | 4.8% | 16.0% |
| g (A-E only) | 298 | 96.6% (93.9-98.2) | 98.3% | 0.0% | 34.6% | 98.6% | 0.0% | 3.9% |
| **mean** | | **87.5%** | **95.7%** | **1.7%** | **36.9%** | **92.8%** | **2.0%** | **15.0%** |

The margin trades one error for the other (mean over the signers, worst signer):

| Margin | Judged wrong | Sign again |
| --- | --- | --- |
| 0 | 11.4% (25.4%) | 1.6% (3.7%) |
| 1 | 6.0% (9.5%) | 12.1% (22.2%) |
| 2 | 3.7% (5.0%) | 23.4% (35.0%) |
| 3 (without calibration) | 1.7% (3.0%) | 36.9% (46.0%) |
| 4 | 1.0% (2.2%) | 51.0% (55.6%) |

Letters read best: L, B, F, W (99-100%), A, D, Y (96-98%); worst: P (43%), Q (56%), X (67%),
K (72%). The pairs confused most (signed, read): P and G, U and R, O and E, P and M, P
and Q, Q and Y, X and P, S and T, K and V. P and Q are where signers differ most: the same
letter is held pointing down, forward or sideways by different people.

On four more sets of people the project never trained on (public landmark recordings of
about seven more people, read with the model trained on all seven project sets), top-1 was
84.3%, 81.9%, 86.3% and 91.7%, judged wrong 0.3-2.8%. Three of them record no depth, so
the no-hand-shape rule (which uses it) asks for a sign again more often there (38-63%).

For comparison, synthetic hands of the drawings' model (`benchmarks/signs_accuracy.py`'s
noise) are read at 96.4% (low noise) and 88.2% (high noise) by the learnt recogniser; the
drawings' templates alone read them at 100% and 96%, but read real signers' hands at
about 54%.

### Speed

The recogniser itself costs 0.02 ms a hand in Chromium. The hand tracker is the slow part
on a machine without a usable GPU: MediaPipe Hands' WebGL work falls to a software
renderer. `benchmarks/signs_camera.py` measures it in headless Chromium on a 2-core machine
with Chromium's fake camera (no hand in sight, so the palm detector runs on every frame, the
tracker's costliest case):

| Landmark model | Camera picture | Frames a second | ms a frame |
| --- | --- | --- | --- |
| full | 640x480 | 1.75 | 569 |
| lite (the page's setting) | 640x480 | 1.88 | 529 |
| full | 320x240 | 1.81 | 549 |
| lite | 320x240 | 2.63 | 378 |

None reaches 10 frames a second there: the software renderer is the limit, and the
installable MediaPipe Hands (`@mediapipe/hands`) has no CPU path; MediaPipe's newer tasks
API has one, but its hand model is not shipped in any package this project can install.
The page keeps the 640x480 picture for the landmarks' precision and the lite model (7%
more frames), never queues a frame while one is read, and shows its frame rate in the
camera panel. With a usable GPU the same page runs at the camera's rate.

### Limits

- Seven people are few: hands differ more between people than letters within one
  person, and every added signer lifts the others' accuracy (trained on those seven and
  four more sets, an earlier version of the same model read signers a to f at 77-95%
  leave-one-signer-out, against 75-90% without them). The recogniser
  reaches 90% top-1 on three of the seven held-out signers and 75-88% on the others;
  calibration brings five of them to 90-99%.
- Signers' own variants are read as other letters: one signer's Q has the middle finger
  out (read as P); P and Q held at unusual angles are read as G, H or K.
- The landmarks come from a tracker, whose errors are largest for fingers hidden behind
  others (M, N, S, T, E) and which sees only the picture's two dimensions well.
- J and Z are matched against the drawn arrows, in the first frame's hand axes; a J drawn
  with a twist of the wrist, or a very small or fast motion over few frames, may be
  missed.
"""
