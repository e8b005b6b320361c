// The game page: one WebSocket, frames built from this seat's view, moves by click or key.
//
// Choosing is separate from playing: a click (or Enter / Space) on the board or on a listed
// move only selects it, and the Play / Commit button sends it, because a sealed choice cannot
// be taken back. Messages the server has not acknowledged are sent again after a reconnect;
// a committed choice and its salt are kept in localStorage, so a reload can still reveal it.
// A rematch is played on the same page and socket: the page follows it, and starts afresh.
import { commitment, newSalt } from "./commit.js";
import {
  board, boardRoom, chosenMove, composed, defaultsOf, focusKey, markSelection, offerMoves, pickBoard,
  refocus, sizeBoard, wireBoard,
} from "./board.js";
import { lastLines, listed, logItems, newLines, seatItems, seatOf, shareItems, who } from "./panels.js";
import { captureSign, sketch, startSigning, stopSigning } from "../signs/camera.js";
import { loadCalibration } from "../signs/calibration.js";
import { showTurn, wireNotifyButton } from "./notify.js";
import { chatRefused, chatSent, renderTable, wireTable } from "./tableside.js";
import { renderClocks, resetClocks } from "./clocks.js";
import { finishAnimation, swapBoard } from "./animate.js";
import { applyPatch } from "./patch.js";

const root = document.querySelector(".game");
let gameId = root.dataset.gameId; // the game shown (a rematch followed changes it)
const token = readToken();
const $ = (id) => document.getElementById(id);
const title = document.title;

const MAX_BUTTONS = 80;
const PING_EVERY = 25000;

let socket = null;
let gotState = false;
let fatal = null;
let frame = null;
let nextRef = 1;
let backoff = 500;
let retry = null; // the timer of the next attempt to connect
const unacked = new Map(); // ref -> message, sent again after a reconnect
let selection = { key: null, move: null, parts: {}, defaults: {} };
let shownBoard = null; // the picture drawn
let shownOffers = ""; // the moves its offers were made choices for (joined by lines)
let shownFor = null; // the frame's board it was chosen for (the position)
let shownLegal = null;
let before = null; // the previous frame, for what changed
let lastCount = 0; // lines of the log that the last move added
let askedRematch = false;
let leaving = false; // set once the page is on its way to the rematch
let following = null; // the rematch asked to follow, until the server says it is followed
let begun = false; // a rematch followed here, not yet announced
let userToggledOtherWays = false;
let nameTouched = false;

function readToken() {
  const raw = location.hash.slice(1);
  try { return decodeURIComponent(raw) || null; } catch { return raw || null; }
}

// -- storage: the committed choice survives a reload ------------------------------------------

const memory = new Map();
const storage = {
  get(key) { try { return localStorage.getItem(key); } catch { return memory.get(key) ?? null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { memory.set(key, value); } },
  remove(key) { try { localStorage.removeItem(key); } catch { memory.delete(key); } },
};
const secretKey = (move, seat) => `taut:commit:${gameId}:${move}:${seat}`;

function readSecret(move, seat) {
  try { return JSON.parse(storage.get(secretKey(move, seat))); } catch { return null; }
}

function forgetOldSecrets(move) {
  const prefix = `taut:commit:${gameId}:`;
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && key.startsWith(prefix) && Number(key.slice(prefix.length).split(":")[0]) < move) {
        localStorage.removeItem(key);
      }
    }
  } catch { /* nothing stored there */ }
}

// -- the connection ---------------------------------------------------------------------------

function setConnection(text, lost = false) {
  const el = $("connection");
  el.textContent = text;
  el.classList.toggle("lost", lost);
}

let roomSent = null; // the board's room as the server was last told

// A board that became narrower or wider (a window resized, a phone turned) may want the
// game's other picture: the server is told its new room, once the resizing has settled.
let roomTimer = null;
function tellRoom() {
  clearTimeout(roomTimer);
  roomTimer = setTimeout(() => {
    const room = Math.round(boardRoom($("board")));
    if (room === roomSent || !socket || socket.readyState !== WebSocket.OPEN) return;
    roomSent = room;
    socket.send(JSON.stringify({ type: "room", room }));
  }, 250);
}

// The position as text is drawn for this page only while it is shown (its details open):
// the server is told when that changes, and sends it at once.
const textBox = $("board-text").closest("details");
const textShown = () => !textBox || textBox.open;
if (textBox) {
  textBox.addEventListener("toggle", () => {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "text", shown: textShown() }));
    }
  });
}

// Changed pictures come as patches of the ones held, their tokens edited where that is
// shorter, unless the address says ?patches=0 (whole pictures every time: what the patched
// page is compared with).
const PATCHES = new URLSearchParams(location.search).get("patches") !== "0";

