"""``taut flashcards SET``: drill a tile set's faces in the terminal, scheduled by FSRS.

The tile sets come from the game plugins (:func:`taut.learn.registry.tile_sets`); the cards,
their schedule and the summary from :mod:`taut.learn.flashcards`. The progress of every set is
one JSON file (``flashcards.json`` in the data folder, or ``--progress FILE``), written
after every answer, so stopping at any moment loses nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import click
from rich.markup import escape

from taut.cli.common import EXIT_NOT_SAVED, console, err_console, fail, file_param
from taut.core.numbers import whole
from taut.learn import flashcards as fc
from taut.learn.flashcards import Card, Deck, Progress, ProgressError
from taut.learn.tileset import Face, TileSet

#: ``--direction`` values and the directions they ask.
DIRECTION_CHOICES: dict[str, tuple[str, ...]] = {
    "board": (fc.BOARD_TO_OTHER,),
    "other": (fc.OTHER_TO_BOARD,),
    "both": fc.DIRECTIONS,
}
#: Words understood at the prompt besides answers.
HELP, SKIP, QUIT = "help", "skip", "quit"


def progress_path() -> Path:
    """The default progress file: ``flashcards.json`` in the user's data folder."""
    from taut.cli.serve import data_dir

    return data_dir() / "flashcards.json"


def face_text(face: Face) -> str:
    """A face as the terminal shows it: its text, or for a picture its description."""
    return (face.description or face.name) if face.is_picture else face.text


def pair(tiles: TileSet, index: int) -> str:
    """Both faces of a tile: ``14 = XIV``, ``か = カ (ka)``, ``M = <the handshape's name>``."""
    tile = tiles.tiles[index]
    other = tile.other.name if tile.other.is_picture else tile.other.text
    aliases = f" ({', '.join(tile.other.aliases)})" if tile.other.aliases else ""
    return f"{tile.board.text} = {other}{aliases}"


@dataclass
class Session:
    """One sitting: the deck as it goes, and what this sitting's answers were."""

    tiles: TileSet
    directions: tuple[str, ...]
    seed: int
    offer_choices: bool
    progress: Progress
    path: Path
    right: int = 0
    wrong: int = 0
    #: New cards this sitting may still introduce.
    new_left: int = fc.NEW_PER_SITTING
    #: The card answered last and the cards skipped: asked only when nothing else is left.
    last: tuple[int, str] | None = None
    skipped: set[tuple[int, str]] = field(default_factory=set)
    #: Why the latest write of the progress file failed (None: it holds this sitting).
    save_error: str | None = None

    @property
    def deck(self) -> Deck:
        """The set's deck now."""
        return self.progress.deck(self.tiles.name)

    def keep(self, deck: Deck) -> None:
        """Take ``deck`` as the set's deck and write the progress file; a failed write is
        told once and the sitting goes on (the file keeps its last complete progress)."""
        self.progress = self.progress.with_deck(self.tiles.name, deck)
        try:
            self.progress.save(self.path)
        except ProgressError as exc:
            if self.save_error is None:
                err_console.print(
                    f"[bold red]error:[/bold red] [red]{escape(str(exc))}. "
                    "You can go on; it is tried again.[/red]"
                )
            self.save_error = str(exc)
            return
        if self.save_error is not None:
            console.print("The progress is saved again.")
        self.save_error = None

    def answers_picture(self, card: Card) -> bool:
        """Whether ``card``'s answer is a picture (chosen by number, never typed)."""
        tile = self.tiles.tiles[card.tile]
        return (tile.other if card.direction == fc.BOARD_TO_OTHER else tile.board).is_picture

    def picks(self, card: Card) -> list[int] | None:
        """The tiles offered by number for ``card``, or None when the answer is typed."""
        if self.answers_picture(card) or self.offer_choices:
            return fc.choices(self.deck, self.tiles, card, self.seed)
        return None


#: How the line above a card says why it is asked.
WHY = {fc.DUE: "due", fc.NEW: "new card", fc.AHEAD: "studying ahead: nothing is due"}


