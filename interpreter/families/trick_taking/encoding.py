"""A trick-taking game's moves as ids and a seat's observation as a vector
(:mod:`cardrules.interpreter.encoding`).

Every move is one id: the bids (every bid the bidding range allows in any round of
any mode, low to high), then each card of the pack played as itself and in each role
``trick.roles`` gives it, then naming each suit of the pack and naming no trump (and each
alone, where trump.alone), passing on the trump, each card passed in the exchange and each
card discarded by the dealer.  The deal is the only chance event, so the codec has no chance outcomes of its own.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...encoding import Layout, Vocabulary, card_counts
from ...rules import Ruleset
from .actions import (DECLINE, LOOK, Bid, BlindBid, Call, ChooseTrump, Play, TrickAction, discards, passes, plays,
                      trump_choices)
from .auction import candidate_bids
from .contracts import all_calls
from .observation import TrickObservation
from .phases import Phase
from .rules import NAMED_SUIT, TrickRules, TrumpKind

PHASES = tuple(p.value for p in Phase)


def _all_setups(rules: Ruleset, players: int) -> list[Any]:
    """The setup of every mode at ``players`` seats (the ruleset's own first)."""
    return rules.setups(players)


class TrickCodec:
    """The id space of one trick-taking ruleset at one player count."""

    stock_order_matters = False  # nothing is taken from the stock after the deal

    def __init__(self, rules: Ruleset, players: int):
        section: TrickRules = rules.section
        setups = _all_setups(rules, players)
        pack = setups[0].pack
        self.cards = pack.size
        self.chance_size = self.cards
        bids: set[int] = set()
        longest = 0
        rounds = 0
        for setup in setups:
            rounds = max(rounds, len(setup.hand_sizes))
            for index, size in enumerate(setup.hand_sizes):
                longest = max(longest, size)
                bids.update(candidate_bids(section.bidding, setup.round_env(index)))
        self.bids = sorted(bids)
        self.longest = longest
        vocabulary = Vocabulary()
        self._ids: dict[TrickAction, int] = {}
        self._actions: list[TrickAction] = []

        def add(action: TrickAction, name: str) -> None:
            self._ids[action] = vocabulary.add(name)
            self._actions.append(action)

        for b in self.bids:
            add(Bid(b), f"bid {b}")
        roles = section.order.roles if section.order is not None else {}
        for play in plays(pack):
            add(play, str(play))
            for role in roles.get(play.card, ()):
                add(Play(play.card, role, play.code), f"{play} as {role}")
        for choice in trump_choices(pack):
            add(choice, str(choice))
        if section.trump.alone:  # a trump made to be played alone (trump.alone)
            for choice in trump_choices(pack):
                alone = ChooseTrump(choice.suit, choice.code, True)
                add(alone, str(alone))
        if section.trump.kind is TrumpKind.ORDER_UP:
            add(DECLINE, str(DECLINE))  # passing on the trump offered
            for discard in discards(pack):  # the dealer's discard after taking the turned card
                add(discard, str(discard))
        if "exchange" in section.phases:
            for passed in passes(pack):  # a card put aside in the exchange
                add(passed, str(passed))
        calls: set[Call] = set()
        if section.auction is not None:  # every call of any round, then passing
            for setup in setups:
                for index in range(len(setup.hand_sizes)):
                    tricks = section.auction.tricks(setup.round_env(index))
                    calls.update(all_calls(section.auction, list(tricks), pack))
            for call in sorted(calls, key=lambda c: (c.tricks, section.auction.suits.index(  # type: ignore[union-attr]
                    NAMED_SUIT if c.named else c.suit))):
                add(call, str(call))
            if DECLINE not in self._ids:
                add(DECLINE, str(DECLINE))
        if section.blind is not None:  # a bid made blind (any bid of the range), and looking first
            for b in self.bids:
                add(BlindBid(b), f"blind {b}")
            add(LOOK, str(LOOK))
        if section.kitty is not None and section.trump.kind is not TrumpKind.ORDER_UP:
            for discard in discards(pack):  # a card the kitty's taker discards
                add(discard, str(discard))
        self.vocabulary = vocabulary
        self.size = vocabulary.size
        # per seat each round: a bid, a card passed and a card played a trick, two calls of
        # the trump making; and the dealer's discard: one id each
        self.max_decisions = rounds * (players * (2 * longest + 4) + 2)
        if section.blind is not None:  # each seat's choice to look or bid blind
            self.max_decisions += rounds * players
        if calls:  # an auction: each seat may call up to once for every call, and pass; the kitty's discards
            self.max_decisions += rounds * (len(calls) + players + pack.size)

    def encode(self, action: Any) -> tuple[int, ...]:
        token = self._ids.get(action)
        if token is None:
            raise ValueError(f"'{action}' is no move of this ruleset's id space")
        return (token,)

    def decode(self, ids: Sequence[int]) -> TrickAction:
        if len(ids) != 1 or not 0 <= ids[0] < self.size:
            raise ValueError(f"no move has the ids {list(ids)}")
        return self._actions[ids[0]]

    def token_name(self, token: int) -> str:
        return self.vocabulary.name(token)

    def chance_outcomes(self, state: Any) -> list[tuple[Any, float]] | None:
        return None  # the deal is the only chance event

    def chance_id(self, outcome: Any) -> int:
        raise ValueError(f"no chance outcome '{outcome}' besides the deal")

    def chance_name(self, outcome: Any) -> str:
        return str(outcome)


class TrickEncoder:
    """A seat's :class:`TrickObservation` as a vector: one-hot seats and phase, card
    counts for the hands, the upcard, the trick and this round's plays in order, each
    seat's bid (one-hot over the id space's bids), tricks taken, totals and counters as
    plain numbers."""

    def __init__(self, rules: Ruleset, players: int):
        codec = TrickCodec(rules, players)
        section: TrickRules = rules.section
        self.cards = cards = codec.cards
        self.players = players
        self.bids = {b: i for i, b in enumerate(codec.bids)}
        self.suits = len(_all_setups(rules, players)[0].pack.suits)
        self.counter_names = tuple(c.name for c in section.counters)
        self.plays = codec.longest * players
        rounds = max(len(s.hand_sizes) for s in _all_setups(rules, players))
        pack = _all_setups(rules, players)[0].pack
        self.codes = pack.codes
        self.suit_codes = tuple(suit.code for suit in pack.suits)
        self.auction = section.auction is not None
        self.has_kitty = section.kitty is not None
        extra: list[tuple[str, int]] = []
        if self.auction:  # the contract: its declarer, tricks and suit (the last place: no trump)
            extra += [("declarer", players), ("contract", 1), ("contract_suit", self.suits + 1)]
        if self.has_kitty:  # the kitty's taker, and the cards this seat took and discarded
            extra += [("kitty_taker", players), ("kitty", cards), ("kitty_discards", cards)]
        self.layout = Layout([
            ("seat", players), ("dealer", players), ("turn", players), ("leader", players),
            ("phase", len(PHASES) if self.auction or self.has_kitty or section.blind is not None
             else len(PHASES) - 3), ("round", rounds), ("hand_size", 1), ("hand", cards), ("others", players * cards),
            ("upcard", cards), ("trump", self.suits), ("hidden", 2),
            ("bids", players * (len(codec.bids) + 1)), ("taken", players), ("trick", players * cards),
            ("played", self.plays * cards), ("totals", players), ("counters", len(self.counter_names) * players),
            *extra,
        ])
        self.pieces = self.layout.pieces
        self.size = self.layout.size

    def tensor(self, obs: Any) -> list[float]:
        o: TrickObservation = obs
        layout, players, cards = self.layout, self.players, self.cards
        out = layout.zeros()
        layout.one_hot(out, "seat", o.seat)
        layout.one_hot(out, "dealer", o.dealer)
        layout.one_hot(out, "turn", o.turn)
        layout.one_hot(out, "leader", o.leader)
        layout.one_hot(out, "phase", PHASES.index(o.phase))
        layout.one_hot(out, "round", o.round - 1)
        layout.put(out, "hand_size", [o.hand_size])
        layout.put(out, "hand", card_counts(o.hand, cards))
        for s, hand in enumerate(o.others):
            layout.put(out, "others", card_counts(hand, cards), s * cards)
        layout.one_hot(out, "upcard", o.upcard)
        layout.one_hot(out, "trump", o.trump)
        layout.put(out, "hidden", [float(o.hand_hidden), float(o.trump_hidden)])
        width = len(self.bids) + 1
        for s, bid in enumerate(o.bids):
            layout.one_hot(out, "bids", s * width + (len(self.bids) if bid is None else self.bids.get(bid, 0)))
        layout.put(out, "taken", o.taken)
        for k, (_, c) in enumerate(o.trick):
            layout.one_hot(out, "trick", k * cards + c)
        for k, c in enumerate(o.played[:self.plays]):
            layout.one_hot(out, "played", k * cards + c)
        layout.put(out, "totals", o.totals)
        values = dict(o.counters)
        for i, name in enumerate(self.counter_names):
            layout.put(out, "counters", values.get(name, (0,) * players), i * players)
        if self.auction:
            layout.one_hot(out, "declarer", o.declarer if o.declarer >= 0 else None)
            layout.put(out, "contract", [o.contract])
            if o.declarer >= 0:
                layout.one_hot(out, "contract_suit", o.contract_suit if o.contract_suit >= 0 else self.suits)
        if self.has_kitty:
            layout.one_hot(out, "kitty_taker", o.kitty_taker if o.kitty_taker >= 0 else None)
            layout.put(out, "kitty", card_counts(o.kitty, cards))
            layout.put(out, "kitty_discards", card_counts(o.kitty_discards, cards))
        return out

    def text(self, obs: Any) -> str:
        o: TrickObservation = obs
        codes = self.codes

        def cards(cs: Sequence[int]) -> str:
            return " ".join(codes[c] for c in cs) or "-"

        bids = " ".join("?" if b is None else str(b) for b in o.bids)
        parts = [f"seat {o.seat}", f"round {o.round}/{o.rounds}", f"hand size {o.hand_size}", f"dealer {o.dealer}",
                 f"phase {o.phase}", f"turn {o.turn}", f"totals {' '.join(map(str, o.totals))}",
                 f"hand {'hidden' if o.hand_hidden else cards(o.hand)}",
                 f"upcard {'-' if o.upcard is None else codes[o.upcard]}",
                 f"trump {'hidden' if o.trump_hidden else ('-' if o.trump is None else self.suit_codes[o.trump])}",
                 f"bids {bids}", f"taken {' '.join(map(str, o.taken))}", f"leader {o.leader}",
                 f"trick {' '.join(f'{s}:{codes[c]}' for s, c in o.trick) or '-'}", f"played {cards(o.played)}"]
        if any(r is not None for r in o.played_roles):
            parts.append("as " + " ".join(r or "-" for r in o.played_roles))
        if o.others:
            parts.append("others " + " | ".join(cards(h) for h in o.others))
        for name, values in o.counters:
            parts.append(f"{name} {' '.join(map(str, values))}")
        return "; ".join(parts)
