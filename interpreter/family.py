"""What the core asks of a game family, and of a seat's policy.

A *family* (trick-taking, contract rummy, ...) is a package that provides one object
satisfying :class:`GameFamily`, published under the ``cardrules.families`` entry point
(cardrules' own two in its pyproject.toml, a plug-in in its own).  The registry in
``families/__init__.py`` finds them; it is the only place that knows which families
exist.  Everything else in the core
(loading, the driver loop, records, simulation, comparison, explanation, bots, the
CLI) talks to a family through this protocol and never names one.

A *policy* chooses a seat's actions from what that seat may know: the rules and its
:class:`Observation`, never the game state (see :class:`Policy`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

if TYPE_CHECKING:
    from .encoding import ActionCodec, ObservationEncoder
    from .expressions import Steps, Type
    from .game import GameState
    from .rules import RulesBuilder, Ruleset, Setup

Action = Hashable  # one frozen dataclass per kind of action, defined by each family
Event = dict[str, Any]  # one line of a game record (a JSON object)
Section = Hashable  # a family's frozen rules (``Ruleset.section``), built by its ``build_section``


class Observation(Protocol):
    """What one seat may know: every family's observation has these fields (and adds
    its own).  Frozen and typed; it holds the seat's own hand and public information,
    never another seat's hidden cards, the stock order or an RNG."""

    @property
    def seat(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def rounds(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def hand(self) -> tuple[int, ...]: ...


class Policy(Protocol):
    """A seat's decision maker.  ``act`` gets the rules, the seat's observation (None
    when ``needs_observation`` is false: a policy that only picks among the legal
    actions saves the work of building one) and the legal actions, and returns one of
    them (a person may return another action, which the engine then verifies).

    A policy whose class sets ``skips_forced = True`` promises that, given a single
    legal action, ``act`` returns it and learns nothing from the call (no RNG drawn, no
    memory kept): simulations and search playouts then play its forced moves without
    building an observation or asking it, and the game is the same either way.

    A policy may also have ``shortlist(observation, legal) -> list[int] | None``: the
    places in ``legal`` of the few actions it thinks worth trying, its own choice first,
    or None for all of them.  The search seat (interpreter/search.py) that plays a family's
    policy as its guide spends its playouts on those only.  It must not change the policy."""

    kind: str
    needs_observation: bool

    def act(self, observation: Observation | None, legal: Sequence[Action]) -> Action: ...


class IndexPolicy(Policy, Protocol):
    """A policy that picks by place among the legal actions without looking at them
    (the random one): the driver asks it for an index into ``legal_count`` actions,
    and the state applies that action without making the action objects."""

    def choose_index(self, count: int) -> int: ...


PolicyFactory = Callable[["Ruleset", int], Policy]  # (rules, seed) -> a policy with its own RNG


# A situation that leaves a player no legal move: (path in the ruleset, message), and
# optionally False when it may never be reached (a warning).
DeadEnd = tuple[tuple[str | int, ...], str] | tuple[tuple[str | int, ...], str, bool]


class GameFamily(Protocol):
    """One family of games, as the core sees it."""

    name: str  # the ruleset's `family:` value
    schema: Mapping[str, Any]  # JSON Schema fragment: {"properties": {...}, "required": [...]}
    bound_names: frozenset[str]  # names its expressions bind (a `let` may not reuse them)
    record_events: tuple[str, ...]  # event kinds its games write (beyond the core's)
    derived_events: frozenset[str]  # of those, the ones the engine produces itself
    optional_fields: frozenset[str]  # record fields a writer may leave out
    policies: Mapping[str, PolicyFactory]  # seat kinds beyond `random` (e.g. `bot`)
    # Where its table views live, "package.module:Class" by kind ("terminal", "web"):
    # imported only by what draws them; a family without one gets the generic view.
    views: Mapping[str, str]
    # --- optional members: FamilyDefaults gives each its default ---
    any_pack: bool  # plays with any pack the ruleset's deck describes, not the standard one only
    summaries_add_up: bool  # summarize() gives counts and sums only (see aggregate)
    leading_events: Mapping[str, str]  # a derived kind logged before its cause's line -> that line's kind

    def counter_names(self, section: Section) -> Sequence[str]:
        """The names of the numbers each seat carries from round to round (the core binds
        them in ``rounds.end_when`` and ``winner_by``; the state's ``seat_values()``
        gives them)."""

    def steps_per_line(self, players: int) -> int:
        """The most actions one record line may stand for at ``players`` seats."""


    def event_visibility(self, rules: Ruleset) -> Mapping[str, Any]:
        """Who sees each field of each event kind it writes (:mod:`.privacy`), for
        ``rules``: a mapping kind -> {field: Seen} (or a function of the event giving
        one). A field not named is seen by nobody; a kind not named shows only who acted.
        (A family object of an earlier release may hold the mapping itself instead of
        this method: :func:`complete` reads it.)"""

    def candidate_actions(self, state: GameState) -> Sequence[Action]:
        """A superset of the moves that could be legal at the state's decision (and
        some that are not), for the shared legality check: the listed moves must be
        exactly those of these that ``verify`` accepts (tests/test_legality.py)."""

    # --- rules ---
    def default_upcard(self, builder: RulesBuilder) -> bool:
        """Whether a card is turned up after the deal when the ruleset does not say."""

    def build_section(self, builder: RulesBuilder) -> Section:
        """The family's part of the ruleset (frozen dataclasses), problems reported
        through ``builder.fail``."""

    def schedule(self, section: Section, sizes: int | list[int]) -> list[int]:
        """The hand size of every round from the evaluated ``deal.hand_size`` (raise
        ValueError with the reason if it does not fit the family)."""

    def check_setup(self, rules: Ruleset, setup: Setup, report: Callable[..., None]) -> None:
        """Semantic checks that need numbers, for one player count (``report(path,
        message, key=None)`` reports a problem once; ``warning=True`` makes it a warning.
        ``report(..., refuse=True)``: the game cannot be played at this count and mode, a
        finding a file may have validated without (a check added later): a problem where
        no count of the mode can be played, else a warning naming the counts, and play
        refuses them (Ruleset.refusal)."""

    def names(self) -> Mapping[str, Type]:
        """Every name its expressions bind, with its type (for documentation)."""

    def dead_ends(self, rules: Ruleset, setup: Setup, steps: Steps, rng: random.Random) -> list[DeadEnd]:
        """Situations in which the rules leave a player no legal move, found by a search
        beyond what a few games show, as (path in the ruleset, message): for `validate`.
        A third item, False, marks one that needs values earlier rounds may or may not
        leave (counters): `validate` shows it as a warning.  ``steps`` bounds the search:
        take one from ``steps.left`` for each position examined and stop at 0 (counted,
        never timed: what `validate` finds must not depend on the machine's speed)."""

    # --- play ---
    def new_state(self, rules: Ruleset, players: int, seed: int, names: Sequence[str] | None,
                  mode: str | None, ruleset_ref: str | None) -> GameState:
        """A new game."""

    def parse_input(self, rules: Ruleset, observation: Observation, text: str) -> Action:
        """The action a line typed by a player means (IllegalActionError with a hint)."""

    def action_from_event(self, state: GameState, event: Event) -> Action | None:
        """The next action a record line calls for (None: the line is no action)."""

    # --- statistics and words ---
    def summarize(self, state: GameState) -> dict[str, Any]:
        """What one finished game adds to `simulate`'s figures (plain data)."""

    def aggregate(self, summaries: Sequence[dict[str, Any]], players: int) -> tuple[list[dict[str, Any]],
                                                                                 dict[str, Any]]:
        """Per-seat figures and figures of the whole run, from the games' summaries.  A
        family whose summaries are counts and sums only (numbers, lists of them, objects of
        them) says so with a class attribute ``summaries_add_up = True``: `simulate` then
        adds them up as the games come and asks ``aggregate`` about that one sum, so its
        memory stays flat in ``--games``; without it, every summary is kept."""

    def metrics(self) -> Sequence[tuple[str, Callable[[dict[str, Any]], float | None]]]:
        """Figures `compare` reports for two rulesets of this family, from a summary."""

    def explain(self, rules: Ruleset, notes: bool = False) -> list[str]:
        """The family's sections of the rules in words (Markdown lines)."""


class SearchableFamily(GameFamily, Protocol):
    """A family whose games can seat the search bot (``search``, :mod:`..search`): it
    can sample the cards a seat cannot see.  Optional: a family without
    ``determinize`` has no search seat, and asking for one says so."""

    def determinize(self, rules: Ruleset, observation: Observation, memory: dict[str, Any], rng: random.Random) -> GameState:
        """A full game state consistent with ``observation`` and what the seat remembers
        (``memory``): its own hand and every public fact exactly as observed (the cards
        played and who played them, melds, bids, totals, whose turn), the hidden cards
        dealt at random by ``rng`` among the places they may be (keeping the suits a
        seat has shown void in, the cards it was seen to take from the pile).  The
        seat's observation of the result equals ``observation``."""

    def remember(self, rules: Ruleset, observation: Observation, memory: dict[str, Any]) -> None:
        """Note in ``memory`` what ``determinize`` will want later from this
        observation (called at each of the seat's decisions; optional: FamilyDefaults'
        notes nothing)."""


class EncodableFamily(GameFamily, Protocol):
    """A family whose games a learning toolkit can play (``cardrules.openspiel``,
    ``cardrules.pettingzoo``): its moves as small numbers and its observations as
    vectors (:mod:`.encoding`).  Optional: a family without ``action_codec`` has no
    such game, and asking for one says so."""

    def action_codec(self, rules: Ruleset, players: int) -> ActionCodec:
        """The stable id space of the moves of ``rules`` at ``players`` seats (every mode):
        each move as a prefix-free sequence of ids and back, chance's own outcomes with
        their probabilities (:class:`.encoding.ActionCodec`)."""

    def observation_encoder(self, rules: Ruleset, players: int) -> ObservationEncoder:
        """A seat's observation of ``rules`` at ``players`` seats as a vector of a fixed
        size and as text (:class:`.encoding.ObservationEncoder`): from the observation
        alone, never the state."""


class FamilyDefaults:
    """The default of every optional member of :class:`GameFamily` and
    :class:`SearchableFamily`, in this one place: a family class inherits from it and
    defines the required members (and any optional one it needs otherwise).  A member is
    optional exactly when this class has it (tests/test_family_protocol.py checks
    docs/architecture.md against that)."""

    any_pack: bool = False
    summaries_add_up: bool = False
    leading_events: Mapping[str, str] = MappingProxyType({})
    views: Mapping[str, str] = MappingProxyType({})

    def counter_names(self, section: Section) -> Sequence[str]:
        return ()

    def steps_per_line(self, players: int) -> int:
        return 1

    def event_visibility(self, rules: Ruleset) -> Mapping[str, Any]:
        return {}  # nothing declared: every event of the family shows only who acted

    def remember(self, rules: Ruleset, observation: Observation, memory: dict[str, Any]) -> None:
        return None


_DEFAULTS = FamilyDefaults()
_MISSING = object()


class _Completed:
    """A family object that does not inherit :class:`FamilyDefaults` (one written for an
    earlier release): its own members, and the defaults for those it lacks; an
    ``event_visibility`` held as a mapping is read as the method giving it."""

    def __init__(self, family: Any) -> None:
        self.__dict__["_family"] = family

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.__dict__["_family"], name, _MISSING)
        if found is _MISSING:
            return getattr(_DEFAULTS, name)  # (AttributeError: a member no default has)
        if name == "event_visibility" and not callable(found):
            return lambda rules: found or {}
        return found

    def __repr__(self) -> str:
        return repr(self.__dict__["_family"])


def complete(family: Any) -> GameFamily:
    """``family`` with every optional member present: itself when it inherits
    :class:`FamilyDefaults` and declares ``event_visibility`` as the method, else a view
    of it that adds the defaults (the registry calls this for every family it finds)."""
    if isinstance(family, FamilyDefaults) and callable(getattr(family, "event_visibility", None)):
        return family  # type: ignore[return-value]
    return _Completed(family)


def searchable(family: GameFamily) -> SearchableFamily | None:
    """``family`` as a :class:`SearchableFamily` when it has ``determinize``, else None
    (it cannot seat the search bot)."""
    return family if callable(getattr(family, "determinize", None)) else None  # type: ignore[return-value]


def encodable(family: GameFamily) -> EncodableFamily | None:
    """``family`` as an :class:`EncodableFamily` when it has ``action_codec`` and
    ``observation_encoder``, else None (it has no game for the research toolkits)."""
    if callable(getattr(family, "action_codec", None)) and callable(getattr(family, "observation_encoder", None)):
        return family  # type: ignore[return-value]
    return None
