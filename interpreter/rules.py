"""Typed, compiled rulesets: the only form of a ruleset the interpreter ever sees.

The core part of a ruleset (players, the pack, the deal schedule, rounds and modes,
partnerships, the winner) is here; each family adds its own section, built by the
family from the same document with the helpers of :class:`RulesBuilder`.  Loading a
file by name goes through :mod:`.ruleset`, which knows the registry of families.

Rules are named for what they rule (``DeckRules``, ``DealRules``); the moves of a
game (``Deal``, ``Bid``, ...) are actions, defined by the families.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .cards import RANKS
from .pack import STANDARD, Pack
from .pack_rules import build_pack, is_standard_ranks
from .errors import EvaluationError, ExpressionError, Problem
from .expressions import Compiled, Steps, StepsExhausted, Type, check_source, compile_checked
from .loader import Document, JsonPath

if TYPE_CHECKING:
    from .family import GameFamily


class Ace(StrEnum):
    HIGH = "high"
    LOW = "low"
    EITHER = "either"


class Rotation(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    NONE = "none"


class Direction(StrEnum):
    """direction: the way the turn goes round the table (seats are numbered clockwise)."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"

    @property
    def step(self) -> int:
        """What the next seat in turn adds to a seat's number (modulo the players)."""
        return 1 if self is Direction.CLOCKWISE else -1


class SeatFromDealer(StrEnum):
    LEFT_OF_DEALER = "left-of-dealer"
    DEALER = "dealer"
    RIGHT_OF_DEALER = "right-of-dealer"

    @property
    def offset(self) -> int:
        return _OFFSETS[self.value]


# The work of loading a ruleset is bounded by counts, never by a clock, so that a file loads
# (or is refused) alike on any machine, at any load, under a profiler: what a stranger's
# file can make a loader do is bounded all the same.
MAX_EXPRESSION_TEXT = 100_000  # characters of expressions read, the rulesets it extends included
SETUP_STEPS = 2_000_000  # evaluation steps (expressions.Steps) at load, over every player count and mode
TOO_MUCH_TEXT = (f"the ruleset's expressions (with those of the rulesets it extends) hold more than "
                 f"{MAX_EXPRESSION_TEXT:,} characters: simplify them")
TOO_MANY_STEPS = (f"working out the ruleset's expressions for every player count and mode takes more than "
                  f"{SETUP_STEPS:,} evaluation steps: simplify them")

_OFFSETS = {"left-of-dealer": 1, "dealer": 0, "right-of-dealer": -1}


class Winner(StrEnum):
    HIGHEST = "highest"
    LOWEST = "lowest"


# Event kinds every game record has (../shared/spec/game-record.md); each family adds its own.
CORE_EVENTS = ("game", "deal", "score", "end")

RANKS_TUPLE = tuple(RANKS)  # every rank, 2 to ace

# Names each place in a ruleset binds (see docs/ruleset-language.md, "Names").
GAME_NAMES: dict[str, Type] = {"players": Type.INT, "decks": Type.INT, "jokers": Type.INT,
                               "deck_size": Type.INT}
ROUND_NAMES: dict[str, Type] = {**GAME_NAMES, "round": Type.INT, "rounds": Type.INT, "hand_size": Type.INT,
                                "is_last_round": Type.BOOL}
TEAM_NAMES: dict[str, Type] = {**GAME_NAMES, "seat": Type.INT}
# rounds.end_when: after a round is scored, the round's names and every total
END_NAMES: dict[str, Type] = {**ROUND_NAMES, "totals": Type.LIST, "team_totals": Type.LIST}
# winner_by: each seat's names at the game's end (and the family's counters, the seat's values)
STANDING_NAMES: dict[str, Type] = {**GAME_NAMES, "seat": Type.INT, "total": Type.INT}


@dataclass(frozen=True)
class Template:
    """A message with ``{expression}`` placeholders, compiled once."""

    parts: tuple[str | Compiled, ...]

    def render(self, env: Mapping[str, Any]) -> str:
        return "".join(p if isinstance(p, str) else _show(p(env)) for p in self.parts)

    @property
    def text(self) -> str:
        """The template as written, placeholders included."""
        return "".join(p if isinstance(p, str) else "{" + p.source + "}" for p in self.parts)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


