"""Every name the language binds at a place is there when the engine evaluates that place:
for each place, a child ruleset whose expression there reads every name the place
declares (as docs/ruleset-language.md lists them) validates, plays whole games with
bots, and its records replay.  A name declared but not bound once ended a game in
"internal error"."""

from __future__ import annotations

import json

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.expressions import Type
from cardrules.interpreter.families.contract_rummy.rules import BONUS_NAMES, BUY_NAMES, MELD_NAMES
from cardrules.interpreter.families.trick_taking.names import (BID_NAMES, COUNT_NAMES, EXCHANGE_NAMES, PLAY_NAMES,
                                                               SCORE_NAMES)
from cardrules.interpreter.playcheck import check_by_playing
from cardrules.interpreter.rules import GAME_NAMES, ROUND_NAMES, TEAM_NAMES


def reads_all(names: dict[str, Type]) -> str:
    """An integer expression that is 0 and reads every one of ``names``."""
    parts = []
    for name, kind in sorted(names.items()):
        parts.append(name if kind is Type.INT else f"(if {name} then 1 else 0)" if kind is Type.BOOL
                     else f"len({name})")
    return "0 * (" + " + ".join(parts) + ")"


# (parent, place written as YAML with {zero} for an expression that is 0, the names there)
PLACES = [
    ("oh-hell", 'deal: {{hand_size: "[3 + {zero}, 2, 1]"}}', GAME_NAMES),
    ("oh-hell", 'bidding: {{range: "0..(hand_size + {zero})"}}', ROUND_NAMES),
    ("oh-hell", 'bidding: {{restrictions: [{{rule: "bid >= {zero}", message: "no {{bid + {zero}}}"}}]}}',
     BID_NAMES),
    ("oh-hell", 'scoring: {{points: "tricks + {zero}"}}', SCORE_NAMES),
    ("oh-hell", 'scoring: {{points: [{{when: "tricks == bid + {zero}", points: 10}}, {{points: "{zero}"}}]}}',
     SCORE_NAMES),
    ("oh-hell", 'team: "seat % 2 + {zero}"', TEAM_NAMES),
    ("hearts", 'exchange: {{cards: "3 + {zero}", direction: "left + {zero}"}}', EXCHANGE_NAMES),
    ("hearts", 'play: {{restrictions: [{{rule: "{zero} == 0", message: "no card"}}]}}', PLAY_NAMES),
    ("omnibus-hearts", 'scoring: {{counts: {{spades_taken: "card_suit == spades or {zero} == 1"}}}}', COUNT_NAMES),
    ("omnibus-hearts", 'scoring: {{points: "card_points + {zero}"}}',
     {**SCORE_NAMES, **{f"counting_cards{suffix}": Type.LIST if suffix == "_by_seat" else Type.INT
                        for suffix in ("", "_by_seat", "_dealt", "_taker")}}),
    ("shanghai-isra", 'buying: {{limit: "3 + {zero}", penalty_cards: "1 + {zero}"}}', BUY_NAMES),
    ("shanghai-isra", 'melds: {{jokers: {{per_meld: "size + {zero}", min_natural: "1 + {zero}"}}}}', MELD_NAMES),
    ("shanghai-isra", 'chance_events: [{{name: cut, description: "a cut", one_in: 2, seat: right-of-dealer, '
                      'actor: "{zero}", others: "50 + {zero}"}}]', BUY_NAMES),
    ("shanghai", 'bonuses: [{{name: blind, when: "in_one_turn or {zero} == 0", goer: "-25 + {zero}", '
                 'others: "{zero}"}}]', BONUS_NAMES),
]


@pytest.mark.parametrize("parent, place, names", PLACES, ids=lambda v: v if isinstance(v, str) and ":" not in v
                         else None)
def test_every_name_of_a_place_is_bound_when_it_is_evaluated(tmp_path, parent, place, names):
    path = tmp_path / "child.yaml"
    path.write_text(f"extends: {parent}\nname: child\n" + place.format(zero=reads_all(names)) + "\n")
    rules = load_ruleset(path)
    report = check_by_playing(rules, games=1)
    assert report.problems == [], report.problems
    for seed in range(3):
        game = play_bots(rules, ["bot"] * rules.min_players, seed)
        assert game.is_over and json.dumps(game.events)
