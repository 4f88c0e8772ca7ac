"""Text output of a game: every move as it happens, each round's score sheet, and the
table a person sees.  It reads what anyone at the table may know: the event stream
(as an outside tool reading a record would), a seat's observation, and the rules.
What a family's table looks like comes from its view in ``narration/families``."""

from __future__ import annotations

import re
from typing import Any, Sequence

import click

from ..interpreter.pack import STANDARD, Pack
from ..interpreter.rules import Ruleset
from .output import echo
from .families import view_for


def show_card(name: str, ascii_only: bool, pack: Pack = STANDARD) -> str:
    """A card of ``pack`` for people: ``10♥`` in red where the terminal shows colour
    (click drops the colour codes when output is not a terminal), ``10H`` with --ascii;
    a special card by its symbol (its code with --ascii)."""
    c = pack.card(name)
    text = pack.pretty(c, ascii_only=ascii_only)
    if not ascii_only and pack.colour(c) == "red":
        return click.style(text, fg="red")
    return text


# A card as the engine names it in a refusal ("QS", "TS", "JK"), standing alone; and a
# quoted span (what the player typed, or a move as typed), left as it is.
_CARD_NAME = re.compile(r"(?<![\w'\"])(?:[2-9TJQKA][SHDC]|JK)(?![\w'\"])")
_SEAT = re.compile(r"\bseat (\d{1,2})\b")  # a seat an engine's refusal names by number
_QUOTED = re.compile(r"(?<!\w)'[^'\n]*'(?!\w)|\"[^\"\n]*\"")