// A game may give the page a module that draws its table from data (the game's root names
// it): the server then sends that data in place of the pictures, and draws nothing for this
// page. The module draws exactly the server's pictures; ?patches=0 asks for the server's
// own, whole, and ?draws=0 for them patched (what the page's drawing is compared with).
const DRAWS = new URLSearchParams(location.search).get("draws") !== "0";
const drawTable = PATCHES && DRAWS && root.dataset.tableDrawing
  ? await import(root.dataset.tableDrawing).then((module) => module.drawTable, () => null)
  : null;

function connect() {
  clearTimeout(retry);
  if (fatal) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(gameId)}`);
  socket = ws;
  gotState = false;
  ws.onopen = () => {
    // The board's room: of a game's two pictures (wide and narrow), only the one that fits
    // is sent.
    roomSent = Math.round(boardRoom($("board")));
    ws.send(JSON.stringify({ type: "hello", token, acks: "in-frames", patches: PATCHES ? "edits" : false, draws: !!drawTable, room: roomSent, text: textShown() }));
    for (const message of unacked.values()) ws.send(JSON.stringify(message));
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    if (fatal) return;
    // Lost on the way to the rematch: its page opens it.
    if (following) { openRematch(following); return; }
    setConnection("Connection lost; reconnecting…", true);
    retry = setTimeout(connect, backoff + Math.random() * 250);
    backoff = Math.min(backoff * 2, 8000);
  };
}

function reconnectNow() {
  if (!socket && !fatal) { backoff = 500; connect(); }
}

function send(message) {
  message.ref = nextRef++;
  unacked.set(message.ref, message);
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (following) {
    // On the way to the rematch: what still comes of the game left is no longer shown.
    if (message.type === "followed") switchTo(message.game);
    else if (message.type === "error" && !message.ref) openRematch(following);
    return;
  }
  if (message.type === "state") {
    // A frame leaves out what the previous one on this connection already said.
    for (const name of message.kept || []) message[name] = frame[name];
    delete message.kept;
    // A changed picture may come as a patch of the one held; one that does not fit (it
    // should not happen) is asked for whole: a new connection starts with whole pictures.
    for (const name of ["board", "board_narrow", "text"]) {
      const patch = message[`${name}_patch`];
      if (patch === undefined) continue;
      delete message[`${name}_patch`];
      message[name] = applyPatch(frame && frame[name], patch);
      if (message[name] === null) {
        if (socket) socket.close(4000, "a picture did not fit");
        return;
      }
    }
    // A table's data is drawn here, in both layouts (the page picks the one that fits); a
    // frame that kept it keeps its pictures.
    if (message.table !== undefined && drawTable) {
      const same = frame && frame.table === message.table;
      message.board = same ? frame.board : drawTable(message.table, "wide");
      message.board_narrow = same ? frame.board_narrow : drawTable(message.table, "narrow");
    }
    // Moves whose words are one sentence with the move in it come as that sentence.
    if (message.moves_like !== undefined) {
      const like = message.moves_like;
      message.moves = (message.legal || []).map((n) => ({ notation: n, words: like.replaceAll("{move}", () => n) }));
      delete message.moves_like;
    }
    // A changed log may come as its window moved on: the first lines dropped, new ones added.
    const more = message.log_more;
    if (more !== undefined) {
      delete message.log_more;
      message.log = (frame && frame.log ? frame.log : []).slice(more.drop).concat(more.add);
    }
    gotState = true;
    backoff = 500;
    setConnection(token && message.you ? "Connected." : "Connected: you are watching.");
    // The acknowledgements of this connection's commands that the frame shows.
    const acks = message.acks || [];
    delete message.acks;
    frame = message;
    watchOpenSeats(frame);
    for (const ack of acks) acknowledged(ack, false);
    render();
  } else if (message.type === "ack") {
    acknowledged(message);
  } else if (message.type === "error") {
    refused(message);
  }
}

// -- the rematch, on this page ----------------------------------------------------------------

const rematchUrl = (id) => `/g/${encodeURIComponent(id)}${location.search}#${token || ""}`;

// Load the rematch `id`'s own page (once: a second load would restart the first).
function openRematch(id) {
  if (leaving) return;
  leaving = true;
  location.href = rematchUrl(id);
}

// Go on to the rematch `id` on this socket (a new page where the socket is not open).
function follow(id) {
  if (following || leaving) return;
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    openRematch(id);
    return;
  }
  following = id;
  socket.send(JSON.stringify({ type: "follow" }));
  $("turn").textContent = "Going to the rematch…";
}