def show_card(
    session: Session, card: Card, number: int, total: int, picks: list[int] | None, why: str
) -> str:
    """Print the card; returns the prompt to read its answer with."""
    tiles = session.tiles
    tile = tiles.tiles[card.tile]
    asked, kind, answer_kind = (
        (tile.board, tiles.board_kind, tiles.other_kind)
        if card.direction == fc.BOARD_TO_OTHER
        else (tile.other, tiles.other_kind, tiles.board_kind)
    )
    console.print(
        f"\n[dim]Card {number} of {total} \u00b7 "
        f"{escape(fc.direction_label(tiles, card.direction))} \u00b7 {why}[/dim]"
    )
    console.print(f"  {escape(kind.capitalize())}: [bold]{escape(face_text(asked))}[/bold]")
    if picks is None:
        return f"{escape(answer_kind.capitalize())}? "
    for n, index in enumerate(picks, 1):
        side = tiles.tiles[index].other if card.direction == fc.BOARD_TO_OTHER else None
        text = face_text(side if side is not None else tiles.tiles[index].board)
        console.print(f"  {n}. {escape(text)}")
    return f"{escape(answer_kind.capitalize())} (1-{len(picks)})? "


def help_text(picks: list[int] | None) -> str:
    """What may be typed at the prompt."""
    typed = "the answer (any case; other accepted spellings work too)"
    how = typed if picks is None else f"the number of your choice (1-{len(picks)})"
    return f"Type {how}; `skip` puts this card after the others; `quit` stops here."


@dataclass(frozen=True)
class Answer:
    """What was typed at a card: ``word`` is ``skip`` or ``quit`` (EOF and Ctrl-C too), or
    empty for an answer; ``tile`` is the tile the answer names (None: none), ``text`` it."""

    word: str = ""
    tile: int | None = None
    text: str = ""


