"""Sampling the hidden cards of a trick-taking round for the search bot: a full state
that agrees with everything one seat has observed.

The seat knows its hand (unless the round hides it), any hands the rules show, the
upcard, the bids and every card played this round.  Who played each card follows from
the rules: the first leader comes from the bids (as in the game), each trick's winner
leads the next.  A seat that did not follow the suit led has none of it (nor, where
trumping is compulsory, of trumps).  The other cards are dealt at random to the
hands that need them, keeping those voids; a bid the seat cannot see (simultaneous
bidding) is the heuristic bot's in the sampled state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Sequence, cast

from ...deal import Deal
from ...game import observed_mode
from ...rules import Ruleset
from .actions import DECLINE, LOOK, Bid, BlindBid, Call, ChooseTrump, Pass, trump_choices
from .bot import TrickBot
from .contracts import PASSED
from .observation import TrickObservation, pass_target_of
from .phases import _AUCTION, _BIDDING, _BLIND, _CHOOSE_TRUMP, _DISCARD, _EXCHANGE, _KITTY, _PLAYING
from .rules import NAMED_SUIT
from .state import TrickTakingState, state_class
from .trickplay import led_suit


def determinize(rules: Ruleset, obs: TrickObservation, memory: dict[str, Any], rng: random.Random) -> TrickTakingState:
    # Long on purpose: one pass that rebuilds a whole state from one seat's view, phase by
    # phase (the deal's known cards, the pass, the trump made, the bids, the tricks so
    # far, the voids shown): split, each part would need the others' half-built state.
    players, seat = obs.players, obs.seat
    state = state_class(rules)(rules, players, rng.getrandbits(48), None, observed_mode(rules, obs), None)
    state.round_index = obs.round - 1
    state.dealer = obs.dealer
    if state.setup.drawable and obs.hand_size:  # a hand size drawn by chance: the one observed
        state.draw_hand_size(obs.hand_size)
    state.totals = list(obs.totals)
    for name, values in obs.counters:
        state.counters[name] = list(values)
    size = obs.hand_size
    deck = Counter(state.deck)
    upcard_wanted = state._expects_upcard()
    upcard: int | None = None
    if upcard_wanted:  # the observed upcard, or (hidden while bidding) one of the cards not seen
        upcard = obs.upcard
        if upcard is None:
            unseen = deck - Counter(obs.hand) - Counter(c for hand in obs.others for c in hand) - Counter(obs.played)
            upcard = rng.choice(sorted(unseen.elements()))
    # a first deal of any cards, to set the round up; the hands are set once the plays are placed
    pool = list(state.deck)
    if upcard is not None:
        pool.remove(upcard)
    rng.shuffle(pool)
    if obs.phase == "exchange" and not obs.hand_hidden:
        # choosing what to pass: the seat's hand as dealt is what it holds and has put aside
        mine = list(obs.hand) + list(obs.passing)
        rest = Counter(pool) - Counter(mine)
        pool = list(rest.elements())
        rng.shuffle(pool)
        pool = pool[:size * seat] + mine + pool[size * seat:]
    held_up = obs.upcard if state.tricks.trump.dealer_last and obs.picked_up and upcard is None else None
    if held_up is not None:  # the turned card is the dealer's own last card (trump.no_upcard: dealer-last): so it is here
        pool.remove(held_up)
        pool.insert(obs.dealer * size + size - 1, held_up)
    hands = tuple(tuple(pool[s * size:(s + 1) * size]) for s in range(players))
    state.apply(Deal(hands, upcard, tuple(pool[players * size:])))
    if held_up is not None:
        upcard = held_up  # held by the dealer until played, as a card picked up is (below)
    helper: TrickBot | None = None

    def bot() -> TrickBot:
        nonlocal helper
        if helper is None:
            helper = TrickBot(rules, rng.getrandbits(32))
        return helper

    # the trump (chosen before the bidding, or named after it) and the bids, as observed
    while state.phase is _CHOOSE_TRUMP or state.phase is _BIDDING or state.phase is _EXCHANGE or \
            state.phase is _DISCARD or state.phase is _AUCTION or state.phase is _KITTY or state.phase is _BLIND:
        if state.turn == seat and obs.turn == seat and state.phase == obs.phase and \
                (state.phase is not _EXCHANGE or len(state.passing[seat]) == len(obs.passing)) and \
                (not state._ordering or len(state.trump_calls) == len(obs.trump_calls)) and \
                (not state._auctioning or len(state.auction_calls) == len(obs.auction)):
            break
        if state.phase is _AUCTION:  # the calls, as observed (every call is public)
            who, tricks, suit = obs.auction[len(state.auction_calls)]
            state.apply(DECLINE if suit == PASSED else Call(tricks, None, "", True) if suit == NAMED_SUIT else
                        Call(tricks, None if suit < 0 else suit))
            continue
        if state.phase is _BLIND:  # a seat's choice to bid blind or to look, as observed (both public)
            blind = obs.blind_bids[state.turn] and obs.bids[state.turn] is not None
            state.apply(BlindBid(obs.bids[state.turn]) if blind else LOOK)  # type: ignore[arg-type]
            continue
        if state.phase is _KITTY:  # the kitty's discards: this seat's own when it took the kitty
            state._skip_kitty(obs.kitty_discards if obs.kitty_taker == seat else ())
            continue
        if state.phase is _DISCARD:  # the dealer's discard: its own when this seat deals
            state._skip_discard(obs.discarded)
            continue
        if state.phase is _CHOOSE_TRUMP and state._ordering:  # the calls, as observed
            who, call = obs.trump_calls[len(state.trump_calls)]
            if call == -2:
                state.apply(DECLINE)
                continue
            choice = trump_choices(state.setup.pack)[call]
            if obs.alone and who == obs.maker:  # the maker went alone: so does the sampled maker
                choice = ChooseTrump(choice.suit, choice.code, True)
            state.apply(choice)
            continue
        if state.phase is _EXCHANGE:
            if obs.phase != "exchange":  # the exchange is over: the hands are dealt as they stand after it
                state._skip_exchange(seat, obs.passing, obs.received)
            elif state.turn == seat:  # the cards this seat has put aside, again
                state.apply(Pass(obs.passing[len(state.passing[seat])]))
            else:  # a seat before it in the passing order: its pass is unknown
                passes = cast("list[Pass]", state.legal_actions())
                state.apply(bot().act(state.observation(state.turn), passes))
            continue
        if state.phase is _CHOOSE_TRUMP:
            if obs.trump is not None or obs.phase == "play" or (state._auctioning and obs.phase != "auction"
                                                                 and obs.phase != "trump"):
                state.apply(ChooseTrump(obs.trump))
            else:
                choices = cast("list[ChooseTrump]", state.legal_actions())  # a seat's turn: no deal
                state.apply(bot().act(state.observation(state.turn), choices))
            continue
        bid = obs.bids[state.turn]
        legal = cast("list[Bid]", state.legal_actions())  # bids only, while bidding
        chosen = next((a for a in legal if a.bid == bid), None) if bid is not None else None
        if chosen is None and bid is not None:  # a bid the sampled hand could not make (a rule reads the hand)
            state.decisions += 1
            state._bid(bid)  # the bid as observed: the samples do not make a hand fit its bid
            state.moves += 1
            continue
        state.apply(chosen if chosen is not None else bot().act(state.observation(state.turn), legal))
    # who played each card: the leader of the first trick is the state's, each winner leads next
    played_by: list[list[int]] = [[] for _ in range(players)]
    voids: list[set[int]] = [set() for _ in range(players)]
    plays: list[tuple[int, int]] = []
    if state.phase is _PLAYING:
        suits, power, trump = state.suits, state.power, state.trump
        # (with roles a card led as one may leave the suit to the next: no void is inferred)
        infer = state._follow_suit and not state._by_rule and not state._roles
        any_time = state._round_power.any_time if state._round_power is not None else frozenset()
        leader = first_leader = obs.first_leader if obs.first_leader >= 0 else state.leader
        cards = obs.played
        roles = list(obs.played_roles) + [None] * (len(cards) - len(obs.played_roles))
        order = state.tricks.order
        absent = obs.absent  # a seat sitting the hand out plays no card
        per = players - len(absent)
        seating = [s for s in range(players) if s not in absent]
        step = state.step  # the direction of play
        for start in range(0, len(cards), per):
            first = seating.index(leader)
            trick = [(seating[(first + k * step) % per], c) for k, c in enumerate(cards[start:start + per])]
            for k, (who, c) in enumerate(trick):
                played_by[who].append(c)
                plays.append((who, c))
                if k and infer and c not in any_time:  # a card played at any time says nothing of a void
                    led = led_suit(trick[:k], suits)
                    if led >= 0 and suits[c] != led:
                        voids[who].add(led)
                        if state._must_trump and trump is not None and suits[c] != trump:
                            voids[who].add(trump)
            if len(trick) == per:
                state.leader = leader
                state._played_as = [order.index(r) if r is not None and order is not None else -1
                                    for r in roles[start:start + per]]
                leader = state._trick_winner(trick, suits, power, trump)
                state._played_as = []
        state.leader = first_leader
        suits_now = suits
    else:
        suits_now = state.suits
    if state.phase is _KITTY:  # this seat, discarding from the kitty it took: what it took and has discarded
        state.kitty_taken = list(obs.kitty)
        state.kitty_discards = list(obs.kitty_discards)
    if obs.phase == "exchange":  # the hands as the exchange has left them so far
        state._legal_at = -1
        state._keys_at = -1
        return state
    # the cards this seat passed are in the receiver's hand, unless it has played them
    fixed: list[list[int]] = [[] for _ in range(players)]
    aside = obs.pass_count if obs.pass_to == -3 else 0  # cards each seat laid aside (out of the round)
    if obs.passing and (obs.pass_to == -2 or obs.pass_to >= 0 and obs.pass_to != seat):
        gone = [Counter(cards) for cards in played_by]
        for index, c in enumerate(obs.passing):
            to = pass_target_of(obs, index)  # (a scatter's cards go to each other seat in turn)
            if gone[to][c] > 0:
                gone[to][c] -= 1
            else:
                fixed[to].append(c)
    lead_card = -1
    if state.phase is _PLAYING and state.tricks.play.first_lead and not obs.played:
        # the first trick not led yet: its leader holds the card it must lead (the first
        # of play.first_lead that this seat does not hold and has not seen elsewhere)
        elsewhere = {c for s, hand in enumerate(obs.others) if s != first_leader for c in hand}
        elsewhere |= {c for s, cards in enumerate(fixed) if s != first_leader for c in cards}
        if first_leader != seat:
            elsewhere |= set(obs.hand)
        in_deck = set(deck)
        lead_card = next((c for c in state.tricks.play.first_lead if c in in_deck and c not in elsewhere), -1)
        if lead_card >= 0 and first_leader != seat and lead_card not in fixed[first_leader]:
            fixed[first_leader].append(lead_card)
    out_of_play: list[int] = []
    if state.picked_up and upcard is not None:  # the dealer took the turned card, and laid one aside
        if obs.seat == obs.dealer:
            out_of_play = [obs.discarded] if obs.discarded >= 0 else []
        elif upcard not in played_by[obs.dealer]:
            fixed[obs.dealer].append(upcard)  # (held until played, as far as the others know)
        upcard = None
    if obs.kitty_taker == seat:  # the kitty this seat took and discarded: out of play (its hand holds the rest)
        out_of_play = out_of_play + list(obs.kitty_discards)
    if aside:  # the cards this seat laid aside
        out_of_play = out_of_play + list(obs.passing)
    to_trick = state.tricks.kitty is not None and state.tricks.kitty.to_trick is not None and obs.kitty_size > 0
    if to_trick and obs.kitty_taker == seat:  # the kitty this seat took with a trick: known, in no hand
        out_of_play = out_of_play + list(obs.kitty)
    full, stock = _deal_hidden(obs, deck, played_by, voids, suits_now, upcard, rng, fixed, out_of_play, aside)
    if to_trick:  # the kitty as it was dealt (the plays below give it to its trick's winner again)
        if obs.kitty_taker == seat:
            state.kitty = list(obs.kitty)
        else:  # unseen: from the cards nobody is known to hold
            state.kitty, stock = stock[:obs.kitty_size], stock[obs.kitty_size:]
        state.kitty_taker, state.kitty_taken = -1, []
    if aside:  # the others' cards laid aside: from the cards nobody is known to hold (and so their bids)
        for s in range(players):
            if s != seat:
                state.passing[s], stock = stock[:aside], stock[aside:]
        state._bid_by_cards_aside()
    state.hands = full
    if state.absent:  # the cards of the seats sitting out, unknown to the others, laid aside again
        state.laid_aside = [c for s in state.absent for c in full[s]]
        for s in state.absent:
            full[s] = []
    if state.phase is _PLAYING:
        state.first_leader = first_leader
        state._lead_card = lead_card if state.tricks.play.lead_it else -1
    for i, (who, c) in enumerate(plays):  # the round's plays again, from the hands that made them
        state.turn = who
        state._play(c, obs.played_roles[i] if i < len(obs.played_roles) else None)
        state.moves += 1
        state.decisions += 1
    state.stock = stock
    if state.phase is not _PLAYING:
        state.leader = obs.leader  # (last round's, until the play starts)
    state._legal_at = -1
    state._keys_at = -1
    return state


def _deal_hidden(obs: TrickObservation, deck: Counter[int], played_by: list[list[int]], voids: list[set[int]],
                 suits: Sequence[int], upcard: int | None, rng: random.Random,
                 fixed: Sequence[Sequence[int]] = (), out_of_play: Sequence[int] = (), aside: int = 0
                 ) -> tuple[list[list[int]], list[int]]:
    """Every seat's hand at the start of the play (the cards it has played first) and
    the stock: the known cards where they are (``fixed``: cards known to be in a seat's
    hand, such as those this seat passed it), the others at random (each hand ``aside``
    cards short: those laid aside, left in the stock)."""
    players, seat, size = obs.players, obs.seat, obs.hand_size
    known: list[list[int] | None] = [None] * players
    if not obs.hand_hidden:
        known[seat] = list(obs.hand)
    for s, hand in enumerate(obs.others):
        if s != seat:
            known[s] = list(hand)
    pool = deck.copy()
    for s in range(players):
        pool.subtract(played_by[s])
        if known[s] is not None:
            pool.subtract(known[s])
    if upcard is not None:
        pool[upcard] -= 1
    pool.subtract(out_of_play)  # the card this seat laid aside
    for s, cards in enumerate(fixed):
        if known[s] is None:
            pool.subtract(cards)
    extra = [list(fixed[s]) if s < len(fixed) and known[s] is None else [] for s in range(players)]
    need = [0 if known[s] is not None else size - aside - len(played_by[s]) - len(extra[s]) for s in range(players)]
    hidden = _assign(sorted(pool.elements()), need, voids, suits, rng)
    full = []
    for s in range(players):
        held = known[s]
        full.append(played_by[s] + (held if held is not None else extra[s] + hidden[s]))
    return full, hidden[players]


def _assign(cards: list[int], need: list[int], voids: list[set[int]], suits: Sequence[int],
            rng: random.Random) -> list[list[int]]:
    """Deal ``cards`` at random: ``need[s]`` to each seat, none of a suit it is void in;
    the cards left over (shuffled) last.  The most constrained seat is dealt first; a
    deal that runs out is tried again, and after a few tries the voids are dropped
    (the rules being what they are, the seat may have been free not to follow)."""
    players = len(need)
    for attempt in range(12):
        left = cards[:]
        rng.shuffle(left)
        out: list[list[int]] = [[] for _ in range(players)]
        constrained = voids if attempt < 11 else [set() for _ in range(players)]
        order = sorted(range(players), key=lambda s: (-len(constrained[s]), s))
        ok = True
        for s in order:
            if not need[s]:
                continue
            void = constrained[s]
            take = [i for i, c in enumerate(left) if suits[c] not in void] if void else list(range(len(left)))
            if len(take) < need[s]:
                ok = False
                break
            chosen = set(take[:need[s]])
            out[s] = [left[i] for i in take[:need[s]]]
            left = [c for i, c in enumerate(left) if i not in chosen]
        if ok:
            out.append(left)
            return out
    raise AssertionError("the hidden cards cannot be dealt")  # unreachable: the last try has no voids
