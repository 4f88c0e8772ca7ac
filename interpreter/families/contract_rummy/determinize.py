"""Sampling the hidden cards of a contract-rummy round for the search bot: a full
state that agrees with everything one seat has observed.

The seat knows its hand, the melds on the table (and who owns them), the top of the
discard pile, how many cards each hand and the stock hold, who is down and has
bought, and the cards each seat took from the pile and still holds.  It also
remembers (:func:`remember`) the discards it has seen on top of the pile this round:
those that no one took since are buried in the pile, not in a hand or the stock.  The
other cards are dealt at random to the others' hands, the rest of the pile and the
stock.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...deal import Deal
from ...game import observed_mode
from ...rules import Ruleset
from .state import Phase, RummyObservation, RummyState

_WINDOW = Phase.WINDOW


def remember(rules: Ruleset, obs: RummyObservation, memory: dict[str, Any]) -> None:
    """Note the top discard (each time it changes) of the round being played."""
    if memory.get("round") != obs.round:
        memory["round"] = obs.round
        memory["discards"] = []
        memory["top"] = None
    top = obs.top_discard
    if top is not None and top != memory["top"]:
        memory["discards"].append(top)
    memory["top"] = top


def determinize(rules: Ruleset, obs: RummyObservation, memory: dict[str, Any], rng: random.Random) -> RummyState:
    # Long on purpose: one pass that rebuilds a whole state from one seat's view (the
    # hands' sizes, the cards seen taken, the melds, the stock, the last turns).
    players, seat = obs.players, obs.seat
    state = RummyState(rules, players, rng.getrandbits(48), None, observed_mode(rules, obs), None)
    state.round_index = obs.round - 1
    state.dealer = obs.dealer
    if state.setup.drawable and obs.hand_size:  # a hand size drawn by chance: the one observed
        state.draw_hand_size(obs.hand_size)
    state.totals = list(obs.totals)
    deck = Counter(state.deck)
    table = [(entry.id, entry.owner, entry.meld) for entry in obs.table.melds]
    seen = Counter(obs.hand)
    for s, cards in enumerate(obs.known):
        if s != seat:
            seen.update(cards)
    for _, _, meld in table:
        seen.update(meld.cards)
    top = obs.top_discard
    if top is not None:
        seen[top] += 1
    pool = deck - seen
    held = sum(obs.hand_counts)
    on_table = sum(len(meld.cards) for _, _, meld in table)
    below = max(0, len(state.deck) - held - on_table - obs.stock - (top is not None))
    # the discards remembered and not accounted for lie in the pile
    buried: list[int] = []
    if memory.get("round") == obs.round:
        for c in memory.get("discards", ()):
            if len(buried) < below and pool[c] > 0:
                pool[c] -= 1
                buried.append(c)
    hidden = sorted(pool.elements())
    rng.shuffle(hidden)
    hands: list[list[int]] = []
    at = 0
    for s in range(players):
        if s == seat:
            hands.append(list(obs.hand))
            continue
        known = list(obs.known[s])
        need = max(0, obs.hand_counts[s] - len(known))
        hands.append(known + hidden[at:at + need])
        at += need
    fill = below - len(buried)
    pile = hidden[at:at + fill] + buried
    rng.shuffle(pile)
    at += fill
    stock = hidden[at:]
    # the round set up by a deal (its wild cards, the table index, the turn), then as observed
    state.chance_step = len(state.section.chance_events)
    for name, values in obs.counters:  # (before the deal: each seat's contract may read them)
        state.seat_counters[name] = list(values)
    # (a stock to start the turn from, though the observed one may be empty)
    state._do(Deal(tuple(tuple(h) for h in hands), None, tuple(reversed(stock)) or (hidden[0] if hidden else 0,)),
              None)
    state.hands = hands
    state.stock = stock
    state.pile = pile + ([top] if top is not None else [])
    for meld_id, owner, meld in table:
        state.owners[meld_id] = owner
        state._changed(meld_id, meld)
    state.down = list(obs.down)
    state.buys = list(obs.buys)
    state.known = list(obs.known)
    state.turn_number = obs.turn_number
    state.down_turn = [1 if d else 0 for d in obs.down]
    if obs.went_down_this_turn:
        state.down_turn[seat] = obs.turn_number
    state.player = obs.player
    state.protected = obs.discard_protected
    state.joker_debt = obs.joker_debt
    state.buyer = obs.buyer
    state.out_first = obs.out_first  # the others' last turns after a player went out
    state.final_turns = obs.final_turns
    if obs.contracts:
        state.seat_contracts, state.contract_numbers = obs.contracts, obs.contract_numbers
    if obs.seats is not None and obs.seats.made:  # contract.choose: the contracts made, the choices so far
        state.made = list(obs.seats.made)
        if obs.phase == Phase.CHOOSING:
            state.contract_numbers, state.seat_contracts = obs.contract_numbers, ()
            state.choosers = tuple(s for s in (state.seat_after(obs.turn, k) for k in range(players))
                                   if not obs.contract_numbers[s])
        else:
            state.choosers = ()
    if obs.skipped:
        state.skipped = list(obs.skipped)
    if obs.seats is not None and obs.seats.named:  # skip.seat: chosen: whom the skips named, and when
        state.skip_named, state.skip_since = list(obs.seats.named), list(obs.seats.since)
    state._refresh_seat_facts()
    state.discarder = obs.discarder
    state.phase = Phase(obs.phase)
    state.turn = obs.turn
    if state.phase is _WINDOW or state.phase is Phase.CAPTURE:
        state.window = list(obs.window)
        state.window_pos = state.window.index(obs.turn) if obs.turn in state.window else 0
        state.offered = obs.offered
        state.chain = obs.chain  # buying.per_discard: the buys of this turn so far
    state._legal_at = -1
    return state
