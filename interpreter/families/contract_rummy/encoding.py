"""A contract-rummy game's moves as ids and a seat's observation as a vector
(:mod:`cardrules.interpreter.encoding`).

The moves of one id: ``take``, ``draw``, ``buy``, ``pass``, ``allow``, ``refuse``, each
card discarded plain and each discarded with the fitting-discard call, and (where each
player chooses their contract) ``choose N`` for each contract.  The moves
made of parts are a head id and then the parts, so that the space stays a few hundred
ids whatever the contract (a go-down may be any of thousands of card choices):

- ``claim M``: the head, then meld M's number;
- ``swap M C``: the head, meld M's number, the card C;
- ``layoff M``: the head, meld M's number, which end (low, high, or as the engine
  places it), each card, then (when the move fixes the meld's cards afterwards) a
  ``then`` and those cards, and ``end``;
- ``meld``: the head, then for each meld its kind (set, run, or left to the engine)
  and its cards, and ``end``.

Chance's outcomes of the family's own: the card drawn off the stock (any card the
stock holds, each as likely as its copies there) and a round's cut (success one in
``one_in``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ...encoding import Layout, Vocabulary, card_counts
from ...rules import Ruleset
from .actions import (ALLOW, BUY, DRAW, PASS, REFUSE, TAKE, Choose, Claim, card_moves,
                      CutOutcome, Discard, GoDown, LayOff, StockCard, Swap)
from .phases import Phase
from .rules import MeldKind, RummyRules

# (the choice of a contract has a piece of its own, where the ruleset has it: so the layout of a
# ruleset without it stays as it was)
PHASES = tuple(p.value for p in Phase if p is not Phase.CHOOSING)
KINDS = (MeldKind.SET.value, MeldKind.RUN.value)
_SINGLE = (TAKE, DRAW, BUY, PASS, ALLOW, REFUSE)


def _all_setups(rules: Ruleset, players: int) -> list[Any]:
    return rules.setups(players)


class RummyCodec:
    """The id space of one contract-rummy ruleset at one player count."""

    def __init__(self, rules: Ruleset, players: int):
        section: RummyRules = rules.section
        setups = _all_setups(rules, players)
        self.names = names = tuple(setups[0].pack.codes)  # the ruleset's pack, by card number
        self._discards, self._called_discards, self._stock_cards = card_moves(setups[0].pack)
        self.cards = cards = len(names)
        self.chance_size = cards + 2  # the stock's cards, then a cut that fails and one that succeeds
        deck = max(len(s.pack.deck(s.decks, s.jokers, s.ranks, s.removed, s.special_counts)) for s in setups)
        rounds = max(len(s.hand_sizes) for s in setups)
        self.section = section
        # a buy's penalty cards come off the top of the stock: then its order is chance's
        self.stock_order_matters = section.buying.allowed
        v = Vocabulary()
        self._single = {action: v.add(str(action)) for action in _SINGLE}
        self._discard = v.add_all(f"discard {n}" for n in names)
        self._called = v.add_all(f"discard {n} call" for n in names)
        self._claim, self._swap, self._lay_off, self._go_down = (v.add("claim"), v.add("swap"), v.add("layoff"),
                                                                 v.add("meld"))
        self._kind = {kind: v.add(f"a {kind}") for kind in KINDS}
        self._either = v.add("a meld")  # a meld whose kind the engine reads
        self._end_of = {True: v.add("at the low end"), False: v.add("at the high end"), None: v.add("at either end")}
        self._then = v.add("then")
        self._end = v.add("end")
        self._card = v.add_all(f"card {n}" for n in names)
        self.melds = deck + 1  # meld numbers 1.. (a meld holds a card at least)
        self._meld = v.add_all(f"meld {m}" for m in range(self.melds + 1))
        # the kinds of melds.kinds, after every other id (so a ruleset without them keeps its ids)
        self._kind.update({name: v.add(f"a {name}") for name in section.melds.kinds})
        # the contracts a player may choose (contract.choose), after those
        self._choices = len(section.contracts) if section.contract_choose is not None else 0
        self._choose = v.add_all(f"choose {n}" for n in range(1, self._choices + 1)) if self._choices else -1
        # the seat a skip card names (skip.seat: chosen), after those: a discard's id, then the seat's
        self._targets = players if section.skip_chosen else 0
        self._target = v.add_all(f"skipping seat {s}" for s in range(players)) if self._targets else -1
        self._pack = setups[0].pack
        self.vocabulary = v
        self.size = v.size
        self._decode_single = {token: action for action, token in self._single.items()}
        # per turn: the draw, every seat's word in the buying window and the veto, and
        # at most a go-down, a lay-off or swap of every card and a discard, each a few ids
        # (and each player's choice of a contract, where they choose)
        self.max_decisions = rounds * (section.stock.turn_limit * (4 * players + 8 * deck + 8)
                                       + (players if self._choices else 0))

    # --- seats' moves -------------------------------------------------------------------
    def _meld_id(self, m: int) -> int:
        if not 0 <= m <= self.melds:
            raise ValueError(f"no meld {m} in this ruleset's id space")
        return self._meld + m

    def _cards(self, cards: Sequence[int]) -> list[int]:
        return [self._card + c for c in cards]

    def encode(self, action: Any) -> tuple[int, ...]:
        kind = type(action)
        if kind is Discard:
            head = (self._called if action.call else self._discard) + action.card
            if action.target is None:
                return (head,)
            if not 0 <= action.target < self._targets:
                raise ValueError(f"no seat {action.target} to skip in this ruleset's id space")
            return (head, self._target + action.target)
        single = self._single.get(action)
        if single is not None:
            return (single,)
        if kind is Choose and 1 <= action.number <= self._choices:
            return (self._choose + action.number - 1,)
        if kind is Claim:
            return (self._claim, self._meld_id(action.meld))
        if kind is Swap:
            return (self._swap, self._meld_id(action.meld), self._card + action.card)
        if kind is LayOff:
            after = [self._then, *self._cards(action.cards_after)] if action.cards_after is not None else []
            return (self._lay_off, self._meld_id(action.meld), self._end_of[action.at_low],
                    *self._cards(action.cards), *after, self._end)
        if kind is GoDown:
            out = [self._go_down]
            for i, meld in enumerate(action.melds):
                out.append(self._either if action.kinds is None else self._kind[action.kinds[i]])
                out += self._cards(meld)
            out.append(self._end)
            return tuple(out)
        raise ValueError(f"'{action}' is no move of this ruleset's id space")

    def decode(self, ids: Sequence[int]) -> Any:
        ids = list(ids)
        try:
            return self._decode(ids)
        except (IndexError, KeyError, ValueError):
            raise ValueError(f"no move has the ids {ids}") from None

    def _decode(self, ids: list[int]) -> Any:
        head = ids[0]
        cards, n = self._card, self.cards
        if len(ids) == 1:
            if head in self._decode_single:
                return self._decode_single[head]
            if self._discard <= head < self._discard + n:
                return self._discards[head - self._discard]
            if self._called <= head < self._called + n:
                return self._called_discards[head - self._called]
            if self._choices and self._choose <= head < self._choose + self._choices:
                return Choose(head - self._choose + 1)
            raise ValueError
        if len(ids) == 2 and self._targets and 0 <= ids[1] - self._target < self._targets:  # a skip card's seat
            for base, call in ((self._discard, False), (self._called, True)):
                if base <= head < base + n:
                    return Discard(head - base, call, self._pack, ids[1] - self._target)
            raise ValueError
        meld = ids[1] - self._meld if len(ids) > 1 else -1
        if head == self._claim and len(ids) == 2 and 0 <= meld <= self.melds:
            return Claim(meld)
        if head == self._swap and len(ids) == 3 and 0 <= meld <= self.melds and 0 <= ids[2] - cards < n:
            return Swap(meld, ids[2] - cards)
        if ids[-1] != self._end:
            raise ValueError
        body = ids[:-1]
        if head == self._lay_off and 0 <= meld <= self.melds:
            at_low = {v: k for k, v in self._end_of.items()}[body[2]]
            rest = body[3:]
            after: tuple[int, ...] | None = None
            if self._then in rest:
                at = rest.index(self._then)
                rest, after = rest[:at], self._card_list(rest[at + 1:])
            return LayOff(meld, self._card_list(rest), at_low, after)
        if head == self._go_down:
            kind_of = {v: k for k, v in self._kind.items()}
            melds: list[tuple[int, ...]] = []
            kinds: list[str | None] = []
            for token in body[1:]:
                if token in kind_of or token == self._either:
                    melds.append(())
                    kinds.append(kind_of.get(token))
                else:
                    melds[-1] += self._card_list([token])
            if not melds or any(not m for m in melds):
                raise ValueError
            fixed = None if all(k is None for k in kinds) else tuple(k or "" for k in kinds)
            return GoDown(tuple(melds), fixed)
        raise ValueError

    def _card_list(self, tokens: Sequence[int]) -> tuple[int, ...]:
        out = tuple(t - self._card for t in tokens)
        if not out or not all(0 <= c < self.cards for c in out):
            raise ValueError
        return out

    def token_name(self, token: int) -> str:
        return self.vocabulary.name(token)

    # --- chance ----------------------------------------------------------------------------
    def chance_outcomes(self, state: Any) -> list[tuple[Any, float]] | None:
        """None when chance deals next (the core's deal); else the cut's or the stock's outcomes."""
        if state.phase is Phase.DEAL:
            events = self.section.chance_events
            if state.chance_step >= len(events):
                return None
            one_in = events[state.chance_step].one_in
            outcomes = [(CutOutcome(state.chance_step, False), 1 - 1 / one_in),
                        (CutOutcome(state.chance_step, True), 1 / one_in)]
            return [(o, p) for o, p in outcomes if p > 0]
        counts = Counter(state.stock)
        total = len(state.stock)
        return [(self._stock_cards[c], n / total) for c, n in sorted(counts.items())]

    def chance_id(self, outcome: Any) -> int:
        if isinstance(outcome, StockCard):
            return outcome.card
        if isinstance(outcome, CutOutcome):
            return self.cards + int(outcome.success)
        raise ValueError(f"no chance outcome '{outcome}' of the family's own")

    def chance_name(self, outcome: Any) -> str:
        if isinstance(outcome, CutOutcome):
            return f"{self.section.chance_events[outcome.index].name} {'succeeds' if outcome.success else 'fails'}"
        return str(outcome)


class RummyEncoder:
    """A seat's observation as a vector: one-hot seats, phase and round (the round names
    the contract), card counts for the hand, the cards each seat was seen to take, the
    round's wild cards and the cards on the table by owner; each seat's count of sets
    and runs down, hand sizes, buys, and plain numbers for the rest."""

    def __init__(self, rules: Ruleset, players: int):
        self.names = tuple(rules.setup(players, rules.mode).pack.codes)  # the ruleset's pack, by card number
        self.cards = cards = len(self.names)
        self.players = players
        rounds = max(len(s.hand_sizes) for s in _all_setups(rules, players))
        self.layout = Layout([
            ("seat", players), ("dealer", players), ("turn", players), ("player", players),
            ("phase", len(PHASES)), ("round", rounds), ("hand_size", 1), ("hand", cards), ("hand_counts", players),
            ("top_discard", cards), ("protected", 1), ("stock", 1), ("down", players), ("buys", players),
            ("buys_left", 1), ("joker_debt", 1), ("window", players), ("buyer", players), ("known", players * cards),
            ("turn_number", 1), ("went_down", 1), ("wild", cards), ("table", players * cards),
            ("melds", players * len(KINDS)), ("totals", players),
            # each seat's own contract and counters, where the ruleset has them (after the rest, so a
            # ruleset without them keeps its layout)
            *((("contracts", players * len(rules.section.contracts)),) if rules.section.own_contracts
              else ()),
            *((("counters", players * len(rules.section.counters)),) if rules.section.counters else ()),
            *((("choosing", 1), ("made", players * len(rules.section.contracts)))
              if rules.section.contract_choose is not None else ()),
            # whom a skip may name (skip.seat: chosen): each seat's turns yet to lose, how often a
            # skip named it this round and the turns begun since; the seats that bought this turn
            # (buying.per_discard), each after the rest
            *((("skipped", players), ("named", players), ("since", players)) if rules.section.skip_chosen
              else ()),
            *((("chain", players),) if rules.section.buying.per_discard > 1 else ()),
        ])
        self.skip_chosen = rules.section.skip_chosen
        self.chains = rules.section.buying.per_discard > 1
        self.contract_count = len(rules.section.contracts) if rules.section.own_contracts else 0
        self.counter_names = tuple(c.name for c in rules.section.counters)
        self.pieces = self.layout.pieces
        self.size = self.layout.size

    def tensor(self, obs: Any) -> list[float]:
        layout, cards = self.layout, self.cards
        out = layout.zeros()
        for piece in ("seat", "dealer", "turn", "player"):
            layout.one_hot(out, piece, getattr(obs, piece))
        if obs.phase == Phase.CHOOSING:
            layout.put(out, "choosing", [1.0])
        else:
            layout.one_hot(out, "phase", PHASES.index(obs.phase))
        layout.one_hot(out, "round", obs.round - 1)
        layout.put(out, "hand_size", [obs.hand_size])
        layout.put(out, "hand", card_counts(obs.hand, cards))
        layout.put(out, "hand_counts", obs.hand_counts)
        layout.one_hot(out, "top_discard", obs.top_discard)
        layout.put(out, "protected", [float(obs.discard_protected)])
        layout.put(out, "stock", [obs.stock])
        layout.put(out, "down", [float(d) for d in obs.down])
        layout.put(out, "buys", obs.buys)
        layout.put(out, "buys_left", [obs.buys_left])
        layout.put(out, "joker_debt", [obs.joker_debt])
        for s in obs.window:
            layout.one_hot(out, "window", s)
        layout.one_hot(out, "buyer", obs.buyer)
        for s, taken in enumerate(obs.known):
            layout.put(out, "known", card_counts(taken, cards), s * cards)
        layout.put(out, "turn_number", [obs.turn_number])
        layout.put(out, "went_down", [float(obs.went_down_this_turn)])
        layout.put(out, "wild", [1.0 if c in obs.wild else 0.0 for c in range(cards)])
        for entry in obs.table.melds:
            for c in entry.meld.cards:
                layout.add(out, "table", entry.owner * cards + c)
            if entry.meld.kind.value in KINDS:
                layout.add(out, "melds", entry.owner * len(KINDS) + KINDS.index(entry.meld.kind.value))
        layout.put(out, "totals", obs.totals)
        if self.contract_count:
            for s, number in enumerate(obs.contract_numbers):
                if number:  # (0: not chosen yet)
                    layout.add(out, "contracts", s * self.contract_count + number - 1)
        if obs.seats is not None and obs.seats.made:  # contract.choose: the contracts each seat has made
            for s, made in enumerate(obs.seats.made):
                for number in made:
                    layout.put(out, "made", [1.0], s * self.contract_count + number - 1)
        if self.skip_chosen and obs.seats is not None:
            layout.put(out, "skipped", obs.seats.skipped)
            layout.put(out, "named", obs.seats.named)
            layout.put(out, "since", obs.seats.since)
        if self.chains:
            for s in obs.chain:
                layout.one_hot(out, "chain", s)
        if self.counter_names:
            values = dict(obs.counters)
            for i, name in enumerate(self.counter_names):
                layout.put(out, "counters", values.get(name, (0,) * self.players), i * self.players)
        return out

    def text(self, obs: Any) -> str:
        def cards(cs: Sequence[int]) -> str:
            return " ".join(self.names[c] for c in cs) or "-"

        table = " | ".join(f"{e.id}:{e.owner}:{e.meld.kind.value} {cards(e.meld.cards)}" for e in obs.table.melds)
        parts = [f"seat {obs.seat}", f"round {obs.round}/{obs.rounds}", f"hand size {obs.hand_size}",
                 f"dealer {obs.dealer}", f"phase {obs.phase}", f"turn {obs.turn}", f"player {obs.player}",
                 f"totals {' '.join(map(str, obs.totals))}", f"hand {cards(obs.hand)}",
                 f"hands {' '.join(map(str, obs.hand_counts))}",
                 f"top {'-' if obs.top_discard is None else self.names[obs.top_discard]}"
                 + (" protected" if obs.discard_protected else ""),
                 f"stock {obs.stock}", f"table {table or '-'}", f"down {' '.join(str(int(d)) for d in obs.down)}",
                 f"buys {' '.join(map(str, obs.buys))} left {obs.buys_left}", f"joker debt {obs.joker_debt}",
                 f"window {' '.join(map(str, obs.window)) or '-'}", f"buyer {'-' if obs.buyer is None else obs.buyer}",
                 f"known {' | '.join(cards(k) for k in obs.known)}", f"turn number {obs.turn_number}",
                 f"went down {int(obs.went_down_this_turn)}", f"wild {cards(sorted(obs.wild))}"]
        return "; ".join(parts)
