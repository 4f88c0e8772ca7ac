"""What every game has, whatever its family: seats, rounds and modes, the dealer and
its rotation, the deal as a chance event, the stock and the discard pile, totals,
winners, and the event history.

A game state is made by :func:`new_game`, which asks the ruleset's family for its
state class; the family adds its phases.  The API is small:

- ``state.turn``: the seat to act, :data:`CHANCE` or :data:`OVER`;
- ``state.legal_actions()``; ``state.verify(a)`` (raises IllegalActionError quoting the
  rule, else returns what applying ``a`` needs); ``state.can_apply(a)``; ``state.apply(a)``;
- ``state.chance_action()``: the next chance outcome, from the game's own RNG;
- ``state.observation(seat)``: what that seat may know, as a frozen value;
- ``state.totals``, ``state.winners``, and ``state.events``: the append-only history,
  which is the game record (``../shared/spec/game-record.md``);
- ``state.clone()``: an independent copy, for search.

>>> from cardrules.interpreter import ruleset_from_text
>>> from cardrules.interpreter.families.trick_taking import EXAMPLE
>>> state = new_game(ruleset_from_text(EXAMPLE), players=4, seed=7)
>>> state.turn == CHANCE
True
>>> state.apply(state.chance_action())
>>> state.turn, len(state.observation(1).hand)
(1, 10)
"""

from __future__ import annotations

import random
from collections import Counter, deque
from itertools import repeat
from operator import attrgetter
from dataclasses import replace
from typing import Any, Mapping, Sequence

from .cards import NAMES
from .deal import Deal, deal_cards, reshuffle_pile, verify_deal
from .errors import EvaluationError, IllegalActionError, UnplayableError
from .privacy import CORE_EVENTS, Declaration, Visibility, view_event, visibility_of
from .rules import Rotation, Ruleset, SeatFromDealer, Setup
from .scoring import winners
from .visible import is_shown_text

CHANCE = -1
OVER = -2
RECORD_FORMAT = 1

Event = dict[str, Any]


def _deal_event(round_number: int, dealer: int, hand_size: int, hands: tuple[tuple[int, ...], ...],
                upcard: int | None, stock: int, rules_round: int, codes: Sequence[str] = NAMES) -> Event:
    event: Event = {
        "event": "deal", "round": round_number, "dealer": dealer, "hand_size": hand_size,
        "hands": [[codes[c] for c in hand] for hand in hands],
        "upcard": None if upcard is None else codes[upcard],
        "stock": stock,
    }
    if rules_round != round_number:
        event["rules_round"] = rules_round
    return event


_ROTATION_STEPS = {Rotation.LEFT: 1, Rotation.RIGHT: -1, Rotation.NONE: 0}


def _score_event(round_number: int, points: list[int], totals: list[int],
                 hands: tuple[tuple[int, ...], ...] | None = None, codes: Sequence[str] = NAMES) -> Event:
    event: Event = {"event": "score", "round": round_number, "points": points, "totals": totals}
    if hands is not None:  # each seat's cards left, in the pack's order
        event["hands"] = [[codes[c] for c in sorted(hand)] for hand in hands]
    return event


