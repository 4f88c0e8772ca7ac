"""The go-down search (MeldEngine.go_down_options) against a brute-force enumeration
written from its definition: the ways to meet a contract in canonical form, where
each meld has its least size, a set takes the naturals of its rank in suit order
before jokers, a run has a natural at every value the hand still holds and a joker in
every other place, melds are taken in the contract's search order (runs first, smaller
first) from the cards the earlier melds left, and melds of identical specs come in
order.  Over random hands, for every contract of every bundled contract-rummy ruleset,
the search finds exactly these (and none that the meld rules refuse)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.cards import JOKER, make_deck
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine, card_for
from cardrules.interpreter.families.contract_rummy.rules import MeldKind, MeldSpec
from cardrules.interpreter.loader import bundled_names
from cardrules.interpreter.pack import STANDARD

from helpers import bundled

# (the brute force below is written for the standard pack; a pack of a ruleset's own is
# searched in tests/test_rummy_pack.py, and a round with no contract by the melding of
# the whole hand, tests/test_five_crowns.py)
RUMMY = [n for n in bundled_names() if bundled(n).family.name == "contract-rummy"
         and bundled(n).deck.pack is STANDARD and any(c.melds for c in bundled(n).section.contracts)]


def canonical_melds(engine, spec, counts):
    """Every canonical meld of ``spec`` the counted cards can make, as (kind, cards); a
    part of either kind: the sets, then the runs."""
    if spec.kind is MeldKind.EITHER:
        return [m for kind in (MeldKind.SET, MeldKind.RUN)
                for m in canonical_melds(engine, MeldSpec(kind, spec.min_size), counts)]
    size = spec.min_size
    out = []
    if spec.kind is MeldKind.SET:
        for rank in range(13):
            naturals = [c for c in range(rank, JOKER, 13)
                        for _ in range(min(counts[c], 1) if engine.rules.set_distinct_suits else counts[c])]
            if naturals:
                out.append(tuple(naturals[:size]) + (JOKER,) * (size - min(size, len(naturals))))
        out.append((JOKER,) * size)
        valid = [m for m in out if engine.why_not_set(m) is None]
    else:
        for suit in range(4):
            for start in range(1, 16 - size):
                cards = []
                used = Counter()
                for value in range(start, start + size):
                    c = card_for(suit, value)
                    if counts[c] - used[c] > 0:
                        cards.append(c)
                        used[c] += 1
                    else:
                        cards.append(JOKER)
                out.append(tuple(cards))
        valid = [m for m in out if engine.why_not_run(m) is None]
    return [(spec.kind, m) for m in valid if m.count(JOKER) <= counts[JOKER]]


def brute_force(engine, hand, contract):
    specs = sorted(contract, key=lambda s: (s.kind is MeldKind.SET, s.min_size))
    found = set()

    def search(i, counts, chosen, floor):
        if i == len(specs):
            melds = [engine.make(kind, cards) for kind, cards in chosen]
            if engine.initial_problem(melds) is None:
                found.add(tuple(sorted(cards for _, cards in chosen)))
            return
        same = i > 0 and specs[i - 1] == specs[i]
        for kind, cards in canonical_melds(engine, specs[i], counts):
            if same and cards < floor:
                continue
            left = counts.copy()
            left.subtract(cards)
            if min(left.values(), default=0) < 0:
                continue
            search(i + 1, left, chosen + [(kind, cards)], cards)

    search(0, Counter(hand), [], ())
    return found


def meldy_hand(rng, pack, size):
    """A hand rich in melds, so that many hands meet their contract: cards of three ranks
    and of a stretch of one or two suits, a joker or two, and some of anything."""
    ranks = rng.sample(range(13), 3)
    suits = rng.sample(range(4), rng.choice((1, 2)))
    low = rng.randrange(13)
    stretch = {(low + k) % 13 for k in range(7)}
    near = [c for c in pack if c != JOKER and (c % 13 in ranks or (c // 13 in suits and c % 13 in stretch))]
    jokers = [c for c in pack if c == JOKER][:rng.choice((0, 1, 2))]
    hand = jokers + rng.sample(near, min(len(near), size - len(jokers) - 2))
    rest = [c for c in pack if c not in hand]
    return hand + rng.sample(rest, size - len(hand))


def cases():
    out = []
    for name in RUMMY:
        rules = bundled(name)
        for number, contract in enumerate(rules.section.contracts, 1):
            if contract.melds:
                out.append((name, number))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(cases()), st.randoms(use_true_random=False), st.integers(9, 14))
def test_the_search_finds_exactly_the_canonical_go_downs(case, rng, size):
    name, number = case
    rules = load_ruleset(name)
    setup = rules.setup(rules.max_players)
    engine = MeldEngine(rules.section.melds, setup.env)
    contract = rules.section.contracts[number - 1].melds
    pack = make_deck(setup.decks, setup.jokers, rules.deck.ranks)
    hand = meldy_hand(rng, pack, size)
    found = {tuple(sorted(m.cards for m in option)) for option in engine.go_down_options(hand, contract, limit=10**6)}
    assert found == brute_force(engine, hand, contract)


def test_a_hand_that_meets_the_contract_in_one_way():
    rules = load_ruleset("shanghai-isra")
    engine = MeldEngine(rules.section.melds, rules.setup(4).env)
    from cardrules.interpreter.cards import card
    hand = [card(c) for c in "8H 8S 8D 9C 9D 9H 2C 3C 4C KD KS".split()]
    options = engine.go_down_options(hand, rules.section.contracts[0].melds)  # two sets of 3
    assert {tuple(sorted(m.cards for m in o)) for o in options} == brute_force(
        engine, hand, rules.section.contracts[0].melds)
    assert len(options) == 1


@pytest.mark.parametrize("name", RUMMY)
def test_every_contract_is_checked(name):
    assert any(c[0] == name for c in cases())
