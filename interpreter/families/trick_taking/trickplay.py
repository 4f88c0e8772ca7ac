"""The trick-play phase of a round: which cards may be played, why one may not, who
wins a trick, and the play as part of the state (:class:`PlayPhase`, entered after
the bidding at :meth:`PlayPhase._start_play`)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ...cards import NAMES
from ...errors import EvaluationError, IllegalActionError
from ...pack import STANDARD, Pack
from . import power as ordered
from .actions import Move, Play, plays
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
                 must_trump: bool, pack: Pack = STANDARD) -> str:
    """Why ``card`` may not be played, the caller having found it is not among the
    legal plays: the rule it breaks, in the player's words."""
    code = pack.codes[card] if 0 <= card < pack.size else str(card)
    if card not in hand:
        return f"you do not hold {code}"
    if led >= 0 and suits[card] != led and any(suits[c] == led for c in hand):
        extra = ""
        if 0 <= suits[card] != pack.suit_of[card]:
            extra = f" ({code} counts as a {describe(suits[card], pack).rstrip('s')} this round)"
        return f"you must follow {describe(led, pack)}{extra}"
    if must_trump and trump is not None and suits[card] != trump and any(suits[c] == trump for c in hand):
        return f"you have no {describe(led, pack)}, so you must play a trump ({describe(trump, pack)})"
    return f"you may not play {code} now"


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


