"""The trick-play phase of a round: which cards may be played, why one may not, who
wins a trick, and the play as part of the state (:class:`PlayPhase`, entered after
the bidding at :meth:`PlayPhase._start_play`)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ...cards import JOKER, NAMES
from ...errors import EvaluationError, IllegalActionError
from .actions import Move, Play
from .phases import _PLAYING
from .round import RoundState
from .trump import LEAD_PASSES, NO_SUIT, TOP, describe


def legal_plays(hand: Sequence[int], led: int, suits: Sequence[int], trump: int | None,
                follow_suit: bool, must_trump: bool, unique: bool = False) -> list[int]:
    """Distinct cards of ``hand`` that may be played; ``led`` is -1 when leading.
    ``unique``: the hand cannot hold two identical cards (one deck), skip de-duplication."""
    cards: Sequence[int] = hand
    if led >= 0 and follow_suit:
        following = [c for c in hand if suits[c] == led]
        if following:
            cards = following
        elif must_trump and trump is not None:
            cards = [c for c in hand if suits[c] == trump] or hand
    return list(cards) if unique else list(dict.fromkeys(cards))


def play_refusal(hand: Sequence[int], card: int, led: int, suits: Sequence[int], trump: int | None,
                 must_trump: bool) -> str:
    """Why ``card`` may not be played, the caller having found it is not among the
    legal plays: the rule it breaks, in the player's words."""
    if card not in hand:
        return f"you do not hold {NAMES[card]}"
    if led >= 0 and suits[card] != led and any(suits[c] == led for c in hand):
        extra = ""
        if 0 <= suits[card] != card // 13:
            extra = f" ({NAMES[card]} counts as a {describe(suits[card]).rstrip('s')} this round)"
        return f"you must follow {describe(led)}{extra}"
    if must_trump and trump is not None and suits[card] != trump and any(suits[c] == trump for c in hand):
        return f"you have no {describe(led)}, so you must play a trump ({describe(trump)})"
    return f"you may not play {NAMES[card]} now"


def led_suit(trick: Sequence[tuple[int, int]], suits: Sequence[int]) -> int:
    """The suit to follow in ``trick`` (seat, card pairs): the first card's, or after a
    led lowest joker the first card's that has a suit; NO_SUIT when none does (or when
    a card of no suit that leaves the others free was led)."""
    for _, card in trick:
        s = suits[card]
        if s != LEAD_PASSES:
            return s
    return NO_SUIT


def trick_winner(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int],
                 trump: int | None) -> int:
    """The seat that wins: a highest joker (the first played), else the highest trump,
    else the highest card of the suit led; a trick of lowest jokers only goes to the
    first. Of two identical cards (several decks) the first played wins."""
    led = suits[plays[0][1]]
    if led == LEAD_PASSES:
        led = led_suit(plays, suits)
    best_seat, best_key = -1, -1
    for seat, card in plays:
        s = suits[card]
        if s == trump:
            key = 1000 + power[card]
        elif s < 0:  # a joker of no suit: a highest one (or a top-trump one without trump) wins,
            key = 2000 if s == NO_SUIT and power[card] == TOP else 0  # a lowest one only among jokers
        elif s == led:
            key = 500 + power[card]
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def plain_trick_winner(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int],
                       trump: int | None) -> int:
    """:func:`trick_winner` for a pack without jokers (every card has a suit): the
    per-trick path of most games, kept free of the jokers' cases."""
    led = suits[plays[0][1]]
    best_seat, best_key = -1, -1
    for seat, card in plays:
        s = suits[card]
        if s == trump:
            key = 1000 + power[card]
        elif s == led:
            key = 500 + power[card]
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


Winner = Callable[[Sequence[tuple[int, int]], Sequence[int], Sequence[int], "int | None"], int]


def _last_identical_wins(winner: Winner) -> Winner:
    """``winner`` with a tie of identical cards (several decks) going to the copy played
    last: the winning card's last copy in the trick wins."""
    def wins(plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int], trump: int | None) -> int:
        seat = winner(plays, suits, power, trump)
        card = next(c for s, c in plays if s == seat)
        return [s for s, c in plays if c == card][-1]
    return wins


