"""The heuristic trick-taking bot: it bids what its hand is worth and then tries to
take exactly that many tricks.  It sees what a player sees: its observation (its hand,
the bids, the trick, the round's card order) and the legal actions."""

from __future__ import annotations

import itertools
import math
import random
from typing import Sequence

from typing import Any

from ...cards import JOKER
from ...rules import Ruleset, Winner
from . import power as power_module
from .actions import LOOK, Bid, BlindBid, Call, ChooseTrump, Decline, Discard, Pass, Play, TrickAction
from .observation import TrickObservation
from .trickplay import led_suit
from .trump import LEAD_PASSES, NO_SUIT, card_order


class TrickBot:
    """Bids its hand's worth in tricks, then plays to make exactly its bid; in a round
    without bidding it plays to take tricks when the highest total wins and to stay out
    of them (shedding the cards worth points) when the lowest does, and passes the cards
    it would least like to hold."""

    kind = "bot"
    needs_observation = True
    skips_forced = True  # a single legal action is returned unread (see Policy)

    def __init__(self, rules: Ruleset, seed: int | str = 0):
        self.rng = random.Random(seed)
        pack = rules.deck.pack
        self.joker = pack.special("JK")
        self.top = pack.stride - 1  # the highest rank's power
        self.suit_count = len(pack.suits)
        section = rules.section
        self.last_identical = section.play.last_identical
        self.cancel_identical = section.play.cancel_identical
        # a round without bidding: take tricks (highest total wins) or avoid them (lowest)
        self.avoids = rules.winner is Winner.LOWEST
        self.has_bidding = section.has_bidding
        self.trump_rules = section.trump
        self.ace_high = rules.deck.ace != "low"
        self.pack = pack
        self._rank_cache: tuple[Sequence[int], Sequence[int], int | None, list[int]] | None = None

    def rank_table(self, suits: Sequence[int], power: Sequence[int], trump: int | None) -> list[int]:
        """:func:`_rank_table`, kept while the round's card order is the same (the
        objects themselves, held here, so that an id is never mistaken for another)."""
        cached = self._rank_cache
        if cached is None or cached[0] is not suits or cached[1] is not power or cached[2] != trump:
            cached = self._rank_cache = (suits, power, trump, _rank_table(suits, power, trump))
        return cached[3]

    def act(self, obs: TrickObservation, legal: Sequence[TrickAction]) -> TrickAction:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        # the legal moves are all of one kind, the first's
        if isinstance(first, Bid):
            return _choose_bid(obs, [a.bid for a in legal], legal, self)  # type: ignore[union-attr]
        if isinstance(first, Pass):
            if obs.bid_values is not None:
                return _choose_bid_cards(obs, legal, self)
            return _choose_pass(obs, legal, self.avoids)
        if isinstance(first, Discard):
            return _choose_discard(obs, legal)
        if obs.phase == "auction":
            return _choose_auction_call(obs, legal, self)
        if obs.phase == "blind":
            return _choose_blind(obs, legal)
        if obs.making_round:
            return _choose_call(obs, legal, self)
        if isinstance(first, Play):
            if obs.round_power is not None:
                return _choose_ordered_play(obs, legal, self)  # type: ignore[arg-type]
            return _choose_play(obs, [a.card for a in legal], legal, self)  # type: ignore[union-attr]
        return _choose_trump(obs, legal, self.joker, self.suit_count)