class GameState:
    """The state shared by every family; a family's subclass adds its phases and
    implements :meth:`legal_actions`, :meth:`verify`, :meth:`_do` and
    :meth:`observation`."""

    # Slots, here and in the families' states: the hot paths read a dozen attributes a
    # move, and a slot is read faster than an entry of an instance dict (which CPython
    # stops sharing between instances past 30 keys).  A subclass without slots of its
    # own still works: it gets a __dict__ for its attributes.
    __slots__ = ("rules", "setup", "players", "seed", "mode", "names", "deck", "totals", "round_index", "turn",
                 "moves", "decisions", "dealer", "_rotation_step", "step", "stock", "pile", "_pending", "_pending_round",
                 "_legal_at", "_legal_list", "_rngs", "_shared_rngs", "_log", "_events", "outcomes_from_record",
                 "_seen_overrides", "_held_from", "_drawn_round")

    def __init__(self, rules: Ruleset, players: int, seed: int, names: Sequence[str] | None = None,
                 mode: str | None = None, ruleset_ref: str | None = None):
        if not rules.min_players <= players <= rules.max_players:
            raise IllegalActionError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                                     f"players, not {players}")
        self.rules = rules
        self.setup: Setup = rules.setup(players, mode)
        self.players = players
        self.seed = seed
        self.mode = mode or rules.mode
        self.names = list(names) if names else [f"seat-{i}" for i in range(players)]
        if len(self.names) != players:
            raise ValueError("one name per seat")
        setup = self.setup
        self.deck = setup.pack.deck(setup.decks, setup.jokers, setup.ranks, setup.removed, setup.special_counts)
        self.totals = [0] * players
        self.round_index = 0
        self.turn = CHANCE
        self.moves = 0  # actions applied, chance included
        self.decisions = 0  # actions applied by seats
        first = rules.deal.first_dealer
        self.dealer = random.Random(f"{seed}/dealer").randrange(players) if first is None else first % players
        self._rotation_step = _ROTATION_STEPS[rules.deal.rotation]
        self.step = rules.deal.direction.step  # the next seat in turn is seat + step (direction)
        self.stock: list[int] = []  # the top is the end of the list
        self.pile: list[int] = []  # the discard pile; the top is the end
        self._pending: Deal | None = None
        self._pending_round = -1
        self._drawn_round = -1  # deal.random_hand_size: the round whose hand size is drawn (-1: none yet)
        self._legal_at = -1  # the move number the cached legal actions are for
        self._legal_list: list[Any] = []
        # The game's RNGs by name ("deal": the deal and every chance outcome; a family may
        # add its own), seeded by the game seed alone.  A clone shares them with its
        # original until either side draws (copying 2.5 kB of RNG state is most of the
        # cost of a clone, and most clones of a search never draw).
        self._rngs: dict[str, random.Random] = {"deal": random.Random(seed)}
        # A replay of a record from elsewhere takes every random outcome the record
        # names (cards drawn blind, ...) instead of the game's RNG's.
        self.outcomes_from_record = False
        self._shared_rngs: set[str] = set()
        # The history: an entry is an event dict, or (formatter, *arguments) turned into
        # one when `events` is read, so a game nobody records builds no dicts.
        self._log: list[Any] = []
        self._events: list[Event] = []
        # Who sees what (interpreter/privacy.py): the events whose kind's declaration is
        # narrowed for them, by their place in the history, and the place from which
        # every event is held back from the seats until revealed (-1: none).
        self._seen_overrides: dict[int, Visibility] = {}
        self._held_from = -1
        header: Event = {"event": "game", "format": RECORD_FORMAT, "ruleset": rules.name,
                         "ruleset_sha256": rules.sha256, "players": self.names, "seed": seed}
        if self.mode:
            header["mode"] = self.mode
        if ruleset_ref and ruleset_ref != rules.name:
            header["ruleset_path"] = ruleset_ref
        self._log.append(header)

    # --- the history ------------------------------------------------------------------------
    @property
    def events(self) -> list[Event]:
        """Every event so far, as the record writes them (append-only)."""
        events, log = self._events, self._log
        for i in range(len(events), len(log)):
            entry = log[i]
            events.append(entry if type(entry) is dict else entry[0](*entry[1:]))
        return events

    @property
    def event_count(self) -> int:
        return len(self._log)

    def log(self, event: Event, seen: Visibility | None = None) -> None:
        """Add ``event`` to the history; ``seen`` narrows who sees its fields, for this
        event only (see :mod:`.privacy`)."""
        if seen:
            self._seen_overrides[len(self._log)] = seen
        self._log.append(event)

    # --- who sees what ---------------------------------------------------------------------------
    def hold_events(self) -> None:
        """Hold back every event from now on from every seat and spectator, until
        :meth:`release_events` (bids made at once: none is seen before all are made)."""
        if self._held_from < 0:
            self._held_from = len(self._log)

    def release_events(self) -> None:
        self._held_from = -1

    def seen_count(self) -> int:
        """How many events of the history the seats may see by now (the rest is held)."""
        return self._held_from if self._held_from >= 0 else len(self._log)

    def event_views(self, viewer: int | None, start: int = 0) -> list[Event]:
        """The events from ``start`` on that ``viewer`` (a seat, or None for a spectator)
        may see by now, each as that viewer sees it: what a table narrates and a page
        shows. A view never holds what the viewer may not know."""
        events = self.events
        declarations = self._declarations()
        overrides = self._seen_overrides
        return [view_event(events[i], visibility_of(events[i], declarations, overrides.get(i)), viewer)
                for i in range(start, self.seen_count())]

    def _declarations(self) -> Mapping[str, Declaration]:
        cache = self.setup.cache
        declarations = cache.get("event_visibility")
        if declarations is None:
            # a family's declarations, a mapping or a method of the rules; none: only who acted shows
            declarations = cache["event_visibility"] = {**CORE_EVENTS, **self.rules.family.event_visibility(self.rules)}
        return declarations

    # --- rounds -----------------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The 1-based number of the round being played (in this game)."""
        return self.round_index + 1

    @property
    def rounds(self) -> int:
        return len(self.setup.hand_sizes)

    @property
    def rules_round(self) -> int:
        """The round's number in the ruleset's full game (differs under a mode)."""
        return self.setup.round_numbers[self.round_index]

    @property
    def hand_size(self) -> int:
        return self.setup.hand_sizes[self.round_index]

    @property
    def is_over(self) -> bool:
        return self.turn == OVER

    @property
    def winners(self) -> list[int]:
        if self.rules.winner_by or self.rules.tie_break:
            return self._winners_by()
        return winners(self.totals, self.rules.winner, self.setup.teams)

    def seat_values(self) -> dict[str, list[int]]:
        """The family's counters, each a list by seat (the numbers each seat carries from
        round to round): ``rounds.end_when`` reads them as lists, ``winner_by`` as each
        seat's value.  None by default."""
        return {}

    def _winners_by(self) -> list[int]:
        """``winner_by``: the seats best by each of its rules in turn contend, and of them
        ``winner`` picks by the totals (a tie shared)."""
        values = self.seat_values()
        seats = self._best_by(list(range(self.players)), self.rules.winner_by, "winner_by", values)
        chosen = [seats[i] for i in winners([self.totals[s] for s in seats], self.rules.winner)]
        if len(chosen) > 1 and self.rules.tie_break:  # tie_break: of the seats tied on the totals
            chosen = self._best_by(chosen, self.rules.tie_break, "tie_break", values)
        return chosen

    def _best_by(self, seats: list[int], rules: Sequence[tuple[Any, str]], key: str,
                 values: dict[str, list[int]]) -> list[int]:
        """Of ``seats``, those best by each of ``rules`` in turn (``key``: where they are written)."""
        for i, (rule, best) in enumerate(rules):
            scores = {}
            for seat in seats:
                env = self.setup.env
                env.update(seat=seat, total=self.totals[seat], **{n: v[seat] for n, v in values.items()})
                try:
                    scores[seat] = int(rule(env))
                except EvaluationError as exc:
                    raise EvaluationError(f"{key} '{rule.source}': {exc}", (key, i, "rule")) from None
            top = max(scores.values()) if best == "highest" else min(scores.values())
            seats = [s for s in seats if scores[s] == top]
        return seats

    def whose_turn(self) -> str:
        """Who is to act, in words: "seat 2's turn", "chance's turn (a deal or a card off
        the stock)", or "the end of the game"."""
        if self.turn == CHANCE:
            return "chance's turn (a deal, or a card off the stock)"
        if self.turn == OVER:
            return "the end of the game"
        return f"seat {self.turn}'s turn"

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns after ``seat`` in the direction of play."""
        return (seat + steps * self.step) % self.players

    def seat_from_dealer(self, where: SeatFromDealer) -> int:
        return (self.dealer + where.offset) % self.players

    def round_env(self) -> dict[str, Any]:
        """The names of the round being played (a fresh dict)."""
        return self.setup.round_env(self.round_index)

    # --- chance: the deal ----------------------------------------------------------------------
    def chance_action(self) -> Any:
        """The deal for this round, from the game's own deal RNG (seeded by the game
        seed alone), so the same seed deals the same cards whatever the seats do."""
        if self.turn != CHANCE:
            raise IllegalActionError("it is not chance's turn")
        if self._pending is None or self._pending_round != self.round_index:
            self._pending_round = self.round_index
            if self.size_due():  # deal.random_hand_size: the size first, from the same RNG
                self.draw_hand_size(self.rng("deal").choice(self.drawable_sizes()))
            # the deal starts at the seat after the dealer (the left, clockwise)
            self._pending = deal_cards(self.deck, self.rng("deal"), self.players, self.hand_size,
                                       self.rules.deal.upcard, self.seat_after(self.dealer))
        elif self._pending.hands and len(self._pending.hands[0]) != self.hand_size:
            self.draw_hand_size(len(self._pending.hands[0]))  # (a size set since, by a deal tried and refused)
        return self._pending

    # --- a hand size drawn by chance (deal.random_hand_size) ---------------------------------------
    def drawable_sizes(self) -> tuple[int, ...]:
        """The hand sizes this round may be dealt (each entry as likely); () when the
        ruleset draws none."""
        drawable = self.setup.drawable
        return drawable[self.round_index] if drawable else ()

    def size_due(self) -> bool:
        """This round's hand size is still to be drawn (deal.random_hand_size)."""
        return bool(self.setup.drawable) and self._drawn_round != self.round_index and self.turn == CHANCE

    def draw_hand_size(self, size: int) -> None:
        """This round deals ``size`` cards each (drawn, or read from a record or an
        observation): the game's setup becomes the one whose schedule says so for this
        round (kept for every game, by the round and the size)."""
        self._drawn_round = self.round_index
        if size == self.hand_size:
            return
        base = self.setup.cache.get("drawn_from", self.setup)
        variants = base.cache.setdefault("drawn_sizes", {})
        key = (self.round_index, size)
        variant = variants.get(key)
        if variant is None:
            sizes = list(base.hand_sizes)
            sizes[self.round_index] = size
            variant = variants[key] = replace(base, hand_sizes=tuple(sizes), cache={"drawn_from": base})
        self.setup = variant

    def stack_deal(self, hands: Sequence[Sequence[int]], upcard: int | None = None, stock: Sequence[int] = (), *,
                   dealer: int | None = None) -> None:
        """Deal exactly ``hands`` (seat 0 first) and turn ``upcard``, with ``stock`` on
        top of the stock and the rest of the pack under it: a position from a worked
        example, or a test's.  This round's hand size becomes that of ``hands``;
        ``dealer`` sets the dealer first.  It must be time for the deal."""
        if dealer is not None:
            self.dealer = dealer % self.players
        size = len(hands[0])
        if size != self.hand_size:
            sizes = list(self.setup.hand_sizes)
            sizes[self.round_index] = size
            self.setup = replace(self.setup, hand_sizes=tuple(sizes), cache={})
        rest = Counter(self.deck)
        rest.subtract([c for hand in hands for c in hand] + ([upcard] if upcard is not None else []) + list(stock))
        if any(n < 0 for n in rest.values()):
            raise IllegalActionError("the stacked cards are not all in the pack")
        order = tuple(stock) + tuple(c for c, n in sorted(rest.items()) for _ in range(n))
        self.apply(Deal(tuple(tuple(h) for h in hands), upcard, order))

    def verify_deal(self, deal: Any) -> None:
        if not isinstance(deal, Deal):
            raise IllegalActionError(f"the cards must be dealt first, not '{deal}'")
        if deal is self._pending:  # made by chance_action from our own deck
            return
        drawable = self.drawable_sizes()
        if drawable and deal.hands and self._drawn_round != self.round_index:  # a record's deal names its size
            if len(deal.hands[0]) not in drawable:
                raise IllegalActionError(f"seat 0 is dealt {len(deal.hands[0])} cards; this round draws its hand "
                                         f"size from {', '.join(map(str, sorted(set(drawable))))}")
            self.draw_hand_size(len(deal.hands[0]))
        verify_deal(deal, self.deck, self.players, self.hand_size, self._expects_upcard(), self.setup.pack)

    def _expects_upcard(self) -> bool:
        return self.rules.deal.upcard and self.hand_size * self.players < len(self.deck)

    def log_deal(self, deal: Deal, seen: Visibility | None = None) -> None:
        """Record the deal (``seen``: what its views hide this round, beyond the others' hands)."""
        if seen:
            self._seen_overrides[len(self._log)] = seen
        self._log.append((_deal_event, self.round_index + 1, self.dealer, self.hand_size, deal.hands, deal.upcard,
                          len(deal.stock), self.rules_round, self.setup.pack.codes))

    # --- the stock and the discard pile ------------------------------------------------------
    def reshuffle(self) -> bool:
        """Turn the discard pile but its top card into a new stock, shuffled by the
        game's RNG, and record it; False when the pile has no card to spare."""
        stock = reshuffle_pile(self.stock, self.pile, self.rng("deal"))
        if stock is None:
            return False
        self.stock = stock
        self._log.append({"event": "reshuffle", "round": self.round, "stock": len(stock)})
        return True

    # --- randomness ---------------------------------------------------------------------------
    def rng(self, name: str) -> random.Random:
        """The game's RNG ``name``, this state's own (see ``_rngs``)."""
        rng = self._rngs[name]
        if name in self._shared_rngs:
            own = random.Random.__new__(random.Random)
            own.setstate(rng.getstate())
            self._rngs[name] = rng = own
            self._shared_rngs.discard(name)
        return rng

    def add_rng(self, name: str) -> None:
        """Give the game an RNG of its own for ``name``, seeded by the game seed and the name."""
        self._rngs[name] = random.Random(f"{self.seed}/{name}")

    # --- the end of a round ------------------------------------------------------------------
    def score_round(self, points: list[int], hands: Sequence[Sequence[int]] | None = None) -> None:
        """Add the round's points, record them, and start the next round (or end the game).
        ``hands``: each seat's cards left, for a family whose moves change hands that
        nothing after them shows (the record's ``score`` line then carries them, so a
        replay of a record that lost such a move ends the round with other hands)."""
        totals = self.totals
        for seat, p in enumerate(points):
            totals[seat] += p
        if hands is None:
            self._log.append((_score_event, self.round_index + 1, points, totals[:]))
        else:
            self._log.append((_score_event, self.round_index + 1, points, totals[:],
                              tuple(map(tuple, hands)), self.setup.pack.codes))
        self.round_index += 1
        if self.round_index >= len(self.setup.hand_sizes) or (self.rules.end_when is not None and self._ends_now()):
            self.turn = OVER
            end: Event = {"event": "end", "totals": list(totals), "winners": self.winners}
            if self.setup.teams:
                end["teams"] = list(self.setup.teams)
            self._log.append(end)
            return
        self.dealer = (self.dealer + self._rotation_step) % self.players
        self.turn = CHANCE

    def _ends_now(self) -> bool:
        """rounds.end_when, after the round just scored: whether the game ends here."""
        rule = self.rules.end_when
        assert rule is not None
        env = self.setup.round_env(self.round_index - 1)
        totals = self.totals
        teams = self.setup.teams
        env["totals"] = totals[:]
        env["team_totals"] = [sum(t for s, t in enumerate(totals) if teams[s] == teams[seat])
                              for seat in range(self.players)] if teams else totals[:]
        for name, values in self.seat_values().items():
            env[name] = values[:]
        try:
            return bool(rule(env))
        except EvaluationError as exc:
            raise EvaluationError(f"rounds.end_when '{rule.source}': {exc}", ("rounds", "end_when")) from None

    # --- the action API ------------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        """Every action the player (or chance) to act may take now (cached per move)."""
        raise NotImplementedError

    def legal_count(self) -> int:
        """How many legal actions there are now (a family may count them without making
        the action objects)."""
        return len(self.legal_actions())

    def apply_index(self, index: int) -> None:
        """Apply the legal action at ``index`` of :meth:`legal_actions` (for policies
        that pick by place, as the random one does; a family may do it without making
        the action objects)."""
        self.apply(self.legal_actions()[index])

    def verify(self, action: Any) -> Any:
        """Raise IllegalActionError, quoting the rule, unless ``action`` is legal now;
        otherwise return what applying it needs (the family's own value)."""
        raise NotImplementedError

    def _do(self, action: Any, checked: Any) -> None:
        """Apply a verified action (``checked`` is what :meth:`verify` returned) and
        record its events."""
        raise NotImplementedError

    def observation(self, seat: int | None) -> Any:
        """What ``seat`` may know, as the family's frozen observation."""
        raise NotImplementedError

    def can_apply(self, action: Any) -> bool:
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Any) -> None:
        """Verify ``action``, apply it and record it (raises IllegalActionError)."""
        if self.turn == OVER:
            raise IllegalActionError("the game is over")
        checked = self.verify(action)
        if self.turn >= 0:
            self.decisions += 1
        self._do(action, checked)
        self.moves += 1

    # --- copies ------------------------------------------------------------------------------
    def clone(self) -> GameState:
        """An independent copy of this game (its future does not touch this one)."""
        cls = type(self)
        new = cls.__new__(cls)
        names, getter = _slot_copier(cls)
        try:  # every slot set (the usual case): read them all and write them all in C
            _consume(map(object.__setattr__, repeat(new, len(names)), names, getter(self)))
        except AttributeError:  # a slot not set yet: one by one
            for name in names:
                if hasattr(self, name):
                    object.__setattr__(new, name, getattr(self, name))
        if hasattr(self, "__dict__"):
            new.__dict__.update(self.__dict__)
        new.totals = self.totals[:]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new._log = self._log[:]
        new._events = self._events[:]
        new._seen_overrides = dict(self._seen_overrides)
        new._legal_at = -1
        new._rngs = dict(self._rngs)
        new._shared_rngs = set(self._rngs)
        self._shared_rngs = set(self._rngs)
        self._copy_into(new)
        return new

    def _copy_into(self, new: Any) -> None:
        """Give ``new`` (a shallow copy of this state) its own copies of the family's
        mutable fields."""


