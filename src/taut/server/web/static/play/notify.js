// "Your move", said where a player sees it with the page in the background: the tab's title
// ("(●) Your move — …"), its icon (an SVG drawn here, as a data URL) and, once the player
// allows it with the button, a browser notification when the move becomes theirs.

const ICON_IDLE = svgIcon("#6b7280", false);
const ICON_TURN = svgIcon("#d97706", true);
let wasMine = false;

function svgIcon(colour, dot) {
  const ring = `<circle cx="16" cy="16" r="13" fill="none" stroke="${colour}" stroke-width="4"/>`;
  const mark = dot ? `<circle cx="16" cy="16" r="7" fill="${colour}"/>` : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${ring}${mark}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function iconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

function canNotify() {
  return typeof Notification !== "undefined";
}

// Called with every frame: `mine` when this seat must act now, `over` when the game ended.
export function showTurn(mine, over, title) {
  document.title = mine ? `(●) Your move — ${title}` : over ? `(Over) ${title}` : title;
  const link = iconLink();
  link.type = "image/svg+xml";
  link.href = mine ? ICON_TURN : ICON_IDLE;
  document.documentElement.dataset.yourMove = mine ? "1" : "0";
  if (mine && !wasMine && document.visibilityState !== "visible" && canNotify()
      && Notification.permission === "granted") {
    try {
      new Notification("Your move", { body: title, icon: ICON_TURN, tag: location.pathname });
    } catch { /* some browsers allow notifications only from a service worker */ }
  }
  wasMine = mine;
}

// The button that asks for the permission (hidden where there is nothing to ask).
export function wireNotifyButton(button, note) {
  if (!button) return;
  const update = () => {
    if (!canNotify()) { button.hidden = true; return; }
    const state = Notification.permission;
    button.hidden = state !== "default";
    if (note) {
      note.textContent = state === "granted" ? "Notifications are on for your moves."
        : state === "denied" ? "Notifications are blocked in this browser's settings." : "";
    }
  };
  button.addEventListener("click", async () => {
    try { await Notification.requestPermission(); } catch { /* an old browser: ignored */ }
    update();
  });
  update();
}