def estimate_tricks(hand: Sequence[int], suits: Sequence[int], power: Sequence[int], trump: int | None,
                    players: int, joker: int = JOKER, top: int = 12, round_power: Any = None) -> float:
    """What a hand is worth in tricks: high trumps and bowers, side aces and guarded
    kings, and trumps that can ruff a short side suit."""
    by_suit: dict[int, int] = {}
    for c in hand:
        by_suit[suits[c]] = by_suit.get(suits[c], 0) + 1
    trumps = by_suit.get(trump, 0) if trump is not None else 0
    crowd = 4 / max(players, 2)  # high cards win less often at a bigger table
    value = 0.0
    tier_of = round_power.tier_of if round_power is not None else None
    trump_tier = round_power.order.index("trump") if round_power is not None else 0
    for c in hand:
        s, p = suits[c], power[c]
        if tier_of is not None and tier_of[c] >= 0:  # a card of trick.order's tiers: above the trumps or not
            value += 0.9 if tier_of[c] > trump_tier else 0.0
            continue
        if c == joker:
            value += 1.0 if p >= 100 else 0.0  # a top-trump joker wins its trick
            continue
        if trump is not None and s == trump:
            if p >= 100 or p == top:
                value += 0.95
            elif p == top - 1:
                value += 0.8
            elif p >= top - 3:
                value += 0.55
            else:
                value += 0.3 + 0.1 * max(0, trumps - 3)
        else:
            length = by_suit[s]
            if p == top:
                value += (0.85 if length <= 4 else 0.6) * crowd
            elif p == top - 1 and length >= 2:
                value += (0.45 if length <= 4 else 0.25) * crowd
            elif p == top - 2 and length >= 3:
                value += 0.15 * crowd
    if trump is not None and trumps:
        suit_count = max(4, max(suits, default=3) + 1)  # (a card of no suit is below 0)
        voids = sum(1 for s in range(suit_count) if s != trump and by_suit.get(s, 0) == 0)
        singles = sum(1 for s in range(suit_count) if s != trump and by_suit.get(s, 0) == 1)
        value += min(trumps, voids * 0.6 + singles * 0.3)
    return value


def _choose_bid(obs: TrickObservation, bids: list[int], actions: Sequence[TrickAction], bot: TrickBot) -> TrickAction:
    if obs.hand_hidden:
        target = _blind_estimate(obs, bot.joker)
    else:
        target = estimate_tricks(obs.hand, obs.suits, obs.power, obs.trump, obs.players, bot.joker, bot.top,
                                 obs.round_power)
    best = min(range(len(bids)), key=lambda i: (abs(bids[i] - target), bids[i]))
    return actions[best]


def _choose_bid_cards(obs: TrickObservation, actions: Sequence[TrickAction], bot: TrickBot) -> TrickAction:
    """The next card to lay aside when the cards laid aside are the bid (exchange.bid):
    of the ways to lay the rest aside, the one whose bid comes closest to what the
    cards kept are worth in tricks (of equals, the one keeping the highest cards)."""
    values = obs.bid_values
    assert values is not None
    hand = list(obs.hand)
    left = obs.pass_count - len(obs.passing)
    so_far = sum(values[c] for c in obs.passing)
    by_card = {a.card: a for a in actions}  # type: ignore[union-attr]
    cards = sorted(by_card)
    if math.comb(len(cards), left) > 1500:  # too many ways: the weakest card
        return min(actions, key=lambda a: (obs.power[a.card], a.card))  # type: ignore[union-attr]
    best: tuple[float, int, tuple[int, ...]] | None = None
    for chosen in itertools.combinations(cards, left):
        kept = list(hand)
        for c in chosen:
            kept.remove(c)
        worth = estimate_tricks(kept, obs.suits, obs.power, obs.trump, obs.players, bot.joker, bot.top,
                                obs.round_power)
        bid = so_far + sum(values[c] for c in chosen)
        key = (abs(bid - worth), sum(obs.power[c] for c in chosen), chosen)
        if best is None or key < best:
            best = key
    assert best is not None
    return by_card[best[2][0]]


def _blind_estimate(obs: TrickObservation, joker: int = JOKER) -> float:
    """Tricks to expect from a hand this seat cannot see: its share of the round, less
    for every strong card it sees in the others' hands (an Indian round)."""
    share = obs.hand_size / max(obs.players, 2)
    seen = [c for hand in obs.others for c in hand]
    if not seen:
        return share
    strong = sum(1 for c in seen if c == joker or obs.suits[c] == obs.trump or obs.power[c] >= 11)
    return max(0.0, share * (1 - strong / len(seen)))


_TRUMP_RANK = 1 << 40  # above every power: a trump ranks above every side card


def _rank_table(suits: Sequence[int], power: Sequence[int], trump: int | None) -> list[int]:
    """Each card's place in the order of a hand from weakest to strongest: its power,
    a trump's raised above every side card's."""
    return [p + _TRUMP_RANK if s == trump else p for s, p in zip(suits, power)]


def _strength(c: int, led: int, suits: Sequence[int], power: Sequence[int], trump: int | None) -> int:
    """How strongly ``c`` stands in a trick led in ``led``: a card beats another when
    its strength is greater (trumps over the led suit over the rest; a highest joker
    over all; a card that cannot win, -1)."""
    s = suits[c]
    if s == trump:
        return 1000 + power[c]
    if s == led:
        return 500 + power[c]
    if s == NO_SUIT and power[c] >= 100:  # a highest joker
        return 2000
    return 0 if s == LEAD_PASSES else -1