def winner_function(jokers: bool, last_identical: bool) -> Winner:
    """Who wins a trick under the rules: the plain function for a pack without jokers,
    and of identical cards the first played wins unless ``last_identical``."""
    winner: Winner = trick_winner if jokers else plain_trick_winner
    return _last_identical_wins(winner) if last_identical else winner


def _play_event(round_number: int, trick: int, seat: int, card: int) -> dict[str, Any]:
    return {"event": "play", "round": round_number, "trick": trick, "seat": seat, "card": NAMES[card]}


def _trick_event(round_number: int, trick: int, winner: int) -> dict[str, Any]:
    return {"event": "trick", "round": round_number, "trick": trick, "winner": winner}


class PlayPhase(RoundState):
    """The trick play: the leader of the first trick, the cards a seat may play
    (:meth:`PlayPhase._legal_cards`: what is listed and what verifies, following suit
    and trumping, then ``play.free`` and ``play.restrictions``), and each trick's
    winner, who leads the next; the round is scored once the hands are empty."""

    __slots__ = ()

    def _init_play(self) -> None:
        self.unique_cards = self.setup.decks == 1 and self.setup.jokers <= 1
        self.taken = [0] * self.players
        self.trick = []
        self.trick_number = 0
        self.leader = 0
        self.played = []
        # Rule flags read on every move, copied out of their frozen rule objects.
        self._follow_suit = self.tricks.play.follow_suit
        self._must_trump = self.tricks.play.must_trump
        self._by_rule = self.tricks.play.by_rule
        self._trick_winner = winner_function(bool(self.setup.jokers), self.tricks.play.last_identical)
        self._trump_broken = False

    def _open_play(self) -> None:
        """After the deal: no trick taken or played yet."""
        self.taken = [0] * self.players
        self.trick = []
        self.trick_number = 1
        self.played = []
        self._trump_broken = False

    def _start_play(self) -> None:
        """After the bidding (and a trump named): the first trick's leader leads."""
        self.phase = _PLAYING
        self.leader = self.bid_order[0]
        rule = self.tricks.play.leader
        if rule is not None:
            env = self.setup.round_env(self.round_index)
            bids = [b if b is not None else 0 for b in self.bids]
            high = max(bids)
            env.update(dealer=self.dealer, first=self.bid_order[0], bids=bids,
                       highest_bidder=next(s for s in self.bid_order if bids[s] == high),
                       trump=-1 if self.trump is None else self.trump)
            self.leader = self._evaluated(rule, env, ("play", "leader")) % self.players
        self.turn = self.leader

    def _legal_cards(self, seat: int) -> list[int]:
        """The distinct cards ``seat`` may play now (what is listed and what verifies)."""
        if self._by_rule:
            return self._ruled_cards(seat)[0]
        hand = self.hands[seat]
        trick = self.trick
        if trick and self._follow_suit:
            suits = self.suits
            led = suits[trick[0][1]]
            if led == LEAD_PASSES:
                led = led_suit(trick, suits)
            if led >= 0:
                cards = [c for c in hand if suits[c] == led]
                if cards:
                    return cards if self.unique_cards else list(dict.fromkeys(cards))
                if self._must_trump:  # void in the suit led
                    return legal_plays(hand, led, suits, self.trump, True, True, self.unique_cards)
        return hand[:] if self.unique_cards else list(dict.fromkeys(hand))

    def _ruled_cards(self, seat: int, asked: int | None = None) -> tuple[list[int], str | None]:
        """The cards ``seat`` may play under play.free and play.restrictions, and (for a
        card ``asked`` about) why it may not be played, or None.  Following suit and
        trumping give the cards first; a free card may be played whatever was led; then
        each restriction in turn keeps the cards its rule holds for, unless it would
        keep none, when it is waived for this play."""
        play = self.tricks.play
        followed = self._followed_cards(seat)
        cards = followed
        hand = self.hands[seat]
        env = self._play_env(seat, followed)
        if play.free is not None:
            in_followed = set(followed)
            extra = [c for c in dict.fromkeys(hand) if c not in in_followed and
                     self._card_test(play.free, env, seat, c, ("play", "free"))]
            if extra:
                cards = followed + extra
        if asked is not None and asked not in cards:
            return cards, None
        for i, restriction in enumerate(play.restrictions):
            path = ("play", "restrictions", i, "rule")
            kept = [c for c in cards if self._card_test(restriction.rule, env, seat, c, path)]
            if not kept:
                continue  # waived: it would leave no card to play
            if asked is not None and asked not in kept:
                self._card_env(env, seat, asked)
                try:
                    return kept, restriction.message.render(env)
                except EvaluationError as exc:
                    raise EvaluationError(f"play.restrictions[{i}].message: {exc}",
                                          ("play", "restrictions", i, "message")) from None
            cards = kept
        return cards, None

    def _followed_cards(self, seat: int) -> list[int]:
        """The distinct cards ``seat`` may play by following suit and trumping alone."""
        led = led_suit(self.trick, self.suits)
        return legal_plays(self.hands[seat], led, self.suits, self.trump, self._follow_suit, self._must_trump,
                           self.unique_cards)

    def _play_env(self, seat: int, followed: list[int]) -> dict[str, Any]:
        """The names of play.free and play.restrictions for ``seat`` now, but the card's
        (``followed``: the cards following suit and trumping allow)."""
        env = self.setup.round_env(self.round_index)
        trick = self.trick
        suits = self.suits
        trump = self.trump
        hand = self.hands[seat]
        led = led_suit(trick, suits)
        env.update(seat=seat, is_dealer=seat == self.dealer, bid=self.bids[seat] or 0,
                   bids=[b if b is not None else 0 for b in self.bids], taken=self.taken[:],
                   tricks=self.taken[seat], trick=self.trick_number, position=len(trick), is_lead=not trick,
                   led_suit=led, trump=-1 if trump is None else trump,
                   can_follow=led >= 0 and any(suits[c] == led for c in hand),
                   holds_trump=trump is not None and any(suits[c] == trump for c in hand),
                   cards_in_hand=len(hand),
                   trump_in_trick=trump is not None and any(suits[c] == trump for _, c in trick),
                   trump_broken=self._trump_broken)
        for name, values in self.counters.items():
            env[name] = values[seat]
        env["can_beat"] = any(self._beats(seat, c) for c in followed)
        return env

    def _beats(self, seat: int, card: int) -> bool:
        """Whether ``card`` played by ``seat`` now would win the trick as it stands."""
        if not self.trick:
            return True
        return self._trick_winner(self.trick + [(seat, card)], self.suits, self.power, self.trump) == seat

    def _card_env(self, env: dict[str, Any], seat: int, card: int) -> None:
        suit = self.suits[card]
        env["card_suit"] = suit if suit >= 0 else NO_SUIT
        env["card_rank"] = 0 if card == JOKER else card % 13 + 2
        env["card_is_trump"] = self.trump is not None and suit == self.trump
        env["card_is_joker"] = card == JOKER
        env["beats"] = self._beats(seat, card)

    def _card_test(self, compiled: Any, env: dict[str, Any], seat: int, card: int, path: tuple[Any, ...]) -> bool:
        self._card_env(env, seat, card)
        return bool(self._evaluated(compiled, env, path))

    def _verify_play(self, action: Move, turn: int) -> None:
        if not isinstance(action, Play):
            raise IllegalActionError(f"it is time to play a card, not '{action}'")
        if action.card not in self._legal_cards(turn):
            if self._by_rule and action.card in self.hands[turn]:
                reason = self._ruled_cards(turn, action.card)[1]
                if reason is not None:
                    raise IllegalActionError(reason)
            led = led_suit(self.trick, self.suits)
            raise IllegalActionError(play_refusal(self.hands[turn], action.card, led, self.suits, self.trump,
                                                  self._must_trump))

    def _play(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        self.played.append(card)
        number = self.trick_number
        round_number = self.round_index + 1
        log = self._log
        log.append((_play_event, round_number, number, seat, card))
        if self._by_rule and self.trump is not None and self.suits[card] == self.trump:
            self._trump_broken = True
        players = self.players
        if len(trick) < players:
            self.turn = seat + 1 if seat + 1 < players else 0
            return
        winner = self._trick_winner(trick, self.suits, self.power, self.trump)
        self.taken[winner] += 1
        log.append((_trick_event, round_number, number, winner))
        self.trick = []
        self.trick_number = number + 1
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self._end_round()
