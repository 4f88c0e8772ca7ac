"""Typed, compiled rulesets: the only form of a ruleset the interpreter ever sees.

:func:`load_ruleset` runs every stage (YAML, `extends`, JSON Schema, expressions,
semantic checks) and returns a frozen :class:`Ruleset` or raises one
:class:`RulesetError` listing every problem found, each at its file, line and column.

>>> rules = ruleset_from_text(EXAMPLE)
>>> rules.family.value, rules.min_players, rules.max_players
('trick-taking', 3, 6)
>>> rules.setup(6).hand_sizes
(8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Callable, Mapping

from .errors import EvaluationError, ExpressionError, Problem, RulesetError
from .expressions import Compiled, Type, compile_checked
from .loader import Document, JsonPath, document_from_text, load_document, schema_problems

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")


class Family(StrEnum):
    TRICK_TAKING = "trick-taking"
    CONTRACT_RUMMY = "contract-rummy"


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


class GoingOut(StrEnum):
    DISCARD_REQUIRED = "discard-required"
    DISCARD_OPTIONAL = "discard-optional"
    NO_DISCARD = "no-discard"


# Event kinds of game records (../shared/spec/game-record.md and docs/game-records.md):
# a ruleset's own events (chance events, the fitting-discard call) must not reuse them.
RECORD_EVENTS = ("game", "deal", "trump", "bid", "play", "trick", "score", "end", "draw", "buy", "meld",
                 "layoff", "swap", "discard", "out", "reshuffle", "exhausted", "bonus")

# Names each place in a ruleset binds (see docs/ruleset-language.md, "Names").
GAME_NAMES: dict[str, Type] = {"players": Type.INT, "decks": Type.INT, "jokers": Type.INT,
                               "deck_size": Type.INT}
ROUND_NAMES: dict[str, Type] = {**GAME_NAMES, "round": Type.INT, "rounds": Type.INT, "hand_size": Type.INT}
BID_NAMES: dict[str, Type] = {**ROUND_NAMES, "bid": Type.INT, "bids": Type.LIST, "seat": Type.INT,
                              "position": Type.INT, "is_dealer": Type.BOOL, "is_first": Type.BOOL,
                              "is_last": Type.BOOL}
SCORE_NAMES: dict[str, Type] = {**ROUND_NAMES, "bid": Type.INT, "tricks": Type.INT, "seat": Type.INT,
                                "is_dealer": Type.BOOL, "bids": Type.LIST, "taken": Type.LIST,
                                "team": Type.INT, "team_bid": Type.INT, "team_tricks": Type.INT}
TEAM_NAMES: dict[str, Type] = {**GAME_NAMES, "seat": Type.INT}
MELD_NAMES: dict[str, Type] = {**GAME_NAMES, "size": Type.INT, "is_run": Type.BOOL, "is_set": Type.BOOL}
BUY_NAMES: dict[str, Type] = {**GAME_NAMES, "round": Type.INT, "rounds": Type.INT}
BONUS_NAMES: dict[str, Type] = {**BUY_NAMES, "in_one_turn": Type.BOOL, "jokers_melded": Type.INT,
                                "others_down": Type.INT, "buys": Type.INT, "is_last_round": Type.BOOL}


# --- typed ruleset ---------------------------------------------------------------------
@dataclass(frozen=True)
class Template:
    """A message with ``{expression}`` placeholders, compiled once."""

    parts: tuple[str | Compiled, ...]

    def render(self, env: Mapping[str, Any]) -> str:
        return "".join(p if isinstance(p, str) else _show(p(env)) for p in self.parts)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


@dataclass(frozen=True)
class Deck:
    decks: Compiled
    jokers: Compiled
    ranks: tuple[str, ...]
    ace: str  # high | low | either


@dataclass(frozen=True)
class Deal:
    hand_size: Compiled
    first_dealer: int | None  # None: chosen at random
    rotation: str  # left | right | none
    first_to_act: str
    upcard: bool


@dataclass(frozen=True)
class Trump:
    kind: str  # upcard | rotation | none | named-by-highest-bidder
    rotation: tuple[str | None, ...]
    bowers: bool
    no_trump_without_upcard: bool  # when the deal leaves no card to turn, play without trump
    jokers_top: bool = False  # jokers are trumps above all others


@dataclass(frozen=True)
class Restriction:
    rule: Compiled
    message: Template


@dataclass(frozen=True)
class Bidding:
    order: str  # clockwise | simultaneous
    range: Compiled
    restrictions: tuple[Restriction, ...]


@dataclass(frozen=True)
class Play:
    follow_suit: bool
    must_trump: bool


@dataclass(frozen=True)
class Scoring:
    cases: tuple[tuple[Compiled | None, Compiled], ...]  # (when, points); first match wins

    def points(self, env: Mapping[str, Any]) -> int:
        for when, points in self.cases:
            if when is None or when(env):
                return points(env)
        return 0


@dataclass(frozen=True)
class MeldSpec:
    kind: MeldKind
    min_size: int

    def __str__(self) -> str:
        return f"{self.kind.value} of {self.min_size}"


@dataclass(frozen=True)
class Contract:
    melds: tuple[MeldSpec, ...]
    going_out: GoingOut
    name: str

    @property
    def cards_needed(self) -> int:
        return sum(m.min_size for m in self.melds)


@dataclass(frozen=True)
class MeldRules:
    set_min: int
    run_min: int
    run_ace: str
    wrap: bool
    jokers_per_meld: Compiled
    jokers_adjacent: bool
    min_natural: Compiled
    distinct_set_ranks: bool
    no_consecutive_same_suit_runs: bool


@dataclass(frozen=True)
class LayOff:
    allowed: bool
    requires_down: bool
    same_turn_as_going_down: bool
    on: str


@dataclass(frozen=True)
class JokerSwap:
    allowed: bool
    melds: str
    requires_down: bool
    freed_joker: str


@dataclass(frozen=True)
class Buying:
    allowed: bool
    priority: str
    penalty_cards: Compiled
    limit: Compiled
    per_discard: int


@dataclass(frozen=True)
class StockRule:
    when_empty: str
    reshuffles: int
    turn_limit: int


@dataclass(frozen=True)
class Bonus:
    name: str
    when: Compiled
    goer: Compiled
    others: Compiled


@dataclass(frozen=True)
class ChanceEvent:
    name: str
    description: str
    one_in: int
    seat: str
    actor: Compiled
    others: Compiled


@dataclass(frozen=True)
class FittingDiscardCall:
    allowed: bool
    penalty_draw: int
    name: str  # the record's event kind and the word typed at the table


@dataclass(frozen=True)
class Rummy:
    contracts: tuple[Contract, ...]
    melds: MeldRules
    lay_off: LayOff
    joker_swap: JokerSwap
    buying: Buying
    going_out: GoingOut
    stock: StockRule
    card_points: Mapping[str, int]
    bonuses: tuple[Bonus, ...]
    chance_events: tuple[ChanceEvent, ...]
    fitting_discard_call: FittingDiscardCall


@dataclass(frozen=True)
class TrickTaking:
    trump: Trump
    bidding: Bidding
    play: Play
    scoring: Scoring


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

    @property
    def env(self) -> dict[str, Any]:
        return {"players": self.players, "decks": self.decks, "jokers": self.jokers,
                "deck_size": self.deck_size, "rounds": len(self.round_numbers), **self.lets}


@dataclass(frozen=True)
class Ruleset:
    """A loaded, checked, compiled ruleset.  Immutable; games are made from it."""

    name: str
    title: str
    description: str
    source: Mapping[str, str]
    notes: tuple[str, ...]
    family: Family
    min_players: int
    max_players: int
    lets: tuple[tuple[str, Compiled], ...]
    deck: Deck
    deal: Deal
    max_rounds: Compiled | None
    modes: Mapping[str, tuple[str, Compiled]]
    mode: str | None
    winner: str  # highest | lowest
    tricks: TrickTaking | None
    rummy: Rummy | None
    team: Compiled | None  # each seat's team number (partnerships), or None: every seat alone
    sha256: str
    document: Document = field(repr=False, compare=False)
    _setups: dict[tuple[int, str | None], Setup] = field(default_factory=dict, repr=False, compare=False)

    @property
    def data(self) -> dict[str, Any]:
        """The resolved ruleset as plain data (after `extends`)."""
        return self.document.data

    def setup(self, players: int, mode: str | None = None) -> Setup:
        """Evaluate the game-level expressions for ``players`` (cached)."""
        key = (players, mode or self.mode)
        cached = self._setups.get(key)
        if cached is None:
            cached = self._setups[key] = _compute_setup(self, players, mode or self.mode)
        return cached


# --- building ----------------------------------------------------------------------------
class _Builder:
    """Turns a validated document into a Ruleset, collecting semantic problems."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.data = doc.data
        self.problems: list[Problem] = []
        self.let_names: dict[str, Type] = {}

    def fail(self, path: JsonPath, message: str, **kw: Any) -> None:
        self.problems.append(self.doc.problem(path, message, **kw))

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
        all_names = {**names, **self.let_names}
        if isinstance(value, bool):
            source = "true" if value else "false"
        elif isinstance(value, int):
            source = str(value)
        elif isinstance(value, list):
            source = "[" + ", ".join(str(v) for v in value) + "]"
        else:
            source = str(value)
        try:
            return compile_checked(source, all_names, want)
        except ExpressionError as exc:
            from .expressions import check_source
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
            try:
                parts.append(compile_checked(source, {**names, **self.let_names}, None))
            except ExpressionError as exc:
                self.fail(path, f"in message placeholder: {exc.message}", kind="expression",
                          offset=match.start(1) + exc.start, span=exc.end - exc.start)
            pos = match.end()
        parts.append(text[pos:])
        return Template(tuple(p for p in parts if p != ""))

    def build(self) -> Ruleset:
        d = self.data
        family = Family(d["family"])
        players = d["players"]
        if players["min"] > players["max"]:
            self.fail(("players", "min"), f"players.min ({players['min']}) is more than players.max "
                      f"({players['max']})")
        self._family_keys(family)
        deck = Deck(
            decks=self.expr(("deck", "decks"), {"players": Type.INT}, Type.INT, 1),
            jokers=self.expr(("deck", "jokers"), {"players": Type.INT, "decks": Type.INT}, Type.INT, 0),
            ranks=tuple(r for r in RANKS if r in self.get(("deck", "ranks"), RANKS)),
            ace=self.get(("deck", "ace"), "high"),
        )
        lets = []
        for name in self.get(("let",), {}):
            if name in BID_NAMES or name in SCORE_NAMES or name in BONUS_NAMES or name in MELD_NAMES:
                self.fail(("let", name), f"'{name}' is a name the language already binds", at_key=True,
                          span=len(name))
                continue
            compiled = self.expr(("let", name), GAME_NAMES, (Type.INT, Type.BOOL, Type.LIST))
            lets.append((name, compiled))
            self.let_names[name] = compiled.type
        first = self.get(("deal", "dealer", "first"), 0)
        deal = Deal(
            hand_size=self.expr(("deal", "hand_size"), GAME_NAMES, (Type.INT, Type.LIST)),
            first_dealer=None if first == "random" else first,
            rotation=self.get(("deal", "dealer", "rotation"), "left"),
            first_to_act=self.get(("deal", "first_to_act"), "left-of-dealer"),
            upcard=self.get(("deal", "upcard"), family is Family.CONTRACT_RUMMY or
                            self.get(("trump", "kind")) == "upcard"),
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
        tricks = self._tricks() if family is Family.TRICK_TAKING else None
        rummy = self._rummy(deck) if family is Family.CONTRACT_RUMMY else None
        if family is Family.TRICK_TAKING and deck.ace == "either":
            self.fail(("deck", "ace"), "in a trick-taking game the ace ranks either 'high' or 'low'")
        if family is Family.TRICK_TAKING and self.get(("deck", "jokers"), 0) not in (0, "0") \
                and self.get(("trump", "jokers")) is None:
            self.fail(("deck", "jokers"), "say how jokers rank in tricks: trump.jokers: top-trump")
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
            winner=d["winner"],
            tricks=tricks,
            rummy=rummy,
            team=self.expr(("team",), TEAM_NAMES, Type.INT) if self.get(("team",)) is not None else None,
            sha256=self.doc.sha256(),
            document=self.doc,
        )
        if not self.problems:
            self._check_every_player_count(ruleset)
        return ruleset

    def _family_keys(self, family: Family) -> None:
        other = {
            Family.TRICK_TAKING: ("contracts", "melds", "lay_off", "joker_swap", "buying", "going_out",
                                  "stock", "card_points", "bonuses", "chance_events", "fitting_discard_call"),
            Family.CONTRACT_RUMMY: ("trump", "bidding", "play", "scoring"),
        }[family]
        for key in other:
            if key in self.data:
                self.fail((key,), f"'{key}' does not apply to a {family.value} ruleset", at_key=True,
                          span=len(key))

    def _tricks(self) -> TrickTaking:
        rotation = tuple(None if s == "none" else s for s in self.get(("trump", "rotation"), ()))
        kind = self.get(("trump", "kind"))
        if kind == "rotation" and not rotation:
            self.fail(("trump", "kind"), "trump kind 'rotation' needs a 'rotation' list of suits")
        bowers = self.get(("trump", "bowers"), False)
        if bowers and "J" not in self.get(("deck", "ranks"), RANKS):
            self.fail(("trump", "bowers"), "bowers need jacks in the deck")
        restrictions = []
        for i, _ in enumerate(self.get(("bidding", "restrictions"), [])):
            restrictions.append(Restriction(
                rule=self.expr(("bidding", "restrictions", i, "rule"), BID_NAMES, Type.BOOL),
                message=self.template(("bidding", "restrictions", i, "message"), BID_NAMES)))
        points = self.get(("scoring", "points"))
        cases: list[tuple[Compiled | None, Compiled]] = []
        if isinstance(points, list):
            for i, case in enumerate(points):
                when = self.expr(("scoring", "points", i, "when"), SCORE_NAMES, Type.BOOL) if "when" in case else None
                cases.append((when, self.expr(("scoring", "points", i, "points"), SCORE_NAMES, Type.INT)))
            if cases and cases[-1][0] is not None:
                self.fail(("scoring", "points", len(cases) - 1),
                          "the last scoring case needs no 'when' (it scores whatever no case above matched)")
        else:
            cases.append((None, self.expr(("scoring", "points"), SCORE_NAMES, Type.INT)))
        return TrickTaking(
            trump=Trump(kind=kind, rotation=rotation, bowers=bowers,
                        no_trump_without_upcard=self.get(("trump", "no_upcard"), "forbidden") == "no-trump",
                        jokers_top=self.get(("trump", "jokers")) == "top-trump"),
            bidding=Bidding(order=self.get(("bidding", "order"), "clockwise"),
                            range=self.expr(("bidding", "range"), ROUND_NAMES, Type.LIST, "0..hand_size"),
                            restrictions=tuple(restrictions)),
            play=Play(follow_suit=self.get(("play", "follow_suit"), True),
                      must_trump=self.get(("play", "must_trump"), False)),
            scoring=Scoring(tuple(cases)),
        )

    def _rummy(self, deck: Deck) -> Rummy:
        set_min = self.get(("melds", "set", "min_size"), 3)
        run_min = self.get(("melds", "run", "min_size"), 4)
        default_out = GoingOut(self.get(("going_out", "final_discard"), "discard-optional"))
        contracts = []
        for i, entry in enumerate(self.get(("contracts",), [])):
            specs, path = (entry, ("contracts", i)) if isinstance(entry, list) else (entry["melds"], ("contracts", i, "melds"))
            melds = []
            for j, text in enumerate(specs):
                kind, _, size = text.partition(" of ")
                least = set_min if kind == "set" else run_min
                spec = MeldSpec(MeldKind(kind), int(size) if size else least)
                if spec.min_size < least:
                    self.fail(path + (j,), f"the contract asks for a {spec} but a {kind} has at least "
                              f"{least} cards (melds.{kind}.min_size)")
                melds.append(spec)
            going_out = GoingOut(entry.get("going_out", default_out)) if isinstance(entry, dict) else default_out
            name = entry.get("name", "") if isinstance(entry, dict) else ""
            contracts.append(Contract(tuple(melds), going_out, name or ", ".join(map(str, melds))))
        run_ace = self.get(("melds", "run", "ace"), deck.ace)
        card_points: dict[str, int] = {}
        for key, points in self.get(("card_points",), {}).items():
            for rank in key.split():
                if rank in card_points:
                    self.fail(("card_points", key), f"rank {rank} is given points twice", at_key=True, span=len(key))
                card_points[rank] = points
        for rank in deck.ranks:
            if rank not in card_points:
                self.fail(("card_points",), f"card_points gives no points for rank {rank}", at_key=True,
                          span=len("card_points"))
        bonuses = []
        for i, b in enumerate(self.get(("bonuses",), [])):
            bonuses.append(Bonus(
                name=b["name"],
                when=self.expr(("bonuses", i, "when"), BONUS_NAMES, Type.BOOL),
                goer=self.expr(("bonuses", i, "goer"), BONUS_NAMES, Type.INT, 0),
                others=self.expr(("bonuses", i, "others"), BONUS_NAMES, Type.INT, 0)))
        taken = set(RECORD_EVENTS)
        for i, e in enumerate(self.get(("chance_events",), [])):
            if e["name"] in taken:
                self.fail(("chance_events", i, "name"), f"'{e['name']}' is already an event kind of game "
                          "records: name the chance event something else")
            taken.add(e["name"])
        call_name = self.get(("fitting_discard_call", "name"), "call")
        if call_name in taken:
            self.fail(("fitting_discard_call", "name"), f"'{call_name}' is already an event kind of game "
                      "records: name the call something else")
        events = []
        for i, e in enumerate(self.get(("chance_events",), [])):
            events.append(ChanceEvent(
                name=e["name"], description=e.get("description", ""), one_in=e["one_in"], seat=e["seat"],
                actor=self.expr(("chance_events", i, "actor"), BUY_NAMES, Type.INT, 0),
                others=self.expr(("chance_events", i, "others"), BUY_NAMES, Type.INT, 0)))
        return Rummy(
            contracts=tuple(contracts),
            melds=MeldRules(
                set_min=set_min, run_min=run_min, run_ace=run_ace,
                wrap=self.get(("melds", "run", "wrap"), False),
                jokers_per_meld=self.expr(("melds", "jokers", "per_meld"), MELD_NAMES, Type.INT, "size"),
                jokers_adjacent=self.get(("melds", "jokers", "adjacent_in_runs"), True),
                min_natural=self.expr(("melds", "jokers", "min_natural"), MELD_NAMES, Type.INT, 1),
                distinct_set_ranks=self.get(("melds", "initial", "distinct_set_ranks"), False),
                no_consecutive_same_suit_runs=self.get(("melds", "initial", "no_consecutive_same_suit_runs"), False),
            ),
            lay_off=LayOff(allowed=self.get(("lay_off", "allowed"), True),
                           requires_down=self.get(("lay_off", "requires_down"), True),
                           same_turn_as_going_down=self.get(("lay_off", "same_turn_as_going_down"), True),
                           on=self.get(("lay_off", "on"), "any-meld")),
            joker_swap=JokerSwap(allowed=self.get(("joker_swap", "allowed"), False),
                                 melds=self.get(("joker_swap", "melds"), "runs"),
                                 requires_down=self.get(("joker_swap", "requires_down"), True),
                                 freed_joker=self.get(("joker_swap", "freed_joker"), "to-hand")),
            buying=Buying(allowed=self.get(("buying", "allowed"), False),
                          priority=self.get(("buying", "priority"), "clockwise-from-player-in-turn"),
                          penalty_cards=self.expr(("buying", "penalty_cards"), BUY_NAMES, Type.INT, 1),
                          limit=self.expr(("buying", "limit"), BUY_NAMES, Type.INT, 0),
                          per_discard=self.get(("buying", "per_discard"), 1)),
            going_out=default_out,
            stock=StockRule(when_empty=self.get(("stock", "when_empty"), "reshuffle-discards"),
                            reshuffles=self.get(("stock", "reshuffles"), 1),
                            turn_limit=self.get(("stock", "turn_limit"), 400)),
            card_points=card_points,
            bonuses=tuple(bonuses),
            chance_events=tuple(events),
            fitting_discard_call=FittingDiscardCall(
                allowed=self.get(("fitting_discard_call", "allowed"), False),
                penalty_draw=self.get(("fitting_discard_call", "penalty_draw"), 1),
                name=self.get(("fitting_discard_call", "name"), "call")),
        )

    # --- checks that need numbers: run for every allowed player count ---
    def _check_every_player_count(self, rules: Ruleset) -> None:
        reported: set[tuple[JsonPath, str]] = set()

        def once(path: JsonPath, message: str, key: str | None = None) -> None:
            """Report a problem once, however many player counts (or melds) show it."""
            if (path, key or message) not in reported:
                reported.add((path, key or message))
                self.fail(path, message)

        for players in range(rules.min_players, rules.max_players + 1):
            try:
                setup = _compute_setup(rules, players, rules.mode)
            except _SetupError as exc:
                once(exc.path, f"with {players} players: {exc}", key=str(exc))
                continue
            if rules.tricks is not None:
                self._check_trick_deal(rules, setup, once)
            if rules.rummy is not None:
                self._check_rummy_deal(rules, setup, once)

    def _check_trick_deal(self, rules: Ruleset, setup: Setup, once: Callable[[JsonPath, str], None]) -> None:
        assert rules.tricks is not None
        trump = rules.tricks.trump
        needs_upcard = trump.kind == "upcard" and not trump.no_trump_without_upcard
        for number, size in zip(setup.round_numbers, setup.hand_sizes):
            dealt = size * setup.players + (1 if needs_upcard else 0)
            if dealt > setup.deck_size:
                extra = " and a trump card" if needs_upcard else ""
                once(("deal", "hand_size"), f"with {setup.players} players, round {number} deals {size} cards "
                     f"each{extra}: {dealt} cards, but the deck holds {setup.deck_size}")
                return
            env = {**setup.env, "round": number, "hand_size": size}
            try:
                bids = rules.tricks.bidding.range(env)
            except EvaluationError as exc:
                once(("bidding", "range"), f"with {setup.players} players, round {number}: {exc}")
                return
            if not bids:
                once(("bidding", "range"), f"with {setup.players} players, round {number}: no bid is in range")
                return

    def _check_rummy_deal(self, rules: Ruleset, setup: Setup, once: Callable[..., None]) -> None:
        rummy = rules.rummy
        assert rummy is not None
        env = setup.env
        for number, size in zip(setup.round_numbers, setup.hand_sizes):
            needed = size * setup.players + (1 if rules.deal.upcard else 0)
            if needed > setup.deck_size:
                once(("deal", "hand_size"), f"with {setup.players} players, round {number} needs {needed} "
                     f"cards (flip card included), but {setup.decks} deck(s) with {setup.jokers} joker(s) "
                     f"hold {setup.deck_size}")
                return
        if setup.jokers and "JK" not in rummy.card_points:
            once(("card_points",), "the deck has jokers, but card_points gives no points for JK")
        naturals_per_rank = 4 * setup.decks
        for i, number in enumerate(setup.round_numbers):
            if number > len(rummy.contracts):
                continue
            contract = rummy.contracts[number - 1]
            renv = {**env, "round": number}
            try:
                buys = rummy.buying.limit(renv) if rummy.buying.allowed else 0
                penalty = rummy.buying.penalty_cards(renv) if rummy.buying.allowed else 0
            except EvaluationError as exc:
                once(("buying",), f"with {setup.players} players, round {number}: {exc}")
                return
            most = setup.hand_sizes[i] + 1 + buys * (1 + penalty)
            if contract.cards_needed > most:
                once(("contracts", number - 1), f"round {number}'s contract ({contract.name}) needs "
                     f"{contract.cards_needed} cards, but a player holds at most {most} "
                     f"({setup.hand_sizes[i]} dealt, 1 drawn, {buys} buys of {1 + penalty})")
            for meld in contract.melds:
                meld_env = {**env, "size": meld.min_size, "is_run": meld.kind is MeldKind.RUN,
                            "is_set": meld.kind is MeldKind.SET}
                try:
                    most, least = rummy.melds.jokers_per_meld(meld_env), rummy.melds.min_natural(meld_env)
                except EvaluationError as exc:
                    once(("melds", "jokers"), str(exc))
                    return
                if most < 0:
                    once(("melds", "jokers", "per_meld"), f"a {meld} may hold {most} jokers: the limit "
                         "must be 0 or more", key="negative")
                if least > meld.min_size:
                    once(("melds", "jokers", "min_natural"), f"a {meld} needs {least} natural cards, more "
                         "than it holds: no such meld can be made", key="too many")
                if meld.kind is MeldKind.RUN:
                    longest = len(rules.deck.ranks) + (1 if rummy.melds.run_ace == "either" else 0)
                    if rummy.melds.wrap:
                        longest = len(rules.deck.ranks)
                    if meld.min_size > longest:
                        once(("contracts", number - 1), f"round {number}'s contract asks for a {meld}, but "
                             f"the longest possible run has {longest} cards")
                else:
                    try:
                        jokers = min(setup.jokers, rummy.melds.jokers_per_meld(
                            {**env, "size": meld.min_size, "is_run": False, "is_set": True}))
                    except EvaluationError as exc:
                        once(("melds", "jokers", "per_meld"), str(exc))
                        return
                    if meld.min_size > naturals_per_rank + jokers:
                        once(("contracts", number - 1), f"round {number}'s contract asks for a {meld}, but "
                             f"with {setup.decks} deck(s) a rank has {naturals_per_rank} cards and a set "
                             f"may hold {jokers} joker(s)")


