"""The checks of a contract-rummy ruleset that need numbers: for every player count and
mode, every round's deal fits the deck and every contract can be held and made with it
(``validate`` reports each at its key)."""

from __future__ import annotations

from typing import Callable

from ...errors import EvaluationError
from ...rules import Ruleset, Setup
from .cardset import rummy_pack
from .rules import MeldKind, MeldSpec, RummyRules, _deck_cards, buried_cards, round_card_points, wild_cards


def check_setup(rules: Ruleset, setup: Setup, once: Callable[..., None]) -> None:
    """Every round's deal fits the deck, every contract can be held and made."""
    # Long on purpose: every round at this player count, each check in the order the docs
    # give them, reported once at its key.
    rummy: RummyRules = rules.section
    naturals = [c for c, card_env in _deck_cards(setup) if not card_env["card_is_special"]]
    for i in range(len(setup.hand_sizes)):
        try:
            wild = wild_cards(rummy.melds, setup, i)
        except EvaluationError as exc:
            once(("melds", "wild"), f"with {setup.players} players, round {setup.round_numbers[i]}: {exc}")
            return
        if len(wild) > 1 and all(c in wild for c in naturals):
            once(("melds", "wild"), f"with {setup.players} players, every card of round {setup.round_numbers[i]} "
                 "is wild: a run would have no natural card to fix its suit")
    if rummy.contract_choose is not None:  # the first round: each seat may choose some contract
        env = setup.round_env(0)
        env.update(made=[])
        for seat in range(setup.players):
            env["seat"] = seat
            for counter in rummy.counters:
                try:
                    env[counter.name] = int(counter.initial({**setup.round_env(0), "seat": seat}))
                except EvaluationError:
                    env[counter.name] = 0  # (reported at the counter)
            try:
                allowed = [n for n in range(1, len(rummy.contracts) + 1) if rummy.contract_choose({**env, "n": n})]
            except EvaluationError as exc:
                once(("contract", "choose"), f"with {setup.players} players, seat {seat}: {exc}")
                break
            if not allowed:
                once(("contract", "choose"), f"with {setup.players} players, seat {seat} may choose no contract in "
                     "the first round")
                break
    if rummy.stock.bury_upcard is not None:
        deck = {c for c, _ in _deck_cards(setup)} | ({rummy_pack(setup.pack).joker} if setup.jokers else set())
        for i, number in enumerate(setup.round_numbers):
            try:
                buried = buried_cards(rummy, setup, i)
            except EvaluationError as exc:
                once(("stock", "bury_upcard"), f"with {setup.players} players, round {number}: {exc}")
                break
            if deck <= buried:
                once(("stock", "bury_upcard"), f"with {setup.players} players, round {number} buries every card "
                     "turned up: no card could start the discard pile")
                break
    for number, size in zip(setup.round_numbers, setup.hand_sizes):
        needed = size * setup.players + (1 if rules.deal.upcard else 0)
        if needed > setup.deck_size:
            once(("deal", "hand_size"), f"with {setup.players} players, round {number} needs {needed} "
                 f"cards (flip card included), but {setup.decks} deck(s) with {setup.jokers} joker(s) "
                 f"hold {setup.deck_size}")
            return
    if rummy.card_points_rule is None:
        missing = [r for r in setup.ranks if r not in rummy.card_points]
        if missing:
            once(("card_points",), f"with {setup.players} players the deck has rank {missing[0]}, but card_points "
                 "gives it no points", at_key=True)
        if setup.jokers and "JK" not in rummy.card_points:
            once(("card_points",), "the deck has jokers, but card_points gives no points for JK", at_key=True)
        pack = setup.pack
        for c, count in setup.special_counts:
            code = pack.codes[c]
            if count > 0 and code not in rummy.card_points:
                once(("card_points",), f"the deck has the special card {code}, but card_points gives it no points",
                     at_key=True)
    else:
        for i in range(len(setup.hand_sizes)):
            try:
                round_card_points(rummy, setup, i)
            except EvaluationError as exc:
                once(("card_points",), f"with {setup.players} players, round {setup.round_numbers[i]}: {exc}")
                return
    for i, number in enumerate(setup.round_numbers):
        if rummy.last_turns is None:
            break
        try:
            turns = rummy.last_turns(setup.round_env(i))
        except EvaluationError as exc:
            once(("going_out", "last_turns"), f"with {setup.players} players, round {number}: {exc}")
            break
        if not 0 <= turns <= 10:
            once(("going_out", "last_turns"), f"with {setup.players} players, round {number} gives each other player "
                 f"{turns} last turns: give 0 to 10")
            break
    if rummy.own_contracts:  # a seat may play any contract in any round: each in the first
        # round, with the smallest hand the schedule deals
        smallest = min(range(len(setup.hand_sizes)), key=lambda i: setup.hand_sizes[i])
        plays = [(smallest, n) for n in range(1, len(rummy.contracts) + 1)]
    else:
        plays = [(i, number) for i, number in enumerate(setup.round_numbers) if number <= len(rummy.contracts)]
    for i, number in plays:
        contract = rummy.contracts[number - 1]
        renv = setup.round_env(i)
        try:
            buys = rummy.buying.limit(renv) if rummy.buying.allowed else 0
            penalty = rummy.buying.penalty_cards(renv) if rummy.buying.allowed else 0
        except EvaluationError as exc:
            once(("buying",), f"with {setup.players} players, round {number}: {exc}")
            return
        only_flip = ""
        if setup.players == 2 and buys > 1:
            # two players: a discard can be bought only by someone who neither made it nor
            # is in turn, so only the flip card (no one's discard) can be bought
            buys, only_flip = 1, "; with 2 players only the flip card can be bought"
        most = setup.hand_sizes[i] + 1 + buys * (1 + penalty)
        if contract.cards_needed > most:  # (at some player counts only: play refuses those, validate warns)
            once(("contracts", number - 1), f"{'with 2 players, ' if only_flip else ''}{_label(rummy, number)} "
                 f"({contract.name}) needs {contract.cards_needed} cards, but a player holds at most {most} "
                 f"({setup.hand_sizes[i]} dealt, 1 drawn, {buys} buy{'s' if buys != 1 else ''} of "
                 f"{1 + penalty} card{'s' if penalty else ''}{only_flip})", refuse=True)
        for meld in contract.melds:
            kinds = (MeldKind.SET, MeldKind.RUN) if meld.kind is MeldKind.EITHER else (meld.kind,)
            if meld.kind is MeldKind.GROUP:
                for path, message, key in _group_problems(rummy, setup, number, meld):
                    once(path, message, key=key)
                continue
            problems = []
            for kind in kinds:
                try:
                    found = _spec_problems(rummy, setup, number, meld, kind)
                except EvaluationError as exc:
                    once(("melds", "jokers"), str(exc))
                    return
                if not found:
                    break
                problems.append(found)
            else:  # no kind the part may be can be made: the first kind's reasons
                for path, message, key in problems[0]:
                    once(path, message, key=key)