class Renderer:
    def __init__(self, names: Sequence[str], rules: Ruleset, *, mode: str | None = None, ascii_only: bool = False,
                 quiet: bool = False, narrate: bool = False, private_seat: int | None = None):
        self.names = list(names)
        self.rules = rules
        self.setup = rules.setup(len(names), mode)
        self.pack: Pack = self.setup.pack
        self._card_name = _CARD_NAME if self.pack is STANDARD else re.compile(
            r"(?<![\w'\"])(?:" + "|".join(re.escape(c) for c in sorted(set(self.pack.codes), key=len, reverse=True))
            + r")(?![\w'\"])")
        self.ascii = ascii_only
        self.quiet = quiet
        self.narrate = narrate and not quiet  # say every move (when people play)
        self.last_human: int | None = None
        # the one person at the table (against bots): the narration may name what only that
        # seat sees, such as the card it drew from the stock (never with two people)
        self.private_seat = private_seat
        self.width = max(8, max(len(n) for n in names))
        self.round: dict[str, Any] = {}  # what the round's events said so far
        self.header_due = False  # a round began whose header has not been shown yet
        self.heard: list[str] = []  # what was said since the view last marked the end of a turn
        self.sheet: list[tuple[int, list[str], list[int]]] = []  # each round: number, cells, totals
        self.view = view_for(rules, self)
        self._following: Any = None  # the game whose events are shown, and how many of them so far
        self._seen = 0

    # --- the event stream ---------------------------------------------------------------
    # The renderer reads the engine's views of the events for its seat (``private_seat``,
    # or a spectator's when there is no one person at the table): never the record, so
    # it cannot show what that seat may not see.
    def follow(self, state: Any) -> None:
        """Show the events of ``state`` this table has not shown yet, as its seat sees them."""
        if state is not self._following:
            self._following, self._seen = state, 0
        views = state.event_views(self.private_seat, self._seen)
        self._seen += len(views)
        for event in views:
            self.event(event)

    def catch_up_state(self, state: Any) -> None:
        """Read the events of ``state`` so far silently (a resumed or rebuilt game)."""
        self._following, self._seen = state, 0
        views = state.event_views(self.private_seat)
        self._seen = len(views)
        self.catch_up(views)

    def catch_up(self, events: Sequence[dict[str, Any]]) -> None:
        """Read events (views, as the seat sees them) of a resumed game silently, to know
        the round so far."""
        quiet, narrate = self.quiet, self.narrate
        self.quiet, self.narrate = True, False
        try:
            for event in events:
                self.event(event)
        finally:
            self.quiet, self.narrate = quiet, narrate
        # a game resumed in the middle of a round shows that round's header again
        self.header_due = "deal" in self.round and bool(events) and events[-1]["event"] not in ("score", "end")

    def event(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "deal":
            self.round = {"deal": event, "upcard": event.get("upcard")}
            self.header_due = True
            self.heard = []
        if kind == "score":
            self.on_score(event)
        elif kind == "end":
            if not self.quiet:
                self.final(event)
        else:
            self.view.event(event)

    def say(self, text: str) -> None:
        if text.startswith("you "):  # "you bids 3" -> "you bid 3"
            verb, _, rest = text[4:].partition(" ")
            verb = {"goes": "go", "does": "do", "passes": "pass", "is": "are", "has": "have"}.get(
                verb, verb[:-1] if verb.endswith("s") else verb)
            text = f"you {verb} {rest}".rstrip()
        self.heard.append(text)  # kept (resumed games too) for `last`
        if self.narrate:
            self.show_round_header()
            echo(f"  {text}")

    def end_turn(self) -> None:
        """A turn is over (the view knows when): what was said in it is what `last` shows."""
        self.round["last_turn"] = self.heard
        self.heard = []

    def card(self, name: str) -> str:
        return show_card(name, self.ascii, self.pack)

    def refusal(self, text: str) -> str:
        """An engine's refusal as the table shows it: the cards it names (``QS``) shown as
        the table shows cards (``Q♠``) and its seats (``seat 2``) by the players' names;
        quoted text, what the player typed, is kept."""
        def shown(part: str) -> str:
            part = self._card_name.sub(lambda m: self.card(m.group()), part)
            return _SEAT.sub(lambda m: self.names[int(m.group(1))] if int(m.group(1)) < len(self.names)
                             else m.group(), part)

        parts, last = [], 0
        for quoted in _QUOTED.finditer(text):
            parts.append(shown(text[last:quoted.start()]))
            parts.append(quoted.group())
            last = quoted.end()
        parts.append(shown(text[last:]))
        return "".join(parts)

    def cards(self, names: Sequence[str]) -> str:
        return " ".join(show_card(n, self.ascii, self.pack) for n in names)

    def on_score(self, event: dict[str, Any]) -> None:
        self.sheet.append((event["round"], [self.view.sheet_cell(seat, event) for seat in range(len(self.names))],
                           list(event["totals"])))
        if self.quiet:
            return
        self.header_due = False
        echo(self.round_title(event["round"]))
        self.view.score_sheet(event)

    def round_title(self, number: int) -> str:
        """"Round 3 of 19: 8 cards, dealer bot-2", and what the family adds (the trump
        and the turned card, the contract)."""
        deal = self.round.get("deal", {})
        rounds = len(self.setup.hand_sizes)
        of = f"of at most {rounds}" if self.rules.end_when is not None else f"of {rounds}"
        size = deal.get("hand_size")
        head = (f"Round {number} {of}: {size} card{'' if size == 1 else 's'}, "
                f"dealer {self.names[deal.get('dealer', 0)]}")
        return head + self.view.round_header()

    def show_round_header(self) -> None:
        """The header of the round just dealt, once, before anything else of the round
        is shown: the first move narrated or a person's table, whichever comes first."""
        if not self.header_due or not self.narrate:
            return
        self.header_due = False
        deal = self.round.get("deal", {})
        echo("")
        echo(f"== {self.round_title(deal.get('round', 0))} ==")

    def final(self, end: dict[str, Any]) -> None:
        """The final standings, from the game's ``end`` event."""
        winners = end["winners"]
        totals = end["totals"]
        teams = end.get("teams") or []
        best = (sum(t for s, t in enumerate(totals) if teams[s] == teams[winners[0]]) if teams
                else totals[winners[0]])
        echo(f"Game over. {'Winners' if len(winners) > 1 else 'Winner'}: "
                   f"{', '.join(self.names[s] for s in winners)} with {best} "
                   + (f"(the {' then '.join(('highest ' if b == 'highest' else 'lowest ') + r.source for r, b in self.rules.winner_by)}, "
                      f"then the {'highest' if self.rules.winner == 'highest' else 'lowest'} total wins)"
                      if self.rules.winner_by else
                      f"({'highest' if self.rules.winner == 'highest' else 'lowest'} "
                      f"{'team ' if teams else ''}total wins)"))
        for line in standings(self.names, totals, teams, self.rules.winner == "highest"):
            echo(f"  {line}")

    # --- what a person at a seat sees -------------------------------------------------------
    def show_table(self, obs: Any) -> None:
        self.show_round_header()
        echo("")
        of = f"of at most {obs.rounds}" if self.rules.end_when is not None else f"of {obs.rounds}"
        echo(f"Round {obs.round} {of}, {obs.hand_size} card{'' if obs.hand_size == 1 else 's'}; "
             f"dealer {self.names[obs.dealer]}")
        self.view.show_table(obs)
        echo("Your hand: " + self.view.hand_text(obs))

    def hand_text(self, hand: Sequence[str]) -> str:
        """Cards grouped by suit, as named (special cards together)."""
        groups: dict[int, list[str]] = {}
        pack = self.pack
        for name in hand:
            c = pack.card(name)
            groups.setdefault(pack.suit_of[c], []).append(show_card(name, self.ascii, pack))
        return "   ".join(" ".join(cards) for cards in groups.values())

    def prompt_text(self, obs: Any, legal: Sequence[Any]) -> str:
        return f"{self.names[obs.seat]}, {self.view.prompt(obs, legal)}"

    def show_help(self) -> None:
        echo(self.view.help_text())
        echo("  Commands at any prompt:")
        for command, meaning in (("hand", "show the table and your hand again"),
                                 ("last", self.view.last_help),
                                 ("hint", "what the bot would do here, and why"),
                                 ("undo", "take back your last move and the bots' replies (against bots)"),
                                 ("score", "the score sheet: every round so far, and the totals"),
                                 ("rules", "the rules of this game"),
                                 ("help", "this list"),
                                 ("quit", "stop; the game is saved, `cardrules resume` continues it")):
            echo(f"    {command:6} {meaning}")
        echo("  While the bots play, Enter skips their pauses; a move typed then is kept for your next prompt.")

    def last_turn_lines(self) -> list[str]:
        """What the last finished turn did (as narrated), and what happened since."""
        done, since = self.round.get("last_turn"), self.heard
        if not done and not since:
            return ["nothing has been played yet this round"]
        return ((["last turn:"] + [f"  {line}" for line in done] if done else []) +
                (["since then:"] + [f"  {line}" for line in since] if since else []))

    def show_hint(self, obs: Any, legal: Sequence[Any]) -> None:
        """What the heuristic bot would do in this seat, and why in a few words (the
        family's view says why where it can).  The bot asked is a fresh one: asking
        changes nothing in the game, the bots at the table included."""
        from ..interpreter.bots import make_policy, seat_kinds

        kind = "bot" if "bot" in seat_kinds(self.rules) else None
        if kind is None:
            echo("  no bot plays this game: there is no hint to give")
            return
        bot = make_policy(self.rules, kind, 0, obs.seat)
        action = bot.act(obs if bot.needs_observation else None, legal)
        why = self.view.hint_reason(obs, action)
        echo(f"  the bot would {self.refusal(str(action))}" + (f": {why}" if why else ""))

    def show_last(self) -> None:
        for line in self.view.last_lines():
            echo(f"  {line}")

    def show_scores(self, obs: Any) -> None:
        """The score sheet: each round played so far (the family's cells: bid/taken and
        points, or points and buys), then the running totals."""
        if self.sheet:
            cells = [cell for _, row, _ in self.sheet for cell in row]
            w = max(8, max(len(c) for c in cells), max(len(n) for n in self.names))
            echo(f"  {'round':>5}  " + "  ".join(f"{n:>{w}}" for n in self.names))
            for number, row, _ in self.sheet:
                echo(f"  {number:>5}  " + "  ".join(f"{c:>{w}}" for c in row))
            echo(f"  {'total':>5}  " + "  ".join(f"{t:>{w}}" for t in obs.totals))
            echo(f"  ({self.view.sheet_legend})")
            return
        for name, total in zip(self.names, obs.totals):
            echo(f"  {name:{self.width}} {total:>6}")

    def show_rules(self) -> None:
        """The rules as `cardrules explain` prints them for players (no author's notes)."""
        from ..interpreter.explain import explain

        echo(explain(self.rules, notes=False).rstrip())


def standings(names: Sequence[str], totals: Sequence[int], teams: Sequence[int], highest: bool) -> list[str]:
    """Final standings, best first; tied places share a rank ("1=") and partners are
    listed together with their team's total.

    >>> standings(["Ann", "Bob", "Cy"], [30, 42, 30], [], True)
    ['1.  Bob 42', '2=  Ann 30', '2=  Cy 30']
    """
    if teams:
        groups: dict[int, list[int]] = {}
        for seat, team in enumerate(teams):
            groups.setdefault(team, []).append(seat)
        entries = [(" and ".join(names[s] for s in seats), sum(totals[s] for s in seats)) for seats in groups.values()]
    else:
        entries = list(zip(names, totals))
    entries.sort(key=lambda e: -e[1] if highest else e[1])
    out = []
    for i, (who, total) in enumerate(entries):
        rank = next(j for j, e in enumerate(entries) if e[1] == total) + 1
        tied = sum(1 for e in entries if e[1] == total) > 1
        out.append(f"{f'{rank}=' if tied else f'{rank}.':<3} {who} {total}")
    return out
