"""What a person trips over on a page, measured in the browser: the page wider than the
window, words under 12 CSS pixels (the board's pictures included, as drawn on the screen),
targets under 44 x 44 CSS pixels, and, over the page's life, console errors and requests
that failed or were refused.

:class:`Watch` listens to a page from its first request; :func:`audit` measures it now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page, Request, Response

#: The smallest text read on a screen, in CSS pixels.
SMALLEST_TEXT = 12
#: The smallest side of a target, in CSS pixels (WCAG 2.5.5, target size).
SMALLEST_TARGET = 44

#: Every problem of the page as it is drawn now, each as a line naming the thing.
MEASURE = """(limits) => {
  const problems = [];
  const name = (el) => {
    const said = el.dataset && (el.dataset.move || el.dataset.part || el.dataset.id);
    const words = (el.getAttribute('aria-label') || el.textContent || '').trim()
      .replace(/\\s+/g, ' ').slice(0, 40);
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${said || words}"`;
  };
  // Nothing a screen reader alone reads (clipped to a pixel) is judged.
  const shown = (el) => {
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    const box = el.getBoundingClientRect();
    return box.width > 2 && box.height > 2;
  };
  if (document.scrollingElement.scrollWidth > innerWidth) {
    problems.push(`the page is ${document.scrollingElement.scrollWidth} px wide `
      + `in a window of ${innerWidth} px`);
  }
  // Words: every element holding text of its own; in a picture, its size on the screen.
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || seen.has(el) || !node.textContent.trim()) continue;
    seen.add(el);
    if (el.closest('script, style, noscript, title, desc, option')) continue;
    if (!shown(el)) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      if (m) px *= Math.hypot(m.a, m.b);
    }
    if (px < limits.text - 0.05) problems.push(`text ${name(el)} is ${px.toFixed(1)} px`);
  }
  // Targets: what takes a click (a check box or a radio button by its label).
  const clickable = 'button, a[href], input:not([type=hidden]), select, textarea, summary, '
    + '[data-move]:not(output), [data-part], [role=button], [role=slider], '
    + '[tabindex="0"]:not(ol, ul, pre)';
  for (const el of document.querySelectorAll(clickable)) {
    if (el.disabled || !el.checkVisibility({ visibilityProperty: true })) continue;
    let box = el.getBoundingClientRect();
    if ((el.type === 'checkbox' || el.type === 'radio') && el.labels && el.labels.length) {
      box = el.labels[0].getBoundingClientRect();
    }
    if (box.width === 0 && box.height === 0) continue;
    // A link inside a sentence is read as part of it (WCAG's inline exception).
    if (el.tagName === 'A' && getComputedStyle(el).display === 'inline'
        && el.closest('p, li, td, dd, figcaption') && !el.closest('nav')) continue;
    if (box.width < limits.target - 0.5 || box.height < limits.target - 0.5) {
      problems.push(`target ${name(el)} is ${box.width.toFixed(1)} x ${box.height.toFixed(1)} px`);
    }
  }
  return problems;
}"""


@dataclass
class Watch:
    """Console errors, failed requests and refused answers (status 400 or more) of a page,
    from the moment it is attached."""

    errors: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> Page:
        """Listen to ``page``; returns it."""
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"script error: {exc}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)
        return page

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text} ({message.location.get('url')})")

    def _failed(self, request: Request) -> None:
        failure = request.failure or ""
        # A page left while its requests were on their way is not a failure of the page.
        if "ERR_ABORTED" not in failure:
            self.errors.append(f"request failed: {request.method} {request.url} ({failure})")

    def _answered(self, response: Response) -> None:
        if response.status >= 400:
            request = response.request
            self.errors.append(f"refused: {request.method} {response.url} -> {response.status}")


def audit(page: Page) -> list[str]:
    """The page's layout problems now, once every animation has ended (a moving piece is
    neither where nor the size it will stay)."""
    page.wait_for_function("() => document.getAnimations().length === 0")
    found: list[str] = page.evaluate(MEASURE, {"text": SMALLEST_TEXT, "target": SMALLEST_TARGET})
    return found


def describe(where: str, problems: list[str]) -> str:
    """``problems`` as one message for an assertion."""
    return f"{where}: " + "; ".join(problems[:25]) + (" …" if len(problems) > 25 else "")
