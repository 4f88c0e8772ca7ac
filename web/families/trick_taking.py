"""The trick-taking table in the browser: trump and the turned card, the bids, the
trick in progress and who is winning it, the legal bids and cards."""

from __future__ import annotations

from typing import Any, Sequence

from ...interpreter.families.trick_taking.actions import Bid, BlindBid, Call, ChooseTrump, Decline, Discard, Pass, Play
from ...interpreter.families.trick_taking.contracts import PASSED
from ...interpreter.families.trick_taking.rules import NAMED_SUIT, BidOrder, TrickRules, TrumpKind
from ...interpreter.families.trick_taking.state import Phase, TrickObservation
from ...interpreter.families.trick_taking.observation import pass_target_of
from ...interpreter.families.trick_taking.trickplay import trick_standing
from ...interpreter.pack import Pack
from ...interpreter.rules import Ruleset


def _call_words(tricks: int, suit: int, pack: Pack) -> str:
    """An auction's call in words (``suit``: -1 no trump, NAMED_SUIT one named after it)."""
    if suit == NAMED_SUIT:
        return f"{tricks} (a suit to be named)"
    return f"{tricks} {'no trump' if suit < 0 else pack.suits[suit].name}"


def _suit_words(suit: int | None, pack: Pack) -> str:
    if suit is None:
        return "no trump"
    shown = pack.suits[suit]
    return f"{shown.symbol} {shown.name}" if shown.symbol and shown.symbol != shown.code else shown.name


