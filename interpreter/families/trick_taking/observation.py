"""What a seat of a trick-taking game may know: :class:`TrickObservation`, a frozen
value computed from the state (:meth:`Observations.observation`) under the round's
information rules; bots and screens get it, never the state."""

from __future__ import annotations

from typing import Any, NamedTuple

from ...game import OVER
from .phases import _AUCTION, _BIDDING, _CHOOSE_TRUMP, _DEAL, _EXCHANGE, _OVER, _PLAYING
from .round import RoundState


class TrickObservation(NamedTuple):
    """What one seat of a trick-taking game may know.  Cards are card numbers
    (:mod:`cardrules.interpreter.cards`); ``suits`` and ``power`` are the round's card
    order (each card's suit in play and its power), public as the trump is."""

    seat: int
    players: int
    round: int
    rounds: int
    hand_size: int
    dealer: int
    phase: str
    turn: int
    totals: tuple[int, ...]
    hand: tuple[int, ...]  # this seat's cards, in the order held
    upcard: int | None
    trump: int | None  # the trump suit (0..3) once known, else None
    bids: tuple[int | None, ...]  # None: not bid yet (or hidden until everyone has bid)
    taken: tuple[int, ...]  # tricks taken this round, per seat
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick in progress
    trick_number: int
    leader: int
    played: tuple[int, ...]  # this round's cards played, in order
    suits: tuple[int, ...]
    power: tuple[int, ...]
    counters: tuple[tuple[str, tuple[int, ...]], ...] = ()  # each counter's name and every seat's value
    # every seat's hand, this seat's left empty, in a round whose rules show the others' hands; else ()
    others: tuple[tuple[int, ...], ...] = ()
    hand_hidden: bool = False  # this seat bids without seeing its own hand (``hand`` is then empty)
    trump_hidden: bool = False  # the trump and the turned card are shown after the bidding (both None until then)
    played_roles: tuple[str | None, ...] = ()  # with trick.order: each played card's role (None: as itself)
    round_power: Any = None  # with trick.order: the round's tiers over the pack (power.RoundPower), public
    # the exchange: how many cards each seat passes this round (0: none), to whom and from
    # whom this seat's pass goes and comes (-1: no pass), the cards this seat has put aside
    # or passed, and (once every seat has passed) the cards it received
    pass_count: int = 0
    pass_to: int = -1  # (-2: a scatter, to each other seat in turn from the left; -3: laid aside, to no one)
    pass_from: int = -1  # (-2: from each other seat)
    passing: tuple[int, ...] = ()
    received: tuple[int, ...] = ()
    # each card's scoring.card_points this round (public: the rules), once the play starts; else None
    card_values: tuple[int, ...] | None = None
    has_bidding: bool = True  # the round has a bidding phase (phases)
    first_leader: int = -1  # the seat that led (or leads) the round's first trick, once the play starts
    # trump made at the table (trump.kind: order-up): the round of the making (1: the turned
    # suit offered, 2: another named; 0 once made), each call so far ((seat, suit), -2 a pass),
    # the maker (-1: none yet), whether the dealer took the turned card, and the card this
    # seat discarded (its own only; -1: none)
    making_round: int = 0
    trump_calls: tuple[tuple[int, int], ...] = ()
    maker: int = -1
    picked_up: bool = False
    discarded: int = -1
    alone: bool = False  # the maker plays this hand alone (trump.alone) ...
    sitting_out: int = -1  # ... and this seat sits it out (-1: none)
    # an auction (trump.kind: auction): each call so far ((seat, tricks, suit): suit -1 no
    # trump, 99 a suit the winner names, -2 a pass (tricks 0); a call of 0 tricks is a call,
    # with its suit), and once it is won the declarer
    # (-1: none yet), the contract's tricks and its trump (-1: no trump, or not named yet)
    auction: tuple[tuple[int, int, int], ...] = ()
    declarer: int = -1
    contract: int = 0
    contract_suit: int = -1
    # the kitty: the cards dealt aside this round (public), the seat that took them (-1: not
    # yet), and for that seat only the cards it took and those it discarded
    kitty_size: int = 0
    kitty_taker: int = -1
    kitty: tuple[int, ...] = ()
    kitty_discards: tuple[int, ...] = ()
    blind_bids: tuple[bool, ...] = ()  # bidding.blind: each seat's bid was made blind (public)
    absent: tuple[int, ...] = ()  # the seats sitting this hand out (sits_out, or a lone maker's partner)
    # exchange.bid: each card's worth in a bid laid aside this round (public: the rules), while laying aside
    bid_values: tuple[int, ...] | None = None