def ask(session: Session, card: Card, number: int, total: int, why: str = "") -> Answer:
    """Show ``card`` and read its answer (help is answered here)."""
    picks = session.picks(card)
    prompt = show_card(session, card, number, total, picks, why)
    while True:
        try:
            text = console.input(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return Answer(QUIT)
        word = text.casefold()
        if word in (SKIP, QUIT):
            return Answer(word)
        if word in (HELP, "?"):
            console.print(escape(help_text(picks)))
        elif not text:
            continue
        elif picks is None:
            return Answer(tile=fc.answer_tile(session.tiles, card, text), text=text)
        elif 1 <= (whole(text) or 0) <= len(picks):
            return Answer(tile=picks[(whole(text) or 0) - 1], text=text)
        elif not session.answers_picture(card):
            return Answer(tile=fc.answer_tile(session.tiles, card, text), text=text)
        else:
            console.print(f"Type a number from 1 to {len(picks)} (or help, skip, quit).")


def judge(session: Session, card: Card, answer: Answer) -> None:
    """Record the answer, save, and say whether it was right, with the correct pair."""
    tiles = session.tiles
    now = fc.now_utc()
    session.keep(fc.record(session.deck, card, answer.tile, now))
    session.last = card.key
    back = fc.until(session.deck.cards[card.key].due, now)
    if answer.tile == card.tile:
        session.right += 1
        console.print(
            f"[green]Right:[/green] {escape(pair(tiles, card.tile))}. [dim]Again {back}.[/dim]"
        )
        return
    session.wrong += 1
    kind = tiles.other_kind if card.direction == fc.BOARD_TO_OTHER else tiles.board_kind
    yours = (
        f"{answer.text} is no {kind} of this set"
        if answer.tile is None
        else f"yours is {pair(tiles, answer.tile)}"
    )
    console.print(
        f"[red]Wrong:[/red] {escape(pair(tiles, card.tile))}; {escape(yours)}. "
        f"[dim]Again {back}.[/dim]"
    )


def play(session: Session, cards: int) -> None:
    """Ask up to ``cards`` cards (skips do not count), then print the summary."""
    asked = 0
    try:
        while asked < cards:
            avoid = session.skipped | ({session.last} if session.last else set())
            pick = fc.next_card(
                session.deck,
                session.tiles,
                session.directions,
                now=fc.now_utc(),
                seed=session.seed,
                new_left=session.new_left,
                avoid=avoid,
            )
            card = pick.card
            answer = ask(session, card, asked + 1, cards, WHY[pick.reason])
            if answer.word == QUIT:
                break
            if answer.word == SKIP:
                session.skipped.add(card.key)
                continue
            session.skipped.discard(card.key)
            if card.key not in session.deck.cards:
                session.new_left -= 1
            judge(session, card, answer)
            asked += 1
    except KeyboardInterrupt:
        console.print()
    except ProgressError as exc:
        fail(str(exc))
    summarize(session)


def summarize(session: Session) -> None:
    """The sitting's score and what to practise."""
    tiles = session.tiles
    console.rule("Summary")
    done = session.right + session.wrong
    if done:
        console.print(f"This time: {session.right} right of {done}.")
    summary = fc.summarize(session.deck, tiles, session.directions, now=fc.now_utc())
    for line in summary.lines(tiles):
        console.print(escape(line))
    if session.save_error is not None:
        err_console.print(f"[bold red]error:[/bold red] {escape(session.save_error)}")
        raise click.exceptions.Exit(EXIT_NOT_SAVED)
    console.print(f"[dim]Progress is kept in {escape(str(session.path))}.[/dim]")


class FlashcardsCommand(click.Command):
    """The command; its help ends with the tile sets and an example (read when asked)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The sets known now, and an example with the first."""
        from taut.learn.registry import tile_sets

        sets = tile_sets()
        with formatter.section("Tile sets"):
            formatter.write_dl([(name, ts.title) for name, ts in sets.items()] or [("", "none")])
        if sets:
            first = next(iter(sets))
            with formatter.section("Example"):
                formatter.write_text(f"taut flashcards {first} --direction both --cards 10")


def find_tile_set(given: str) -> TileSet:
    """The tile set a person named: a file ``FILE.toml`` (see ``docs/tilesets.md``) or a
    set of a game by its name; exits with status 2 saying why when there is none."""
    from taut.learn.registry import tile_sets

    if given.strip().lower().endswith(".toml"):
        from taut.learn.tileset_file import TileSetError, read_tileset_file

        try:
            return read_tileset_file(given.strip()).tiles
        except TileSetError as exc:
            fail(str(exc))
    sets = tile_sets()
    tiles = sets.get(given)
    if tiles is None:
        fail(
            f"unknown tile set {given!r}; the tile sets are: {', '.join(sets) or 'none'}, "
            "or a tile set file FILE.toml"
        )
    return tiles


def run(
    tile_set: str,
    direction: str,
    cards: int,
    progress: Path | None,
    seed: int | None,
    offer_choices: bool,
) -> None:
    """Drill a tile set with flash cards in the terminal (scheduled by FSRS).

    SET is a tile set's name or a tile set file (FILE.toml, see docs/tilesets.md). Each
    card shows one face of a tile; give the other. A picture is chosen by number
    among described pictures; other answers are typed (any case; other accepted
    spellings work too). `help` explains, `skip` puts a card after the others, `quit`
    (or Ctrl-D, Ctrl-C) stops; the summary then says what to practise.

    FSRS schedules each card: a right answer brings it back later and later (minutes,
    then days, then weeks), a missed one within minutes. Cards due come first, the most
    overdue first; then up to 5 new cards a sitting; when nothing is due, the card due
    soonest. The progress of every set is kept in one file, written after each answer; a
    file of the Leitner boxes of earlier versions is converted.
    """
    tiles = find_tile_set(tile_set)
    path = progress if progress is not None else progress_path()
    try:
        loaded = Progress.load(path, fc.now_utc())
        fc.fit(loaded.deck(tiles.name), tiles)
    except ProgressError as exc:
        fail(str(exc))
    session = Session(
        tiles,
        DIRECTION_CHOICES[direction],
        seed if seed is not None else random.SystemRandom().randrange(2**31),
        offer_choices,
        loaded,
        path,
    )
    ways = " and ".join(fc.direction_label(tiles, d) for d in session.directions)
    console.print(
        f"[bold]{escape(tiles.title)}[/bold]: {escape(ways)}. "
        "Type help for help, skip to pass a card, quit to stop."
    )
    if loaded.converted:
        console.print(
            "[dim]The progress file holds Leitner boxes of an earlier version; they are "
            "now FSRS cards, due today (the file is rewritten at the first answer).[/dim]"
        )
    play(session, cards)


#: ``taut flashcards``.
flashcards = FlashcardsCommand(
    "flashcards",
    callback=run,
    help=run.__doc__,
    short_help="Drill a tile set's faces with flash cards (scheduled by FSRS).",
    context_settings={"help_option_names": ["-h", "--help"]},
    params=[
        click.Argument(["tile_set"], metavar="SET"),
        click.Option(
            ["--direction"],
            type=click.Choice(list(DIRECTION_CHOICES)),
            default="both",
            show_default=True,
            help="board: shown the face on the board, give the other face; other: the "
            "reverse; both: either way.",
        ),
        click.Option(
            ["--cards"],
            type=click.IntRange(1, 10_000),
            default=20,
            show_default=True,
            help="Cards to answer this time.",
        ),
        file_param(
            ["--progress"],
            "The progress file (default: flashcards.json in $TAUT_DATA, else "
            "$XDG_DATA_HOME/taut, else ~/.local/share/taut).",
        ),
        click.Option(["--seed"], type=int, default=None, help="Seed for the order and choices."),
        click.Option(
            ["--choices", "offer_choices"],
            is_flag=True,
            default=False,
            help="Offer numbered choices for every card (pictures always get them).",
        ),
    ],
)
