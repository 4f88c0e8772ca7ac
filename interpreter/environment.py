"""A ruleset as a game of small whole-number steps, for the toolkits of game-playing
research (``cardrules.openspiel``, ``cardrules.pettingzoo``), which want every
decision and every chance event as a choice among ids, each chance outcome with its
probability, and each seat's view as text and as a vector.

:class:`StepGame` is a ruleset at a player count (and a mode); its states
(:class:`StepState`) wrap a game state of the engine and add only the encoding:

- **The deal, card by card.**  Where the engine deals a round at once, a step state
  deals it one card at a time: seat 0's hand first, then seat 1's, ..., then the upcard
  where the round turns one (and, when the family says the stock's order matters, the
  stock card by card); each outcome is a card number, as likely as its copies left.
  The engine is given the whole deal once the last card is out.  Chance events of a
  family's own (a card off the stock, a round's cut) come from its codec with their
  probabilities.  What the engine draws inside a move (a stock shuffled anew from the
  pile, the cards a claimer gives blind) comes from the game's own RNG, seeded by
  ``seed``: the same seed and ids give the same game.
- **Moves as ids** (the family's :class:`~.encoding.ActionCodec`): a move of several
  parts is chosen one id at a time by the same seat; the legal ids at each step are
  those that begin a legal move with the ids chosen so far.
- **Views** from the seat's observation only (the engine's privacy): the observation
  as text and as a vector (the family's :class:`~.encoding.ObservationEncoder`), and
  the information state: every event of the round being played as the seat was shown
  it, then the observation.  A seat part-way through a move of several ids sees the ids
  it has chosen; the others do not.
- **Returns**: the winners' share, less the mean: a winner (the engine's winners: the
  best total, by the ruleset's winner rule, its team's where there are partnerships)
  gets 1/(number of winners) - 1/players, every other seat -1/players, so the returns
  sum to 0 and lie between -1/players and 1 - 1/players.  Zero until the game ends.
- **Resampling** (:meth:`StepState.resample`): a state consistent with what one seat
  has observed, from the family's ``determinize`` (as the search seat samples).

>>> from cardrules.interpreter import ruleset_from_text
>>> from cardrules.interpreter.families.trick_taking import EXAMPLE
>>> game = StepGame(ruleset_from_text(EXAMPLE), players=3, rounds=1)
>>> state = game.new_state()
>>> state.current_player() == CHANCE, len(state.chance_outcomes())
(True, 52)
>>> while state.current_player() == CHANCE:
...     state.apply(state.chance_outcomes()[0][0])
>>> state.current_player(), len(state.observation(state.current_player()).hand)
(1, 10)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Callable, Sequence

from .deal import Deal
from .encoding import ActionCodec, ObservationEncoder
from .family import encodable, searchable
from .errors import IllegalActionError, UnplayableError
from .game import CHANCE as ENGINE_CHANCE, OVER, GameState, new_game
from .rules import Ruleset

CHANCE = -1  # current_player() at a chance event
TERMINAL = -4  # current_player() once the game is over (OpenSpiel's number for it)


class EncodingUnavailable(ValueError):
    """The ruleset's family has no action ids (no ``action_codec``)."""


class StepGame:
    """A ruleset at a player count as a game of id steps (see the module).

    ``mode`` is one of the ruleset's modes (None: its own); ``seed`` seeds the game's
    own randomness (the first dealer where the ruleset draws one, and the draws the
    engine makes inside a move); ``rounds`` stops the game after its first that many
    rounds, and ``horizon`` after that many ids chosen by the seats, each scored as the
    totals then stand (0: no such stop)."""

    def __init__(self, rules: Ruleset, players: int, mode: str | None = None, seed: int = 0, rounds: int = 0,
                 ruleset_ref: str | None = None, horizon: int = 0):
        family = rules.family
        encoding = encodable(family)
        if encoding is None:
            raise EncodingUnavailable(f"the {family.name} family gives no action ids and observation vectors "
                                      "(EncodableFamily.action_codec)")
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
        if mode is not None and mode not in rules.modes:
            known = ", ".join(rules.modes) or "none"
            raise ValueError(f"{rules.name} has no mode '{mode}' (modes: {known})")
        refusal = rules.refusal(players, mode)  # a count or mode validate warns of: no game starts there
        if refusal is not None:
            raise UnplayableError(refusal)
        if rounds < 0 or horizon < 0:
            raise ValueError(f"rounds and horizon are 0 (no stop) or more, not {rounds} and {horizon}")
        self.rules = rules
        self.players = players
        self.mode = mode
        self.seed = seed
        self.ruleset_ref = ruleset_ref
        self.codec: ActionCodec = encoding.action_codec(rules, players)
        self.encoder: ObservationEncoder = encoding.observation_encoder(rules, players)
        schedule = len(rules.setup(players, mode).hand_sizes)
        self.rounds = min(rounds, schedule) if rounds else schedule
        searching = searchable(family)
        self._determinize: Callable[..., GameState] | None = None if searching is None else searching.determinize
        self._remember: Callable[..., None] | None = None if searching is None else searching.remember
        self.horizon = horizon
        self.max_decisions = min(self.codec.max_decisions, horizon) if horizon else self.codec.max_decisions
        # deal.random_hand_size: a round's size is a chance event of its own before its cards,
        # its outcome ids after the family's (codec.chance_size + size - 1)
        drawable = rules.setup(players, mode).drawable
        self.size_ids = self.codec.chance_size
        self.sizes = max((max(d) for d in drawable), default=0)

    @property
    def num_actions(self) -> int:
        return self.codec.size

    @property
    def max_chance_outcomes(self) -> int:
        return self.codec.chance_size + self.sizes

    @property
    def min_return(self) -> float:
        return -1.0 / self.players

    @property
    def max_return(self) -> float:
        return 1.0 - 1.0 / self.players

    def new_state(self) -> StepState:
        engine = new_game(self.rules, self.players, self.seed, None, self.mode, self.ruleset_ref)
        return StepState(self, engine)