def tricks_wanted(obs: TrickObservation, avoids: bool = False) -> int:
    """How many more tricks the seat wants: its bid less its tricks taken, or in a round
    without bidding every trick (or none, when the lowest total wins, or the seat has
    won an auction with a call of 0)."""
    if not obs.has_bidding:
        return -1 if avoids or _takes_none(obs) else obs.hand_size
    return (obs.bids[obs.seat] or 0) - obs.taken[obs.seat]


def _takes_none(obs: TrickObservation) -> bool:
    """The seat declares a contract of 0 tricks (an auction's call of none)."""
    return obs.declarer == obs.seat and obs.contract == 0 and bool(obs.auction)


def _choose_pass(obs: TrickObservation, actions: Sequence[TrickAction], avoids: bool) -> TrickAction:
    """The card to pass: the most dangerous one to hold when tricks (and the points in
    them) are to be avoided (cards worth points, high cards, the cards of a short suit,
    which leave a void), else the weakest."""
    values = obs.card_values
    suits, power = obs.suits, obs.power
    length: dict[int, int] = {}
    for c in obs.hand:
        length[suits[c]] = length.get(suits[c], 0) + 1

    def danger(action: TrickAction) -> tuple[int, int]:
        c = action.card  # type: ignore[union-attr]
        worth = values[c] if values is not None else 0
        return (3 * max(worth, 0) + power[c] + (4 if length.get(suits[c], 0) <= 2 else 0), c)

    if avoids:
        return max(actions, key=danger)
    return min(actions, key=lambda a: (power[a.card], a.card))  # type: ignore[union-attr]


def _choose_play(obs: TrickObservation, cards: list[int], actions: Sequence[TrickAction],
                 bot: TrickBot | None = None) -> TrickAction:
    suits, power, trump = obs.suits, obs.power, obs.trump
    need = tricks_wanted(obs, bot.avoids if bot is not None else False)
    values = obs.card_values if not obs.has_bidding else None
    if values is not None and need < 0:  # staying out of the tricks: shed the cards worth most first
        by_power = sorted(range(len(cards)), key=lambda i: (values[cards[i]] > 0, suits[cards[i]] == trump,
                                                            power[cards[i]]))
        if not obs.trick:  # lead the lowest card worth nothing
            return actions[min(range(len(cards)), key=lambda i: (values[cards[i]] > 0, power[cards[i]]))]
    else:  # weakest first: the side suits' cards by power, then the trumps by power
        rank = bot.rank_table(suits, power, trump) if bot is not None else _rank_table(suits, power, trump)
        by_power = sorted(range(len(cards)), key=[rank[c] for c in cards].__getitem__)
    if not obs.trick:
        if need > 0:
            # lead the strongest card: a side ace first, else the highest trump
            side = [i for i in by_power if suits[cards[i]] != trump]
            top_side = side[-1] if side else None
            if top_side is not None and power[cards[top_side]] >= 12:
                return actions[top_side]
            return actions[by_power[-1]]
        return actions[by_power[0]]
    led = led_suit(obs.trick, suits)
    best = max(_strength(c, led, suits, power, trump) for _, c in obs.trick)  # the trick's winner so far
    winners: list[int] = []
    losers: list[int] = []
    for i in by_power:
        (winners if _strength(cards[i], led, suits, power, trump) > best else losers).append(i)
    if need > 0:
        if winners:
            last_to_play = len(obs.trick) == obs.players - len(obs.absent) - 1
            return actions[winners[0] if last_to_play else winners[-1]]
        return actions[by_power[0]]
    if losers:
        return actions[losers[-1]]
    if values is not None and need < 0:  # the trick is ours whatever: take it with a card worth nothing
        return actions[max(by_power, key=lambda i: (values[cards[i]] <= 0, power[cards[i]]))]
    return actions[by_power[-1]]


