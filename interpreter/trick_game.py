"""The trick-taking family: deal -> trump -> auction -> trick play -> scoring.

Each phase's rules live in their own module (:mod:`.deal`, :mod:`.trump`,
:mod:`.auction`, :mod:`.trickplay`); this state wires them together and records
events.  Everything a variant changes comes from the ruleset.
"""

from __future__ import annotations

from typing import Any

from . import auction, trickplay
from .actions import BIDS, PLAYS, TRUMP_CHOICES, Bid, ChooseTrump, Deal, Play
from .cards import NAMES, SUITS
from .errors import EvaluationError, IllegalActionError
from .ruleset import Family
from .state import CHANCE, OVER, GameState, register
from .record import ACTION_PARSERS
from .trump import card_order, round_trump

DEAL, CHOOSE_TRUMP, BIDDING, PLAYING = "deal", "trump", "bidding", "play"


@register
class TrickTakingState(GameState):
    """A game of any trick-taking ruleset."""

    family = Family.TRICK_TAKING

    # Slots for this class's own attributes.  GameState keeps a __dict__ for its fields,
    # but with all ~50 attributes in one instance dict CPython drops its compact
    # shared-key layout (at most 30 keys), and every attribute access on the hot path
    # becomes a generic dict look-up.
    __slots__ = ("trump_rules", "bidding", "play_rules", "scoring", "ace_high", "unique_cards", "phase",
                 "hands", "upcard", "trump", "bids", "bid_order", "taken", "trick", "trick_number",
                 "leader", "suits", "power", "played", "constrained_bids", "_candidates",
                 "_candidate_actions", "_candidate_action", "_candidate_cache", "_bid_env", "_made",
                 "_legal_keys", "_follow_suit", "_must_trump", "_simultaneous")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        tricks = self.rules.tricks
        assert tricks is not None
        self.trump_rules = tricks.trump
        self.bidding = tricks.bidding
        self.play_rules = tricks.play
        self.scoring = tricks.scoring
        self.ace_high = self.rules.deck.ace != "low"
        self.unique_cards = self.setup.decks == 1 and self.setup.jokers <= 1
        self.phase = DEAL
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.upcard: int | None = None
        self.trump: int | None = None
        self.bids: list[int | None] = [None] * self.players
        self.bid_order: list[int] = []
        self.taken = [0] * self.players
        self.trick: list[tuple[int, int]] = []
        self.trick_number = 0
        self.leader = 0
        self.suits: list[int] = []
        self.power: list[int] = []
        self.played: list[int] = []  # this round's cards, in order (public)
        self.constrained_bids = 0  # bids where a restriction removed a candidate
        self._candidates: list[int] = []
        self._candidate_actions: list[Any] = []  # the Bid action of each candidate, same order
        self._candidate_action: dict[int, Any] = {}
        self._candidate_cache: dict[int, tuple[list[int], list[Any], dict[int, Any]]] = {}
        self._bid_env: dict[str, Any] = {}
        self._made: list[int] = []  # bids made this round, in bidding order
        # The plain keys (cards or bids) of the cached legal actions, so that apply() can
        # check membership with C-level int comparisons instead of calling the
        # dataclasses' Python __eq__ for every listed action before the chosen one.
        self._legal_keys: list[Any] = []
        # Rule flags read on every move, copied out of their frozen rule objects.
        self._follow_suit = self.play_rules.follow_suit
        self._must_trump = self.play_rules.must_trump
        self._simultaneous = self.bidding.order == "simultaneous"

    # --- legal actions -------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        legal = self._legal
        if legal[0] == self.moves:
            return legal[1]
        turn = self.turn
        if self.phase == PLAYING and turn >= 0:  # the hot path: inline for speed
            hand = self.hands[turn]
            trick = self.trick
            suits = self.suits
            if trick and self._follow_suit and suits[trick[0][1]] >= 0:
                led = suits[trick[0][1]]
                cards = [c for c in hand if suits[c] == led]
                if not cards:  # void in the suit led
                    if self._must_trump:
                        cards = self._legal_cards(turn)
                    else:  # any card: as trickplay.legal_plays, without the call
                        cards = hand[:] if self.unique_cards else list(dict.fromkeys(hand))
                elif not self.unique_cards:
                    cards = list(dict.fromkeys(cards))
            else:
                cards = hand[:] if self.unique_cards else list(dict.fromkeys(hand))
            # map() with the interned actions' __getitem__ builds the list in C
            actions: list[Any] = list(map(PLAYS.__getitem__, cards))
            self._legal_keys = cards
        elif turn == CHANCE:
            actions = [self.chance_action()]
            self._legal_keys = []
        elif turn == OVER:
            actions = []
            self._legal_keys = []
        elif self.phase == BIDDING:
            bids = auction.legal_bids(self.bidding, self._env_for_bid(turn), self._candidates)
            if bids is self._candidates:  # no restriction removed a bid: reuse the round's actions
                actions = self._candidate_actions[:]
            else:
                actions = list(map(self._candidate_action.__getitem__, bids))
            if not actions:
                raise EvaluationError(f"the bidding restrictions leave seat {turn} no legal bid "
                                      f"in round {self.round}")
            self._legal_keys = bids
        else:
            actions = list(TRUMP_CHOICES)
            self._legal_keys = []
        self._legal = (self.moves, actions)
        return actions

    def _legal_cards(self, seat: int) -> list[int]:
        led = self.suits[self.trick[0][1]] if self.trick else -1
        return trickplay.legal_plays(self.hands[seat], led, self.suits, self.trump,
                                     self.play_rules.follow_suit, self.play_rules.must_trump,
                                     self.unique_cards)

    def _env_for_bid(self, seat: int) -> dict[str, Any]:
        env = self._bid_env
        simultaneous = self._simultaneous
        position = self.bid_order.index(seat)
        # item assignment: no keyword dict is built per decision, as update(**kw) would
        env["seat"] = seat
        env["position"] = position
        env["is_dealer"] = seat == self.dealer
        env["bids"] = [] if simultaneous else self._made
        env["is_first"] = position == 0 and not simultaneous
        env["is_last"] = position == self.players - 1 and not simultaneous
        return env

    # --- verification -----------------------------------------------------------------------
    def verify(self, action: Any) -> None:
        turn = self.turn
        if turn == CHANCE:
            if not isinstance(action, Deal):
                raise IllegalActionError(f"the cards must be dealt first, not '{action}'")
            self._verify_deal(action)
            return
        if turn == OVER:
            raise IllegalActionError("the game is over")
        phase = self.phase
        if phase == PLAYING:
            if not isinstance(action, Play):
                raise IllegalActionError(f"it is time to play a card, not '{action}'")
            led = self.suits[self.trick[0][1]] if self.trick else -1
            trickplay.verify_play(self.hands[turn], action.card, led, self.suits, self.trump,
                                  self.play_rules.follow_suit, self.play_rules.must_trump)
        elif phase == BIDDING:
            if not isinstance(action, Bid):
                raise IllegalActionError(f"it is time to bid, not '{action}'")
            auction.verify_bid(self.bidding, self._env_for_bid(turn), self._candidates, action.bid)
        elif phase == CHOOSE_TRUMP:
            if not isinstance(action, ChooseTrump):
                raise IllegalActionError(f"the highest bidder names the trump suit now, not '{action}'")

    # --- applying --------------------------------------------------------------------------
    def apply(self, action: Any) -> None:
        """As :meth:`GameState.apply`; an action from the cached legal list (the case
        of every bot) skips verification, found by its card or bid, not by ``==``."""
        if self._legal[0] == self.moves:
            kind = type(action)
            phase = self.phase
            if kind is Play and phase == PLAYING:  # the keys are cards only while playing
                if action.card in self._legal_keys:
                    self.decisions += 1
                    self._play(action.card)
                    self.moves += 1
                    return
            elif kind is Bid and phase == BIDDING and action.bid in self._legal_keys:
                self.decisions += 1
                self._bid(action.bid)
                self.moves += 1
                return
        super().apply(action)

    def _apply(self, action: Any) -> None:
        kind = type(action)
        if kind is Play:
            self._play(action.card)
        elif kind is Deal:
            self._deal(action)
        elif isinstance(action, Bid):
            self._bid(action.bid)
        else:
            self._choose_trump(action.suit)

    def _deal(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal.hands]
        self.upcard = deal.upcard
        players = self.players
        self.bids = [None] * players
        self.taken = [0] * players
        self.trick = []
        self.trick_number = 1
        self.played = []
        self._deal_event(deal)
        first = self.seat_from_dealer(self.rules.deal.first_to_act)
        self.bid_order = [(first + k) % players for k in range(players)]  # seat_after(first, k)
        env = self._bid_env = self.round_env()  # a fresh dict each round, only the bids use it
        cached = self._candidate_cache.get(self.round_index)
        if cached is None:
            candidates = auction.candidate_bids(self.bidding, env)
            actions = [BIDS[b] if 0 <= b < len(BIDS) else Bid(b) for b in candidates]
            # the candidates, their actions, and bid -> action to map filtered bids in C
            cached = self._candidate_cache[self.round_index] = (candidates, actions, dict(zip(candidates, actions)))
        self._candidates, self._candidate_actions, self._candidate_action = cached
        self._made = []
        if self.trump_rules.kind != "named-by-highest-bidder":
            self._set_trump(round_trump(self.trump_rules, self.rules_round, self.upcard), None)
        else:  # no trump until it is named: cards rank as in a no-trump round meanwhile
            self.trump = None
            self.suits, self.power = card_order(self.trump_rules, None, self.ace_high)
        self.phase = BIDDING
        self.turn = self.bid_order[0]

    def _set_trump(self, suit: int | None, seat: int | None) -> None:
        self.trump = suit
        self.suits, self.power = card_order(self.trump_rules, suit, self.ace_high)
        event: dict[str, Any] = {"event": "trump", "round": self.round, "suit": None if suit is None else SUITS[suit]}
        if seat is not None:
            event["seat"] = seat
        self.events.append(event)

    def _bid(self, bid: int) -> None:
        seat = self.turn
        if self.bidding.restrictions and len(self.legal_actions()) < len(self._candidates):
            self.constrained_bids += 1
        self.bids[seat] = bid
        self._made.append(bid)
        self.events.append({"event": "bid", "round": self.round_index + 1, "seat": seat, "bid": bid})
        position = self.bid_order.index(seat)
        if position + 1 < self.players:
            self.turn = self.bid_order[position + 1]
            return
        if self.trump_rules.kind == "named-by-highest-bidder":
            high = max(b for b in self.bids if b is not None)
            self.phase = CHOOSE_TRUMP
            self.turn = next(s for s in self.bid_order if self.bids[s] == high)
            return
        self._start_play()

    def _choose_trump(self, suit: int | None) -> None:
        self._set_trump(suit, self.turn)
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAYING
        self.leader = self.bid_order[0]
        self.turn = self.leader

    def _play(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        self.played.append(card)
        number = self.trick_number
        round_number = self.round_index + 1
        self.events.append({"event": "play", "round": round_number, "trick": number,
                            "seat": seat, "card": NAMES[card]})
        players = self.players
        if len(trick) < players:
            self.turn = seat + 1 if seat + 1 < players else 0
            return
        winner = trickplay.trick_winner(trick, self.suits, self.power, self.trump)
        self.taken[winner] += 1
        self.events.append({"event": "trick", "round": round_number, "trick": number, "winner": winner})
        self.trick = []
        self.trick_number = number + 1
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self._end_round()

    def _end_round(self) -> None:
        env = self.round_env()
        bids = [b if b is not None else 0 for b in self.bids]
        taken = self.taken
        env["bids"] = bids
        env["taken"] = list(taken)
        points = []
        score = self.scoring.points
        dealer = self.dealer
        teams = self.setup.teams or tuple(range(self.players))  # alone, a seat is its own team
        team_bid: dict[int, int] = {}
        team_tricks: dict[int, int] = {}
        for seat, team in enumerate(teams):
            team_bid[team] = team_bid.get(team, 0) + bids[seat]
            team_tricks[team] = team_tricks.get(team, 0) + taken[seat]
        for seat in range(self.players):
            team = teams[seat]
            env["team"] = team
            env["team_bid"] = team_bid[team]
            env["team_tricks"] = team_tricks[team]
            # item assignment: no keyword dict is built per seat, as update(**kw) would
            env["seat"] = seat
            env["bid"] = bids[seat]
            env["tricks"] = taken[seat]
            env["is_dealer"] = seat == dealer
            try:
                points.append(score(env))
            except EvaluationError as exc:
                raise EvaluationError(f"scoring seat {seat} in round {self.round}: {exc}") from None
        self.phase = DEAL
        self._score_round(points)

    def parse_input(self, text: str) -> Any:
        from .textio import parse_trick_input

        return parse_trick_input(self, text)

    # --- what a seat sees ---------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        simultaneous_pending = self.bidding.order == "simultaneous" and self.phase == BIDDING
        return {
            **self._public(seat, self.phase),
            "hand": [NAMES[c] for c in sorted(self.hands[seat], key=self._sort_key)],
            "upcard": None if self.upcard is None else NAMES[self.upcard],
            "trump": None if self.trump is None or self.phase in (DEAL, CHOOSE_TRUMP) else SUITS[self.trump],
            "bids": [b if (s == seat or not simultaneous_pending) else None for s, b in enumerate(self.bids)],
            "tricks_taken": list(self.taken),
            "trick": [[s, NAMES[c]] for s, c in self.trick],
            "trick_number": self.trick_number,
            "played": [NAMES[c] for c in self.played],
        }

    def _sort_key(self, card: int) -> tuple[int, int]:
        suit = self.suits[card] if self.suits else card // 13
        power = self.power[card] if self.power else card % 13
        return (suit, power)



def action_from_event(state: GameState, event: dict[str, Any]) -> Any:
    """The action a trick-taking record line stands for (None: not an action)."""
    from .cards import card
    from .deal import deal_from_event

    kind = event["event"]
    if kind == "deal":
        return deal_from_event(event, state.deck)
    if kind in ("bid", "play", "trump") and "seat" in event and event["seat"] != state.turn:
        raise IllegalActionError(f"seat {event['seat']} acts out of turn (it is seat {state.turn}'s turn)")
    if kind == "bid":
        value = event["bid"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"bid {value!r} is not a number")
        return Bid(value)
    if kind == "play":
        return PLAYS[card(event["card"])]
    if kind == "trump" and isinstance(state, TrickTakingState) and state.phase == CHOOSE_TRUMP:
        suit = event["suit"]
        return ChooseTrump(None if suit is None else SUITS.index(suit))
    return None


ACTION_PARSERS[Family.TRICK_TAKING.value] = action_from_event