@dataclass(frozen=True)
class DeckRules:
    decks: Compiled
    jokers: Compiled
    ranks: tuple[str, ...]  # the ranks in the deck (every rank when ``ranks_rule`` decides per player count)
    ace: Ace
    ranks_rule: Compiled | None = None  # deck.ranks as an expression of players and decks
    # deck.remove: (when, cards) pairs: the cards taken out of every pack when ``when`` (of
    # players and decks; None: always) holds
    remove: tuple[tuple[Compiled | None, tuple[int, ...]], ...] = ()
    pack: Pack = STANDARD  # every kind of card the pack can hold (deck.suits, deck.ranks, deck.specials)
    specials: tuple[tuple[int, Compiled], ...] = ()  # each special card (not the joker) and its count a pack
    names: Mapping[str, int] = field(default_factory=dict)  # the pack's suits and special cards in expressions


@dataclass(frozen=True)
class DealRules:
    hand_size: Compiled
    first_dealer: int | None  # None: chosen at random
    rotation: Rotation
    first_to_act: SeatFromDealer
    upcard: bool
    direction: Direction = Direction.CLOCKWISE  # the turn's way round the table: bids, plays, draws
    # deal.random_hand_size: each round's hand size drawn at the deal from this list (ROUND_NAMES)
    random_hand_size: Compiled | None = None


@dataclass(frozen=True)
class Setup:
    """What a ruleset means for one player count, computed once per count."""

    players: int
    decks: int
    jokers: int
    deck_size: int
    lets: Mapping[str, Any]
    hand_sizes: tuple[int, ...]  # per round played
    round_numbers: tuple[int, ...]  # 1-based numbers, in the full game's numbering
    teams: tuple[int, ...] = ()  # each seat's team number; empty: no partnerships
    full_rounds: int = 0  # rounds of the full game (a mode plays some of them); 0: as many as played
    ranks: tuple[str, ...] = RANKS_TUPLE  # the ranks in this game's deck
    removed: tuple[int, ...] = ()  # deck.remove: cards taken out of every pack for this player count
    pack: Pack = STANDARD  # the kinds of card (a game's cards are ints of this pack)
    special_counts: tuple[tuple[int, int], ...] = ()  # each special card (not the joker) and how many in all
    # deal.random_hand_size: each round's hand sizes to draw from (one per entry, each as likely); () without
    drawable: tuple[tuple[int, ...], ...] = ()
    # Values derived from this setup alone, kept for every game made with it (a family
    # keys its own entries: the bids a round allows, card orders, ...).
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def env(self) -> dict[str, Any]:
        """The game's names (a fresh dict)."""
        return {"players": self.players, "decks": self.decks, "jokers": self.jokers,
                "deck_size": self.deck_size, "rounds": self.full_rounds or len(self.round_numbers), **self.lets}

    def round_env(self, index: int) -> dict[str, Any]:
        """The names of the round at ``index`` (0-based): the game's, with ``round`` (its
        number in the full game), ``hand_size`` and ``is_last_round`` (the last round this
        game plays, mode or not).  A fresh dict, made from a cached one."""
        envs = self.cache.get("round_envs")
        if envs is None:
            envs = self.cache["round_envs"] = {}
        env = envs.get(index)
        if env is None:
            env = envs[index] = {**self.env, "round": self.round_numbers[index], "hand_size": self.hand_sizes[index],
                                 "is_last_round": index == len(self.hand_sizes) - 1}
        return dict(env)


@dataclass(frozen=True)
class Refusal:
    """Why games of one player count and mode cannot be played: a check that came after a
    file validated found it, so it is a warning there and a refusal to start such a game
    (see Ruleset.refusal)."""

    message: str  # the check's own words
    path: JsonPath  # the rule it is about
    can_set_up: bool  # whether a game could be set up at all (a record of one may exist)


