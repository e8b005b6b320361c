// Signing to the camera, where this server has the camera module and the browser a camera:
// a thin adapter over camera.js (startSigning({video, canvas, recogniser, model, onGuess,
// onSign}) and stopSigning()), shared by the flash cards and word practice. Without the
// module, a recogniser for the set, or a camera, the pages say why: this is the one place
// the camera plugs in. The recogniser's and its model's addresses come from the page
// (data-recogniser, data-model: the files of the game that brings the tile set).

const MODULE = "/static/signs/camera.js";
const CALIBRATION = "/static/signs/calibration.js";

// Whether the server has the camera module (asked once, without loading it).
let present = null;
export async function cameraModulePresent() {
  if (present === null) {
    try {
      present = (await fetch(MODULE, { method: "HEAD" })).ok;
    } catch {
      present = false;
    }
  }
  return present;
}

// What camera.js reports for a sign or a guess, as a letter (a string, or an object with
// a letter or a label), or "" when it names none.
export function letterOf(report) {
  if (report === null || report === undefined) return "";
  if (typeof report === "string") return report.trim().toUpperCase();
  const value = report.letter ?? report.label ?? report.sign ?? "";
  return String(value).trim().toUpperCase();
}

const unavailable = (message) => ({ ready: false, message, listen() {}, pause() {}, stop() {} });

// The camera for a <video> and a <canvas>, reading signs with `files` ({recogniser,
// model}) and the learner's calibration where they made one: listen({guess, sign, failed,
// rate}) starts it and calls guess(letter, unsure) as the hand moves (letter "" and unsure
// true: a hand the recogniser is not sure of, to be signed again), sign(letter) for each
// letter signed, failed(message) when it cannot start, rate(fps) about once a second;
// pause() stops listening (the camera stays on), stop() turns it off.
export async function cameraFor(video, canvas, files) {
  if (!files || !files.recogniser || !files.model) {
    return unavailable("Signing to the camera is not available for this tile set.");
  }
  if (!(await cameraModulePresent())) {
    return unavailable("Signing to the camera is not available here: this server has no camera module.");
  }
  let module;
  try {
    module = await import(MODULE);
  } catch (exc) {
    return unavailable(`The camera module could not be loaded (${exc.message}).`);
  }
  let handlers = null;
  let running = false;
  const camera = {
    ready: true,
    message: "",
    async listen(given) {
      handlers = given;
      if (running) return;
      running = true;
      try {
        let calibration = null;
        try {
          calibration = await (await import(CALIBRATION)).loadCalibration();
        } catch {
          calibration = null; // read as everyone is read
        }
        await module.startSigning({
          video,
          canvas,
          recogniser: files.recogniser,
          model: files.model,
          calibration,
          onGuess: (report) => handlers && handlers.guess(letterOf(report), Boolean(report && report.points && !report.letter)),
          onSign: (report) => handlers && handlers.sign(letterOf(report)),
          onRate: (report) => handlers && handlers.rate && handlers.rate(report.fps),
        });
      } catch (exc) {
        running = false;
        camera.ready = false;
        camera.message = `The camera could not start (${exc.message}).`;
        if (handlers && handlers.failed) handlers.failed(camera.message);
      }
    },
    pause() { handlers = null; },
    stop() {
      handlers = null;
      if (running) module.stopSigning();
      running = false;
    },
  };
  return camera;
}
