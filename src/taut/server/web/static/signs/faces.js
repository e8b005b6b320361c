// A tile face's picture without its own label (its <title> would name the answer), hidden
// from assistive technology: the description or the button's label says what it shows.
// Shared by the flash cards and the word practice.
export function picture(face) {
  const holder = document.createElement("span");
  holder.className = "fc-picture";
  holder.setAttribute("aria-hidden", "true");
  holder.innerHTML = face.svg; // drawn by the game's plugin, not typed by anyone
  for (const t of holder.querySelectorAll("title, desc")) t.remove();
  for (const svg of holder.querySelectorAll("svg")) {
    svg.removeAttribute("aria-label");
    svg.setAttribute("focusable", "false");
  }
  return holder;
}