def pass_target_of(obs: TrickObservation, index: int) -> int:
    """The seat that receives the card ``obs.seat`` puts aside ``index``-th in the exchange:
    the round's receiver, or with a scatter each other seat in turn from its left (the
    seat itself for a card laid aside)."""
    if obs.pass_to == -3:
        return obs.seat
    if obs.pass_to != -2:
        return obs.pass_to
    per = max(1, obs.pass_count // max(1, obs.players - 1))
    return (obs.seat + 1 + index // per) % obs.players


_make = TrickObservation._make
# Observations.observation fills the fields by place up to first_leader: a field added
# must go after it (with a default) or into that tuple in its place
assert TrickObservation._fields.index("round_power") == 25 and TrickObservation._fields[26:34] == (
    "pass_count", "pass_to", "pass_from", "passing", "received", "card_values", "has_bidding", "first_leader")
_NO_EXCHANGE = (0, -1, -1, (), ())  # pass_count .. received when the round has no exchange
# the defaults of the fields after first_leader (those :meth:`Observations.observation`
# does not set by place)
_LATER_DEFAULTS = tuple(TrickObservation._field_defaults[name] for name in
                        TrickObservation._fields[TrickObservation._fields.index("first_leader") + 1:])


class Observations(RoundState):
    """A seat's view of the state (and a spectator's)."""

    __slots__ = ()

    def observation(self, seat: int | None) -> TrickObservation:
        """What ``seat`` may know; ``None``: what a spectator may (seat -1, no hand, and
        no bid while bids made at once are hidden)."""
        if seat is None:
            public = self.observation(0)
            hidden = self._simultaneous and self.phase is _BIDDING or self._laid_bids and self._bids_hidden()
            return public._replace(seat=-1, hand=(), others=(), hand_hidden=False, passing=(), received=(),
                                   pass_to=-1, pass_from=-1, discarded=-1, kitty=(), kitty_discards=(),
                                   bids=tuple(None for _ in public.bids) if hidden else public.bids)
        phase = self.phase
        over = self.turn == OVER
        hidden_bids = self._simultaneous and phase is _BIDDING or self._laid_bids and self._bids_hidden()
        bids = self.bids
        hand: tuple[int, ...] = tuple(self.hands[seat])
        upcard, suits, power = self.upcard, self.suits, self.power
        trump = None if phase is _DEAL or phase is _CHOOSE_TRUMP or phase is _AUCTION else self.trump
        others: tuple[tuple[int, ...], ...] = ()
        own = True
        trump_hidden = False
        if self._own_hidden or self._others_shown or self._trump_hidden:  # information rules this round
            own, sees_others = self.sees(seat)
            if not own:
                hand = ()
            if sees_others:
                others = tuple(() if s == seat else tuple(h) for s, h in enumerate(self.hands))
            if self._trump_hidden and phase is _BIDDING:
                upcard = trump = None
                suits, power = self._order(None)
                trump_hidden = True
        if self.tricks.blind is not None and not over and phase is not _PLAYING and not self.looked[seat]:
            hand = ()  # it has not looked at its hand yet: it may still bid blind
            own = False
        # built by place, not by keyword (a NamedTuple's keywords cost more than the rest
        # of the observation; observations are built for every decision a bot makes)
        pass_count = self.pass_count
        if pass_count:  # this seat's part of the round's exchange
            # (-1: a scatter, to and from each other seat: -2 below; -2: laid aside, -3 and -1)
            offset = self.pass_offset
            exchange = (pass_count, (seat + offset) % self.players if offset > 0 else -2 if offset == -1 else -3,
                        (seat - offset) % self.players if offset > 0 else -2 if offset == -1 else -1,
                        tuple(self.passing[seat]), tuple(self.received[seat]))
        else:
            exchange = _NO_EXCHANGE
        counters = self.counters
        obs = _make((
            seat, self.players, self.round_index + 1, len(self.setup.hand_sizes),
            0 if over else self.hand_size, self.dealer, _OVER if over else phase, self.turn,
            tuple(self.totals), hand, upcard, trump,
            tuple(bids) if not hidden_bids else tuple(b if s == seat else None for s, b in enumerate(bids)),
            tuple(self.taken), tuple(self.trick), self.trick_number, self.leader, tuple(self.played),
            suits, power, tuple((name, tuple(v)) for name, v in counters.items()) if counters else (), others,
            not own, trump_hidden, tuple(self.played_roles), None if trump_hidden else self._round_power)
            + exchange + (
            self._card_values if phase is _PLAYING or phase is _EXCHANGE else None,
            self.tricks.has_bidding, self.first_leader if phase is _PLAYING else -1) + _LATER_DEFAULTS)
        if self._ordering:  # this seat's part of a trump made at the table
            obs = obs._replace(making_round=self.making_round if phase is _CHOOSE_TRUMP else 0,
                               trump_calls=tuple(self.trump_calls), maker=self.maker, picked_up=self.picked_up,
                               discarded=self.discarded if seat == self.dealer else -1, alone=self.alone,
                               sitting_out=self.sitting_out)
        elif self.picked_up:  # trump.no_upcard: dealer-last: the turned card is the dealer's own
            obs = obs._replace(picked_up=True)
        if self.absent:
            obs = obs._replace(absent=self.absent)
        if self.tricks.blind is not None:
            obs = obs._replace(blind_bids=tuple(self.blind_bids))
        if phase is _EXCHANGE and self.pass_offset == -2 and self.tricks.bids_laid_aside:
            obs = obs._replace(bid_values=self._bid_values())
        if self._auctioning:  # the calls are public, and so is the contract once made
            obs = obs._replace(auction=tuple(self.auction_calls), declarer=self.declarer, contract=self.contract,
                               contract_suit=self.contract_suit)
        if self.tricks.kitty is not None:  # its cards are the taker's own to see
            taker = self.kitty_taker
            obs = obs._replace(kitty_size=len(self.kitty_taken) if taker >= 0 else len(self.kitty), kitty_taker=taker,
                               kitty=tuple(self.kitty_taken) if seat == taker else (),
                               kitty_discards=tuple(self.kitty_discards) if seat == taker else ())
        return obs

    def _bids_hidden(self) -> bool:
        """Bids laid aside as cards (exchange.bid, ``_laid_bids``) stay face down until the
        round is over."""
        return self.phase is not _DEAL and self.turn != OVER