// The page starts afresh for the game `id`: nothing of the game left is kept but the way
// this player sees the page (the board's size, the panels opened, the name typed).
function switchTo(id) {
  following = null;
  begun = true;
  gameId = id;
  root.dataset.gameId = id;
  history.pushState(null, "", rematchUrl(id));
  $("replay-link").href = `/replay/${encodeURIComponent(id)}`;
  $("record-link").href = `/api/games/${encodeURIComponent(id)}/record`;
  frame = null;
  before = null;
  unacked.clear();
  selection = { key: null, move: null, parts: {}, defaults: {} };
  finishAnimation();
  $("board").replaceChildren(); // the new game's board comes in without a move from the last
  shownBoard = shownOffers = shownFor = shownLegal = null;
  lastCount = 0;
  askedRematch = false;
  openSeats = [];
  openAsked = false;
  clearInterval(openTimer);
  openTimer = null;
  lastSign = sentSign = shownSign = null;
  if (camera) $("sign-panel").hidden = true;
  $("rematch-link").hidden = true;
  $("error").textContent = "";
  $("share").hidden = true;
  resetClocks();
  showShare();
}

function acknowledged(ack, draw = true) {
  const sent = unacked.get(ack.ref);
  unacked.delete(ack.ref);
  if (sent && sent.type === "chat") chatSent();
  else $("error").textContent = "";
  if (sent && sent.type === "name") $("name-saved").textContent = "Saved.";
  if (draw && frame) render();
}

function refused(message) {
  if (!message.ref && !gotState) {
    fatal = message.message;
    showFatal();
    return;
  }
  const sent = unacked.get(message.ref);
  unacked.delete(message.ref);
  const f = frame;
  if (sent && sent.type === "commit" && f && !f.committed.includes(f.you)) {
    storage.remove(secretKey(sent.move, f.you)); // the server holds no commitment to it
  }
  if (sent && sent.type === "rematch") askedRematch = false;
  if (sent && sent.type === "chat") {
    // Told beside the chat box, with the words put back to send again.
    chatRefused(sent, message.message);
    return;
  }
  $("error").textContent = message.message;
  if (frame) render();
}

function showFatal() {
  setConnection("Not connected.", true);
  $("turn").textContent = "This link opens no seat of this game";
  const detail = token
    ? `The server says: ${fatal}. Ask the game's maker for the link of your seat, or `
    : "A game's page opens with the link of a seat or the spectators' link (the part after #). Ask the game's maker for one, or ";
  const lobby = Object.assign(document.createElement("a"), { href: "/lobby", textContent: "find an open game in the lobby" });
  $("turn-detail").replaceChildren(detail, lobby, ".");
  $("compose").hidden = true;
  $("other-ways").hidden = true;
  for (const part of root.querySelectorAll(".board-area, .side > .panel:not(#move-panel)")) part.hidden = true;
}

// -- what the frame says ----------------------------------------------------------------------

function pendingFor(f, ...types) {
  return [...unacked.values()].some((m) => types.includes(m.type) && m.move === f.move);
}

function mayChoose(f) {
  if (!f.you || !f.acting.includes(f.you) || f.legal_count === 0) return false;
  if (f.phase === "commit") return !f.committed.includes(f.you) && !pendingFor(f, "commit");
  return f.phase === "play" && !pendingFor(f, "move");
}

// -- open seats: a game made with a seat for anyone waits until someone takes it ----------------

let openSeats = []; // the seats nobody has taken yet (asked of the server)
let openAsked = false;
let openTimer = null;

