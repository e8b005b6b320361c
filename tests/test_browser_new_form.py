"""The new-game form in plain words (Chromium; skipped without it): presets set the options,
options that do not apply are hidden and not sent, technical ones wait under "More"; and a
game page lists its moves in the game's words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser_kit import (
    chromium,
    expect,
    live_server,
    open_page,
    page_errors,
    phase,
    wait_for_turn,
)


def sent_options(request: Any) -> dict[str, Any]:
    """The options a request to make a game sent."""
    body = request.post_data_json
    assert isinstance(body, dict)
    options: dict[str, Any] = body["options"]
    return options


#: True once a game page has drawn its first frame.
SHOWN = "() => !!document.querySelector('.game').dataset.phase"


def test_presets_and_conditions_shape_the_pulling_strings_form(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/new/pulling-strings"))
        expect(page.locator("#seats select")).to_have_count(2)
        classic = page.get_by_label("Classic 2003 rules")
        learn = page.get_by_label("Learn ASL while playing")
        # The defaults are the classic rules: that preset is marked, learning is hidden.
        expect(classic).to_be_checked()
        learning = page.get_by_label("Learn while playing", exact=True)
        expect(learning).to_be_hidden()
        expect(page.get_by_label("Tile set", exact=True)).to_be_hidden()
        # No option is offered by its code name.
        labels = page.locator("#options-box label").all_inner_texts()
        assert "edition" not in labels and "max turns" not in labels, labels
        expect(page.locator("#options-box")).to_contain_text("When both pull the same end")
        # The published preset shows the learning options.
        page.get_by_label("Published edition").check()
        expect(learning).to_be_visible()
        expect(learning).to_have_value('"off"')
        expect(page.get_by_label("Edition", exact=True)).to_have_value('"published"')
        # Back to the classic rules: hidden again.
        classic.check()
        expect(learning).to_be_hidden()
        expect(page.get_by_label("Edition", exact=True)).to_have_value('"classic"')
        # "More" holds the seed, the letters and the turn limit.
        more = page.locator("#more-options")
        expect(more.locator("summary")).to_contain_text("More")
        expect(page.get_by_label("Turn limit", exact=True)).to_be_hidden()
        more.locator("summary").click()
        expect(page.get_by_label("Turn limit", exact=True)).to_be_visible()
        for name in ("Seed for the letters", "Letters on the ends"):
            expect(more.get_by_label(name, exact=True)).to_have_count(1)
            expect(more.get_by_label(name, exact=True)).to_be_hidden()  # classic: none
        # Changing an option by hand leaves the presets; a learning preset shows them.
        learn.check()
        expect(learning).to_have_value('"strict"')
        expect(page.get_by_label("Computer's mistakes", exact=True)).to_be_visible()
        expect(more.get_by_label("Seed for the letters", exact=True)).to_be_visible()
        page.get_by_label("Turn limit", exact=True).fill("30")
        page.get_by_label("Turn limit", exact=True).press("Tab")
        expect(learn).to_be_checked()  # the turn limit is no part of any preset
        learning.select_option('"slip"')
        expect(page.locator("#presets input:checked")).to_have_count(0)
        learn.check()
        # A game made from the preset is a learning game of the published edition.
        page.get_by_label(re.compile(r"^O \(")).select_option("easy")
        with page.expect_request(re.compile(r"/api/games$")) as asked:
            page.get_by_role("button", name="Make the game").click()
        options = sent_options(asked.value)
        assert options["edition"] == "published" and options["learning"] == "strict"
        assert options["tiles"] == "asl" and options["max_turns"] == 30
        page.wait_for_url(re.compile(r"/g/[\w-]+#[\w-]+$"))
        expect(page.locator("svg[data-compose]")).to_have_count(1)  # the answer palette
        assert page_errors(page) == []


def test_hidden_options_are_not_sent(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page = open_page(browser, server.url("/new/tug-of-war"))
        expect(page.locator("#seats select")).to_have_count(3)
        target = page.get_by_label("Target score", exact=True)
        rounds = page.get_by_label("Rounds to play", exact=True)
        expect(target).to_be_visible()
        expect(rounds).to_be_hidden()
        # A bad target that no longer applies does not stop the game.
        target.fill("0")
        page.get_by_label("Ten rounds").check()
        expect(target).to_be_hidden()
        expect(rounds).to_be_visible()
        expect(rounds).to_have_value("10")
        page.get_by_label("The game ends", exact=True).select_option('"round-points"')
        expect(page.get_by_label("Round point goes to", exact=True)).to_be_visible()
        with page.expect_request(re.compile(r"/api/games$")) as asked:
            page.get_by_role("button", name="Make the game").click()
        page.wait_for_url(re.compile(r"/g/"))  # every other seat is the computer's
        sent = sent_options(asked.value)
        assert sent["end"] == "round-points" and sent["rounds"] == 10
        assert "target" not in sent and "out" not in sent  # hidden: the server's defaults
        assert page_errors(page) == []


def test_tug_of_war_moves_are_listed_in_words(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("tug-of-war", ["me", "invite"], {"players": 2})
        me = open_page(browser, server.url(made["mine"]))
        other_link = next(link for link in made["links"].values() if link != made["mine"])
        other = open_page(browser, server.url(other_link))
        # One of the two seats plays first: whichever page offers the moves.
        me.wait_for_function(SHOWN)
        page = me if phase(me) == "choose" else other
        assert wait_for_turn(page) == "choose"
        if not page.locator("#other-ways").evaluate("d => d.open"):
            page.locator("#other-ways > summary").click()
        buttons = page.locator("#legal [data-legal]")
        expect(buttons.first).to_be_visible()
        texts = buttons.all_inner_texts()
        notations = [b.get_attribute("data-legal") for b in buttons.all()]
        assert texts and all(t not in notations for t in texts), texts
        assert all(re.search(r" (plays .+ on end \d of|draws a tile|passes)", t) for t in texts)
        # The chosen move reads in words; its notation stays for whoever types it.
        buttons.first.click()
        expect(page.locator("#chosen")).to_have_text(texts[0])
        expect(page.locator("#chosen")).to_have_attribute("data-move", notations[0] or "")
        expect(page.locator("#confirm")).to_contain_text(texts[0])
        assert page_errors(page) == []