_SLOTS: dict[type, tuple[str, ...]] = {}
_COPIERS: dict[type, tuple[tuple[str, ...], Any]] = {}
_consume: Any = deque(maxlen=0).extend  # runs an iterator to its end, keeping nothing


def _slot_copier(cls: type) -> tuple[tuple[str, ...], Any]:
    """The slot names of ``cls`` and a getter of all their values at once."""
    found = _COPIERS.get(cls)
    if found is None:
        names = _slot_names(cls)
        found = _COPIERS[cls] = (names, attrgetter(*names) if len(names) > 1 else lambda o: (getattr(o, names[0]),))
    return found


def _slot_names(cls: type) -> tuple[str, ...]:
    names = _SLOTS.get(cls)
    if names is None:
        names = _SLOTS[cls] = tuple(s for k in cls.__mro__ for s in getattr(k, "__slots__", ())
                                    if s not in ("__dict__", "__weakref__"))
    return names


def observed_mode(rules: Ruleset, observation: Any) -> str | None:
    """The mode a seat's ``observation`` is of: the first (the ruleset's own first) whose
    schedule has the observed number of rounds and the observed round's hand size."""
    players, rounds, index = observation.players, observation.rounds, observation.round - 1
    for mode in [rules.mode] + [m for m in rules.modes if m != rules.mode]:
        sizes = rules.setup(players, mode).hand_sizes
        if len(sizes) == rounds and sizes[index] == observation.hand_size:
            return mode
    return rules.mode