class _SetupError(Exception):
    def __init__(self, path: JsonPath, message: str):
        self.path = path
        super().__init__(message)


def _eval(compiled: Compiled, env: Mapping[str, Any], path: JsonPath) -> Any:
    try:
        return compiled(env)
    except EvaluationError as exc:
        raise _SetupError(path, str(exc)) from None


def _compute_setup(rules: Ruleset, players: int, mode: str | None) -> Setup:
    decks = _eval(rules.deck.decks, {"players": players}, ("deck", "decks"))
    jokers = _eval(rules.deck.jokers, {"players": players, "decks": decks}, ("deck", "jokers"))
    if not 1 <= decks <= 12:
        raise _SetupError(("deck", "decks"), f"the number of decks is {decks}; it must be 1 to 12")
    if not 0 <= jokers <= 24:
        raise _SetupError(("deck", "jokers"), f"the number of jokers is {jokers}; it must be 0 to 24")
    deck_size = decks * 4 * len(rules.deck.ranks) + jokers
    env: dict[str, Any] = {"players": players, "decks": decks, "jokers": jokers, "deck_size": deck_size}
    lets: dict[str, Any] = {}
    for name, compiled in rules.lets:
        lets[name] = env[name] = _eval(compiled, env, ("let", name))
    sizes = _eval(rules.deal.hand_size, env, ("deal", "hand_size"))
    if rules.rummy is not None:
        count = len(rules.rummy.contracts)
        if isinstance(sizes, list):
            if len(sizes) != count:
                raise _SetupError(("deal", "hand_size"), f"the deal gives {len(sizes)} hand sizes for "
                                  f"{count} contracts")
        else:
            sizes = [sizes] * count
    elif not isinstance(sizes, list):
        raise _SetupError(("deal", "hand_size"), "a trick-taking deal needs a list of hand sizes, one per "
                          "round (for example [10..1, 2..10])")
    if not sizes:
        raise _SetupError(("deal", "hand_size"), "the deal schedule has no rounds")
    for size in sizes:
        if size < 1:
            raise _SetupError(("deal", "hand_size"), f"a hand size of {size}: every hand needs a card")
    if rules.max_rounds is not None:
        cap = _eval(rules.max_rounds, env, ("rounds", "max"))
        if cap < 1:
            raise _SetupError(("rounds", "max"), f"rounds.max is {cap}; it must be at least 1")
        sizes = sizes[:cap]
    numbers = list(range(1, len(sizes) + 1))
    if mode is not None:
        selected = _eval(rules.modes[mode][1], {**env, "rounds": len(sizes)}, ("modes", mode, "rounds"))
        selected = [selected] if isinstance(selected, int) else selected
        if not selected:
            raise _SetupError(("modes", mode, "rounds"), f"mode '{mode}' plays no rounds")
        for n in selected:
            if not 1 <= n <= len(sizes):
                raise _SetupError(("modes", mode, "rounds"), f"mode '{mode}' plays round {n}, but the game "
                                  f"has rounds 1 to {len(sizes)}")
        numbers = list(selected)
        sizes = [sizes[n - 1] for n in numbers]
    teams: tuple[int, ...] = ()
    if rules.team is not None:
        teams = tuple(_eval(rules.team, {**env, "seat": seat}, ("team",)) for seat in range(players))
        if len(set(teams)) < 2:
            raise _SetupError(("team",), f"every seat is on team {teams[0]}: partnerships need two teams or more")
    return Setup(players, decks, jokers, deck_size, lets, tuple(sizes), tuple(numbers), teams)