async function askOpenSeats() {
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/open-seats`);
    if (!response.ok) return;
    const free = (await response.json()).seats || [];
    const changed = free.join() !== openSeats.join();
    openSeats = free;
    // A taken seat never opens again: once none is free, asking stops.
    if (!free.length) { clearInterval(openTimer); openTimer = null; }
    else if (openTimer === null) openTimer = setInterval(askOpenSeats, 10000);
    if (changed && frame) render();
  } catch { /* offline: the next tick asks again */ }
}

// Asked once a page, then every few seconds while a seat is free: a seat taken in a game
// without clocks sends no frame.
function watchOpenSeats(f) {
  const noneOpen = f.seats.every((s) => s.open === false);
  if (f.phase === "over" || noneOpen) { openSeats = []; clearInterval(openTimer); openTimer = null; return; }
  if (!openAsked && f.you) { openAsked = true; askOpenSeats(); }
}

function openSeatNote(f) {
  // Frames say which seats are open, and a new frame comes the moment one is taken; the
  // answer of /open-seats stands in for a frame that does not say (another server's).
  const isOpen = (s) => (typeof s.open === "boolean" ? s.open : openSeats.includes(s.seat));
  const free = f.seats.filter((s) => isOpen(s) && s.seat !== f.you).map((s) => s.seat);
  if (!free.length) return "";
  const seats = listed(free);
  return ` ${free.length > 1 ? `Seats ${seats} are` : `Seat ${seats} is`} still open: the game goes on once someone takes ${free.length > 1 ? "them" : "it"} from the lobby.`;
}

// How the game ended for this client: "You won", "You lost", "Drawn" (a spectator: "Game
// over"), and the server's line saying who won and why.
function resultFor(f) {
  const line = f.result || "The game is over.";
  if (!f.you || !Array.isArray(f.winners)) return ["Game over", line];
  if (!f.winners.length) return ["Drawn", line];
  return [f.winners.includes(f.you) ? "You won" : "You lost", line];
}

function turnText(f) {
  const others = f.acting.filter((s) => s !== f.you);
  const undecided = f.acting.filter((s) => !f.committed.includes(s) && s !== f.you);
  const kept = f.you ? readSecret(f.move, f.you) : null;
  if (f.phase === "over") return resultFor(f);
  if (!f.you) {
    if (f.phase === "commit") {
      const chosen = f.committed.length ? ` ${listed(f.committed)} ${f.committed.length > 1 ? "have" : "has"} chosen.` : "";
      return ["You are watching", `${listed(f.acting.map((s) => who(f, s)))} choose at the same time.${chosen}`];
    }
    if (f.phase === "reveal") return ["You are watching", "Every player has chosen; the choices are being revealed."];
    return ["You are watching", f.acting.length ? `${who(f, f.acting[0])} to move.` : "Waiting for the game."];
  }
  if (f.phase === "reveal") {
    if (f.to_reveal) return ["Revealing your choice", "Every player has chosen; this browser reveals your sealed choice."];
    return ["Revealing", "Every player has chosen; waiting for the others to reveal."];
  }
  if (f.acting.includes(f.you)) {
    if (pendingFor(f, "move", "commit")) return ["Sending your move…", ""];
    if (f.phase === "commit" && f.committed.includes(f.you)) {
      const mine = kept ? `You chose: ${kept.words || kept.action} (sealed).` : "You have chosen (sealed).";
      const rest = undecided.length ? ` Waiting for ${listed(undecided.map((s) => who(f, s)))}.` : "";
      return ["You have chosen", mine + rest];
    }
    if (f.phase === "commit") {
      const chosen = f.committed.filter((s) => s !== f.you);
      const note = chosen.length ? ` ${listed(chosen.map((s) => who(f, s)))} ${chosen.length > 1 ? "have" : "has"} chosen.` : "";
      return ["Your choice", `Choose, then Commit: your choice stays sealed until ${others.length > 1 ? "every player has" : `${listed(others) || "the other player"} has`} chosen too.${note}`];
    }
    return ["Your move", "Choose a move, then Play."];
  }
  const waiting = f.acting.map((s) => who(f, s));
  const thinking = f.acting.some((s) => seatOf(f, s).kind === "computer") ? " The computer is thinking." : "";
  return [waiting.length ? `Waiting for ${listed(waiting)}` : "Waiting for the game", thinking.trim()];
}

// -- drawing the frame ------------------------------------------------------------------------

function render() {
  const f = frame;
  if (!f) return;
  root.dataset.move = String(f.move);
  root.dataset.phase = f.phase;
  if (f.phase !== "over" && f.move > 0) forgetOldSecrets(f.move);
  const canMove = mayChoose(f);
  const key = `${f.move}:${f.phase}:${canMove}`;
  if (selection.key !== key) {
    selection = { key, move: null, parts: {}, defaults: defaultsOf(board($("board"))) };
  }
  renderBoard(f);
  // A frame leaves the text out while it is not shown (one with it follows its showing).
  $("board-text").textContent = f.text === undefined
    ? ""
    : f.text + (f.status && !f.text.includes(f.status) ? `\n${f.status}` : "");
  const [turn, said] = turnText(f);
  const detail = f.you && f.phase !== "over" ? said + openSeatNote(f) : said;
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", canMove || !!f.to_reveal);
  $("turn-detail").textContent = detail + deadlineText(f);
  // A tab in the background says when it waits for this player.
  showTurn(canMove || !!f.to_reveal, f.phase === "over", title);
  renderTable(f);
  renderClocks(f);
  renderControls(f, canMove);
  $("seats").replaceChildren(...seatItems(f));
  renderLog(f);
  renderResult(f);
  renderName(f);
  renderSignReveal(f);
  announce(f);
  resume(f);
  before = f;
}

function deadlineText(f) {
  if (!f.deadline || f.phase !== "reveal" || !f.reveal_since) return "";
  const due = new Date((f.reveal_since + f.deadline) * 1000);
  return ` A choice not revealed by ${due.toLocaleTimeString()} forfeits.`;
}

function renderBoard(f) {
  const holder = $("board");
  // Drawn from this seat's view (names are escaped there), by the server or here from the
  // table's data, for a wide screen and, in some games, for a phone: the one that fits the
  // board's room.
  const picture = pickBoard(holder, f.board, f.board_narrow);
  const position = f.board ?? f.board_narrow;
  // A picture may mark where moves are made without offering them (data-offer): the legal
  // ones become choices while this seat may choose.
  const offered = mayChoose(f) ? f.legal || [] : [];
  const offers = offered.join("\n");
  if (picture !== shownBoard || offers !== shownOffers) {
    const focused = focusKey(holder);
    if (picture !== shownBoard) {
      if (position === shownFor) {
        // The same position at another width: nothing moved.
        finishAnimation();
        holder.innerHTML = picture;
      } else swapBoard(holder, picture);
      shownBoard = picture;
      shownFor = position;
    }
    offerMoves(holder, offered);
    shownOffers = offers;
    const defaults = wireBoard(holder, () => frame && mayChoose(frame), { onMove: chooseMove, onPart: choosePart });
    selection.defaults = defaults;
    refocus(holder, focused);
  }
  fitBoard();
  markSelection(holder, selection);
}

function fitBoard() {
  const zoomed = storage.get("taut:zoom") === "1";
  const helps = sizeBoard($("board"), zoomed);
  const button = $("zoom");
  button.hidden = !helps;
  button.setAttribute("aria-pressed", String(zoomed && helps));
  button.textContent = zoomed && helps ? "Fit the board to the screen" : "Larger board";
}

function chooseMove(move) {
  selection.move = move;
  afterChoice(true);
}

function choosePart(slot, value) {
  selection.move = null;
  selection.parts[slot] = value;
  afterChoice(false);
}

function chosenText() {
  return chosenMove($("board"), selection);
}

function afterChoice(focusConfirm) {
  markSelection($("board"), selection);
  showChosen(frame);
  markLegal();
  if (focusConfirm && !$("confirm").disabled) $("confirm").focus();
}

// A move in the game's words, from the frame's list of moves (notation where it is not listed).
function wordsFor(f, move) {
  const found = f && f.moves ? f.moves.find((m) => m.notation === move) : null;
  return found ? found.words : move;
}

// A chosen move in words: from the frame's list, or, where moves are never listed (a
// learning game: they hold the answers), composed from the board's parts and their words.
function saidFor(f, text, complete) {
  const listed = wordsFor(f, text);
  const svg = board($("board"));
  const template = svg && svg.dataset.composeWords;
  // Part of a move chosen is said in words too ("pulls P, answering …"), never as its
  // notation: a learning game's palette names its answers only by their places.
  if (listed !== text || !template || selection.move) return listed;
  const words = {};
  for (const [slot, value] of Object.entries({ ...selection.defaults, ...selection.parts })) {
    const part = svg.querySelector(`[data-part="${CSS.escape(`${slot}=${value}`)}"]`);
    words[slot] = (part && part.dataset.partWords) || value;
  }
  return composed(template, words).text;
}

function showChosen(f) {
  const { text, complete } = chosenText();
  // Nothing chosen yet of a move of several parts is "nothing yet", not the template's
  // bare placeholders ("…@…"); a move of one part keeps its "…".
  const bare = !complete && !Object.keys(selection.parts).length && (text.match(/…/g) || []).length > 1;
  const said = text && !bare ? saidFor(f, text, complete) : "";
  $("chosen").textContent = said || "nothing yet";
  $("chosen").dataset.move = text; // the notation, for whatever reads the page
  $("chosen").classList.toggle("incomplete", !complete);
  const confirm = $("confirm");
  confirm.disabled = !complete;
  const verb = f.phase === "commit" ? "Commit" : "Play";
  confirm.textContent = !complete ? verb : said === text ? `${verb} ${text}` : `${verb}: ${said}`;
  $("type-play").textContent = verb;
}

function renderControls(f, canMove) {
  $("compose").hidden = !canMove;
  $("other-ways").hidden = !canMove;
  if (!canMove) return;
  const svg = board($("board"));
  const clickable = !!(svg && svg.querySelector("[data-move], [data-part]"));
  if (!userToggledOtherWays) setOtherWays(!clickable);
  $("other-ways-title").textContent = clickable ? "Other ways to choose: the list of moves, or type one" : "The moves you can make";
  $("help").textContent = f.help || "";
  $("help-box").hidden = !f.help;
  renderLegal(f);
  showChosen(f);
}

function setOtherWays(open) {
  const box = $("other-ways");
  if (box.open !== open) {
    box.dataset.auto = "1";
    box.open = open;
  }
}

function renderLegal(f) {
  const signature = `${f.move}:${f.phase}:${f.legal.join("\n")}`;
  if (signature === shownLegal) { markLegal(); return; }
  shownLegal = signature;
  const box = $("legal");
  const hadFocus = box.contains(document.activeElement) ? document.activeElement.dataset.legal : null;
  box.replaceChildren();
  const list = $("legal-list");
  list.replaceChildren(...f.legal.map((move) => Object.assign(document.createElement("option"), { value: move, label: wordsFor(f, move) })));
  if (f.legal.length > MAX_BUTTONS) {
    box.append(legalSelect(f));
    return;
  }
  for (const move of f.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = wordsFor(f, move);
    button.dataset.legal = move;
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => chooseMove(move));
    box.append(button);
  }
  if (hadFocus) box.querySelector(`[data-legal="${CSS.escape(hadFocus)}"]`)?.focus();
}

function legalSelect(f) {
  const wrap = document.createElement("div");
  const label = document.createElement("label");
  label.htmlFor = "legal-select";
  const more = f.legal_count > f.legal.length ? ` (the first ${f.legal.length}; type any other)` : "";
  label.textContent = `${f.legal_count} moves${more}`;
  const select = document.createElement("select");
  select.id = "legal-select";
  select.append(Object.assign(document.createElement("option"), { value: "", textContent: "choose a move" }));
  for (const move of f.legal) select.append(Object.assign(document.createElement("option"), { value: move, textContent: wordsFor(f, move) }));
  select.addEventListener("change", () => { if (select.value) { selection.move = select.value; afterChoice(false); } });
  wrap.append(label, select);
  return wrap;
}

function markLegal() {
  for (const button of $("legal").querySelectorAll("button[data-legal]")) {
    button.setAttribute("aria-pressed", String(button.dataset.legal === selection.move));
  }
}

function renderLog(f) {
  lastCount = lastLines(f, before, lastCount);
  const log = $("log");
  log.replaceChildren(...logItems(f, lastCount));
  $("log-empty").hidden = f.log.length > 0;
  log.scrollTop = log.scrollHeight;
}

function renderResult(f) {
  $("result").hidden = f.phase !== "over";
  $("move-panel").hidden = f.phase === "over";
  if (f.phase !== "over") return;
  const [headline, line] = resultFor(f);
  $("result-text").textContent = headline === "Game over" ? line : `${headline}. ${line}.`;
  const button = $("rematch");
  button.hidden = !f.you || !!f.rematch;
  button.disabled = askedRematch;
  button.textContent = askedRematch ? "Making the rematch…" : "Rematch";
  const link = $("rematch-link");
  if (f.rematch) {
    if (askedRematch) {
      follow(f.rematch);
      return;
    }
    link.href = rematchUrl(f.rematch);
    link.textContent = f.you ? "Play the rematch" : "Watch the rematch";
    link.hidden = false;
  }
}

function renderName(f) {
  $("you").hidden = !f.you;
  const mine = f.seats.find((s) => s.seat === f.you);
  if (mine && !nameTouched && document.activeElement !== $("name")) $("name").value = mine.name || "";
}

let unsaid = []; // sentences waiting for the live region
let sayTimer = null;

function announce(f) {
  const said = [];
  if (begun) { said.push("The rematch begins."); begun = false; }
  if (before) {
    said.push(...newLines(before.log, f.log));
    for (const s of f.committed) {
      if (s !== f.you && !before.committed.includes(s) && f.move === before.move) said.push(`${who(f, s)} has chosen.`);
    }
  }
  const [turn, detail] = turnText(f);
  const changed = !before || turnText(before).join() !== [turn, detail].join() || before.move !== f.move;
  if (f.phase === "over" && (!before || before.phase !== "over")) said.push(`${resultFor(f).join(". ")}.`);
  else if (changed) said.push(`${turn}.`);
  if (f.rematch && (!before || !before.rematch) && !askedRematch) said.push("A rematch is ready.");
  if (!said.length) return;
  // Put in the live region a moment after it is emptied (so that it is read again); what
  // frames close behind each other say is read together, none of it replaced unread.
  unsaid.push(...said);
  const region = $("announce");
  region.textContent = "";
  clearTimeout(sayTimer);
  sayTimer = setTimeout(() => { region.textContent = unsaid.join(" "); unsaid = []; }, 50);
}

// -- playing ----------------------------------------------------------------------------------

async function play(action) {
  const f = frame;
  if (!f || !action || !mayChoose(f)) return;
  $("error").textContent = "";
  if (f.phase === "commit") {
    // A sealed choice cannot be taken back, and one the rules do not allow forfeits the game:
    // when the page knows every legal move, it refuses others before sealing anything.
    const known = f.legal_count <= f.legal.length;
    const plain = (text) => text.trim().toLowerCase();
    if (known && !f.legal.some((m) => plain(m) === plain(action))) {
      $("error").textContent = `${action} is not a legal move here; choose one of the legal moves.`;
      return;
    }
    let kept = readSecret(f.move, f.you);
    if (!kept || kept.action !== action) {
      kept = { action, salt: newSalt(), words: wordsFor(f, action) };
      storage.set(secretKey(f.move, f.you), JSON.stringify(kept));
    }
    const hash = await commitment(gameId, f.move, f.you, kept.action, kept.salt);
    send(commitMessage(frame || f, f.move, hash, kept));
  } else {
    send({ type: "move", move: f.move, action });
  }
  render();
}

// The commitment to `kept` at `move`: the last seat to commit (every other acting seat has,
// in frame `f`) reveals its choice in the same message, which saves a message and the
// server a command; the others reveal once every seat has chosen.
function commitMessage(f, move, hash, kept) {
  const last = f.move === move && f.acting.every((s) => s === f.you || f.committed.includes(s));
  const message = { type: "commit", move, hash };
  if (last) message.reveal = { action: kept.action, salt: kept.salt };
  return message;
}

// After a reload: a choice this browser committed to (or was about to) is sent again, and a
// sealed choice is revealed once every seat has chosen.
function resume(f) {
  if (!f.you) return;
  const kept = readSecret(f.move, f.you);
  if (f.phase === "commit" && f.acting.includes(f.you) && !f.committed.includes(f.you) && kept && !pendingFor(f, "commit")) {
    commitment(gameId, f.move, f.you, kept.action, kept.salt).then((hash) => {
      if (frame && frame.move === f.move && !pendingFor(frame, "commit")) send(commitMessage(frame, f.move, hash, kept));
    });
  }
  if (!f.to_reveal || pendingFor(f, "reveal")) return;
  if (!kept) {
    $("error").textContent = "This browser does not hold the choice you committed to (it was made in another browser, or this browser's storage was cleared), so it cannot reveal it.";
    return;
  }
  send({ type: "reveal", move: f.move, action: kept.action, salt: kept.salt });
}

function showShare() {
  let kept = null;
  try { kept = JSON.parse(storage.get(`taut:links:${gameId}`)); } catch { kept = null; }
  if (!kept) return;
  $("share-links").replaceChildren(...shareItems(kept, location.href));
  $("share").hidden = false;
}

// -- signing to the camera (where the game's plugin offers it) -------------------------------
//
// A sign fills the answer part of the move exactly as a pick in the palette does; the landmarks
// of the sign stay in this page (for the sketch after the turn) and are never sent.

const camera = $("camera");
const cameraNote = camera ? $("camera-note").textContent : "";
let cameraOn = false;
let lastSign = null; // { letter, top, points }: the latest sign made this turn
let sentSign = null; // { move, sign, right }: the sign in the move sent, shown after the turn
let shownSign = null;

const percent = (top, letter) => {
  const found = (top || []).find(([l]) => l === letter);
  return found ? ` (${Math.round(found[1] * 100)}%)` : "";
};

async function startCamera() {
  const start = $("camera-start");
  start.disabled = true;
  $("camera-note").classList.remove("error");
  $("camera-note").textContent = cameraNote;
  $("camera-guess").textContent = "Starting the camera…";
  try {
    const calibration = await loadCalibration();
    $("camera-calibrated").textContent = calibration
      ? "Reading with your calibration."
      : "Not calibrated yet.";
    const running = await startSigning({
      video: $("camera-video"), canvas: $("camera-canvas"),
      recogniser: camera.dataset.recogniser, model: camera.dataset.model,
      calibration, onGuess: showGuess, onSign: signed,
      onRate: ({ fps, ms }) => { $("camera-rate").textContent = `${fps.toFixed(1)} frames a second (${Math.round(ms)} ms a frame)`; },
    });
    if (!running || (frame && frame.phase === "over")) { stopCamera(); return; }
    cameraOn = true;
    start.hidden = true;
    $("camera-stop").hidden = false;
    $("camera-view").hidden = false;
    $("camera-guess").textContent = "Show your hand to the camera.";
    $("camera-view").focus();
  } catch (error) {
    $("camera-guess").textContent = "";
    $("camera-note").textContent = `${error.message} Choose the answer in the palette instead.`;
    $("camera-note").classList.add("error");
  } finally {
    start.disabled = false;
  }
}

function stopCamera() {
  stopSigning();
  cameraOn = false;
  $("camera-start").hidden = false;
  $("camera-stop").hidden = true;
  $("camera-view").hidden = true;
  $("camera-guess").textContent = "";
  $("camera-signed").textContent = "";
  $("camera-rate").textContent = "";
}

function showGuess(guess) {
  const el = $("camera-guess");
  el.dataset.letter = guess.letter || "";
  if (!guess.points) el.textContent = "No hand in sight.";
  else if (!guess.letter) el.textContent = "Not sure which letter that is: sign again.";
  else el.textContent = `Reading ${guess.letter}${percent(guess.top, guess.letter)}: hold still to sign it.`;
}

// The running guess changes every frame, so it is not read out; a sign is.
function signed(sign) {
  if (!frame || !mayChoose(frame)) {
    $("camera-signed").textContent = `Read ${sign.letter}, but it is not your turn to choose.`;
    return;
  }
  lastSign = sign;
  choosePart(camera.dataset.slot, sign.letter);
  $("camera-signed").textContent = `Signed ${sign.letter}${percent(sign.top, sign.letter)}: it is your answer now.`;
}

// Whether the move about to be sent holds the latest sign as its answer.
function noteSign() {
  if (!camera || !lastSign || selection.move || !frame) return;
  const parts = { ...selection.defaults, ...selection.parts };
  if (parts[camera.dataset.slot] !== lastSign.letter) return;
  const right = camera.dataset.rightSlot ? parts[camera.dataset.rightSlot] : null;
  sentSign = { move: frame.move, sign: lastSign, right };
  lastSign = null;
  $("camera-signed").textContent = "";
}

function renderSignReveal(f) {
  if (!camera) return;
  if (f.phase === "over" && cameraOn) stopCamera();
  if (!sentSign || f.move <= sentSign.move || shownSign === sentSign) return;
  shownSign = sentSign;
  const { sign, right } = sentSign;
  const box = $("sign-reveal");
  const text = document.createElement("p");
  const read = Object.assign(document.createElement("strong"), { textContent: sign.letter });
  text.append("Your sign was read as ", read, percent(sign.top, sign.letter), ".");
  if (right) {
    const ok = right === sign.letter;
    const mark = Object.assign(document.createElement("span"), {
      className: ok ? "ok" : "wrong", textContent: ok ? " \u2713 right" : " \u2717 wrong",
    });
    text.append(" The right one: ", Object.assign(document.createElement("strong"), { textContent: right }), ".", mark);
  }
  box.replaceChildren(sketch(sign.points), text);
  box.dataset.read = sign.letter;
  box.dataset.right = right || "";
  $("sign-panel").hidden = false;
}

if (camera) {
  $("camera-start").addEventListener("click", startCamera);
  $("camera-stop").addEventListener("click", stopCamera);
  // Space or Enter takes the current guess, unless it is meant for a control.
  document.addEventListener("keydown", (event) => {
    if (!cameraOn || (event.key !== " " && event.key !== "Enter")) return;
    const target = event.target;
    if (target !== document.body && target !== $("camera-view")) return;
    event.preventDefault();
    if (!captureSign()) $("camera-signed").textContent = "No letter to take yet: show your hand to the camera.";
  });
}

$("confirm").addEventListener("click", () => { noteSign(); play(chosenText().text); });
$("clear").addEventListener("click", () => {
  selection.move = null;
  selection.parts = {};
  afterChoice(false);
});
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (!text) { $("error").textContent = "Type a move first."; return; }
  play(text).then(() => { if (!$("error").textContent) $("move-text").value = ""; });
});
$("other-ways").addEventListener("toggle", (event) => {
  if (event.target.dataset.auto) delete event.target.dataset.auto;
  else userToggledOtherWays = true;
});
$("rematch").addEventListener("click", () => {
  askedRematch = true;
  send({ type: "rematch" });
  render();
});
$("rematch-link").addEventListener("click", (event) => {
  // A plain click plays it here; a new tab or window opens its own page.
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (frame && frame.rematch) follow(frame.rematch);
});
$("name").addEventListener("input", () => { nameTouched = true; $("name-saved").textContent = ""; });
$("you").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name").value.trim();
  if (name) send({ type: "name", name });
});
$("zoom").addEventListener("click", () => {
  storage.set("taut:zoom", storage.get("taut:zoom") === "1" ? "0" : "1");
  fitBoard();
});
// A board that became narrower or wider may want the game's other picture.
window.addEventListener("resize", () => { if (frame) renderBoard(frame); tellRoom(); });
window.addEventListener("online", reconnectNow);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") reconnectNow(); });
window.addEventListener("hashchange", () => location.reload());
// Back from a rematch followed here: the page of the game before it.
window.addEventListener("popstate", () => location.reload());
setInterval(() => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
}, PING_EVERY);

wireTable(send, () => frame);
wireNotifyButton($("notify-ask"), $("notify-note"));
showShare();
connect();