@dataclass(frozen=True)
class Ruleset:
    """A loaded, checked, compiled ruleset.  Immutable; games are made from it.
    ``family`` is the family object that plays it; ``section`` is that family's part
    of the rules."""

    name: str
    title: str
    description: str
    source: Mapping[str, str]
    notes: tuple[str, ...]
    family: GameFamily
    min_players: int
    max_players: int
    lets: tuple[tuple[str, Compiled], ...]
    deck: DeckRules
    deal: DealRules
    max_rounds: Compiled | None
    modes: Mapping[str, tuple[str, Compiled]]
    mode: str | None
    winner: Winner
    section: Any
    team: Compiled | None  # each seat's team number (partnerships), or None: every seat alone
    sha256: str
    document: Document = field(repr=False, compare=False)
    # rules that can never apply as written (validate prints them; the ruleset still loads)
    warnings: tuple[Problem, ...] = field(default=(), repr=False, compare=False)
    end_when: Compiled | None = None  # rounds.end_when: the game ends after a round for which it holds
    # winner_by: (rule, best) in order: the seats best by each rule contend, before `winner` picks by the totals
    winner_by: tuple[tuple[Compiled, Winner], ...] = ()
    # tie_break: (rule, best) in order: of the seats tied for the best total, those best by each rule win
    tie_break: tuple[tuple[Compiled, Winner], ...] = ()
    # the player counts and modes (the ruleset's own: None, or its name) that no game may be started in
    refusals: Mapping[tuple[int, str | None], Refusal] = field(default_factory=dict, repr=False, compare=False)
    _setups: dict[tuple[int, str | None], Setup] = field(default_factory=dict, repr=False, compare=False)

    @property
    def data(self) -> dict[str, Any]:
        """The resolved ruleset as plain data (after `extends`)."""
        return self.document.data

    @property
    def family_name(self) -> str:
        return self.family.name

    def setup(self, players: int, mode: str | None = None) -> Setup:
        """Evaluate the game-level expressions for ``players`` (cached)."""
        key = (players, mode or self.mode)
        cached = self._setups.get(key)
        if cached is None:
            cached = self._setups[key] = compute_setup(self, players, mode or self.mode)
        return cached

    def refusal(self, players: int, mode: str | None = None, *, new: bool = True) -> str | None:
        """Why a game of ``players`` in ``mode`` cannot be played, in one line (None: it
        can).  A file that validated keeps validating when a later check finds a player
        count or mode it cannot be played in: validate warns, and no such game starts.
        ``new=False`` asks for a game replayed or resumed, refused only where it cannot
        even be set up (an earlier release may have played it)."""
        found = self.refusals.get((players, mode or self.mode))
        if found is None or (not new and found.can_set_up):
            return None
        where = situations_words([(players, mode if mode != self.mode else None)])
        return f"{self.name} cannot be played {where}: {found.message}"

    def setups(self, players: int) -> list[Setup]:
        """The setup of every mode that can be set up at ``players`` seats (the ruleset's
        own first)."""
        modes = [self.mode] + [m for m in self.modes if m != self.mode]
        return [self.setup(players, m) for m in modes
                if (found := self.refusals.get((players, m))) is None or found.can_set_up]


def situations_words(situations: Sequence[tuple[int, str | None]]) -> str:
    """Player counts and modes in words: "with 3 to 5 players; with 4 players in mode
    'junior'" (mode None: the ruleset's own)."""
    by_mode: dict[str | None, list[int]] = {}
    for players, mode in situations:
        by_mode.setdefault(mode, []).append(players)
    parts = []
    for mode, counts in by_mode.items():
        runs: list[list[int]] = []
        for n in sorted(set(counts)):
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        spans = [f"{run[0]}" if len(run) == 1 else f"{run[0]} to {run[-1]}" for run in runs]
        many = len(counts) > 1
        parts.append(f"with {', '.join(spans)} player{'s' if many or counts != [1] else ''}"
                     + (f" in mode '{mode}'" if mode else ""))
    return "; ".join(parts)


