"""The game page's table in a browser: the players' chat shown as text, the tab's title and
icon saying whose move it is, and the resign button."""

from __future__ import annotations

from pathlib import Path

from tests.browser_kit import chromium, expect, live_server, open_page, page_errors

EVIL = "<script>window.hacked = 1</script><b>bold</b>"


def test_chat_and_resign_in_two_browsers(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("pulling-strings", ["me", "invite"])
        x = open_page(browser, server.url(made["mine"]))
        o = open_page(browser, server.url(made["links"]["O"]))
        watcher = open_page(browser, server.url(made["spectator"]))
        expect(x.locator("#chat-panel")).to_be_visible()
        # Both choose at the start: the title and the icon say so.
        expect(x).to_have_title("(●) Your move — Pulling Strings")
        icon = x.locator("link[rel~='icon']").get_attribute("href") or ""
        assert icon.startswith("data:image/svg+xml,")
        x.locator("#chat-text").fill(EVIL)
        x.locator("#chat-form button[type=submit]").click()
        expect(o.locator("#chat-lines li")).to_contain_text(EVIL)
        assert o.locator("#chat-lines script, #chat-lines b").count() == 0
        assert o.evaluate("() => window.hacked") is None
        expect(watcher.locator("#chat-panel")).to_be_hidden()
        assert EVIL not in watcher.content()
        # Lines name their speaker shortly: "You" to the sender, the seat to the others.
        expect(x.locator("#chat-lines li strong").first).to_have_text("You: ")
        expect(o.locator("#chat-lines li strong").first).to_have_text("X: ")
        # Past the rate limit: the refusal is told under the chat box and the words are
        # kept there to send again.
        refused = x.locator("#chat-form-note.error")
        for i in range(6):
            x.locator("#chat-text").fill(f"line {i}")
            x.locator("#chat-form button[type=submit]").click()
            # Each line's answer (taken, or refused) before the next is typed: a refusal
            # puts its words back in an empty box, and typing into it meanwhile mixes them.
            taken = x.locator("#chat-lines li").filter(has_text=f"line {i}")
            expect(taken.or_(refused).first).to_be_visible()
        expect(x.locator("#chat-form-note")).to_contain_text("chat messages in")
        expect(x.locator("#chat-text")).to_have_value("line 5")
        expect(x.locator("#error")).to_be_empty()
        # Near the limit the box says how many characters are left.
        x.locator("#chat-text").fill("a" * 290)
        expect(x.locator("#chat-form-note")).to_have_text("10 of 300 characters left")
        o.once("dialog", lambda dialog: dialog.accept())
        o.locator("#resign").click()
        expect(x.locator("#result-text")).to_contain_text("resign")
        expect(x.locator("#resign")).to_be_hidden()
        assert not x.title().startswith("(●)")
        assert page_errors(x) == page_errors(o) == page_errors(watcher) == []
