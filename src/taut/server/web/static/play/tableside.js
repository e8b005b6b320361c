// At the table: the seated players' chat, resigning, draw offers and takebacks. Every line
// is put on the page as text (textContent), never as markup, whatever a player typed.

const $ = (id) => document.getElementById(id);
// What each chat list shows now (its lines as JSON: a full list that moves on by one line
// keeps its length, so the length alone would not tell).
let shownChat = "";
let shownGallery = "";

// Who said a chat line, short enough for a phone: "You", the player's name, or the seat.
function speakerOf(f, seat) {
  if (seat === f.you) return "You";
  const s = (f.seats || []).find((x) => x.seat === seat);
  return (s && s.name) || seat;
}

function nameOf(f, seat) {
  const s = (f.seats || []).find((x) => x.seat === seat);
  if (!s) return seat;
  return s.name ? `${s.name} (${seat})` : s.title || seat;
}

function offerText(f) {
  const o = f.offer;
  const what = o.what === "draw" ? "offers a draw" : "asks to take back their last turn";
  if (o.seat === f.you) {
    return o.what === "draw" ? "You offered a draw; waiting for the answer." : "You asked to take back your last turn; waiting for the answer.";
  }
  return `${nameOf(f, o.seat)} ${what}.`;
}

// The lines of a chat as list items, each speaker's name and words as text.
function chatItems(lines, speaker) {
  return lines.map((line) => {
    const li = document.createElement("li");
    const who = document.createElement("strong");
    who.textContent = `${speaker(line)}: `;
    const said = document.createElement("span");
    said.textContent = line.text;
    li.append(who, said);
    return li;
  });
}

function showLines(list, items) {
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

// Draw this frame's part of the table (call with every frame).
export function renderTable(f) {
  const seated = !!f.you;
  // Offers, resigning and move notifications end with the game: the panel goes with them.
  $("table-panel").hidden = !seated || f.phase === "over";
  $("chat-panel").hidden = !seated;
  $("gallery-panel").hidden = seated;
  if (!seated) {
    const gallery = f.gallery || [];
    if (JSON.stringify(gallery) !== shownGallery) {
      shownGallery = JSON.stringify(gallery);
      showLines($("gallery-lines"), chatItems(gallery, (line) => line.who));
    }
    return;
  }
  $("offer-draw").hidden = !f.may_draw;
  $("ask-takeback").hidden = !f.may_take_back;
  $("resign").hidden = !f.may_resign;
  const open = !!f.offer;
  $("offer-draw").disabled = open;
  $("ask-takeback").disabled = open;
  $("offer-box").hidden = !open;
  if (open) {
    $("offer-text").textContent = offerText(f);
    const answering = f.offer.seat !== f.you && !f.offer.accepted.includes(f.you);
    $("offer-accept").hidden = !answering;
    $("offer-decline").hidden = !answering;
  }
  const lines = f.chat || [];
  if (JSON.stringify(lines) !== shownChat) {
    shownChat = JSON.stringify(lines);
    showLines($("chat-lines"), chatItems(lines, (line) => speakerOf(f, line.seat)));
  }
}

// The buttons and the chat form send through `send`; `current()` is the latest frame.
export function wireTable(send, current) {
  for (const [form, input] of [["chat-form", "chat-text"], ["gallery-form", "gallery-text"]]) {
    const box = $(input);
    const count = () => {
      const left = CHAT_MAX - box.value.length;
      chatNote(form, left < 40 ? `${left} of ${CHAT_MAX} characters left` : "");
    };
    box.addEventListener("input", count);
    $(form).addEventListener("submit", (event) => {
      event.preventDefault();
      const text = box.value.trim();
      if (!text) return;
      // Which box it came from stays here (not enumerable: never sent to the server).
      send(Object.defineProperty({ type: "chat", text }, "form", { value: form }));
      box.value = "";
      count();
    });
  }
  $("offer-draw").addEventListener("click", () => send({ type: "offer", what: "draw" }));
  $("ask-takeback").addEventListener("click", () => send({ type: "offer", what: "takeback" }));
  $("resign").addEventListener("click", () => {
    if (window.confirm("Resign this game? The other side wins.")) send({ type: "resign" });
  });
  const answer = (accept) => {
    const f = current();
    if (f && f.offer) send({ type: "answer", what: f.offer.what, move: f.offer.move, accept });
  };
  $("offer-accept").addEventListener("click", () => answer(true));
  $("offer-decline").addEventListener("click", () => answer(false));
}

// The longest chat line (the server's limit; the box takes no more, and says how many are left).
const CHAT_MAX = 300;

function chatNote(form, text, error = false) {
  const note = $(`${form}-note`);
  if (!note) return;
  note.textContent = text;
  note.classList.toggle("error", error);
}

// A chat line was refused: say why under its box, and put its words back.
export function chatRefused(sent, why) {
  const form = sent.form || "chat-form";
  const box = $(form === "gallery-form" ? "gallery-text" : "chat-text");
  if (box && !box.value) box.value = sent.text;
  chatNote(form, why, true);
}

// A chat line was taken: any refusal under its box is over.
export function chatSent() {
  for (const form of ["chat-form", "gallery-form"]) {
    const note = $(`${form}-note`);
    if (note && note.classList.contains("error")) chatNote(form, "");
  }
}