def _label(rummy: RummyRules, number: int) -> str:
    """How a message names contract ``number``: by its round, or (each seat its own) by its number."""
    return f"contract {number}" if rummy.own_contracts else f"round {number}'s contract"


def _group_problems(rummy: RummyRules, setup: Setup, number: int,
                    meld: MeldSpec) -> list[tuple[tuple[str | int, ...], str, str | None]]:
    """Why no group of cards of the kind of melds.kinds that ``meld`` names can be made in
    round ``number``: the pack's natural cards of one colour (or suit, or all of them)
    with its wild cards are fewer than the part asks for."""
    kind = rummy.melds.kinds[meld.name]
    pack = setup.pack
    naturals = [c for c, card_env in _deck_cards(setup) if not card_env["card_is_special"]]
    wild = wild_cards(rummy.melds, setup, 0)
    copies = setup.decks
    colours: dict[str, int] = {}
    for c in naturals:
        if c in wild:
            continue
        suit = pack.suit_of[c]
        key = "" if kind.like.value == "any" else pack.suits[suit].colour if kind.like.value == "colour" else \
            pack.suits[suit].code
        colours[key] = colours.get(key, 0) + copies
    specials = sum(n for c, n in setup.special_counts if c in wild) + (setup.jokers if rummy_pack(pack).joker in wild
                                                                      else 0)
    most = max(colours.values(), default=0) + specials
    if meld.min_size > most:
        return [(("contracts", number - 1), f"contract {number} ({meld}) asks for {meld.min_size} cards of one "
                 f"{kind.like.value}, but the pack holds at most {most} with its wild cards", None)]
    return []


def _spec_problems(rummy: RummyRules, setup: Setup, number: int, meld: MeldSpec,
                   kind: MeldKind) -> list[tuple[tuple[str | int, ...], str, str | None]]:
    """Why no meld of ``kind`` can meet the contract part ``meld`` in round ``number``
    (path, message, once-key), or nothing."""
    out: list[tuple[tuple[str | int, ...], str, str | None]] = []
    env = setup.env
    size = meld.min_size
    meld_env = {**env, "size": size, "is_run": kind is MeldKind.RUN, "is_set": kind is MeldKind.SET}
    most, least = rummy.melds.jokers_per_meld(meld_env), rummy.melds.min_natural(meld_env)
    shown = f"{kind.value} of {size}"
    if most < 0:
        out.append((("melds", "jokers", "per_meld"), f"a {shown} may hold {most} jokers: the limit must be 0 or more",
                    "negative"))
    if least > size:
        out.append((("melds", "jokers", "min_natural"), f"a {shown} needs {least} natural cards, more than it "
                    "holds: no such meld can be made", "too many"))
    cards = rummy_pack(setup.pack)
    if kind is MeldKind.RUN:
        pack_ranks = setup.pack.ranks  # the ace at both ends: where the deck holds it and the lowest rank
        both_ends = cards.has_ace and pack_ranks[-1].code in setup.ranks and pack_ranks[0].code in setup.ranks
        longest = len(setup.ranks) + (1 if rummy.melds.run_ace == "either" and both_ends else 0)
        if rummy.melds.wrap:
            longest = len(setup.ranks)
        longest = min(longest, rummy.melds.run_max)
        if size > longest:
            out.append((("contracts", number - 1), f"{_label(rummy, number)} asks for a {meld}, but the longest "
                        f"possible run has {longest} cards", None))
        return out
    jokers = min(setup.jokers, max(most, 0))
    naturals = cards.suits if rummy.melds.set_distinct_suits else cards.suits * setup.decks
    if size > naturals + jokers:
        out.append((("contracts", number - 1), f"{_label(rummy, number)} asks for a {meld}, but with "
                    f"{setup.decks} deck(s) a set may hold {naturals} natural cards of a rank"
                    f"{' (one of each suit)' if rummy.melds.set_distinct_suits else ''} and {jokers} joker(s)", None))
    return out
