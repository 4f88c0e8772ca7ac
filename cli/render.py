"""Text output of a game: each round's bids, tricks and score sheet, and the table a
human seat sees.  It reads the event stream, as an outside tool reading a record would."""

from __future__ import annotations

from typing import Any, Sequence

import click

from ..interpreter.cards import SUIT_NAMES, card, pretty
from ..interpreter.state import GameState


def show_card(name: str, ascii_only: bool) -> str:
    """A card for people: ``10♥`` in red where the terminal shows colour (click drops the
    colour codes when output is not a terminal), ``10H`` with --ascii."""
    text = pretty(card(name), ascii_only=ascii_only)
    if not ascii_only and name[-1] in "HD":
        return click.style(text, fg="red")
    return text


class Renderer:
    def __init__(self, names: Sequence[str], *, ascii_only: bool = False, quiet: bool = False,
                 narrate: bool = False):
        self.names = list(names)
        self.ascii = ascii_only
        self.quiet = quiet
        self.narrate = narrate and not quiet  # say every move (when people play)
        self.last_human: int | None = None
        self.width = max(8, max(len(n) for n in names))
        self._round: dict[str, Any] = {}

    # --- the event stream ---------------------------------------------------------------
    def catch_up(self, state: GameState) -> None:
        """Read the events of a resumed game silently, to know the round so far."""
        quiet, narrate = self.quiet, self.narrate
        self.quiet, self.narrate = True, False
        try:
            for event in state.events:
                self.event(state, event)
        finally:
            self.quiet, self.narrate = quiet, narrate

    def event(self, state: GameState, event: dict[str, Any]) -> None:
        kind = event["event"]
        handler = getattr(self, f"on_{kind}", None)
        if handler is not None:
            handler(state, event)

    def on_deal(self, state: GameState, event: dict[str, Any]) -> None:
        self._round = {"bids": {}, "taken": [0] * len(self.names), "trump": None, "upcard": event.get("upcard"),
                       "deal": event}

    def on_trump(self, state: GameState, event: dict[str, Any]) -> None:
        self._round["trump"] = event["suit"]

    def say(self, text: str) -> None:
        if self.narrate:
            if text.startswith("you "):  # "you bids 3" -> "you bid 3"
                verb, _, rest = text[4:].partition(" ")
                verb = {"goes": "go", "does": "do"}.get(verb, verb[:-1] if verb.endswith("s") else verb)
                text = f"you {verb} {rest}".rstrip()
            click.echo(f"  {text}")

    def cards(self, names: Sequence[str]) -> str:
        return " ".join(show_card(n, self.ascii) for n in names)

    def on_bid(self, state: GameState, event: dict[str, Any]) -> None:
        self._round["bids"][event["seat"]] = event["bid"]
        line = f"{self.names[event['seat']]} bids {event['bid']}"
        tricks = state.rules.tricks
        if tricks is not None and tricks.bidding.order == "simultaneous":
            # bids made at once are shown together, once everyone has bid
            pending = self._round.setdefault("pending_bids", [])
            pending.append(line)
            if len(pending) == len(self.names):
                for held in pending:
                    self.say(held)
            return
        self.say(line)

    def on_play(self, state: GameState, event: dict[str, Any]) -> None:
        self.say(f"{self.names[event['seat']]} plays {show_card(event['card'], self.ascii)}")

    def on_trick(self, state: GameState, event: dict[str, Any]) -> None:
        self._round["taken"][event["winner"]] += 1
        self.say(f"{self.names[event['winner']]} wins trick {event['trick']}")

    def on_draw(self, state: GameState, event: dict[str, Any]) -> None:
        if event["from"] == "discard":
            self.say(f"{self.names[event['seat']]} takes {show_card(event['card'], self.ascii)}")
        else:
            self.say(f"{self.names[event['seat']]} draws from the stock")

    def on_meld(self, state: GameState, event: dict[str, Any]) -> None:
        melds = "; ".join(f"[{m['id']}] {self.cards(m['cards'])}" for m in event["melds"])
        self.say(f"{self.names[event['seat']]} goes down: {melds}")

    def on_layoff(self, state: GameState, event: dict[str, Any]) -> None:
        self.say(f"{self.names[event['seat']]} lays off {self.cards(event['cards'])} on [{event['meld']}]")

    def on_swap(self, state: GameState, event: dict[str, Any]) -> None:
        self.say(f"{self.names[event['seat']]} swaps {show_card(event['card'], self.ascii)} for the joker "
                 f"in [{event['meld']}]")

    def on_discard(self, state: GameState, event: dict[str, Any]) -> None:
        call = " and calls it" if event.get("shanghai") else ""
        self.say(f"{self.names[event['seat']]} discards {show_card(event['card'], self.ascii)}{call}")

    def on_shanghai(self, state: GameState, event: dict[str, Any]) -> None:
        self.say(f"{self.names[event['seat']]} calls {show_card(event['card'], self.ascii)} onto "
                 f"[{event['meld']}] and gives a card away")

    def on_out(self, state: GameState, event: dict[str, Any]) -> None:
        self._round["out"] = event["seat"]
        self.say(f"{self.names[event['seat']]} goes out")

    def on_exhausted(self, state: GameState, event: dict[str, Any]) -> None:
        self._round["exhausted"] = event["reason"]

    def on_bonus(self, state: GameState, event: dict[str, Any]) -> None:
        self._round.setdefault("bonuses", []).append(event["name"])

    def on_cut(self, state: GameState, event: dict[str, Any]) -> None:
        if event.get("success"):
            self._round.setdefault("bonuses", []).append(f"the cut by {self.names[event['seat']]}")

    def on_buy(self, state: GameState, event: dict[str, Any]) -> None:
        buys = self._round.setdefault("buys", [0] * len(self.names))
        buys[event["seat"]] += 1
        self.say(f"{self.names[event['seat']]} buys {show_card(event['card'], self.ascii)} "
                 f"(+{len(event['penalty'])} from the stock)")

    def on_score(self, state: GameState, event: dict[str, Any]) -> None:
        if self.quiet:
            return
        deal = self._round.get("deal", {})
        rounds = len(state.setup.hand_sizes)
        head = f"Round {event['round']} of {rounds}: {deal.get('hand_size')} cards, dealer {self.names[deal.get('dealer', 0)]}"
        if "trump" in self._round and state.family.value == "trick-taking":
            suit = self._round["trump"]
            head += ", " + ("no trump" if suit is None else f"trump {SUIT_NAMES[suit]}")
            if self._round.get("upcard"):
                head += f" ({show_card(self._round['upcard'], self.ascii)} turned)"
        click.echo(head)
        w = self.width
        if state.family.value == "trick-taking":
            click.echo(f"  {'':{w}} {'bid':>4} {'took':>5} {'points':>7} {'total':>6}")
            for seat, name in enumerate(self.names):
                bid = self._round["bids"].get(seat, "-")
                click.echo(f"  {name:{w}} {bid:>4} {self._round['taken'][seat]:>5} "
                           f"{event['points'][seat]:>7} {event['totals'][seat]:>6}")
        else:
            rummy_round = getattr(state, "setup").round_numbers[event["round"] - 1]
            contract = state.rules.rummy.contracts[rummy_round - 1].name  # type: ignore[union-attr]
            if "out" in self._round:
                how = f"{self.names[self._round['out']]} went out"
            else:
                how = "no one went out (" + ("the stock ran out" if self._round.get("exhausted") == "stock"
                                            else "the turn limit was reached") + ")"
            extra = "; ".join(self._round.get("bonuses", []))
            click.echo(f"  contract {contract}: {how}" + (f"; {extra}" if extra else ""))
            buys = self._round.get("buys", [0] * len(self.names))
            click.echo(f"  {'':{w}} {'buys':>5} {'points':>7} {'total':>6}")
            for seat, name in enumerate(self.names):
                click.echo(f"  {name:{w}} {buys[seat]:>5} {event['points'][seat]:>7} {event['totals'][seat]:>6}")

    def on_end(self, state: GameState, event: dict[str, Any]) -> None:
        if not self.quiet:
            self.final(state)

    def final(self, state: GameState) -> None:
        winners = ", ".join(self.names[s] for s in state.winners)
        teams = state.setup.teams
        best = (sum(t for s, t in enumerate(state.totals) if teams[s] == teams[state.winners[0]]) if teams
                else state.totals[state.winners[0]])
        click.echo(f"Game over. {'Winners' if len(state.winners) > 1 else 'Winner'}: {winners} with {best} "
                   f"({'highest' if state.rules.winner == 'highest' else 'lowest'} "
                   f"{'team ' if teams else ''}total wins)")

    # --- what a human seat sees ----------------------------------------------------------
    def show_table(self, state: GameState, seat: int) -> None:
        obs = state.observation(seat)
        click.echo("")
        click.echo(f"Round {obs['round']} of {obs['rounds']}, {obs['hand_size']} cards; "
                   f"dealer {self.names[obs['dealer']]}")
        if obs["family"] == "trick-taking":
            trump = obs["trump"]
            line = "Trump: " + ("none yet" if obs["phase"] == "trump" else
                                "no trump" if trump is None else SUIT_NAMES[trump])
            if obs["upcard"]:
                line += f" (turned {show_card(obs['upcard'], self.ascii)})"
            click.echo(line)
            bids = ", ".join(f"{self.names[s]} {b}" for s, b in enumerate(obs["bids"]) if b is not None)
            click.echo(f"Bids: {bids or '-'}")
            if obs["phase"] == "play":
                took = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(obs["tricks_taken"]))
                click.echo(f"Tricks taken: {took}")
                trick = "  ".join(f"{self.names[s]} {show_card(c, self.ascii)}" for s, c in obs["trick"])
                click.echo(f"Trick {obs['trick_number']}: {trick or '(you lead)'}")
        else:
            click.echo(f"Contract: {obs['contract_name']} ({obs['contract']}); "
                       + ("go out with every card on the table" if obs["going_out"] == "no-discard"
                          else "go out with or without a last discard" if obs["going_out"] == "discard-optional"
                          else "go out with a last discard"))
            top = obs["top_discard"]
            click.echo(f"Stock: {obs['stock']} cards. Top discard: "
                       f"{show_card(top, self.ascii) if top else '-'}"
                       + (" (protected)" if obs["discard_protected"] else "")
                       + f". Buys left: {obs['buys_left']}.")
            if obs["melds"]:
                click.echo("Table:")
                for meld in obs["melds"]:
                    cards = " ".join(show_card(c, self.ascii) for c in meld["cards"])
                    click.echo(f"  [{meld['id']}] {self.names[meld['owner']]}'s {meld['kind']}: {cards}")
            down = [self.names[s] for s, d in enumerate(obs["down"]) if d]
            click.echo(f"Down: {', '.join(down) if down else 'no one yet'}. Cards held: "
                       + ", ".join(f"{self.names[s]} {n}" for s, n in enumerate(obs["hand_counts"])))
            if obs["joker_debt"]:
                click.echo("You freed a joker: lay it off before you discard.")
        click.echo("Your hand: " + self.hand_text(obs["hand"]))

    def hand_text(self, hand: Sequence[str]) -> str:
        groups: dict[str, list[str]] = {}
        for name in hand:
            groups.setdefault(name[-1] if name != "JK" else "*", []).append(show_card(name, self.ascii))
        return "   ".join(" ".join(cards) for cards in groups.values())

    def prompt_text(self, state: GameState, seat: int) -> str:
        obs = state.observation(seat)
        if obs.get("phase") == "bidding":
            legal = [a.bid for a in state.legal_actions()]
            return f"{self.names[seat]}, your bid ({', '.join(map(str, legal))})"
        if obs.get("phase") == "trump":
            return f"{self.names[seat]}, name the trump (spades, hearts, diamonds, clubs, none)"
        if obs["family"] == "contract-rummy":
            phase = obs["phase"]
            if phase == "draw":
                return f"{self.names[seat]}, take the discard or draw (take / draw)"
            if phase == "window":
                top = show_card(obs["top_discard"], self.ascii)
                options = " / ".join(str(a) for a in state.legal_actions())
                return f"{self.names[seat]}, {top} is on offer ({options})"
            return f"{self.names[seat]}, meld / layoff / swap / discard"
        return f"{self.names[seat]}, your card"

    def show_help(self, state: GameState) -> None:
        if state.family.value == "contract-rummy":
            click.echo("  take | draw | buy | pass | claim N\n"
                       "  meld 8h 8s jk | 5d 6d jk 8d   (go down: melds split by '|', runs low to high)\n"
                       "  layoff N 9d [low|high]   swap N 7d   discard ks [call]\n"
                       "  Also: hand, score, rules, help, quit.")
            return
        click.echo("  Type a bid ('3' or 'bid 3'), a card ('QS', '10h', 'q♠', 'play QS') or "
                   "'trump hearts'.\n  Also: hand, score, rules, help, quit.")

    def show_scores(self, state: GameState) -> None:
        for name, total in zip(self.names, state.totals):
            click.echo(f"  {name:{self.width}} {total:>6}")

    def show_rules(self, state: GameState) -> None:
        rules = state.rules
        click.echo(f"  {rules.title}: {rules.description}")
        for note in rules.notes:
            click.echo(f"  - {note}")