# --- building ----------------------------------------------------------------------------
class RulesBuilder:
    """Turns a validated document into a Ruleset, collecting semantic problems.  A
    family builds its section with :meth:`get`, :meth:`expr`, :meth:`template` and
    :meth:`fail`; ``deck`` is the core deck rules, built first."""

    def __init__(self, doc: Document, family: GameFamily, other_keys: frozenset[str] = frozenset()):
        self.doc = doc
        self.data = doc.data
        self.family = family
        self.other_keys = other_keys  # keys only other families use
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.let_names: dict[str, Type] = {}
        self.deck: DeckRules | None = None
        self.pack: Pack = STANDARD  # the ruleset's pack, read first
        self.pack_names: dict[str, int] = {}  # its suits' and special cards' names in expressions
        self.numbers = True  # run the checks that evaluate the rules for every player count
        self.text_left = MAX_EXPRESSION_TEXT  # characters of expressions still to be read
        self.steps = Steps(SETUP_STEPS)  # shared by constant expressions and every player count's setup
        self.too_much = False  # a bound was met: reported once, and nothing more is read

    def fail(self, path: JsonPath, message: str, **kw: Any) -> None:
        self.problems.append(self.doc.problem(path, message, **kw))

    def warn(self, path: JsonPath, message: str, **kw: Any) -> None:
        """A rule that can never apply as written: reported by validate, not an error."""
        self.warnings.append(self.doc.problem(path, message, kind="warning", **kw))

    def get(self, path: JsonPath, default: Any = None) -> Any:
        node: Any = self.data
        for part in path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return default
        return node

    def expr(self, path: JsonPath, names: Mapping[str, Type], want: Type | tuple[Type, ...],
             default: Any = None) -> Compiled:
        value = self.get(path, default)
        all_names = {**self.let_names, **names}  # a place's own name hides a let of that spelling
        if isinstance(value, bool):
            source = "true" if value else "false"
        elif isinstance(value, int):
            source = str(value)
        elif isinstance(value, list):
            source = "[" + ", ".join(str(v) for v in value) + "]"
        else:
            source = str(value)
        if not self._read(path, source):
            return compile_checked("0", {}, None)
        try:
            return compile_checked(source, all_names, want, self.steps)
        except StepsExhausted:
            self._too_much(path, TOO_MANY_STEPS)
            return compile_checked("0", {}, None)
        except ExpressionError as exc:
            errors = check_source(source, all_names, want) or [exc]
            for err in errors:
                offset = err.start if isinstance(value, str) else None
                self.fail(path, err.message, kind="expression", offset=offset,
                          span=err.end - err.start if isinstance(value, str) else 1)
            return compile_checked("0", {}, None)

    def template(self, path: JsonPath, names: Mapping[str, Type]) -> Template:
        text = self.get(path, "")
        parts: list[str | Compiled] = []
        pos = 0
        for match in re.finditer(r"\{([^{}]*)\}", text):
            parts.append(text[pos:match.start()])
            source = match.group(1)
            if not self._read(path, source):
                break
            try:
                parts.append(compile_checked(source, {**names, **self.let_names}, None))
            except ExpressionError as exc:
                self.fail(path, f"in message placeholder: {exc.message}", kind="expression",
                          offset=match.start(1) + exc.start, span=exc.end - exc.start)
            pos = match.end()
        parts.append(text[pos:])
        return Template(tuple(p for p in parts if p != ""))

    def _read(self, path: JsonPath, source: str) -> bool:
        """Whether ``source`` may be read: the characters of expressions a ruleset holds
        are bounded (parsing is most of a load's work), and past the bound nothing more is."""
        self.text_left -= len(source)
        if self.text_left < 0:
            self._too_much(path, TOO_MUCH_TEXT)
        return not self.too_much

    def _too_much(self, path: JsonPath, message: str) -> None:
        if not self.too_much:
            self.too_much = True
            self.fail(path, message)

    def _removed_cards(self) -> tuple[tuple[Compiled | None, tuple[int, ...]], ...]:
        """deck.remove: each entry a card name, or {cards, when} for some player counts."""
        out = []
        always: list[int] = []  # the cards of plain entries
        for i, entry in enumerate(self.get(("deck", "remove"), []) or []):
            when = None
            texts = [entry]
            path: tuple[Any, ...] = ("deck", "remove", i)
            if isinstance(entry, dict):
                when = self.expr(path + ("when",), {"players": Type.INT, "decks": Type.INT}, Type.BOOL) \
                    if entry.get("when") is not None else None
                texts = entry.get("cards") or []
                path = path + ("cards",)
            found = []
            for j, text in enumerate(texts):
                at = path + (j,) if isinstance(entry, dict) else path
                try:
                    c = self.pack.card(str(text))
                except ValueError as exc:
                    self.fail(at, str(exc))
                    continue
                if self.pack.special_of[c] >= 0:
                    self.fail(at, "deck.remove takes suited cards; deck.jokers and deck.specials say how many "
                              "special cards there are")
                elif c in found or (not isinstance(entry, dict) and c in always):
                    self.fail(at, f"{self.pack.code(c)} is listed twice")
                else:
                    found.append(c)
                    if not isinstance(entry, dict):
                        always.append(c)
            out.append((when, tuple(found)))
        return tuple(out)

    def build(self) -> Ruleset:
        # Long on purpose: one step per core key, in the schema's order, each reporting
        # its problems at its key; the family's section is built by the family.
        d = self.data
        family = self.family
        players = d["players"]
        if players["min"] > players["max"]:
            self.fail(("players", "min"), f"players.min ({players['min']}) is more than players.max "
                      f"({players['max']})")
        for key in sorted(self.other_keys):
            if key in self.data:
                self.fail((key,), f"'{key}' does not apply to a {family.name} ruleset", at_key=True,
                          span=len(key))
        pack, specials, pack_names = build_pack(self)
        self.pack = pack
        if pack is not STANDARD and not family.any_pack:
            # a family written for the standard pack reads cards by its arithmetic: refuse, not misplay
            self.fail(("deck",), f"the {family.name} family plays only the standard pack (the French suits, "
                      "ranks 2 to A and jokers): deck.suits, other ranks and deck.specials are not for it",
                      at_key=True, span=4)
        ranks_given = self.get(("deck", "ranks"))
        standard_ranks = not isinstance(ranks_given, list) or is_standard_ranks(ranks_given)
        self.pack_names = pack_names
        for name in pack_names:  # a suit or a special card of the pack, by name, in every expression
            self.let_names[name] = Type.INT
        deck = self.deck = DeckRules(
            decks=self.expr(("deck", "decks"), {"players": Type.INT}, Type.INT, 1),
            jokers=self.expr(("deck", "jokers"), {"players": Type.INT, "decks": Type.INT}, Type.INT, 0),
            ranks=RANKS_TUPLE if isinstance(ranks_given, str) else
            tuple(r for r in RANKS if r in [str(x).upper().replace("10", "T") for x in (ranks_given or RANKS)])
            if standard_ranks else tuple(r.code for r in pack.ranks),
            ace=Ace(self.get(("deck", "ace"), "high")),
            ranks_rule=self.expr(("deck", "ranks"), {"players": Type.INT, "decks": Type.INT}, Type.LIST)
            if isinstance(ranks_given, str) else None,
            remove=self._removed_cards(),
            pack=pack,
            specials=specials,
            names=pack_names,
        )
        lets = []
        for name in self.get(("let",), {}):
            if name in family.bound_names or name in ROUND_NAMES or name in TEAM_NAMES:
                self.fail(("let", name), f"'{name}' is a name the language already binds", at_key=True,
                          span=len(name))
                continue
            compiled = self.expr(("let", name), GAME_NAMES, (Type.INT, Type.BOOL, Type.LIST))
            lets.append((name, compiled))
            self.let_names[name] = compiled.type
        first = self.get(("deal", "dealer", "first"), 0)
        direction = Direction(self.get(("direction",), "clockwise"))
        clockwise = direction is Direction.CLOCKWISE  # the defaults: the deal and the first turn go the same way
        deal = DealRules(
            hand_size=self.expr(("deal", "hand_size"), GAME_NAMES, (Type.INT, Type.LIST)),
            first_dealer=None if first == "random" else first,
            rotation=Rotation(self.get(("deal", "dealer", "rotation"), "left" if clockwise else "right")),
            first_to_act=SeatFromDealer(self.get(("deal", "first_to_act"),
                                                 "left-of-dealer" if clockwise else "right-of-dealer")),
            upcard=self.get(("deal", "upcard"), family.default_upcard(self)),
            direction=direction,
            random_hand_size=self.expr(("deal", "random_hand_size"), ROUND_NAMES, Type.LIST)
            if self.get(("deal", "random_hand_size")) is not None else None,
        )
        max_rounds = self.expr(("rounds", "max"), GAME_NAMES, Type.INT) if self.get(("rounds", "max")) is not None \
            else None
        modes = {}
        for name, spec in self.get(("modes",), {}).items():
            modes[name] = (spec.get("description", ""), self.expr(("modes", name, "rounds"), GAME_NAMES,
                                                                  (Type.INT, Type.LIST)))
        mode = self.get(("mode",))
        if mode is not None and mode not in modes:
            self.fail(("mode",), f"mode '{mode}' is not defined under 'modes'"
                      + (f" (modes: {', '.join(modes)})" if modes else ""))
        section = family.build_section(self)
        # a family's counters (numbers each seat carries from round to round): lists by seat
        # in rounds.end_when, each seat's value in winner_by
        counters = tuple(family.counter_names(section))
        ruleset = Ruleset(
            name=d.get("name") or Path(self.doc.source.name).stem,
            title=d.get("title") or d.get("name") or Path(self.doc.source.name).stem,
            description=d.get("description", ""),
            source=d.get("source", {}),
            notes=tuple(d.get("notes", ())),
            family=family,
            min_players=players["min"],
            max_players=players["max"],
            lets=tuple(lets),
            deck=deck,
            deal=deal,
            max_rounds=max_rounds,
            modes=modes,
            mode=mode,
            winner=Winner(d["winner"]),
            section=section,
            team=self.expr(("team",), TEAM_NAMES, Type.INT) if self.get(("team",)) is not None else None,
            end_when=self.expr(("rounds", "end_when"), {**END_NAMES, **{n: Type.LIST for n in counters}}, Type.BOOL)
            if self.get(("rounds", "end_when")) is not None else None,
            winner_by=self._winner_by(counters),
            tie_break=self._winner_by(counters, "tie_break"),
            sha256=self.doc.sha256(),
            document=self.doc,
            warnings=tuple(self.warnings),
        )
        if not self.problems and self.numbers:
            warned = len(self.warnings)
            refusals = self._check_every_player_count(ruleset)
            if len(self.warnings) > warned or refusals:  # (the checks with numbers may warn too)
                ruleset = replace(ruleset, warnings=tuple(self.warnings), refusals=refusals)
        return ruleset

    # --- checks that need numbers: run for every allowed player count ---
    def _winner_by(self, counters: Sequence[str], key: str = "winner_by") -> tuple[tuple[Compiled, Winner], ...]:
        """``winner_by`` (or ``tie_break``): a list of ``{rule, best}``, each rule an int
        expression of a seat's STANDING_NAMES and the family's counters (the seat's values)."""
        out = []
        names = {**STANDING_NAMES, **{n: Type.INT for n in counters}}
        for i, entry in enumerate(self.get((key,), []) or []):
            out.append((self.expr((key, i, "rule"), names, Type.INT), Winner(entry.get("best", "highest"))))
        if out and self.get(("team",)) is not None:
            self.fail((key,), f"{key} ranks seats, not partnerships: it cannot be used with team",
                      at_key=True, span=len(key))
        return tuple(out)

    def _check_every_player_count(self, rules: Ruleset) -> dict[tuple[int, str | None], Refusal]:
        """The checks with numbers, for every player count and mode; the player counts
        and modes that cannot be played (see :meth:`_refusals`)."""
        reported: set[tuple[JsonPath, str]] = set()
        # a problem that stops games of some counts and modes: (path, at_key) -> situation -> (message, set up)
        refusable: dict[tuple[JsonPath, bool], dict[tuple[int, str | None], tuple[str, bool]]] = {}
        situation: list[tuple[int, str | None]] = [(0, None)]  # the player count and mode being checked

        def once(path: JsonPath, message: str, key: str | None = None, at_key: bool = False,
                 refuse: bool = False, warning: bool = False) -> None:
            """Report a problem once, however many player counts (or melds) show it
            (``at_key``: at the key itself, as for a mapping that lacks an entry;
            ``warning``: a rule that cannot apply as written, not an error).  With
            ``refuse``: the game cannot be played at this count and mode, which a file may
            have done before the check existed (said at the end, by :meth:`_refusals`)."""
            if refuse:
                refusable.setdefault((path, at_key), {}).setdefault(situation[0], (message, True))
            elif (path, key or message) not in reported:
                reported.add((path, key or message))
                if warning:
                    self.warn(path, message)
                elif at_key and path and isinstance(path[-1], str):
                    self.fail(path, message, at_key=True, span=len(path[-1]))
                else:
                    self.fail(path, message)

        modes: list[str | None] = [rules.mode] + [m for m in rules.modes if m != rules.mode]
        for mode in modes:  # every mode, at every player count
            for players in range(rules.min_players, rules.max_players + 1):
                situation[0] = (players, mode)
                try:
                    setup = compute_setup(rules, players, mode, self.steps)
                    rules._setups.setdefault((players, mode), setup)  # computed once: games use it
                except SetupError as exc:
                    if self.steps.left < 0:  # the budget is the whole ruleset's: said once, where it ran out
                        self.fail(exc.path, str(exc))
                        return {}
                    where = f" in mode '{mode}'" if mode != rules.mode else ""
                    if mode != rules.mode and exc.path[:2] == ("modes", mode):
                        # another mode that does not fit this count's game (checked at every
                        # count only since 869ceea; the ruleset's own mode always was)
                        refusable.setdefault((exc.path, False), {})[(players, mode)] = (str(exc), False)
                    else:
                        once(exc.path, f"with {players} players{where}: {exc}", key=str(exc))
                    continue
                rules.family.check_setup(rules, setup, once)
                self._probe_standing_rules(rules, setup, reported)
        return self._refusals(rules, modes, refusable)

    def _refusals(self, rules: Ruleset, modes: Sequence[str | None],
                  refusable: Mapping[tuple[JsonPath, bool], Mapping[tuple[int, str | None], tuple[str, bool]]]
                  ) -> dict[tuple[int, str | None], Refusal]:
        """The problems that stop the games of some player counts and modes: where a mode
        (or the ruleset's own rounds) can be played at no player count, a problem, as it
        always was; else a warning naming the counts and modes, which play refuses (a file
        that validated keeps validating when a later check finds such a case)."""
        counts = range(rules.min_players, rules.max_players + 1)
        stopped = {where for shown in refusable.values() for where in shown}
        dead = {mode for mode in modes if all((n, mode) in stopped for n in counts)}
        refusals: dict[tuple[int, str | None], Refusal] = {}
        for (path, at_key), shown in refusable.items():
            first = next(iter(shown.items()))
            if any(mode in dead for _, mode in shown):  # nothing of that mode can be played: wrong as written
                said: set[str] = set()
                for where, found in shown.items():
                    if where[1] in dead and found[0] not in said:  # once for each wording, as `once` does
                        said.add(found[0])
                        self.fail(path, self._situated(rules, where, found),
                                  **({"at_key": True, "span": len(str(path[-1]))} if at_key else {}))
                continue
            words = situations_words([(n, m if m != rules.mode else None) for n, m in shown])
            message = f"cannot be played {words} (play refuses it there): {self._situated(rules, *first)}"
            self.warn(path, message, **({"at_key": True, "span": len(str(path[-1]))} if at_key else {}))
            for where, (text, can_set_up) in shown.items():
                refusals.setdefault(where, Refusal(text, path, can_set_up))
        return refusals

    @staticmethod
    def _situated(rules: Ruleset, where: tuple[int, str | None], found: tuple[str, bool]) -> str:
        """A problem's message as the checks word it: a setup's with its player count and mode first."""
        message, can_set_up = found
        if can_set_up:  # the family's own words, which say where
            return message
        players, mode = where
        return f"with {players} players" + (f" in mode '{mode}'" if mode != rules.mode else "") + f": {message}"

    def _probe_standing_rules(self, rules: Ruleset, setup: Setup, reported: set[tuple[JsonPath, str]]) -> None:
        """winner_by and tie_break rules are worked out only at a game's end (tie_break only
        on a tie): try each for every seat with every total and counter 0, and warn of an
        error there (it may not be one at a real end, so a warning)."""
        counters = list(rules.family.counter_names(rules.section))
        for key, entries in (("winner_by", rules.winner_by), ("tie_break", rules.tie_break)):
            for i, (rule, _) in enumerate(entries):
                for seat in range(setup.players):
                    env = setup.env
                    env.update(seat=seat, total=0, **{name: 0 for name in counters})
                    try:
                        rule(env)
                    except EvaluationError as exc:
                        message = (f"{key} '{rule.source}' gives an error when every total and counter is 0 "
                                   f"({exc}): a game ending so would stop there")
                        if ((key, i, "rule"), message) not in reported:
                            reported.add(((key, i, "rule"), message))
                            self.warn((key, i, "rule"), message)
                        break


