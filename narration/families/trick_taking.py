"""The trick-taking table at the terminal: bids, tricks, trump, the score sheet."""

from __future__ import annotations

from typing import Any, Sequence


from ...interpreter.families.trick_taking.trickplay import trick_standing
from ...interpreter.families.trick_taking.trump import round_order, trump_env
from ...interpreter.families.trick_taking.actions import Bid, BlindBid, Call, ChooseTrump, Decline, Discard, Look, Pass, Play
from ...interpreter.families.trick_taking.bot import estimate_tricks, tricks_wanted
from ...interpreter.families.trick_taking.contracts import PASSED
from ...interpreter.families.trick_taking.rules import NAMED_SUIT, TrickRules, TrumpKind
from ...interpreter.families.trick_taking.state import Phase, TrickObservation
from ...interpreter.families.trick_taking.observation import pass_target_of
from ...interpreter.rules import Ruleset
from ..output import echo


class TrickView:
    def __init__(self, rules: Ruleset, renderer: Any):
        self.rules = rules
        self.section: TrickRules = rules.section
        self.r = renderer
        self.pack = renderer.setup.pack
        self.codes = self.pack.codes

    def suit_name(self, code: str | None) -> str:
        """A suit's name from its code (None: no trump)."""
        if code is None:
            return "no trump"
        return next((s.name for s in self.pack.suits if s.code == code), code)

    def trick_winner(self, obs: TrickObservation, plays: Sequence[tuple[int, int]],
                     roles: Sequence[str | None]) -> int:
        """Who takes ``plays`` as they stand, by the round's order in ``obs``."""
        return trick_standing(self.section, self.pack, (obs.suits, obs.power, obs.round_power), obs.trump,
                              plays, roles, obs.leader)

    def _round_order(self) -> tuple[Any, ...]:
        """The order of the round being narrated, from what the table has seen of it
        (worked out once a round and trump)."""
        round_ = self.r.round
        kept = round_.get("order")
        if kept is not None and kept[0] == (round_.get("trump"), round_.get("upcard")):
            return kept[1]
        deal = round_.get("deal", {})
        letter = round_.get("trump")
        trump = None if letter is None else next(i for i, s in enumerate(self.pack.suits) if s.code == letter)
        up = round_.get("upcard")
        env = trump_env(self.r.setup, deal.get("round", 1) - 1, deal.get("dealer", 0),
                        None if up is None else self.pack.card(up))
        order = round_order(self.section, self.r.setup, self.rules.deck.ace != "low", trump, env)
        round_["order"] = ((letter, up), order)
        return order

    # --- narration ---
    def event(self, event: dict[str, Any]) -> None:
        handler = getattr(self, f"on_{event['event']}", None)
        if handler is not None:
            handler(event)

    def on_deal(self, event: dict[str, Any]) -> None:
        self.r.round.update(bids={}, taken=[0] * len(self.r.names), out=[])

    def on_sit_out(self, event: dict[str, Any]) -> None:
        self.r.round.setdefault("out", []).append(event["seat"])
        self.r.say(f"{self.r.names[event['seat']]} sits this hand out")

    def on_trump(self, event: dict[str, Any]) -> None:
        if "seat" not in event and self.section.trump.kind is TrumpKind.NAMED_BY_HIGHEST_BIDDER:
            return  # the bidding is played without trump; the highest bidder names it after
        self.r.round["trump"] = event["suit"]
        if "upcard" in event:  # the trump was hidden during the bidding: now the turned card shows too
            self.r.round["upcard"] = event["upcard"]
        if "seat" in event and self.section.auction is not None and \
                (self.r.round.get("contract") or (0, 0, None))[2] != "named":
            return  # the auction's winning call named it (said with the contract)
        if "seat" in event:  # named by a player (not turned up): say what was named
            named = self.suit_name(event["suit"])
            ordered = self.section.trump.kind is TrumpKind.ORDER_UP and \
                self.r.round.get("declines", 0) < len(self.r.names)
            alone = " and plays alone" if event.get("alone") else ""
            self.r.say(f"{self.r.names[event['seat']]} {'orders up' if ordered else 'names'} {named}{alone}")

    def call_text(self, tricks: int, suit: str | None) -> str:
        """An auction's call in words: "7 hearts", "6 no trump", "4 (a suit to be named)"."""
        if suit == "none" or suit is None:
            return f"{tricks} no trump"
        if suit == "named":
            return f"{tricks} (a suit to be named)"
        return f"{tricks} {self.suit_name(suit)}"

    def on_call(self, event: dict[str, Any]) -> None:
        self.r.round.setdefault("calls", []).append((event["seat"], event["tricks"], event["suit"]))
        self.r.say(f"{self.r.names[event['seat']]} calls {self.call_text(event['tricks'], event['suit'])}")

    def on_contract(self, event: dict[str, Any]) -> None:
        self.r.round["contract"] = (event["seat"], event["tricks"], event["suit"])
        self.r.say(f"{self.r.names[event['seat']]} wins the auction: {self.call_text(event['tricks'], event['suit'])}")

    def on_look(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self.r.names[event['seat']]} looks at their cards (no blind bid)")

    def on_kitty(self, event: dict[str, Any]) -> None:
        cards = event.get("cards") or []
        shown = " ".join(self.r.card(c) for c in cards) if cards and all(c is not None for c in cards) else \
            f"{len(cards)} card{'s' if len(cards) != 1 else ''} face down"
        kitty = self.section.kitty
        with_trick = " with the trick" if kitty is not None and kitty.to_trick is not None else ""
        self.r.say(f"{self.r.names[event['seat']]} takes the kitty{with_trick} ({shown})")

    def on_decline(self, event: dict[str, Any]) -> None:
        if self.section.auction is not None:  # a pass in the auction
            self.r.say(f"{self.r.names[event['seat']]} passes")
            return
        self.r.round["declines"] = self.r.round.get("declines", 0) + 1
        turned = " (the turned card is turned down)" if self.r.round["declines"] == len(self.r.names) else ""
        self.r.say(f"{self.r.names[event['seat']]} passes{turned}")

    def on_pickup(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self.r.names[event['seat']]} takes {self.r.card(event['card'])}")

    def on_discard(self, event: dict[str, Any]) -> None:
        shown = self.r.card(event["card"]) if event.get("card") else "a card"
        self.r.say(f"{self.r.names[event['seat']]} discards {shown} face down")

    def on_pass(self, event: dict[str, Any]) -> None:
        """A card put aside to pass: its passer sees which; the others see only that cards
        are being passed (said once for each seat)."""
        if event.get("aside"):  # laid aside face down, to no one
            self._lay_aside(event)
            return
        name, to = self.r.names[event["seat"]], self.r.names[event["to"]]
        if event.get("card") is not None:
            self.r.say(f"{name} passes {self.r.card(event['card'])} to {to}")
            return
        said = self.r.round.setdefault("passing", set())
        if event["seat"] not in said:
            said.add(event["seat"])
            self.r.say(f"{name} passes cards to {to}")

    def _lay_aside(self, event: dict[str, Any]) -> None:
        laid = self.r.round.setdefault("laid", {})
        laid[event["seat"]] = laid.get(event["seat"], 0) + 1
        name = self.r.names[event["seat"]]
        if event.get("card") is not None:
            self.r.say(f"{name} lays {self.r.card(event['card'])} aside face down")
            return
        said = self.r.round.setdefault("laying", set())
        if event["seat"] not in said:
            said.add(event["seat"])
            self.r.say(f"{name} lays cards aside face down")

    def on_laid_aside(self, event: dict[str, Any]) -> None:
        """The round is over: the cards laid aside as bids are turned up."""
        self.r.round.setdefault("bids", {})[event["seat"]] = event["bid"]
        shown = " ".join(self.r.card(c) for c in event.get("cards") or [])
        self.r.say(f"{self.r.names[event['seat']]} bid {event['bid']} ({shown} laid aside)")

    def on_receive(self, event: dict[str, Any]) -> None:
        cards = event.get("cards") or []
        if cards and all(c is not None for c in cards):  # only the receiver sees what it received
            name = self.r.names[event["seat"]]
            shown = " ".join(self.r.card(c) for c in cards)
            self.r.say(f"{name} receives {shown} from "
                       f"{self.r.names[event['from']]}")

    def on_bid(self, event: dict[str, Any]) -> None:
        self.r.round["bids"][event["seat"]] = event["bid"]
        # (bids made at once reach the table together, once everyone has bid: the engine holds them)
        self.r.say(f"{self.r.names[event['seat']]} bids {event['bid']}" + (" blind" if event.get("blind") else ""))
        if len(self.r.round["bids"]) == len(self.r.names) - len(self.r.round.get("out", ())):
            self.r.say(self._bids_against_tricks(list(self.r.round["bids"].values())))

    def _bids_against_tricks(self, bids: Sequence[int]) -> str:
        """"bids total 7 for 8 tricks: 1 under" (the bidding is over)."""
        total, tricks = sum(bids), self.r.round.get("deal", {}).get("hand_size", 0)
        tricks -= max(self.r.round.get("laid", {}).values(), default=0)  # a card laid aside is a trick fewer
        off = ("even" if total == tricks else f"{tricks - total} under" if total < tricks
               else f"{total - tricks} over")
        return f"bids total {total} for {tricks} trick{'' if tricks == 1 else 's'}: {off}"

    def _winning(self, seat: int, plays: Sequence[tuple[int, int]]) -> str:
        """"bot-2 is winning with Q♠": who takes the trick in progress if no one beats it."""
        name = self.r.names[seat]
        best = next(c for s, c in plays if s == seat)
        return f"{name} {'are' if name == 'you' else 'is'} winning with {self.r.card(self.codes[best])}"

    def played(self, code: str, role: str | None) -> str:
        """A card as played: ``Tigress as PIR`` for a card played in a role."""
        return self.r.card(code) + (f" as {role}" if role else "")

    def on_play(self, event: dict[str, Any]) -> None:
        plays = self.r.round.setdefault("trick_plays", [])
        if plays and plays[0][0] != event["trick"]:
            plays.clear()
        plays.append((event["trick"], event["seat"], self.pack.card(event["card"]), event.get("as")))
        line = f"{self.r.names[event['seat']]} plays {self.played(event['card'], event.get('as'))}"
        if 1 < len(plays) < len(self.r.names):  # the trick goes on: who is winning it so far
            order = self._round_order()
            letter = self.r.round.get("trump")
            trump = None if letter is None else next(i for i, s in enumerate(self.pack.suits) if s.code == letter)
            trick = [(s, c) for _, s, c, _ in plays]
            seat = trick_standing(self.section, self.pack, order, trump, trick, [r for *_, r in plays])
            line += f"; {self._winning(seat, trick)}"
        self.r.say(line)

    def on_trick(self, event: dict[str, Any]) -> None:
        self.r.round["taken"][event["winner"]] += 1
        plays = self.r.round.get("trick_plays", [])
        won = next(((c, r) for _, s, c, r in plays if s == event["winner"]), None)
        self.r.round["last_trick"] = (event["trick"], [(s, c, r) for _, s, c, r in plays], event["winner"])
        self.r.say(f"{self.r.names[event['winner']]} wins trick {event['trick']}"
                   + (f" with {self.played(self.codes[won[0]], won[1])}" if won is not None else ""))

    last_help = "the last trick"

    def taken(self) -> dict[str, Any] | None:
        """The round's last trick taken, for the browser's table to sweep to its winner:
        ``{"trick", "winner", "plays": [{"seat", "card"}]}`` (every card public), or None."""
        last = self.r.round.get("last_trick")
        if last is None:
            return None
        number, plays, winner = last
        return {"trick": number, "winner": winner, "plays": [{"seat": s, "card": self.codes[c]} for s, c, _ in plays]}

    def last_lines(self) -> list[str]:
        last = self.r.round.get("last_trick")
        if last is None:
            return ["no trick has been played yet this round"]
        number, plays, winner = last
        cards = "  ".join(f"{self.r.names[s]} {self.played(self.codes[c], r)}" for s, c, r in plays)
        won = next((c, r) for s, c, r in plays if s == winner)
        name = self.r.names[winner]
        return [f"trick {number}: {cards}; {name} {'win' if name == 'you' else 'wins'} with "
                f"{self.played(self.codes[won[0]], won[1])}"]

    # --- the round's summary ---
    def round_header(self) -> str:
        round_ = self.r.round
        if "trump" not in round_:
            if "deal" not in round_:
                return ""
            # a deal whose turned card is not shown: the trump is hidden until the bidding is over
            return ", trump shown after the bidding" if "upcard" not in round_["deal"] else ", trump not named yet"
        suit = round_["trump"]
        head = ", " + ("no trump" if suit is None else f"trump {self.suit_name(suit)}")
        if round_.get("upcard"):
            head += f" ({self.r.card(round_['upcard'])} turned)"
        return head

    @property
    def sheet_legend(self) -> str:
        return "bid/taken, then the round's points" if self.section.has_bidding else \
            "tricks taken, then the round's points"

    def sheet_cell(self, seat: int, event: dict[str, Any]) -> str:
        round_ = self.r.round
        if not self.section.has_bidding:  # no bids: the tricks taken and the points
            return f"{round_.get('taken', [0] * len(self.r.names))[seat]} {event['points'][seat]:+d}"
        bid = round_.get("bids", {}).get(seat, "-")
        taken = round_.get("taken", [0] * len(self.r.names))[seat]
        return f"{bid}/{taken} {event['points'][seat]:+d}"

    def score_sheet(self, event: dict[str, Any]) -> None:
        w = self.r.width
        round_ = self.r.round
        bids = self.section.has_bidding
        echo(f"  {'':{w}}" + (f" {'bid':>4}" if bids else "") + f" {'took':>5} {'points':>7} {'total':>6}")
        for seat, name in enumerate(self.r.names):
            bid = f" {round_.get('bids', {}).get(seat, '-'):>4}" if bids else ""
            taken = round_.get("taken", [0] * len(self.r.names))[seat]
            echo(f"  {name:{w}}{bid} {taken:>5} {event['points'][seat]:>7} {event['totals'][seat]:>6}")

    # --- a person's turn ---
    def show_table(self, obs: TrickObservation) -> None:
        names = self.r.names
        trump = obs.trump
        named_later = self.section.trump.kind is TrumpKind.NAMED_BY_HIGHEST_BIDDER and obs.phase == Phase.BIDDING
        offered = (f"{self.pack.suits[self.pack.suit_of[obs.upcard]].name} offered" if obs.making_round == 1 and
                   obs.upcard is not None and self.pack.suit_of[obs.upcard] >= 0 else
                   "to be named (not the turned suit)" if obs.making_round == 2 else "none yet")
        if self.section.auction is not None:  # the auction so far, and the contract once won
            offered = "named by the auction's winner"
            calls = ", ".join(f"{names[s]} " + ("pass" if suit == PASSED else self.call_text(
                n, "none" if suit == -1 else "named" if suit == NAMED_SUIT else self.pack.suits[suit].code))
                for s, n, suit in obs.auction)
            echo(f"Auction: {calls or '-'}")
            if obs.declarer >= 0:
                suit_code = "none" if obs.contract_suit < 0 and obs.phase != Phase.CHOOSE_TRUMP else \
                    "named" if obs.contract_suit < 0 else self.pack.suits[obs.contract_suit].code
                echo(f"Contract: {names[obs.declarer]} {self.call_text(obs.contract, suit_code)}")
        if obs.kitty_size:
            if obs.kitty_taker < 0:
                echo(f"Kitty: {obs.kitty_size} cards face down")
            elif obs.kitty:
                aside = " ".join(self.r.card(self.codes[c]) for c in obs.kitty_discards)
                echo("Kitty: you took " + " ".join(self.r.card(self.codes[c]) for c in obs.kitty)
                     + (f"; discarded {aside}" if aside else ""))
            else:
                echo(f"Kitty: taken by {names[obs.kitty_taker]}")
        line = "Trump: " + (offered if obs.phase == Phase.CHOOSE_TRUMP or obs.phase == Phase.AUCTION else
                            "named by the highest bidder after the bidding" if named_later else
                            "hidden until the bidding is over" if obs.trump_hidden else
                            "no trump" if trump is None else self.pack.suits[trump].name)
        if obs.upcard is not None:
            line += f" (turned {self.r.card(self.codes[obs.upcard])})"
        echo(line)
        if obs.has_bidding:
            bids = ", ".join(f"{names[s]} {b}" for s, b in enumerate(obs.bids) if b is not None)
            made = [b for b in obs.bids if b is not None]
            over = (f" ({self._bids_against_tricks(made)})" if obs.phase == Phase.PLAYING and
                    len(made) == len(names) - len(obs.absent) else "")
            face_down = " (the others' bids lie face down until the round is over)" \
                if obs.pass_to == -3 and obs.phase != Phase.DEAL and len(made) < len(names) else ""
            echo(f"Bids: {bids or '-'}{over}{face_down}")
        if obs.pass_count and obs.seat >= 0:
            aside = " ".join(self.r.card(self.codes[c]) for c in obs.passing)
            to = names[obs.pass_to] if obs.pass_to >= 0 else "each other player in turn from your left"
            giver = names[obs.pass_from] if obs.pass_from >= 0 else "the others"
            if obs.pass_to == -3:  # laid aside face down, to no one
                if obs.phase == Phase.EXCHANGE:
                    echo(f"Laying {obs.pass_count} card{'s' if obs.pass_count != 1 else ''} aside face down"
                         + (f": {aside} so far" if aside else "")
                         + (f" (a bid of {sum(obs.bid_values[c] for c in obs.passing)} so far)"
                            if obs.bid_values is not None else ""))
                else:
                    echo(f"Laid aside: {aside or '-'}")
            elif obs.phase == Phase.EXCHANGE:
                echo(f"Passing {obs.pass_count} card{'s' if obs.pass_count != 1 else ''} to {to}"
                     + (f": {aside} put aside" if aside else ""))
            else:
                got = " ".join(self.r.card(self.codes[c]) for c in obs.received)
                echo(f"Passed {aside or '-'} to {to}; received {got or '-'} from {giver}")
        for other, hand in enumerate(obs.others):  # a round whose rules show the other hands
            if hand:
                echo(f"{names[other]} holds: " + self.r.hand_text([self.codes[c] for c in hand]))
        if obs.hand_hidden:
            echo("Your own cards are hidden from you until the bidding is over.")
        if obs.sitting_out >= 0:
            echo(f"{names[obs.maker]} plays alone; {names[obs.sitting_out]} sits this hand out")
        elif obs.absent:  # sits_out: seats out of this hand by the rules
            echo(", ".join(names[s] for s in obs.absent) + (" sits" if len(obs.absent) == 1 else " sit")
                 + " this hand out")
        for counter, values in obs.counters:  # the ruleset's counters, carried from round to round
            echo(f"{counter}: " + ", ".join(f"{names[s]} {v}" for s, v in enumerate(values)))
        if obs.phase == Phase.PLAYING:
            took = ", ".join(f"{names[s]} {t}" for s, t in enumerate(obs.taken))
            echo(f"Tricks taken: {took}")
            start = len(obs.played_roles) - len(obs.trick)
            roles = list(obs.played_roles[start:]) if obs.played_roles else []
            trick = "  ".join(f"{names[s]} {self.played(self.codes[c], roles[i] if roles else None)}"
                              for i, (s, c) in enumerate(obs.trick))
            winning = (f"   ({self._winning(self.trick_winner(obs, obs.trick, roles), obs.trick)})"
                       if obs.trick else "")
            echo(f"Trick {obs.trick_number}: {trick or '(you lead)'}{winning}")

    def hand_text(self, obs: TrickObservation) -> str:
        suits, power = obs.suits, obs.power

        pack = self.pack

        def key(c: int) -> tuple[int, int]:
            return (suits[c], power[c]) if suits else (pack.suit_of[c], pack.rank_of[c])

        return self.r.hand_text([self.codes[c] for c in sorted(obs.hand, key=key)])

    def _worths(self, worth: Sequence[int], obs: TrickObservation) -> str:
        """What the cards of the hand are worth laid aside as a bid: by suit when every card
        of a suit is worth the same (``clubs 3, hearts 2``), else card by card."""
        by_suit: dict[int, set[int]] = {}
        for c in obs.hand:
            by_suit.setdefault(self.pack.suit_of[c], set()).add(worth[c])
        if all(len(v) == 1 and s >= 0 for s, v in by_suit.items()):
            return ", ".join(f"{self.pack.suits[s].name} {next(iter(v))}" for s, v in sorted(by_suit.items()))
        return ", ".join(f"{self.r.card(self.codes[c])} {worth[c]}" for c in sorted(set(obs.hand)))

    def prompt(self, obs: TrickObservation, legal: Sequence[Any]) -> str:
        if obs.phase == Phase.BIDDING:
            return f"your bid ({', '.join(str(a.bid) for a in legal)})"
        if obs.phase == Phase.EXCHANGE and obs.pass_to == -3:
            worth = obs.bid_values
            return ((f"a card to lay aside as part of your bid ({len(obs.passing) + 1} of {obs.pass_count}; "
                     "each worth " + self._worths(worth, obs) + "): " if worth is not None else
                     f"a card to lay aside ({len(obs.passing) + 1} of {obs.pass_count}): ")
                    + " ".join(self.r.card(self.codes[c]) for c in sorted(
                        {a.card for a in legal}, key=lambda c: (obs.suits[c], obs.power[c]) if obs.suits else
                        (self.pack.suit_of[c], self.pack.rank_of[c]))))
        if obs.phase == Phase.EXCHANGE:
            return (f"a card to pass to {self.r.names[pass_target_of(obs, len(obs.passing))]} "
                    f"({len(obs.passing) + 1} of {obs.pass_count}: "
                    + " ".join(self.r.card(self.codes[c]) for c in sorted(
                        {a.card for a in legal}, key=lambda c: (obs.suits[c], obs.power[c]) if obs.suits else
                        (self.pack.suit_of[c], self.pack.rank_of[c]))) + ")")
        if obs.phase == Phase.BLIND:
            return "bid blind before you look at your cards (" + ", ".join(
                f"'{a}'" for a in legal if isinstance(a, BlindBid)) + ") or 'look'"
        if obs.phase == Phase.AUCTION:
            calls = [a for a in legal if isinstance(a, Call)]
            shown = f"{str(calls[0])[4:]} to {str(calls[-1])[4:]}, e.g. '{str(calls[0])[4:]}'" if calls else ""
            return "your call (" + shown + (", or 'pass'" if any(isinstance(a, Decline) for a in legal) else "") + ")"
        if obs.phase == Phase.KITTY:
            left = obs.kitty_size - len(obs.kitty_discards)
            return f"a card to discard face down ({left} to go: " + " ".join(
                self.r.card(self.codes[a.card]) for a in self._in_hand_order(obs, legal)) + ")"
        if obs.phase == Phase.DISCARD:
            return "a card to discard face down (" + " ".join(
                self.r.card(self.codes[a.card]) for a in self._in_hand_order(obs, legal)) + ")"
        if obs.phase == Phase.CHOOSE_TRUMP:
            words = ["pass" if isinstance(a, Decline) else ("none" if a.suit is None else self.pack.suits[a.suit].name)
                     + (" alone" if a.alone else "") for a in legal]
            if obs.making_round == 1:
                alone = ", 'order alone'" if any(getattr(a, "alone", False) for a in legal) else ""
                return "order up " + words[0] + f" (type 'order'{alone}), or 'pass'"
            return "name the trump (" + ", ".join(words) + ")"
        return "your card (" + " ".join(self.played(self.codes[a.card], a.role)
                                        for a in self._in_hand_order(obs, legal)) + ")"

    def _in_hand_order(self, obs: TrickObservation, legal: Sequence[Any]) -> list[Any]:
        suits, power = obs.suits, obs.power
        if not suits:
            pack = self.pack
            return sorted(legal, key=lambda a: (pack.suit_of[a.card], pack.rank_of[a.card]))
        return sorted(legal, key=lambda a: (suits[a.card], power[a.card]))

    def hint_reason(self, obs: TrickObservation, action: Any) -> str | None:
        """Why the trick-taking bot makes ``action``, in the terms it decides by."""
        if isinstance(action, Bid):
            if obs.hand_hidden:
                return "your share of the tricks, less for the strong cards you see"
            worth = estimate_tricks(obs.hand, obs.suits, obs.power, obs.trump, obs.players)
            return f"your hand looks worth about {worth:.1f} tricks"
        if isinstance(action, Decline) and obs.phase == Phase.AUCTION:
            return "no call left is covered by the tricks your hand looks worth (with a partner's share and the kitty)"
        if isinstance(action, Call) and action.tricks == 0:
            return "your hand looks worth under half a trick in that suit: a call to take none"
        if isinstance(action, Call):
            return "the lowest call that the tricks your hand looks worth in that suit cover (with a partner's share " \
                "and the kitty)"
        if isinstance(action, BlindBid):
            return "your side trails by 200 or more: a blind bid is worth the gamble"
        if isinstance(action, Look):
            return "your side is not far enough behind to gamble on a blind bid"
        if isinstance(action, Decline):
            return "your hand is not worth your side's share of the tricks with that trump"
        if isinstance(action, ChooseTrump) and obs.making_round:
            return "your hand looks worth your side's share of the tricks with that trump"
        if isinstance(action, Discard):
            return "your weakest card that is not a trump"
        if isinstance(action, Pass):
            if self.rules.winner == "lowest":
                return "the card you would least like to keep: worth points, high, or from a short suit"
            return "your weakest card"
        if isinstance(action, Play):
            need = tricks_wanted(obs, self.rules.winner == "lowest")
            if not obs.has_bidding:
                if need < 0:
                    return ("stay out of the tricks: lead low" if not obs.trick else
                            "stay out of the trick, shedding what is worth points")
                return "take the tricks: lead your strongest card" if not obs.trick else "take the trick if you can"
            start = len(obs.played_roles) - len(obs.trick)
            roles = list(obs.played_roles[start:]) if obs.played_roles else [None] * len(obs.trick)
            wins = not obs.trick or self.trick_winner(obs, list(obs.trick) + [(obs.seat, action.card)],
                                                      roles + [action.role]) == obs.seat
            if need > 0:
                tricks = f"you need {need} more trick{'s' if need > 1 else ''}"
                if not obs.trick:
                    return f"{tricks}: lead your strongest card"
                return f"{tricks}: it takes the trick so far" if wins else f"{tricks}, but nothing you hold " \
                    "takes this trick: keep your good cards"
            if not obs.trick:
                return "you have your bid: lead low and stay out of the tricks"
            return ("you have your bid: the highest card that does not take the trick" if not wins
                    else "you have your bid, but every card you may play takes this trick")
        return "your longest suit"

    def forced(self, obs: TrickObservation, legal: Sequence[Any]) -> str | None:
        """The card, when it is the only one this seat may play (then it is played for them)."""
        if obs.phase == Phase.PLAYING and len(legal) == 1:
            return self.played(self.codes[legal[0].card], legal[0].role)
        return None

    def help_text(self) -> str:
        return ("  Type a bid ('3' or 'bid 3'), a card ('QS', '10h', 'q♠', 'play QS'), 'trump hearts' ('order' to "
                "order up the turned suit, 'pass' to pass), a card to pass ('pass QS', or the card alone) or to "
                "discard ('discard QS'); in an auction a call ('7H', 'bid 7 hearts', '6NT') or 'pass'; before looking at your cards 'blind 0' or 'look'.")

    # --- simulate ---
    def seat_columns(self) -> str:
        return f" {'exact bids':>11}" if self.section.has_bidding else ""

    def seat_cells(self, entry: dict[str, Any]) -> str:
        return f" {100 * entry['exact_bid_rate']:10.1f}%" if self.section.has_bidding else ""

    def summary_lines(self, stats: dict[str, Any]) -> list[str]:
        by_size = stats["points_per_round_by_hand_size"]
        bids = [f"  bids constrained by a restriction: {100 * stats['constrained_bid_rate']:.1f}% of bids"] \
            if self.section.has_bidding else []
        return bids + ["  points a seat scores per round, by hand size: "
                + ", ".join(f"{size}: {points:.2f}" for size, points in by_size.items())]
