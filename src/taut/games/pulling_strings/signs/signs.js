// Fingerspelling from 21 hand landmarks: the recogniser of taut's signs package (shape.py,
// learnt.py, classify.py, features.py, templates.py) for the browser, reading the same
// recogniser.json and doing the same arithmetic in the same order, so both give the same
// answer.
//
// A hand is 21 points [x, y, z] as MediaPipe Hands numbers them (0 wrist, 1-4 thumb, 5-8
// index, 9-12 middle, 13-16 ring, 17-20 little), x right, y down, z away from the camera,
// x and y in the same unit. Load this file as a plain script (it defines TautSigns) or
// require it; then, with `model` the parsed recogniser.json:
//
//   TautSigns.classify(model, points, handedness, calibration)       one frame: a still letter
//   TautSigns.classifyFrames(model, frames, handedness, calibration) a sequence: J and Z too
//   TautSigns.calibrate(model, [[letter, points], ...])   a learner's calibration
//
// handedness is "left", "right" or null (a hand and its mirror image read alike; the motion
// of J and Z is read from the hand when null); calibration is null or what calibrate gives
// ({version: 1, letters: {A: [[shape numbers], ...]}}, the form Python's Calibration keeps).
// TautSigns.squareUp(points, width, height) first turns MediaPipe's normalised landmarks into
// one unit. Both return {letter: "A" | null, top: [["A", 0.93], ["S", 0.04], ...]}, letter
// null when not sure.
(function (root) {
  "use strict";

  const FINGERS = ["index", "middle", "ring", "little"];
  const FIRST = { index: 5, middle: 9, ring: 13, little: 17 };
  const GAPS = [["index", "middle"], ["middle", "ring"], ["ring", "little"]];
  const HANDEDNESS = ["left", "right"];

  class DegenerateHand extends Error {}

  const sub = (v, w) => [v[0] - w[0], v[1] - w[1], v[2] - w[2]];
  const dot = (v, w) => v[0] * w[0] + v[1] * w[1] + v[2] * w[2];
  const cross = (v, w) => [
    v[1] * w[2] - v[2] * w[1],
    v[2] * w[0] - v[0] * w[2],
    v[0] * w[1] - v[1] * w[0],
  ];
  const length = (v) => Math.sqrt(dot(v, v));
  const angle = (v, w) => Math.atan2(length(cross(v, w)), dot(v, w));

  function palmSize(points) {
    const wrist = points[0];
    let total = 0.0;
    for (const finger of FINGERS) total += length(sub(points[FIRST[finger]], wrist));
    return total / 4.0;
  }

  function handAxes(points) {
    const up = sub(points[FIRST.middle], points[0]);
    const size = length(up);
    if (!(size > 0.0)) throw new DegenerateHand("the wrist and the middle knuckle meet");
    const u = [up[0] / size, up[1] / size, up[2] / size];
    let w = sub(points[FIRST.index], points[FIRST.little]);
    const along = dot(w, u);
    w = [w[0] - along * u[0], w[1] - along * u[1], w[2] - along * u[2]];
    const width = length(w);
    if (!(width > 1e-9 * size)) throw new DegenerateHand("the knuckles lie on one line");
    const a = [w[0] / width, w[1] / width, w[2] / width];
    return [a, u, cross(a, u)];
  }

  function palmSide(points) {
    const n = handAxes(points)[2];
    let total = dot(sub(points[4], points[0]), n) + dot(sub(points[3], points[0]), n);
    for (const finger of FINGERS) {
      const first = FIRST[finger];
      total += dot(sub(points[first + 3], points[first]), n);
    }
    return total / palmSize(points);
  }

  const mirror = (points) => points.map(([x, y, z]) => [-x, y, z]);

  function features(points) {
    const [a, u, n] = handAxes(points);
    const size = palmSize(points);
    const thumb = points[4];
    const out = [];
    for (const finger of FINGERS) {
      const first = FIRST[finger];
      const [mcp, pip, dip, tip] = points.slice(first, first + 4);
      const proximal = sub(pip, mcp);
      const middle = sub(dip, pip);
      const distal = sub(tip, dip);
      out.push(Math.atan2(dot(proximal, n), dot(proximal, u)) / (Math.PI / 2));
      out.push((angle(proximal, middle) + angle(middle, distal)) / Math.PI);
      out.push(length(sub(tip, thumb)) / size);
    }
    for (const [left, right] of GAPS) {
      out.push(dot(sub(points[FIRST[left] + 3], points[FIRST[right] + 3]), a) / size);
    }
    const fromWrist = sub(thumb, points[0]);
    out.push(dot(fromWrist, a) / size);
    out.push(dot(fromWrist, u) / size);
    out.push(dot(fromWrist, n) / size);
    const thumbDir = sub(thumb, points[2]);
    out.push(Math.atan2(dot(thumbDir, a), dot(thumbDir, u)) / (Math.PI / 2));
    out.push(Math.atan2(Math.sqrt(u[0] * u[0] + u[2] * u[2]), -u[1]) / (Math.PI / 2));
    out.push(-n[2]);
    return out;
  }

  // -- paths (templates.py) ---------------------------------------------------------------

  function dist(p, q) {
    const dx = p[0] - q[0];
    const dy = p[1] - q[1];
    return Math.sqrt(dx * dx + dy * dy);
  }

  function addUp(values) {
    let out = 0.0;
    for (const value of values) out += value;
    return out;
  }

  const segments = (points) => points.slice(1).map((q, i) => dist(points[i], q));

  function resample(points, count) {
    const lengths = segments(points);
    const total = addUp(lengths);
    if (total <= 0.0) return Array.from({ length: count }, () => points[0]);
    const out = [];
    let k = 0;
    let walked = 0.0;
    for (let i = 0; i < count; i++) {
      const goal = (total * i) / (count - 1);
      while (k < lengths.length - 1 && walked + lengths[k] < goal) {
        walked += lengths[k];
        k += 1;
      }
      let t = lengths[k] > 0.0 ? (goal - walked) / lengths[k] : 0.0;
      t = Math.min(1.0, Math.max(0.0, t));
      const [ax, ay] = points[k];
      const [bx, by] = points[k + 1];
      out.push([ax + (bx - ax) * t, ay + (by - ay) * t]);
    }
    return out;
  }

  function normalisePath(points, count) {
    const even = resample(points, count);
    const total = addUp(segments(points));
    const [x0, y0] = even[0];
    const scale = total > 0.0 ? 1.0 / total : 0.0;
    return even.map(([x, y]) => [(x - x0) * scale, (y - y0) * scale]);
  }

  // -- scoring (classify.py) -----------------------------------------------------------------

  function distance(values, template, cap) {
    let total = 0.0;
    for (let i = 0; i < values.length; i++) {
      const z = (values[i] - template.mean[i]) / template.tol[i];
      total += template.weight[i] * Math.min(z * z, cap);
    }
    return total;
  }

  function rank(distances, names, model) {
    const scoring = model.scoring;
    const reject = scoring.reject;
    const scale = 2.0 * scoring.temperature;
    let best = Infinity;
    for (const k of names) best = Math.min(best, distances[k]);
    const floor = Math.min(best, reject);
    const weights = {};
    for (const k of names) weights[k] = Math.exp(-(distances[k] - floor) / scale);
    let total = 0.0;
    for (const k of names) total += weights[k];
    total += Math.exp(-(reject - floor) / scale);
    const ranked = [...names].sort((p, q) =>
      distances[p] !== distances[q] ? distances[p] - distances[q] : p < q ? -1 : p > q ? 1 : 0,
    );
    const top = ranked.slice(0, scoring.top).map((k) => [k, weights[k] / total]);
    return { letter: best <= reject ? ranked[0] : null, top };
  }

  function rightHand(frames, handedness) {
    let left;
    if (handedness === null || handedness === undefined) {
      left = addUp(frames.map(palmSide)) < 0.0;
    } else if (HANDEDNESS.includes(handedness)) {
      left = handedness === "left";
    } else {
      throw new Error(`handedness must be one of ${HANDEDNESS.join(", ")}, not ${handedness}`);
    }
    return frames.map((frame) => (left ? mirror(frame) : frame));
  }

  function track(frames, point, size) {
    const [a, u] = handAxes(frames[0]);
    const start = frames[0][point];
    return frames.map((frame) => {
      const d = [frame[point][0] - start[0], frame[point][1] - start[1], frame[point][2] - start[2]];
      return [
        (d[0] * a[0] + d[1] * a[1] + d[2] * a[2]) / size,
        (d[0] * u[0] + d[1] * u[1] + d[2] * u[2]) / size,
      ];
    });
  }

  const reach = (t) => Math.max(...t.map(([x, y]) => Math.sqrt(x * x + y * y)));

  function pathDistance(t, path) {
    const made = normalisePath(t, path.length);
    let total = 0.0;
    for (let i = 0; i < path.length; i++) {
      const [x, y] = made[i];
      const [px, py] = path[i];
      total += (x - px) * (x - px) + (y - py) * (y - py);
    }
    return Math.sqrt(total / path.length);
  }

  // The drawings' templates (templates.json, the model's "templates"): J and Z by their
  // motion, else the nearest template's still letter.
  function motionFrames(model, frames, handedness = null) {
    const scoring = model.scoring;
    let hands;
    let values;
    try {
      hands = rightHand(frames, handedness);
      values = hands.map(features);
    } catch (error) {
      if (error instanceof DegenerateHand) return { letter: null, top: [] };
      throw error;
    }
    const letters = model.letters;
    const moving = hands.length > 1;
    const names = moving ? Object.keys(letters).sort() : model.static;
    const distances = {};
    for (const name of names) {
      let total = 0.0;
      for (const v of values) total += distance(v, letters[name], scoring.cap);
      distances[name] = total / values.length;
    }
    if (moving) {
      let size = 0.0;
      for (const hand of hands) size += palmSize(hand);
      size /= hands.length;
      const tracks = {};
      for (const k of Object.keys(model.motion).sort()) {
        tracks[k] = track(hands, model.motion[k].point, size);
      }
      const still = Math.max(...Object.values(tracks).map(reach));
      const extra = Math.max(0.0, still - scoring.still) / scoring.motion_tol;
      for (const name of names) {
        if (name in tracks) {
          const t = tracks[name];
          const short = Math.max(0.0, scoring.moving - reach(t)) / scoring.motion_tol;
          const miss = pathDistance(t, model.motion[name].path) / scoring.path_tol;
          distances[name] += scoring.motion_weight * (short * short);
          distances[name] += scoring.path_weight * (miss * miss);
        } else {
          distances[name] += scoring.motion_weight * (extra * extra);
        }
      }
    }
    return rank(distances, names, model);
  }

  // Landmarks normalised to a width x height image (MediaPipe's x and z are fractions of
  // the width, y of the height) in one unit, so that a wide image does not squash the hand.
  function squareUp(points, width, height) {
    const k = width / height;
    return points.map(([x, y, z]) => [x * k, y, z * k]);
  }

  // How far a hand is from the nearest still letter's template (the mean over the frames),
  // read as it is and mirrored, whichever is nearer.
  function templateDistance(frames, model) {
    let best = Infinity;
    for (const side of HANDEDNESS) {
      let values;
      try {
        values = rightHand(frames, side).map(features);
      } catch (error) {
        if (error instanceof DegenerateHand) return Infinity;
        throw error;
      }
      for (const name of model.static) {
        let total = 0.0;
        for (const v of values) total += distance(v, model.letters[name], model.scoring.cap);
        best = Math.min(best, total / values.length);
      }
    }
    return best;
  }

  // -- the learnt recogniser's numbers (shape.py) ---------------------------------------------

  const TIPS = [4, 8, 12, 16, 20];
  const THUMB_JOINTS = [2, 3];
  const KNUCKLES = [5, 9, 13, 17];

  class NoHandShape extends Error {}

  function canonical(points) {
    const x0 = points[0][0];
    const y0 = points[0][1];
    let flat = points.map((p) => [p[0] - x0, p[1] - y0]);
    const [ux, uy] = flat[9];
    const ax = flat[5][0] - flat[17][0];
    const ay = flat[5][1] - flat[17][1];
    if (ux * ay - uy * ax < 0.0) flat = flat.map(([x, y]) => [-x, y]);
    let size = 0.0;
    for (const k of KNUCKLES) size += Math.sqrt(flat[k][0] * flat[k][0] + flat[k][1] * flat[k][1]);
    size /= 4.0;
    if (!(size > 0.0)) throw new NoHandShape("the knuckles are at the wrist");
    return flat.map(([x, y]) => [x / size, y / size]);
  }

  function apart(p, q) {
    const dx = p[0] - q[0];
    const dy = p[1] - q[1];
    return Math.sqrt(dx * dx + dy * dy);
  }

  function shape(points) {
    if (points.length !== 21) throw new NoHandShape("a hand has 21 landmarks");
    const q = canonical(points);
    const [ux, uy] = q[9];
    if (!(ux * ux + uy * uy > 0.0)) throw new NoHandShape("the middle knuckle is at the wrist");
    const turn = Math.atan2(ux, -uy);
    const c = Math.cos(turn);
    const s = Math.sin(turn);
    const turned = q.map(([x, y]) => [x * c + y * s, x * s - y * c]);
    const out = [];
    for (const [x, y] of turned.slice(1)) out.push(x, y);
    for (let k = 0; k < TIPS.length; k++) {
      for (const b of TIPS.slice(k + 1)) out.push(apart(turned[TIPS[k]], turned[b]));
    }
    for (const t of TIPS.slice(1)) for (const j of THUMB_JOINTS) out.push(apart(turned[t], turned[j]));
    for (const [x, y] of q.slice(1)) out.push(x, y);
    out.push(c, s);
    return out;
  }

  // -- the learnt model (learnt.py) -------------------------------------------------------------

  const standardise = (values, model) => values.map((v, j) => (v - model.mean[j]) / model.scale[j]);

  function meanSquare(z, c) {
    let total = 0.0;
    for (let j = 0; j < z.length; j++) total += (z[j] - c[j]) * (z[j] - c[j]);
    return total / z.length;
  }

  function letterScores(framesValues, model, calibration = null) {
    const letters = model.letters;
    const totals = letters.map(() => 0.0);
    const zs = framesValues.map((values) => standardise(values, model));
    for (const z of zs) {
      for (let k = 0; k < letters.length; k++) {
        const row = model.weights[k];
        let score = model.bias[k];
        for (let j = 0; j < z.length; j++) score += row[j] * z[j];
        totals[k] += score;
      }
    }
    const logits = totals.map((t) => t / zs.length);
    if (calibration && calibration.letters && Object.keys(calibration.letters).length) {
      const rule = model.calibration;
      const own = {};
      for (const [k, signs] of Object.entries(calibration.letters)) {
        own[k] = signs.map((v) => standardise(v, model));
      }
      for (let k = 0; k < letters.length; k++) {
        let near;
        if (letters[k] in own) {
          near = Infinity;
          for (const z of zs) for (const sign of own[letters[k]]) near = Math.min(near, meanSquare(z, sign));
        } else {
          near = rule.absent;
        }
        logits[k] -= rule.weight * near;
      }
    }
    const top = Math.max(...logits);
    let total = 0.0;
    for (const value of logits) total += Math.exp(value - top);
    const norm = top + Math.log(total);
    const scores = {};
    letters.forEach((letter, k) => { scores[letter] = logits[k] - norm; });
    return scores;
  }

  function judge(framesValues, model, calibration = null) {
    const scores = letterScores(framesValues, model, calibration);
    const ranked = Object.keys(scores).sort((p, q) =>
      scores[p] !== scores[q] ? scores[q] - scores[p] : p < q ? -1 : p > q ? 1 : 0,
    );
    const top = ranked.slice(0, model.top).map((k) => [k, Math.exp(scores[k])]);
    const calibrated = Boolean(calibration && calibration.letters && Object.keys(calibration.letters).length);
    const margin = calibrated ? model.calibration.margin : model.margin;
    const sure = scores[ranked[0]] - scores[ranked[1]] >= margin;
    return { letter: sure ? ranked[0] : null, top };
  }

  function classifyFrames(model, frames, handedness = null, calibration = null) {
    if (!frames.length) throw new Error("a sequence needs at least one frame");
    if (handedness !== null && handedness !== undefined && !HANDEDNESS.includes(handedness)) {
      throw new Error(`handedness must be one of ${HANDEDNESS.join(", ")}, not ${handedness}`);
    }
    if (frames.length > 1) {
      const moved = motionFrames(model.templates, frames, handedness);
      if (moved.letter && moved.letter in model.templates.motion) return moved;
    }
    let values;
    try {
      values = frames.map(shape);
    } catch (error) {
      if (error instanceof NoHandShape) return { letter: null, top: [] };
      throw error;
    }
    const { letter, top } = judge(values, model, calibration);
    if (letter !== null && templateDistance(frames, model.templates) > model.outside) {
      return { letter: null, top };
    }
    return { letter, top };
  }

  // A learner's calibration from their signs [[letter, points], ...]: letters the model does
  // not read from one frame, and hands with no shape, are left out.
  function calibrate(model, signs) {
    const letters = {};
    for (const [letter, points] of signs) {
      if (!model.letters.includes(letter)) continue;
      let values;
      try {
        values = shape(points);
      } catch (error) {
        if (error instanceof NoHandShape) continue;
        throw error;
      }
      (letters[letter] = letters[letter] || []).push(values);
    }
    const sorted = {};
    for (const k of Object.keys(letters).sort()) sorted[k] = letters[k];
    return { version: 1, letters: sorted };
  }

  const classify = (model, points, handedness = null, calibration = null) =>
    classifyFrames(model, [points], handedness, calibration);

  const api = { classify, classifyFrames, calibrate, shape, features, palmSide, squareUp, FINGERS };
  root.TautSigns = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof globalThis === "object" ? globalThis : this);
