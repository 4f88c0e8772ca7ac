"""What a trick-taking round holds: every field of the state, by the phase that owns it,
and what every phase uses (a rule evaluated with its place named on failure).

:class:`RoundState` is the base of each phase's part of the state (:mod:`.dealing`,
:mod:`.trump`, :mod:`.auction`, :mod:`.trickplay`, :mod:`.scoring`,
:mod:`.observation`); :class:`~.state.TrickTakingState` composes them.  The fields are
declared here once, because the phases read each other's (the play reads the trump and
the bids; the scoring the bids and the tricks taken); each phase sets its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import EvaluationError
from ...game import GameState
from .actions import Move
from .phases import Phase
from .rules import TrickRules

if TYPE_CHECKING:
    from .trickplay import Winner

_NO_SLOTS: tuple[str, ...] = ()


class RoundState(GameState):
    """The fields of a trick-taking game, and the helpers every phase uses."""

    # --- the state's own ----------------------------------------------------------------------
    tricks: TrickRules  # the ruleset's trick-taking section
    phase: Phase
    # The plain keys (cards or bids) of the cached legal actions, so that apply() can
    # check membership with C-level int comparisons instead of calling the
    # dataclasses' Python __eq__ for every listed action before the chosen one.
    _legal_keys: list[int]
    _keys_at: int  # the move number the keys are for

    # --- the deal and the information rules (dealing.py) --------------------------------------
    hands: list[list[int]]
    upcard: int | None
    _own_hidden: bool  # this round a seat bids without seeing its own hand
    _others_shown: bool  # this round a seat sees every other hand
    _trump_hidden: bool  # this round the trump (and the turned card) is shown after the bidding

    # --- the exchange (exchange.py) ----------------------------------------------------------
    passing: list[list[int]]  # per seat: the cards it has put aside to pass this round (kept once passed)
    received: list[list[int]]  # per seat: the cards passed to it this round (once every seat has passed)
    pass_count: int  # cards each seat passes this round (0: no exchange)
    pass_offset: int  # the receiving seat, in seats to the passer's left

    # --- the trump (trump.py) -----------------------------------------------------------------
    ace_high: bool
    trump: int | None  # the suit (0..3), None for no trump (or not named yet)
    suits: tuple[int, ...]  # the round's card order: each card's suit in play ...
    power: tuple[int, ...]  # ... and its power in that suit
    _orders: dict[int | None, tuple[tuple[int, ...], tuple[int, ...]]]  # trump -> card order (setup-wide)
    _named_trump: bool  # the highest bidder names the trump after the bidding
    _trump_due: dict[str, Any] | None  # the trump event of a round that hides it, logged when revealed
    _ordering: bool  # trump.kind: order-up (making.py)

    # --- trump made at the table (making.py) --------------------------------------------------
    maker: int  # the seat that made the trump this round (ordered it up or named it); -1: none
    making_round: int  # order-up: 1 while the turned suit is offered, 2 while another is named
    trump_calls: list[tuple[int, int]]  # order-up: (seat, the suit ordered or named, or -2 for a pass)
    discarded: int  # the card the dealer discarded after taking the turned card (-1: none)
    picked_up: bool  # the dealer took the turned card this round
    alone: bool  # the maker plays this hand alone (trump.alone)
    sitting_out: int  # the seat sitting this hand out (the lone maker's partner); -1: none
    laid_aside: list[int]  # the cards of the seats sitting out
    absent: tuple[int, ...]  # every seat sitting this hand out (sits_out, or the lone maker's partner)

    # --- the auction of contracts (contracts.py) ------------------------------------------------
    _auctioning: bool  # trump.kind: auction
    # (seat, tricks, suit: -1 no trump, or NAMED_SUIT) of each call; tricks 0: a pass
    auction_calls: list[tuple[int, int, int]]
    _calls: list[Any]  # the round's calls, lowest first (setup-wide)
    _high: int  # the index in _calls of the highest call so far (-1: none)
    _out: list[bool]  # per seat: it has passed
    declarer: int  # the auction's winner (-1: none)
    contract: int  # the tricks of its call (0: none)
    contract_rank: int  # its suit's place in auction.suits (-1: none)
    contract_suit: int  # the trump it made (-1: no trump, or none yet)

    # --- the kitty (kitty.py) ----------------------------------------------------------------
    kitty: list[int]  # the cards dealt aside this round, until taken (hidden)
    kitty_taker: int  # the seat that took them (-1: not yet)
    kitty_taken: list[int]  # the cards it took (its own to see)
    kitty_discards: list[int]  # the cards it discarded (its own to see)
    _kitty_trick: int  # kitty.to_trick: the trick whose winner takes the kitty this round (0: none)

    # --- blind bids (blind.py) -------------------------------------------------------------------
    looked: list[bool]  # per seat: it has looked at its hand this round (or no blind bid was open to it)
    blind_bids: list[bool]  # per seat: its bid this round was made blind
    _blind_offer: list[Any]  # the blind bids open to the seat choosing, and looking

    # --- the bidding (auction.py) -------------------------------------------------------------
    bids: list[int | None]
    bid_order: list[int]
    constrained_bids: int  # bids where a restriction removed a candidate
    _candidates: list[int]  # the bids the round's range allows
    _candidate_actions: list[Move]  # the Bid action of each candidate, same order (copied as the legal list)
    _candidate_action: dict[int, Move]  # bid -> its action
    _candidate_cache: dict[int, tuple[list[int], list[Move], dict[int, Move]]]  # by round (setup-wide)
    _bid_env: dict[str, Any]  # this round's names; bids and scores fill it in
    _made: list[int]  # bids made this round, in bidding order
    _made_key: tuple[int, ...]  # the same, as a key of _round_bids
    _simultaneous: bool
    _laid_bids: bool  # the bids are cards laid aside (exchange.bid): hidden from the others until the round's end
    _hand_bids: bool  # a bidding restriction reads the bidder's hand (its legal bids are not kept)
    _first_offset: int
    _restricted: bool
    _bids_memo: dict[tuple[int, int], dict[tuple[int, ...], list[int]]]  # (round, dealer) -> ... (setup-wide)
    _round_bids: dict[tuple[int, ...], list[int]]  # bids made -> the next bidder's legal bids

    # --- the trick play (trickplay.py) --------------------------------------------------------
    unique_cards: bool  # one deck and at most one joker: a hand holds no card twice
    taken: list[int]  # tricks taken this round, per seat
    trick: list[tuple[int, int]]  # (seat, card) of the trick in progress
    trick_number: int
    leader: int
    played: list[int]  # this round's cards, in order (public)
    _follow_suit: bool
    _must_trump: bool
    _by_rule: bool  # plays decided by restrictions or free cards
    _trick_winner: Winner
    _trump_broken: bool  # a trump has been played this round (kept when _by_rule)
    _play_of: Any  # card -> its interned Play (the pack's)
    _ordered: bool  # trick.order (or identical cards cancelling) decides the tricks
    _roles: dict[int, tuple[str, ...]]  # trick.roles: card -> the tiers it may be played as
    _round_power: Any  # the round's trick order over the pack (power.RoundPower), or None
    _played_as: list[int]  # the tier each play of the trick in progress is played as (-1: its own)
    played_roles: list[str | None]  # with trick.order: the role each card of ``played`` was played as
    first_leader: int  # the seat that led the round's first trick (public once the play starts)
    _lead_card: int  # play.first_lead: the card its holder must lead to the first trick (-1: none)
    won: list[list[int]]  # per seat: the cards in the tricks it took this round (kept while counting)
    _general: bool  # plays by restrictions, free cards or trick.order (not the plain following of suit)
    _plain: bool  # the standard pack, no trick.order, nothing counted in the tricks: the plain play path
    _counting: bool  # the scoring counts points in the tricks taken (scoring.card_points, trick_points)
    _card_values: tuple[int, ...] | None  # each card's scoring.card_points this round
    card_points: list[int]  # per seat: the card_points of the cards in its tricks this round
    trick_points: list[int]  # per seat: the trick_points of its tricks this round

    # --- the scoring (scoring.py) -------------------------------------------------------------
    exact_bids: list[int]  # rounds each seat took exactly its bid
    points_by_hand_size: dict[int, list[int]]  # hand size -> [points, seat-rounds]
    counters: dict[str, list[int]]  # counter name -> each seat's value, carried from round to round
    _score: Any  # the compiled scoring program
    _per_seat_names: bool  # the scoring reads a per-seat name besides the bid and the tricks taken
    _teams: tuple[int, ...]  # empty: every seat alone
    _reads_taken: bool  # the scoring reads the names of the cards taken (cards_taken, scoring.counts...)

    # No slots of its own (nor have the phases' classes): every field's slot is the
    # composed state's own (FIELDS, below; state.py says why).  A name, not a literal
    # (), so that mypy does not check the phases' assignments against slots they lack.
    __slots__ = _NO_SLOTS

    def _advance(self, done: str) -> None:
        """The round's next phase after ``done`` (phases, in the ruleset's order)."""
        steps = self.tricks.phases
        step = steps[steps.index(done) + 1]
        if step == "trump":
            self._make_trump()
        elif step == "bidding":
            self._start_bidding()
        elif step == "exchange":
            self._start_exchange()
        elif step == "kitty":
            self._start_kitty()
        else:
            self._start_play()

    def _evaluated(self, compiled: Any, env: dict[str, Any], path: tuple[Any, ...]) -> Any:
        """``compiled`` in ``env``; a failure names the rule and its expression."""
        try:
            return compiled(env)
        except EvaluationError as exc:
            where = ".".join(str(k) for k in path)
            raise EvaluationError(f"{where} '{compiled.source}': {exc}", path) from None

    if TYPE_CHECKING:
        # What each phase offers the others (defined in its module, found through the
        # composed state's classes).
        def sees(self, seat: int) -> tuple[bool, bool]: ...  # dealing
        def _order(self, suit: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]: ...  # trump
        def _use_order(self, suit: int | None) -> None: ...  # trump
        def _make_trump(self) -> None: ...  # trump
        def _end_bidding(self) -> None: ...  # trump
        def _open_bidding(self) -> None: ...  # auction
        def _start_bidding(self) -> None: ...  # auction
        def _start_exchange(self) -> None: ...  # exchange
        def _start_auction(self) -> None: ...  # contracts
        def contract_names(self) -> dict[str, Any]: ...  # contracts
        def _start_kitty(self) -> None: ...  # kitty
        def _offer_blind(self) -> None: ...  # blind
        def _open_blind(self) -> None: ...  # blind
        def _env_for_bid(self, seat: int) -> dict[str, Any]: ...  # auction
        def _legal_bids(self, seat: int) -> list[int]: ...  # auction
        def _bid(self, bid: int, blind: bool = False) -> None: ...  # auction
        def _start_making(self) -> None: ...  # making
        def _set_trump(self, suit: int | None, seat: int | None, alone: bool = False) -> None: ...  # trump
        def _sit_out(self) -> None: ...  # making
        def _open_exchange(self) -> None: ...  # exchange
        def _reveal_aside(self) -> None: ...  # exchange
        def _bid_values(self) -> tuple[int, ...]: ...  # exchange
        def observation(self, seat: int | None) -> Any: ...  # observation
        def _values_by_card(self, rule: Any, path: tuple[str, ...], name: str) -> tuple[int, ...]: ...  # trickplay
        def _deal_kitty(self, stock: tuple[int, ...]) -> None: ...  # kitty
        def _kitty_with_trick(self, winner: int) -> None: ...  # kitty
        def _keys(self, turn: int) -> list[int]: ...  # state
        def _open_play(self) -> None: ...  # trickplay
        def _values_of_cards(self) -> tuple[int, ...] | None: ...  # trickplay
        def _start_play(self) -> None: ...  # trickplay
        def _end_round(self) -> None: ...  # scoring


# Every field declared above, by name: the slots of the composed state (state.py), which
# holds them itself (tests/test_trick_state_layout.py checks that the two agree).
FIELDS = ("tricks", "phase", "_legal_keys", "_keys_at",
          "hands", "upcard", "_own_hidden", "_others_shown", "_trump_hidden",
          "passing", "received", "pass_count", "pass_offset",
          "ace_high", "trump", "suits", "power", "_orders", "_named_trump", "_trump_due", "_ordering",
          "_auctioning", "auction_calls", "_calls", "_high", "_out", "declarer", "contract", "contract_rank",
          "contract_suit", "kitty", "kitty_taker", "kitty_taken", "kitty_discards", "_kitty_trick", "looked",
          "blind_bids",
          "_blind_offer",
          "maker", "making_round", "trump_calls", "discarded", "picked_up", "alone", "sitting_out", "laid_aside",
          "absent",
          "bids", "bid_order", "constrained_bids", "_candidates", "_candidate_actions", "_candidate_action",
          "_candidate_cache", "_bid_env", "_made", "_made_key", "_simultaneous", "_laid_bids", "_hand_bids", "_first_offset", "_restricted",
          "_bids_memo", "_round_bids",
          "unique_cards", "taken", "trick", "trick_number", "leader", "played", "_follow_suit", "_must_trump",
          "_by_rule", "_trick_winner", "_trump_broken", "_play_of", "_ordered", "_roles", "_round_power",
          "_played_as", "played_roles", "first_leader", "_lead_card", "won", "_general", "_plain", "_counting", "_card_values", "card_points", "trick_points",
          "exact_bids", "points_by_hand_size", "counters", "_score", "_per_seat_names", "_teams", "_reads_taken")