class StepState:
    """One position of a :class:`StepGame` (see the module)."""

    __slots__ = ("game", "engine", "dealt", "prefix", "history", "decisions", "round_from", "lead", "memory",
                 "in_round", "_listed", "_listed_at", "_lines", "_upto")

    def __init__(self, game: StepGame, engine: GameState):
        self.game = game
        self.engine = engine
        self.dealt: list[int] = []  # this round's cards dealt so far (seat 0's hand first)
        self.prefix: tuple[int, ...] = ()  # the ids of a move of several chosen so far
        self.history: list[tuple[int, int]] = []  # (player, id) of every step
        self.decisions = 0  # ids chosen by the seats
        self.round_from = 0  # the engine's first event of the round being played
        # after a resample: each seat's information-state text before round_from (else "")
        self.lead: list[str] = [""] * game.players
        self.memory: list[dict[str, Any]] = [{} for _ in range(game.players)]  # the family's, per seat
        self.in_round = False  # whether this round's cards are dealt
        self._listed: tuple[dict[tuple[int, ...], Any], list[tuple[int, ...]]] | None = None
        self._listed_at = -1
        # each seat's events of the round as JSON lines, and the event they run to (a
        # view never changes once shown: each step adds the lines of its new events)
        self._lines: list[list[str]] = [[] for _ in range(game.players)]
        self._upto = [self.round_from] * game.players

    # --- whose turn -----------------------------------------------------------------------
    def is_terminal(self) -> bool:
        engine = self.engine
        game = self.game
        return (engine.turn == OVER or engine.round_index >= game.rounds
                or (game.horizon > 0 and self.decisions >= game.horizon))

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        turn = self.engine.turn
        return CHANCE if turn == ENGINE_CHANCE else turn

    # --- chance -------------------------------------------------------------------------------
    def _own_chance(self) -> list[tuple[Any, float]] | None:
        return self.game.codec.chance_outcomes(self.engine)

    def _deal_size(self) -> tuple[int, Counter[int]]:
        """How many cards this round's deal gives out one by one, and the cards left."""
        engine = self.engine
        left = Counter(engine.deck)
        left.subtract(self.dealt)
        size = engine.players * engine.hand_size + (1 if engine._expects_upcard() else 0)
        if self.game.codec.stock_order_matters:
            size = len(engine.deck)
        return size, left

    def _sizes_due(self) -> list[tuple[int, float]] | None:
        """This round's hand size still to be drawn (deal.random_hand_size): each size's id
        and probability; else None."""
        engine = self.engine
        if self.dealt or not engine.size_due():
            return None
        drawable = engine.drawable_sizes()
        counts = Counter(drawable)
        base = self.game.size_ids - 1
        return [(base + size, n / len(drawable)) for size, n in sorted(counts.items())]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every outcome id of the chance event now with its probability, by id."""
        sizes = self._sizes_due()
        if sizes is not None:
            return sizes
        own = self._own_chance()
        codec = self.game.codec
        if own is not None:
            return sorted((codec.chance_id(o), p) for o, p in own)
        _, left = self._deal_size()
        total = sum(n for n in left.values() if n > 0)
        return [(c, n / total) for c, n in sorted(left.items()) if n > 0]

    def chance_name(self, outcome: int) -> str:
        if outcome >= self.game.size_ids and self.game.sizes:
            size = outcome - self.game.size_ids + 1
            return f"deal {size} card{'s' if size != 1 else ''} each"
        own = self._own_chance() if self.current_player() == CHANCE else None
        if own is not None:
            for o, _ in own:
                if self.game.codec.chance_id(o) == outcome:
                    return self.game.codec.chance_name(o)
        codes = self.engine.setup.pack.codes
        return f"deal {codes[outcome]}" if 0 <= outcome < len(codes) else f"chance {outcome}"

    # --- moves ----------------------------------------------------------------------------------
    def _moves(self) -> tuple[dict[tuple[int, ...], Any], list[tuple[int, ...]]]:
        """The legal moves now, by their ids (a move listed twice once), and their ids."""
        engine = self.engine
        if self._listed is None or self._listed_at != engine.moves:
            encode = self.game.codec.encode
            by_ids: dict[tuple[int, ...], Any] = {}
            for action in engine.legal_actions():
                by_ids.setdefault(encode(action), action)
            self._listed = (by_ids, list(by_ids))
            self._listed_at = engine.moves
        return self._listed

    def legal_actions(self) -> list[int]:
        """The ids the seat to act may choose now, ascending (chance's: its outcomes)."""
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [o for o, _ in self.chance_outcomes()]
        _, all_ids = self._moves()
        prefix = self.prefix
        at = len(prefix)
        if not at:
            return sorted({ids[0] for ids in all_ids})
        return sorted({ids[at] for ids in all_ids if len(ids) > at and ids[:at] == prefix})

    def action_name(self, player: int, token: int) -> str:
        if player == CHANCE:
            return self.chance_name(token)
        return self.game.codec.token_name(token)

    def apply(self, token: int) -> None:
        """Apply one id: a chance outcome, a whole move, or the next part of one."""
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalActionError("the game is over")
        if player == CHANCE:
            self._chance(token)
        else:
            by_ids, all_ids = self._moves()
            chosen = self.prefix + (token,)
            action = by_ids.get(chosen)
            if action is not None:
                self._engine_apply(action)
                self.prefix = ()
            elif any(ids[:len(chosen)] == chosen for ids in all_ids if len(ids) > len(chosen)):
                self.prefix = chosen
            else:
                raise IllegalActionError(f"id {token} is not legal now")
            self.decisions += 1
        self.history.append((player, token))

    def _chance(self, token: int) -> None:
        sizes = self._sizes_due()
        if sizes is not None:
            if token not in {i for i, _ in sizes}:
                raise IllegalActionError(f"chance outcome {token} is not a hand size this round may draw")
            self.engine.draw_hand_size(token - self.game.size_ids + 1)
            return
        own = self._own_chance()
        if own is not None:
            codec = self.game.codec
            for outcome, _ in own:
                if codec.chance_id(outcome) == token:
                    self._engine_apply(outcome)
                    return
            raise IllegalActionError(f"chance outcome {token} is not possible now")
        size, left = self._deal_size()
        if left[token] <= 0:
            raise IllegalActionError(f"chance outcome {token}: no such card is left to deal")
        self.dealt.append(token)
        if len(self.dealt) < size:
            return
        engine = self.engine
        players, hand = engine.players, engine.hand_size
        cards = self.dealt
        hands = tuple(tuple(cards[s * hand:(s + 1) * hand]) for s in range(players))
        at = players * hand
        upcard = cards[at] if engine._expects_upcard() else None
        if upcard is not None:
            at += 1
        left.subtract([token])
        stock = tuple(cards[at:]) + tuple(sorted((+left).elements()))
        self.dealt = []
        self._engine_apply(Deal(hands, upcard, stock))

    def _engine_apply(self, action: Any) -> None:
        engine = self.engine
        round_index = engine.round_index
        engine.apply(action)
        if type(action) is Deal:
            self.in_round = True
        if engine.round_index != round_index:  # a round scored: the next one's events start here
            self.round_from = engine.event_count
            self.lead = [""] * self.game.players
            self.in_round = False
        remember = self.game._remember
        if remember is not None and engine.turn >= 0 and not self.is_terminal():
            seat = engine.turn
            remember(self.game.rules, engine.observation(seat), self.memory[seat])

    # --- the end --------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        players = self.game.players
        if not self.is_terminal():
            return [0.0] * players
        engine = self.engine
        best = engine.winners
        share = 1.0 / len(best) if best else 0.0
        return [(share if s in best else 0.0) - 1.0 / players for s in range(players)]

    # --- views ------------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> Any:
        """The engine's observation of ``seat`` (None: a spectator's)."""
        return self.engine.observation(seat)

    def _extra(self, seat: int | None) -> str:
        bits = []
        if self.dealt:
            bits.append(f"dealing: {len(self.dealt)} cards out")
        if self.prefix and seat is not None and seat == self.engine.turn:
            names = self.game.codec.token_name
            bits.append("choosing: " + ", ".join(names(t) for t in self.prefix))
        return "; ".join(bits)

    def observation_text(self, seat: int | None) -> str:
        text = self.game.encoder.text(self.observation(seat))
        extra = self._extra(seat)
        return f"{text}; {extra}" if extra else text

    def observation_tensor(self, seat: int | None) -> list[float]:
        """The encoder's vector, then the steps' own: cards dealt so far, and the ids
        this seat has chosen of a move of several (counts, then the last one)."""
        out = self.game.encoder.tensor(self.observation(seat))
        size = self.game.codec.size
        chosen = [0.0] * (2 * size)
        if self.prefix and seat is not None and seat == self.engine.turn:
            for t in self.prefix:
                chosen[t] += 1.0
            chosen[size + self.prefix[-1]] = 1.0
        return out + [float(len(self.dealt))] + chosen

    def information_text(self, seat: int) -> str:
        """Every event of the round as ``seat`` was shown it, then its observation."""
        engine = self.engine
        if self._upto[seat] < self.round_from:  # a new round
            self._lines[seat] = []
            self._upto[seat] = self.round_from
        if self._upto[seat] < engine.seen_count():
            self._lines[seat] += [json.dumps(v, sort_keys=True, separators=(",", ":"))
                                  for v in engine.event_views(seat, self._upto[seat])]
            self._upto[seat] = engine.seen_count()
        lines = ([self.lead[seat]] if self.lead[seat] else []) + self._lines[seat]
        lines.append(self.observation_text(seat))
        return "\n".join(lines)

    def __str__(self) -> str:
        engine = self.engine
        codes = engine.setup.pack.codes
        hands = getattr(engine, "hands", None) or []
        parts = [f"round {engine.round}/{engine.rounds}", f"turn {engine.turn}", f"moves {engine.moves}",
                 f"totals {' '.join(map(str, engine.totals))}",
                 "hands " + " | ".join(" ".join(codes[c] for c in h) for h in hands)]
        if self.dealt:
            parts.append("dealt " + " ".join(codes[c] for c in self.dealt))
        if self.prefix:
            parts.append("choosing " + " ".join(map(str, self.prefix)))
        return "; ".join(parts)

    # --- copies ---------------------------------------------------------------------------------
    def clone(self) -> StepState:
        new = StepState.__new__(StepState)
        new.game = self.game
        new.engine = self.engine.clone()
        new.dealt = self.dealt[:]
        new.prefix = self.prefix
        new.history = self.history[:]
        new.decisions = self.decisions
        new.round_from = self.round_from
        new.lead = self.lead[:]
        new._lines = [lines[:] for lines in self._lines]
        new._upto = self._upto[:]
        new.memory = [copy_memory(m) for m in self.memory]
        new.in_round = self.in_round
        new._listed, new._listed_at = None, -1
        return new

    def resample(self, seat: int, rng: random.Random) -> StepState:
        """A state consistent with everything ``seat`` has observed: the hidden cards
        dealt anew by the family's ``determinize`` (ValueError without one).  Its
        information state for ``seat`` is this one's; the history of ids is this one's
        too, though the hidden cards it dealt are now others (so a resampled state is
        not rebuilt from its history: replaying the ids gives the true state)."""
        game = self.game
        if self.current_player() == TERMINAL:
            return self.clone()
        if not self.in_round:
            # before a round's deal is out nothing is hidden but the cards dealt so far, which nobody has seen
            new = self.clone()
            pool = list(Counter(self.engine.deck).elements())
            rng.shuffle(pool)
            new.dealt = pool[:len(self.dealt)]
            return new
        determinize = game._determinize
        if determinize is None:
            raise ValueError(f"the {game.rules.family.name} family cannot sample the hidden cards (determinize)")
        new = StepState(game, determinize(game.rules, self.observation(seat), copy_memory(self.memory[seat]), rng))
        new.history = self.history[:]
        new.decisions = self.decisions
        new.in_round = True
        new.round_from = new.engine.event_count
        new._upto = [new.round_from] * game.players
        known = self.information_text(seat)
        lead = known.rsplit("\n", 1)[0] if "\n" in known else ""
        new.lead = [lead if s == seat else "(resampled) " + new.observation_text(s) for s in range(game.players)]
        new.memory[seat] = copy_memory(self.memory[seat])
        if seat == self.engine.turn:
            new.prefix = self.prefix
        return new


def copy_memory(memory: dict[str, Any]) -> dict[str, Any]:
    """A copy of a seat's memory (the family's ``remember``) that the copy's play leaves alone."""
    return {k: (v[:] if isinstance(v, list) else v) for k, v in memory.items()}


def replay(game: StepGame, ids: Sequence[int]) -> StepState:
    """The state the ids ``ids`` lead to from the start."""
    state = game.new_state()
    for token in ids:
        state.apply(token)
    return state