def _choose_call(obs: TrickObservation, actions: Sequence[TrickAction], bot: TrickBot) -> TrickAction:
    """Order up or name the trump when the hand (with the turned card, for the dealer
    who would take it) looks worth its side's share of the tricks, else pass: the suit
    whose trumps make the hand worth most."""
    partner_deals = obs.players % 2 == 0 and (obs.dealer - obs.seat) % obs.players == obs.players // 2
    hand = list(obs.hand)
    if obs.making_round == 1 and obs.upcard is not None and obs.seat == obs.dealer:
        hand.append(obs.upcard)  # (the dealer takes it, and discards the weakest card)
    best: tuple[float, int] | None = None
    for i, action in enumerate(actions):
        if not isinstance(action, ChooseTrump) or action.alone:
            continue
        suits, power = card_order(bot.trump_rules, action.suit, bot.ace_high, bot.pack)
        worth = estimate_tricks(hand, suits, power, action.suit, obs.players, bot.joker, bot.top)
        if obs.making_round == 1 and partner_deals:
            worth += 0.4  # the partner takes the turned card
        if best is None or worth > best[0]:
            best = (worth, i)
    needed = obs.hand_size / 2 - 0.6 if obs.players % 2 == 0 else obs.hand_size / obs.players + 0.5
    if best is not None and (best[0] >= needed or not any(isinstance(a, Decline) for a in actions)):
        chosen = actions[best[1]]
        if _lone_hand(hand, chosen.suit, bot):  # type: ignore[union-attr]
            alone = next((a for a in actions if isinstance(a, ChooseTrump) and a.alone and
                          a.suit == chosen.suit), None)  # type: ignore[union-attr]
            if alone is not None:
                return alone
        return chosen
    return next(a for a in actions if isinstance(a, Decline))


def _choose_auction_call(obs: TrickObservation, actions: Sequence[TrickAction], bot: TrickBot) -> TrickAction:
    """An auction's call: the hand's likely tricks in each suit the calls offer (and in
    no trump), with its partner's share (a partnership) and the kitty's help (the
    declarer takes it); the lowest call that the best of them covers, else a pass.  A
    call of 0 tricks is read as a contract to take none: called only where the hand
    alone looks worth under half a trick in that suit."""
    hand = list(obs.hand)
    worth: dict[Any, float] = {}
    alone: dict[Any, float] = {}  # the hand's own tricks, for a call of none
    share = obs.hand_size / max(obs.players, 2)
    partner = 0.0
    if any(s != obs.seat and (s - obs.seat) % 2 == 0 for s in range(obs.players)) and obs.players % 2 == 0:
        partner = share * 0.7  # (a partnership: the partner's tricks count too)
    kitty = 0.6 if obs.kitty_size or obs.phase == "auction" and obs.hand_size * obs.players < len(obs.suits) else 0.0
    for action in actions:
        if not isinstance(action, Call):
            continue
        key = "named" if action.named else action.suit
        if key in worth:
            continue
        if action.named:  # a suit named after winning: the best suit of the hand (the worst, to take none)
            values = []
            for suit in range(bot.suit_count):
                suits, power = card_order(bot.trump_rules, suit, bot.ace_high, bot.pack)
                values.append(estimate_tricks(hand, suits, power, suit, obs.players, bot.joker, bot.top))
            value, least = max(values, default=0.0), min(values, default=0.0)
        else:
            suits, power = card_order(bot.trump_rules, action.suit, bot.ace_high, bot.pack)
            value = estimate_tricks(hand, suits, power, action.suit, obs.players, bot.joker, bot.top)
            if action.suit is None:
                value *= 0.9  # (no trump: the long suits count for less)
            least = value
        worth[key] = value + partner + kitty
        alone[key] = least
    calls = [a for a in actions if isinstance(a, Call)]
    fine = [a for a in calls if (alone["named" if a.named else a.suit] < 0.5 if a.tricks == 0 else
                                 a.tricks <= worth["named" if a.named else a.suit] + 0.25)]
    passing = next((a for a in actions if isinstance(a, Decline)), None)
    if fine:
        return min(fine, key=lambda a: (a.tricks, alone["named" if a.named else a.suit] if a.tricks == 0 else
                                        -worth["named" if a.named else a.suit]))
    return passing if passing is not None else calls[0]