MAX_SEED = (1 << 256) - 1  # a room of the web server draws 128 random bits: no one can search them
MAX_SEED_TEXT = "2^256 - 1"


def seed_problem(seed: object) -> str | None:
    """Why ``seed`` cannot be a game's seed (None if it can).  A seed is a whole number
    from 0 to MAX_SEED (``random.Random`` takes every bit of it): a negative one would
    deal as its absolute value (``Random(-1)`` as ``Random(1)``), so -1 would be a second
    name for seed 1's game, and a record whose seed was changed from 1 to -1 would replay
    as if untouched.

    >>> seed_problem(7) is None, seed_problem(2 ** 128 - 1) is None, seed_problem(-1)
    (True, True, 'the seed -1 is negative; seeds are whole numbers from 0 to 2^256 - 1')
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        return f"the seed {str(seed)[:40]!r} is not a whole number"
    if seed < 0:
        return f"the seed {str(seed)[:40]} is negative; seeds are whole numbers from 0 to {MAX_SEED_TEXT}"
    if seed > MAX_SEED:
        return f"the seed {str(seed)[:40]} is too large; seeds are whole numbers from 0 to {MAX_SEED_TEXT}"
    return None


MAX_NAME = 100


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a seat's name (None if it can): a name is shown in every
    line about its seat, at a terminal, in a browser and in a record's replay, so it is
    printable text (no newline, no control character; emoji joined by zero-width joiners
    are: :func:`~.visible.is_shown_text`) of 1 to MAX_NAME characters.  `play --names`
    and the web allow fewer; a record or a save from elsewhere is held to this."""
    if not isinstance(name, str):
        return f"the name {str(name)[:40]!r} is not text"
    if not name or len(name) > MAX_NAME or not is_shown_text(name):
        return f"the name {name[:40]!r} is not up to {MAX_NAME} printable characters"
    return None


def new_game(rules: Ruleset, players: int, seed: int = 0, names: Sequence[str] | None = None,
             mode: str | None = None, ruleset_ref: str | None = None, *, replaying: bool = False) -> GameState:
    """A new game of ``rules`` for ``players`` seats; the same seed deals the same cards
    (ValueError for a seed :func:`seed_problem` or a name :func:`name_problem` refuses,
    UnplayableError for a player count or mode the ruleset cannot be played in: every way
    into a game comes here).  ``replaying``: a record or save being read again, which an
    earlier release may have written where a later check refuses new games."""
    problem = seed_problem(seed) or next(filter(None, map(name_problem, names or ())), None)
    if problem is not None:
        raise ValueError(problem)
    if rules.min_players <= players <= rules.max_players:
        refusal = rules.refusal(players, mode, new=not replaying)
        if refusal is not None:
            raise UnplayableError(refusal)
    return rules.family.new_state(rules, players, seed, names, mode, ruleset_ref)