class SetupError(Exception):
    """A game-level value that cannot be used for one player count, at its path."""

    def __init__(self, path: JsonPath, message: str):
        self.path = path
        super().__init__(message)

    def __reduce__(self) -> tuple[type, tuple[JsonPath, str]]:
        return (type(self), (self.path, str(self)))


def _eval(compiled: Compiled, env: Mapping[str, Any], path: JsonPath, steps: Steps | None = None) -> Any:
    try:
        return compiled(env) if steps is None else compiled.counted(steps, env)
    except StepsExhausted:
        raise SetupError(path, TOO_MANY_STEPS) from None
    except EvaluationError as exc:
        raise SetupError(path, str(exc)) from None


def compute_setup(rules: Ruleset, players: int, mode: str | None, steps: Steps | None = None) -> Setup:
    """The game-level values of ``rules`` for ``players`` (SetupError at the rule's path).
    With ``steps`` every evaluation charges them and stops when they run out (SetupError
    TOO_MANY_STEPS): a stranger's ruleset may be written to make this long."""
    decks = _eval(rules.deck.decks, {"players": players}, ("deck", "decks"), steps)
    jokers = _eval(rules.deck.jokers, {"players": players, "decks": decks}, ("deck", "jokers"), steps)
    if not 1 <= decks <= 12:
        raise SetupError(("deck", "decks"), f"the number of decks is {decks}; it must be 1 to 12")
    if not 0 <= jokers <= 24:
        raise SetupError(("deck", "jokers"), f"the number of jokers is {jokers}; it must be 0 to 24")
    ranks = rules.deck.ranks
    if rules.deck.ranks_rule is not None:
        ranks = _ranks(_eval(rules.deck.ranks_rule, {"players": players, "decks": decks}, ("deck", "ranks"), steps),
                       players)
    removed: tuple[int, ...] = ()
    if rules.deck.remove:
        removed = _removed(rules, ranks, players, decks, steps)
    pack = rules.deck.pack
    special_counts: list[tuple[int, int]] = []
    for card, count in rules.deck.specials:
        n = _eval(count, {"players": players, "decks": decks}, ("deck", "specials", len(special_counts), "count"),
                  steps)
        if not 0 <= n <= 24:
            raise SetupError(("deck", "specials", len(special_counts), "count"),
                             f"a pack holds {n} of {pack.code(card)}; it must be 0 to 24")
        special_counts.append((card, n * decks))
    deck_size = decks * (len(pack.suits) * len(ranks) - len(removed)) + jokers + sum(n for _, n in special_counts)
    env: dict[str, Any] = {"players": players, "decks": decks, "jokers": jokers, "deck_size": deck_size}
    lets: dict[str, Any] = dict(rules.deck.names)  # the pack's names, as fixed values every expression sees
    env.update(lets)
    for name, compiled in rules.lets:
        lets[name] = env[name] = _eval(compiled, env, ("let", name), steps)
    try:
        sizes = rules.family.schedule(rules.section, _eval(rules.deal.hand_size, env, ("deal", "hand_size"), steps))
    except ValueError as exc:
        raise SetupError(("deal", "hand_size"), str(exc)) from None
    if not sizes:
        raise SetupError(("deal", "hand_size"), "the deal schedule has no rounds")
    for size in sizes:
        if size < 1:
            raise SetupError(("deal", "hand_size"), f"a hand size of {size}: every hand needs a card")
    if rules.max_rounds is not None:
        cap = _eval(rules.max_rounds, env, ("rounds", "max"), steps)
        if cap < 1:
            raise SetupError(("rounds", "max"), f"rounds.max is {cap}; it must be at least 1")
        sizes = sizes[:cap]
    numbers = list(range(1, len(sizes) + 1))
    full_rounds = len(sizes)
    if mode is not None:
        selected = _eval(rules.modes[mode][1], {**env, "rounds": len(sizes)}, ("modes", mode, "rounds"), steps)
        selected = [selected] if isinstance(selected, int) else selected
        if not selected:
            raise SetupError(("modes", mode, "rounds"), f"mode '{mode}' plays no rounds")
        for n in selected:
            if not 1 <= n <= len(sizes):
                raise SetupError(("modes", mode, "rounds"), f"mode '{mode}' plays round {n}, but the game "
                                 f"has rounds 1 to {len(sizes)}")
        numbers = list(selected)
        sizes = [sizes[n - 1] for n in numbers]
    teams: tuple[int, ...] = ()
    if rules.team is not None:
        teams = tuple(_eval(rules.team, {**env, "seat": seat}, ("team",), steps) for seat in range(players))
        if len(set(teams)) < 2:
            raise SetupError(("team",), f"every seat is on team {teams[0]}: partnerships need two teams or more")
    drawable: list[tuple[int, ...]] = []
    if rules.deal.random_hand_size is not None:  # each round's sizes to draw from: 1 to the schedule's
        for index, (number, size) in enumerate(zip(numbers, sizes)):
            round_env = {**env, "rounds": full_rounds, "round": number, "hand_size": size,
                         "is_last_round": index == len(sizes) - 1}
            values = _eval(rules.deal.random_hand_size, round_env, ("deal", "random_hand_size"), steps)
            if not values or not all(1 <= v <= size for v in values):
                raise SetupError(("deal", "random_hand_size"), f"with {players} players, round {number} draws "
                                 f"its hand size from {sorted(set(values)) or 'nothing'}: each must be 1 to the "
                                 f"schedule's {size} (deal.hand_size gives the most a round may deal)")
            drawable.append(tuple(values))
    return Setup(players, decks, jokers, deck_size, lets, tuple(sizes), tuple(numbers), teams, full_rounds=full_rounds,
                 ranks=ranks, removed=removed, pack=pack, special_counts=tuple(special_counts),
                 drawable=tuple(drawable))