def _play_event(round_number: int, trick: int, seat: int, card: int, codes: Sequence[str] = NAMES,
                role: str | None = None) -> dict[str, Any]:
    event = {"event": "play", "round": round_number, "trick": trick, "seat": seat, "card": codes[card]}
    if role is not None:
        event["as"] = role
    return event


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
        pack = self.setup.pack
        self._play_of = plays(pack).__getitem__
        if any(n > 1 for _, n in self.setup.special_counts):
            self.unique_cards = False
        order = self.tricks.order
        self._roles = dict(order.roles) if order is not None else {}
        self._ordered = order is not None or self.tricks.play.cancel_identical
        self._round_power = None
        self._played_as = []
        self.played_roles = []
        if self._ordered:  # trick.order: the tiers decide (a bound method: it reads the roles played)
            self._trick_winner = self._ordered_winner
        else:
            self._trick_winner = winner_function(bool(self.setup.jokers), self.tricks.play.last_identical)
        self._trump_broken = False
        scoring = self.tricks.scoring
        self._counting = scoring.card_points is not None or scoring.trick_points is not None or bool(scoring.counts)
        # nothing beyond the standard pack's plays: no roles, no trick order, nothing counted
        self._plain = pack is STANDARD and not self._ordered and not self._counting and \
            (self.tricks.kitty is None or self.tricks.kitty.to_trick is None)
        self._general = self._by_rule or self._ordered or bool(self.tricks.play.first_lead)
        self._card_values = None
        self._lead_card = -1
        self.first_leader = -1
        self.won = []
        self.card_points = []
        self.trick_points = []

    def _open_play(self) -> None:
        """After the deal: no trick taken or played yet."""
        self.taken = [0] * self.players
        self.trick = []
        self.trick_number = 1
        self.played = []
        self.played_roles = []
        self._played_as = []
        self._trump_broken = False
        if self._counting:
            self.card_points = [0] * self.players
            self.trick_points = [0] * self.players
            self.won = [[] for _ in range(self.players)]

    def _start_play(self) -> None:
        """After the bidding (and a trump named): the first trick's leader leads."""
        self.phase = _PLAYING
        # the first to act (bid_order[0], unless bidding.first started the bidding elsewhere)
        self.leader = first = (self.dealer + self._first_offset) % self.players
        rule = self.tricks.play.leader
        if rule is not None:
            env = self.setup.round_env(self.round_index)
            bids = [b if b is not None else 0 for b in self.bids]
            high = max(bids)
            env.update(dealer=self.dealer, first=first, bids=bids,
                       highest_bidder=next(s for s in self.bid_order if bids[s] == high),
                       trump=-1 if self.trump is None else self.trump)
            env.update(self.contract_names())
            self.leader = self._evaluated(rule, env, ("play", "leader")) % self.players
        self._lead_card = -1
        if self.tricks.play.first_lead:
            self._lead_by_holder()
        if self.alone:  # a maker playing alone: the partner sits out
            self._sit_out()
        while self.leader in self.absent:  # a seat sitting the hand out leads nothing: the next one does
            self.leader = self.seat_after(self.leader)
        self.turn = self.first_leader = self.leader
        if self._counting:
            self._card_values = self._values_of_cards()

    def _lead_by_holder(self) -> None:
        """play.first_lead: the holder of the first of its cards in a hand leads (and, with
        lead_it, must lead that card); none of them held: the leader stands."""
        for card in self.tricks.play.first_lead:
            for seat, hand in enumerate(self.hands):
                if card in hand:
                    self.leader = seat
                    if self.tricks.play.lead_it:
                        self._lead_card = card
                    return

    def _values_of_cards(self) -> tuple[int, ...] | None:
        """Each card's scoring.card_points this round (kept for every game of the setup,
        by the round and the trump)."""
        rule = self.tricks.scoring.card_points
        if rule is None:
            return None
        return self._values_by_card(rule, ("scoring", "card_points"), "card_points")

    def _values_by_card(self, rule: Any, path: tuple[str, ...], name: str) -> tuple[int, ...]:
        """A rule of one card (the names of scoring.card_points) for every card of the pack
        this round (0 for a card not in the deck), kept for every game of the setup under
        ``name``, by the round and the trump."""
        key = (self.round_index, self.trump)
        cache = self.setup.cache.setdefault(name, {})
        found: tuple[int, ...] | None = cache.get(key)
        if found is None:
            pack = self.setup.pack
            env = self.setup.round_env(self.round_index)
            env["trump"] = -1 if self.trump is None else self.trump
            values = []
            in_deck = set(self.deck)  # (a card the deck leaves out is worth 0: its names need not fit the rule)
            for c in range(pack.size):
                if c not in in_deck:
                    values.append(0)
                    continue
                env["card"] = c
                env["card_suit"] = pack.suit_of[c]
                env["card_rank"] = pack.value_of[c]
                env["card_is_special"] = pack.special_of[c] >= 0
                env["card_is_joker"] = pack.special_of[c] == 0
                values.append(int(self._evaluated(rule, env, path)))
            found = cache[key] = tuple(values)
        return found

    def _count_trick(self, trick: Sequence[tuple[int, int]], winner: int, number: int) -> None:
        """The points of the trick just taken, for its taker: its cards' (card_points) and
        the trick's own (trick_points)."""
        values = self._card_values
        worth = sum(values[c] for _, c in trick) if values is not None else 0
        self.card_points[winner] += worth
        self.won[winner] += [c for _, c in trick]
        rule = self.tricks.scoring.trick_points
        if rule is None:
            return
        order = self.tricks.order
        as_cards = []
        for i, (_, c) in enumerate(trick):
            t = self._played_as[i] if i < len(self._played_as) else -1
            tier = order.tiers[t] if order is not None and t >= 0 else None
            as_cards.append(min(tier.cards) if tier is not None and tier.cards else c)
        won = next(i for i, (s, _) in enumerate(trick) if s == winner)
        env = self.setup.round_env(self.round_index)
        env.update(seat=winner, trick=number, is_last_trick=not self.hands[winner], trick_cards=[c for _, c in trick],
                   trick_as=as_cards, winning_card=trick[won][1], winning_as=as_cards[won],
                   led_suit=self._led(), trump=-1 if self.trump is None else self.trump, trick_card_points=worth)
        self.trick_points[winner] += int(self._evaluated(rule, env, ("scoring", "trick_points")))

    def _ordered_winner(self, plays: Sequence[tuple[int, int]], suits: Sequence[int], power: Sequence[int],
                        trump: int | None) -> int:
        """Who takes ``plays`` under trick.order (the roles played so far, and -1 for a
        card asked about beyond them)."""
        played_as = self._played_as
        if len(played_as) < len(plays):
            played_as = played_as + [-1] * (len(plays) - len(played_as))
        rp = self._round_power or _plain_power(self.setup.pack.size, self.tricks.play.all_cancelled)
        return ordered.trick_winner(plays, suits, power, trump, rp, played_as, self.leader,
                                    self.tricks.play.last_identical, self.tricks.play.cancel_identical)

    def _led(self) -> int:
        """The suit to follow in the trick in progress (a role played counts)."""
        if self._roles and self._round_power is not None:
            return ordered.led_suit(self.trick, self.suits, self._played_as, self._round_power.order, self.trump)
        return led_suit(self.trick, self.suits)

    def _legal_cards(self, seat: int) -> list[int]:
        """The distinct cards ``seat`` may play now (what is listed and what verifies)."""
        if self._general:  # restrictions or free cards, trick.order, a card to lead: the general path
            if self._lead_card >= 0 and not self.trick and self.trick_number == 1 and \
                    self._lead_card in self.hands[seat]:
                return [self._lead_card]  # play.first_lead: its holder leads it
            return self._ruled_cards(seat)[0] if self._by_rule else self._followed_cards(seat)
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
        """The distinct cards ``seat`` may play by following suit and trumping alone (and
        the cards trick.order lets be played at any time)."""
        led = self._led()
        cards = legal_plays(self.hands[seat], led, self.suits, self.trump, self._follow_suit, self._must_trump,
                            self.unique_cards)
        rp = self._round_power
        if rp is not None and rp.any_time and led >= 0:
            cards += [c for c in dict.fromkeys(self.hands[seat]) if c in rp.any_time and c not in cards]
        return cards

    def _play_env(self, seat: int, followed: list[int]) -> dict[str, Any]:
        """The names of play.free and play.restrictions for ``seat`` now, but the card's
        (``followed``: the cards following suit and trumping allow)."""
        env = self.setup.round_env(self.round_index)
        trick = self.trick
        suits = self.suits
        trump = self.trump
        hand = self.hands[seat]
        led = self._led()
        env.update(seat=seat, is_dealer=seat == self.dealer, bid=self.bids[seat] or 0,
                   bids=[b if b is not None else 0 for b in self.bids], taken=self.taken[:],
                   tricks=self.taken[seat], trick=self.trick_number, position=len(trick), is_lead=not trick,
                   led_suit=led, trump=-1 if trump is None else trump,
                   can_follow=led >= 0 and any(suits[c] == led for c in hand),
                   holds_trump=trump is not None and any(suits[c] == trump for c in hand),
                   cards_in_hand=len(hand),
                   trump_in_trick=trump is not None and any(suits[c] == trump for _, c in trick),
                   trump_broken=self._trump_broken, played_suits=[suits[c] for c in self.played])
        worth = self._card_values
        env["points_played"] = sum(worth[c] for c in self.played) if worth is not None else 0
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
        pack = self.setup.pack
        env["card_suit"] = suit if suit >= 0 else NO_SUIT
        env["card_rank"] = pack.value_of[card]
        env["card_is_trump"] = self.trump is not None and suit == self.trump
        env["card_is_joker"] = pack.special_of[card] == 0  # the joker is every pack's first special card
        env["card_is_special"] = pack.special_of[card] >= 0
        env["card"] = card
        env["card_points"] = self._card_values[card] if self._card_values is not None else 0
        env["beats"] = self._beats(seat, card)

    def _card_test(self, compiled: Any, env: dict[str, Any], seat: int, card: int, path: tuple[Any, ...]) -> bool:
        self._card_env(env, seat, card)
        return bool(self._evaluated(compiled, env, path))

    def _verify_play(self, action: Move, turn: int) -> None:
        if not isinstance(action, Play):
            raise IllegalActionError(f"it is time to play a card, not '{action}'")
        if action.card not in self._legal_cards(turn):
            lead = self._lead_card
            if lead >= 0 and not self.trick and self.trick_number == 1 and lead in self.hands[turn] and \
                    action.card in self.hands[turn]:
                raise IllegalActionError(f"you hold {self.setup.pack.codes[lead]}: lead it to the first trick")
            if self._by_rule and action.card in self.hands[turn]:
                reason = self._ruled_cards(turn, action.card)[1]
                if reason is not None:
                    raise IllegalActionError(reason)
            raise IllegalActionError(play_refusal(self.hands[turn], action.card, self._led(), self.suits,
                                                  self.trump, self._must_trump, self.setup.pack))
        roles = self._roles.get(action.card)
        if roles is not None and action.role not in roles:
            code = self.setup.pack.codes[action.card]
            raise IllegalActionError(f"say how you play {code}: " + " or ".join(f"'{code} as {r}'" for r in roles))
        if roles is None and action.role is not None:
            raise IllegalActionError(f"{self.setup.pack.codes[action.card]} is played as itself, not as {action.role}")

    def _play_extra(self, card: int, role: str | None, round_number: int, number: int, seat: int) -> None:
        """A play's record line in a pack of the ruleset's own, with the role played."""
        codes = self.setup.pack.codes
        if self._ordered:
            order = self.tricks.order
            self._played_as.append(order.index(role) if role is not None and order is not None else -1)
            self.played_roles.append(role)
            self._log.append((_play_event, round_number, number, seat, card, codes, role))
        else:
            self._log.append((_play_event, round_number, number, seat, card, codes))

    def _play(self, card: int, role: str | None = None) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        self.played.append(card)
        number = self.trick_number
        round_number = self.round_index + 1
        log = self._log
        if self._plain:  # the standard pack, no trick.order: the record line as ever
            log.append((_play_event, round_number, number, seat, card))
        else:
            self._play_extra(card, role, round_number, number, seat)
        if self._by_rule and self.trump is not None and self.suits[card] == self.trump:
            self._trump_broken = True
        players = self.players
        if len(trick) < players:
            self.turn = (seat + self.step) % players
            return
        # the trick is complete (as _take_trick, written out here: this runs for every trick)
        winner = self._trick_winner(trick, self.suits, self.power, self.trump)
        self.taken[winner] += 1
        log.append((_trick_event, round_number, number, winner))
        if not self._plain:
            if self._counting:
                self._count_trick(trick, winner, number)
            if number == self._kitty_trick:
                self._kitty_with_trick(winner)
            self._played_as = []
        self.trick = []
        self.trick_number = number + 1
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self._end_round()

    def _take_trick(self, trick: list[tuple[int, int]], number: int, round_number: int) -> None:
        """The trick is complete: its winner takes it and leads the next (or the round ends);
        for a trick of fewer cards than seats (a seat sitting out), :meth:`_play` does the
        same for a full one."""
        log = self._log
        winner = self._trick_winner(trick, self.suits, self.power, self.trump)
        self.taken[winner] += 1
        log.append((_trick_event, round_number, number, winner))
        if not self._plain:
            if self._counting:
                self._count_trick(trick, winner, number)
            if number == self._kitty_trick:
                self._kitty_with_trick(winner)
            self._played_as = []
        self.trick = []
        self.trick_number = number + 1
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self._end_round()