class TrickWebView:
    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.section: TrickRules = rules.section
        self.pack = rules.deck.pack
        self.codes = self.pack.codes

    def _roles_in_trick(self, obs: TrickObservation) -> list[str | None]:
        if not obs.played_roles:
            return [None] * len(obs.trick)
        return list(obs.played_roles[len(obs.played_roles) - len(obs.trick):])

    def _bids(self, obs: TrickObservation, spectator: bool) -> tuple[int | None, ...]:
        """The bids this viewer may see: a spectator does not see the seat's own bid
        while bids made at once are still hidden from the others."""
        if spectator and obs.phase == Phase.BIDDING and self.section.bidding.order is BidOrder.SIMULTANEOUS:
            return tuple(None for _ in obs.bids)
        return obs.bids

    def panels(self, obs: TrickObservation, names: Sequence[str], spectator: bool) -> list[dict[str, Any]]:
        facts: list[dict[str, Any]] = []
        named_later = (self.section.trump.kind is TrumpKind.NAMED_BY_HIGHEST_BIDDER
                       and obs.phase == Phase.BIDDING)
        if obs.phase != Phase.OVER:
            offered = ("offered: the turned card's suit" if obs.making_round == 1 else
                       "to be named (not the turned card's suit)" if obs.making_round == 2 else "not named yet")
            trump = (offered if obs.phase == Phase.CHOOSE_TRUMP else
                     "named by the highest bidder after the bidding" if named_later else
                     "hidden until the bidding is over" if obs.trump_hidden else _suit_words(obs.trump, self.pack))
            if self.section.auction is not None:  # the auction so far, and the contract once won
                calls = ", ".join(f"{names[seat]} " + ("pass" if suit == PASSED else _call_words(n, suit, self.pack))
                                  for seat, n, suit in obs.auction)
                facts.append({"label": "Auction", "value": calls or "no call yet"})
                if obs.declarer >= 0:
                    facts.append({"label": "Contract", "value": f"{names[obs.declarer]}: " + _call_words(
                        obs.contract, obs.contract_suit if obs.contract_suit >= 0 or obs.phase != Phase.CHOOSE_TRUMP
                        else NAMED_SUIT, self.pack)})
                if obs.phase == Phase.AUCTION:
                    trump = "made by the auction"
            if obs.kitty_size:
                facts.append({"label": "Kitty", "value": f"{obs.kitty_size} cards face down" if obs.kitty_taker < 0
                              else "you took it" if obs.kitty else f"taken by {names[obs.kitty_taker]}",
                              "cards": [self.codes[c] for c in obs.kitty],
                              "note": ("discarded " + " ".join(self.codes[c] for c in obs.kitty_discards))
                              if obs.kitty_discards else ""})
            if obs.phase != Phase.DEAL:  # (between two deals the last trump is gone and the next not made)
                facts.append({"label": "Trump", "value": trump,
                              "cards": [self.codes[obs.upcard]] if obs.upcard is not None else [],
                              "note": "turned" if obs.upcard is not None else ""})
            bids = [b for b in self._bids(obs, spectator) if b is not None]
            if len(bids) == obs.players - len(obs.absent):
                total = sum(bids)
                tricks = obs.hand_size - (obs.pass_count if obs.pass_to == -3 else 0)  # (cards laid aside: fewer)
                off = ("even" if total == tricks else f"{tricks - total} under"
                       if total < tricks else f"{total - tricks} over")
                facts.append({"label": "Bids", "value": f"{total} for {tricks} tricks: {off}"})
            for counter, values in obs.counters:
                facts.append({"label": counter, "value": ", ".join(str(v) for v in values)})
            if obs.sitting_out >= 0:
                facts.append({"label": "Alone", "value": f"{names[obs.maker]} plays alone; "
                                                         f"{names[obs.sitting_out]} sits out"})
            elif obs.absent:  # sits_out: seats out of this hand by the rules
                facts.append({"label": "Sitting out", "value": ", ".join(names[s] for s in obs.absent)})
            if obs.pass_count and not spectator and obs.pass_to == -3:  # laid aside face down, to no one
                worth = (f" (a bid of {sum(obs.bid_values[c] for c in obs.passing)})"
                         if obs.bid_values is not None and obs.passing else "")
                facts.append({"label": "Laying aside" if obs.phase == Phase.EXCHANGE else "Laid aside",
                              "value": f"{obs.pass_count} face down{worth}",
                              "cards": [self.codes[c] for c in obs.passing]})
            elif obs.pass_count and not spectator:  # the exchange: this seat's pass, and what it received
                to = names[obs.pass_to] if obs.pass_to >= 0 else "each other player"
                if obs.phase == Phase.EXCHANGE:
                    if obs.pass_to < 0:  # a scatter: whom the next card goes to
                        to += f" (the next to {names[pass_target_of(obs, len(obs.passing))]})"
                    facts.append({"label": "Passing", "value": f"{obs.pass_count} to {to}",
                                  "cards": [self.codes[c] for c in obs.passing],
                                  "note": "put aside" if obs.passing else ""})
                else:
                    facts.append({"label": "Passed", "value": f"to {to}",
                                  "cards": [self.codes[c] for c in obs.passing]})
                    facts.append({"label": "Received", "value": "from " + (names[obs.pass_from] if obs.pass_from >= 0
                                                                           else "each other player"),
                                  "cards": [self.codes[c] for c in obs.received]})
        panels: list[dict[str, Any]] = [{"kind": "facts", "items": facts}] if facts else []
        if obs.phase == Phase.PLAYING:
            roles = self._roles_in_trick(obs)
            plays = [{"seat": s, "card": self.codes[c], **({"as": roles[i]} if roles[i] else {})}
                     for i, (s, c) in enumerate(obs.trick)]
            note = ""
            if obs.trick:
                best = trick_standing(self.section, self.pack, (obs.suits, obs.power, obs.round_power), obs.trump,
                                      obs.trick, roles, obs.leader)
                for play in plays:
                    play["best"] = play["seat"] == best
                at = [s for s, _ in obs.trick].index(best)
                face = self.pack.pretty(obs.trick[at][1]) + (f" as {roles[at]}" if roles[at] else "")
                note = f"{names[best]} is winning with {face}"
            panels.append({"kind": "plays", "title": f"Trick {obs.trick_number}", "plays": plays,
                           "note": note, "empty": "waiting for the lead"})
        if not spectator:
            shown = [{"seat": s, "cards": [self.codes[c] for c in hand]} for s, hand in enumerate(obs.others) if hand]
            if shown:
                panels.append({"kind": "hands", "title": "The others' cards, as the rules show them", "hands": shown})
            if obs.hand_hidden:
                panels.append({"kind": "facts", "items": [{"label": "Your cards",
                                                           "value": "hidden from you until the bidding is over"}]})
        return panels

    def seat_notes(self, obs: TrickObservation, spectator: bool) -> list[str]:
        bids = self._bids(obs, spectator)
        notes = []
        for seat in range(obs.players):
            bid = bids[seat]
            parts = [] if bid is None else [f"bid {bid}" + (" blind" if obs.blind_bids and obs.blind_bids[seat] else "")]
            if obs.phase == Phase.PLAYING:
                parts.append(f"took {obs.taken[seat]}")
            notes.append(", ".join(parts))
        return notes

    def controls(self, obs: TrickObservation, legal: Sequence[Any], names: Sequence[str] = ()) -> dict[str, Any]:
        suits, power = obs.suits, obs.power

        pack = self.pack
        codes = self.codes

        def order(c: int) -> tuple[int, int]:
            return (suits[c], power[c]) if suits else (pack.suit_of[c], pack.rank_of[c])

        playable = {a.card for a in legal if isinstance(a, Play)}
        passable = {a.card for a in legal if isinstance(a, Pass)}
        discardable = {a.card for a in legal if isinstance(a, Discard)}
        playing = obs.phase == Phase.PLAYING
        my_turn = obs.turn == obs.seat
        roles = self.section.order.roles if self.section.order is not None else {}
        # a card played in a role is played by its buttons (one a role), not by a click on it
        hand = [{"card": codes[c],
                 "move": f"pass {codes[c]}" if c in passable else f"discard {codes[c]}" if c in discardable else
                 f"play {codes[c]}" if c in playable and c not in roles else None,
                 "try": f"play {codes[c]}" if my_turn and playing and c not in playable else None}
                for c in sorted(obs.hand, key=order)]
        buttons: list[dict[str, Any]] = []
        for action in legal:
            if isinstance(action, Play) and action.role is not None:
                buttons.append({"label": f"{pack.pretty(action.card)} as {action.role}", "group": "Play",
                                "move": str(action)})
        prompt = "wait for your turn"
        if obs.phase == Phase.BIDDING and obs.turn == obs.seat:
            prompt = "your bid"
            allowed = {a.bid for a in legal if isinstance(a, Bid)}
            low = min(allowed, default=0)
            high = max(max(allowed, default=0), obs.hand_size)
            for bid in range(min(low, 0), high + 1):  # the refused ones too, so the page can say why
                buttons.append({"label": str(bid), "group": "Your bid",
                                **({"move": f"bid {bid}"} if bid in allowed else {"try": f"bid {bid}"})})
        elif obs.phase == Phase.CHOOSE_TRUMP and obs.turn == obs.seat:
            prompt = "name the trump"
            buttons = [{"label": _suit_words(a.suit, self.pack) + (" alone" if a.alone else ""), "move": str(a),
                        "group": "Trump"} for a in legal if isinstance(a, ChooseTrump)]
            buttons += [{"label": "Pass", "move": "pass", "group": "Trump"} for a in legal if isinstance(a, Decline)]
            if obs.making_round == 1:
                prompt = "order up the turned suit, or pass"
        elif obs.phase == Phase.AUCTION and obs.turn == obs.seat:
            prompt = "your call"
            buttons = [{"label": _call_words(a.tricks, NAMED_SUIT if a.named else -1 if a.suit is None else a.suit,
                                             self.pack), "move": str(a), "group": "Call"}
                       for a in legal if isinstance(a, Call)]
            buttons += [{"label": "Pass", "move": "pass", "group": "Call"} for a in legal if isinstance(a, Decline)]
        elif obs.phase == Phase.BLIND and obs.turn == obs.seat:
            prompt = "bid blind, or look at your cards first"
            buttons = [{"label": f"Blind {a.bid}", "move": str(a), "group": "Blind"} for a in legal
                       if isinstance(a, BlindBid)]
            buttons.append({"label": "Look", "move": "look", "group": "Blind"})
        elif obs.phase == Phase.KITTY and obs.turn == obs.seat:
            prompt = f"a card to discard face down ({obs.kitty_size - len(obs.kitty_discards)} to go)"
        elif obs.phase == Phase.DISCARD and obs.turn == obs.seat:
            prompt = "a card to discard face down"
        elif obs.phase == Phase.EXCHANGE and obs.turn == obs.seat:
            prompt = (f"a card to lay aside ({len(obs.passing) + 1} of {obs.pass_count})" if obs.pass_to == -3 else
                      f"a card to pass ({len(obs.passing) + 1} of {obs.pass_count})")
        elif playing and obs.turn == obs.seat:
            prompt = "your card" if obs.trick else "your lead"
        return {"hand": hand, "select": False, "buttons": buttons, "composers": [], "prompt": prompt}