def _removed(rules: Ruleset, ranks: tuple[str, ...], players: int, decks: int,
             steps: Steps | None = None) -> tuple[int, ...]:
    """The cards deck.remove takes out of every pack for this player count, in card order."""
    out: set[int] = set()
    for i, (when, cards) in enumerate(rules.deck.remove):
        if when is not None and not _eval(when, {"players": players, "decks": decks}, ("deck", "remove", i, "when"),
                                          steps):
            continue
        pack = rules.deck.pack
        for c in cards:
            if pack.ranks[pack.rank_of[c]].code not in ranks:
                raise SetupError(("deck", "remove", i), f"the deck has no {pack.code(c)} to remove (deck.ranks)")
            out.add(c)
    if len(out) == len(rules.deck.pack.suits) * len(ranks):
        raise SetupError(("deck", "remove"), "deck.remove takes out every card")
    return tuple(sorted(out))


def _ranks(values: list[int], players: int) -> tuple[str, ...]:
    """deck.ranks as the expression gave them (2 to 14, ace 14) as rank letters, in order."""
    if not values:
        raise SetupError(("deck", "ranks"), "the deck has no ranks")
    for v in values:
        if not 2 <= v <= 14:
            raise SetupError(("deck", "ranks"), f"deck.ranks gives {v}: a rank is 2 to 14 "
                             "(jack 11, queen 12, king 13, ace 14)")
    if len(set(values)) != len(values):
        raise SetupError(("deck", "ranks"), "deck.ranks gives a rank twice")
    wanted = {RANKS[v - 2] for v in values}
    return tuple(r for r in RANKS if r in wanted)