_PLAIN: dict[tuple[int, str], ordered.RoundPower] = {}


def _plain_power(size: int, all_cancelled: str = "leader") -> ordered.RoundPower:
    """The trick order of a ruleset with no trick.order (identical cards cancelling
    alone): the suit led, then the trumps; a trick no card can win goes as
    trick.all_cancelled says."""
    found = _PLAIN.get((size, all_cancelled))
    if found is None:
        order = ordered.TrickOrder.from_tiers([ordered.LED_TIER, ordered.TRUMP_TIER], (), all_cancelled)
        found = _PLAIN[size, all_cancelled] = ordered.RoundPower(order, (-1,) * size, frozenset())
    return found


def trick_standing(tricks: Any, pack: Pack, order: tuple[Any, ...], trump: int | None,
                   plays: Sequence[tuple[int, int]], roles: Sequence[str | None] = (),
                   leader: int | None = None) -> int:
    """The seat that takes ``plays`` ((seat, card), in order) as they stand, in a round
    played by ``order`` (trump.round_order's suits, power and trick order) with ``roles``
    (each play's role, None for a card played as itself): what a table works out from
    what it has seen, the state's own rule."""
    suits, power, rp = order
    play_rules = tricks.play
    if tricks.order is None and not play_rules.cancel_identical:
        return winner_function(True, play_rules.last_identical)(plays, suits, power, trump)
    rp = rp or _plain_power(pack.size, play_rules.all_cancelled)
    as_of = rp.order.index
    played_as = [as_of(r) if r is not None else -1 for r in roles][:len(plays)]
    played_as += [-1] * (len(plays) - len(played_as))
    return ordered.trick_winner(plays, suits, power, trump, rp, played_as,
                                plays[0][0] if leader is None else leader, play_rules.last_identical,
                                play_rules.cancel_identical)