def _choose_blind(obs: TrickObservation, actions: Sequence[TrickAction]) -> TrickAction:
    """Bid blind (the lowest blind bid) only when the seat's side trails by 200 or more,
    a gamble worth its risk then; else look at the hand first."""
    side = [s for s in range(obs.players) if obs.players % 2 == 0 and (s - obs.seat) % 2 == 0] or [obs.seat]
    own = sum(obs.totals[s] for s in side)
    others = max((sum(obs.totals[t] for t in range(obs.players) if (t - s) % 2 == 0)
                  for s in range(obs.players) if s not in side), default=own) if obs.players % 2 == 0 else \
        max(obs.totals)
    blind = [a for a in actions if isinstance(a, BlindBid)]
    if blind and others - own >= 200:
        return min(blind, key=lambda a: a.bid)
    return LOOK


def _lone_hand(hand: Sequence[int], trump: int | None, bot: TrickBot) -> bool:
    """Whether a hand may take every trick without its partner: three or more of the four
    highest trumps, and at most one card that is neither a trump nor a side ace."""
    if trump is None:
        return False
    suits, power = card_order(bot.trump_rules, trump, bot.ace_high, bot.pack)
    trumps = sorted((power[c] for c in hand if suits[c] == trump), reverse=True)
    highest = sorted({power[c] for c in range(len(suits)) if suits[c] == trump}, reverse=True)[:4]
    sure = sum(1 for p in trumps if p in highest)
    losers = sum(1 for c in hand if suits[c] != trump and power[c] != bot.top)
    return sure >= 3 and losers <= 1 and len(trumps) >= 3


def _choose_discard(obs: TrickObservation, actions: Sequence[TrickAction]) -> TrickAction:
    """The weakest card that is not a trump (a trump only when it holds nothing else); to
    take no tricks (a call of 0 won), the strongest: a trump first."""
    suits, power = obs.suits, obs.power
    if _takes_none(obs):
        return max(actions, key=lambda a: (suits[a.card] == obs.trump, power[a.card], -a.card))  # type: ignore[union-attr]
    return min(actions, key=lambda a: (suits[a.card] == obs.trump, power[a.card], a.card))  # type: ignore[union-attr]


def _choose_trump(obs: TrickObservation, actions: Sequence[TrickAction], joker: int = JOKER,
                  suit_count: int = 4) -> TrickAction:
    hand = obs.hand
    counts = [0] * suit_count
    for c in hand:
        if c != joker and 0 <= obs.suits[c] < suit_count:
            counts[obs.suits[c]] += 1
    if _takes_none(obs):  # a trump named for a call of 0 tricks: the shortest suit
        best_suit = min(range(suit_count), key=lambda s: (counts[s], s))
    else:
        best_suit = max(range(suit_count), key=lambda s: (counts[s], -s))
    for a in actions:
        if isinstance(a, ChooseTrump) and a.suit == best_suit:
            return a
    return actions[0]


def _choose_ordered_play(obs: TrickObservation, actions: Sequence[Play], bot: TrickBot) -> TrickAction:
    """As :func:`_choose_play`, with trick.order deciding who wins (the round's tiers, and
    the roles played in the trick so far)."""
    rp = obs.round_power
    order = rp.order
    suits, power, trump = obs.suits, obs.power, obs.trump
    seat = obs.seat
    need = tricks_wanted(obs, bot.avoids)
    trick = list(obs.trick)
    roles = list(obs.played_roles[len(obs.played_roles) - len(trick):]) if trick else []
    played_as = [order.index(r) if r is not None else -1 for r in roles]
    trump_base = order.base_of("trump")
    led_base = order.base_of("led")

    def strength(action: Play) -> int:
        c = action.card
        t: int = order.index(action.role) if action.role is not None else rp.tier_of[c]
        if t >= 0:
            return (t + 1) * power_module.TIER_STEP
        base: int = trump_base if trump is not None and suits[c] == trump else led_base
        return base + power[c]

    def wins(action: Play) -> bool:
        if not trick:
            return True
        role = order.index(action.role) if action.role is not None else -1
        return power_module.trick_winner(trick + [(seat, action.card)], suits, power, trump, rp,
                                         played_as + [role], obs.leader, bot.last_identical,
                                         bot.cancel_identical) == seat

    ranked = sorted(actions, key=strength)
    if not trick:
        return ranked[-1] if need > 0 else ranked[0]
    winners = [a for a in ranked if wins(a)]
    losers = [a for a in ranked if a not in winners]
    if need > 0:
        if winners:
            return winners[0] if len(trick) == obs.players - len(obs.absent) - 1 else winners[-1]
        return ranked[0]
    if losers:
        return losers[-1]
    return ranked[-1]
