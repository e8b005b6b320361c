"""Terminal play on a real (pseudo-)terminal: hot-seat privacy and Ctrl-C.

Two people play Tug of War at one keyboard in a pseudo-terminal. Everything the program
writes is fed to a terminal emulator (pyte) with a long scrollback; at each handover the
whole scrollback and screen must hold no hand but the one of the player about to choose,
and an entry that was refused must never have been written at all.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

import pytest

pyte = pytest.importorskip("pyte")

COLUMNS, LINES = 100, 40
COMMAND = [
    "play", "tug-of-war", "--players", "2", "--seat", "0=human", "--seat", "1=human",
    "--seed", "3",
]  # fmt: skip


class Terminal:
    """A program on a pseudo-terminal, with everything it wrote."""

    def __init__(self, args: list[str]) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the program itself
            # A test run started in the background inherits an ignored SIGINT, and Python
            # then never raises KeyboardInterrupt: give the program a terminal's default.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            main = "from taut.cli import main; main()"
            os.execv(sys.executable, [sys.executable, "-c", main, *args])
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self.pid, self.fd = pid, fd
        self.data = b""
        self.seen = 0  # how much of the output the expectations have consumed

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Read until the output not yet consumed matches ``pattern``; consume up to it."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.data[self.seen :].decode(errors="replace")
            found = re.search(pattern, text)
            if found:
                self.seen += len(text[: found.end()].encode())
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} in:\n{text[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.data += os.read(self.fd, 65536)
                except OSError:  # the program ended
                    raise AssertionError(f"ended before {pattern!r}:\n{text[-2000:]}") from None

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def screen_and_scrollback(self) -> str:
        """Everything a person could see now, scrolling back as far as the terminal keeps."""
        screen = pyte.HistoryScreen(COLUMNS, LINES, history=100_000)
        pyte.ByteStream(screen).feed(self.data)
        old = ["".join(line[x].data for x in range(COLUMNS)) for line in screen.history.top]
        return "\n".join([*old, *screen.display])

    def close(self) -> None:
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


def test_two_players_never_see_each_others_hand() -> None:
    term = Terminal(COMMAND)
    try:
        seen_hands = []
        for _ in range(3):  # three handovers
            who = term.wait_for(r"Pass the keyboard to (P\d)").group(1)
            # Before the keyboard changes hands nothing private is on the screen or above it.
            visible = term.screen_and_scrollback()
            assert "Your hand" not in visible, visible
            term.send("\n")
            term.wait_for(rf"Your hand \({who}\)")
            term.wait_for(rf"{who} plays> ")
            seen_hands.append(who)
            legal = term.data.decode(errors="replace").rsplit("You can play: ", 1)[1].split()
            term.send("zq7\n")  # refused, and must never be written back
            term.wait_for("Not a legal move here")
            term.wait_for(rf"{who} plays> ")  # typed earlier, it would be flushed unread
            term.send(legal[0] + "\n")
            term.wait_for(rf"{who} has chosen \(hidden\)")
        assert set(seen_hands) == {"P0", "P1"}
        assert b"zq7" not in term.data  # no echo, no message repeating it
        term.wait_for(r"Pass the keyboard to P\d")
        assert "Your hand" not in term.screen_and_scrollback()
        term.send("\n")
        term.wait_for(r"plays> ")
        term.send("quit\n")
        term.wait_for("Game stopped")
    finally:
        term.close()


def test_ctrl_c_while_the_computer_thinks_stops_cleanly(tmp_path: object) -> None:
    record = os.path.join(str(tmp_path), "game.json")
    term = Terminal(
        ["play", "pulling-strings", "--x", "hard", "--o", "hard", "--think", "3",
         "--record", record]
    )  # fmt: skip
    try:
        term.wait_for("Turn 1")
        deadline = time.monotonic() + 30
        while not os.path.exists(record) and time.monotonic() < deadline:
            time.sleep(0.05)  # the first move is saved; the computer thinks about the next
        term.send("\x03")
        term.wait_for(r"Game stopped\. The record so far is in .*game\.json\.")
        _, status = os.waitpid(term.pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        assert "Traceback" not in term.data.decode(errors="replace")
    finally:
        term.close()


def test_playing_the_computer_on_a_real_terminal() -> None:
    """Colour, the seat you play, hint, rules, undo and an answered draw offer, as typed."""
    term = Terminal(["play", "pulling-strings", "--o", "greedy", "--seed", "2"])
    try:
        term.wait_for("You play X")
        term.wait_for("X pulls> ")
        assert b"\x1b[" in term.data  # the board is in colour on a terminal
        term.send("rules\n")
        term.wait_for("X pulls> ")
        term.send("hint\n")
        term.wait_for(r"hard would (mix|play)")
        term.wait_for("X pulls> ")
        term.send("c\n")
        term.wait_for("Turn 1")
        term.wait_for("X pulls> ")
        term.send("undo\n")
        term.wait_for("X takes back.")
        term.wait_for("X pulls> ")
        term.send("draw\n")
        term.wait_for(r"O \(greedy\) (accepts the draw|declines the draw)")
        term.send("quit\n")
        term.wait_for(r"Game stopped|draw \(agreement\)")
    finally:
        term.close()


def test_no_color_on_a_real_terminal() -> None:
    os.environ["NO_COLOR"] = "1"
    try:
        term = Terminal(
            ["play", "pulling-strings", "--x", "random", "--o", "random", "--max-turns", "2"]
        )
    finally:
        del os.environ["NO_COLOR"]
    try:
        term.wait_for(r"draw \(max_turns\)|won")
        text = term.data.decode(errors="replace")
        for sgr in re.findall(r"\x1b\[([0-9;]*)m", text):  # bold and dim may stay; colour not
            codes = [int(c) for c in sgr.split(";") if c]
            assert not any(30 <= c <= 49 or 90 <= c <= 107 for c in codes), sgr
    finally:
        term.close()