def build_ruleset(doc: Document) -> Ruleset:
    """Check a resolved document against the schema and the semantic rules."""
    problems = schema_problems(doc)
    if problems:
        # Still look for expression errors, so one run reports everything it can; the
        # builder expects schema-valid data, so it may stop early on a shape it cannot read.
        builder = _Builder(doc)
        try:
            builder.build()
        except Exception:  # noqa: BLE001 - best effort only; the schema problems stand
            pass
        located = {(p.file, p.line, p.column) for p in problems}
        problems += [p for p in builder.problems
                     if p.kind == "expression" and (p.file, p.line, p.column) not in located]
        raise RulesetError(sorted(problems, key=lambda p: (p.file, p.line, p.column)))
    builder = _Builder(doc)
    ruleset = builder.build()
    if builder.problems:
        raise RulesetError(builder.problems)
    return ruleset


def load_ruleset(ref: str | Path) -> Ruleset:
    """Load a bundled ruleset by name, or a ruleset file by path."""
    return build_ruleset(load_document(ref if isinstance(ref, str) else Path(ref)))


def ruleset_from_text(text: str, name: str = "<text>") -> Ruleset:
    """A ruleset written in a string: the whole pipeline, as for a file."""
    return build_ruleset(document_from_text(text, name))


EXAMPLE = """
family: trick-taking
players: {min: 3, max: 6}
let: {first: "if players <= 5 then 10 else 8"}
deal: {hand_size: "[first..1, 2..first]"}
trump: {kind: upcard}
bidding:
  restrictions:
    - {rule: "not (is_last and sum(bids) + bid == hand_size)", message: "the dealer may not bid {bid}"}
scoring: {points: "tricks + (if tricks == bid then 10 else 0)"}
winner: highest
"""  # a small trick-taking ruleset, for the examples in docstrings
