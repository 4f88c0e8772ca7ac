"""contract.choose: each player chooses their own contract at the start of each round.
Phase 10 Masters Edition (Fundex's instructions): "In turn each player examines their
hand and 'Phase Cards' and determines which phase he/she will attempt to complete ...
Once all players have placed a 'Phase Card' in their 'Active' area, play begins";
"Players pick a phase at the beginning of each hand based on the cards they have.
Phases can be done in any order."  Bundled as phase-10-masters: any phase not made yet
(`count(made, n) == 0`)."""

from __future__ import annotations

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policy
from cardrules.interpreter.driver import play_bots
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.families.contract_rummy.actions import DRAW, TAKE, Choose
from cardrules.interpreter.families.contract_rummy.textio import parse_input
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

RULES = "phase-10-masters"
HANDS = ["1R 1B 1G 5R 5B 5Y 9G 11Y 12R 3B", "2R 2B 7G 8G 9Y 10R 12B 12G 4Y 6R", "3R 3G 4B 6B 6G 7R 7Y 8R 10B 11G"]


def stacked_rummy_round(rules, hands, upcard, players, dealer=0):
    """Round 1 dealt exactly ``hands`` (the pack's card codes), ``upcard`` turned."""
    pack = rules.deck.pack
    state = new_game(rules, players, seed=0)
    state.dealer = dealer
    state.stack_deal(tuple(tuple(pack.card(c) for c in h.split()) for h in hands), pack.card(upcard))
    return state


def test_each_player_chooses_in_turn_then_play_begins():
    rules = load_ruleset(RULES)
    state = stacked_rummy_round(rules, HANDS, "4G", players=3)
    assert state.phase == "choose" and state.turn == 1  # from the first player, the dealer's left
    assert state.legal_actions() == [Choose(n) for n in range(1, 11)]  # nothing made yet: any phase
    assert state.observation(1).contract is None
    for seat, number in ((1, 4), (2, 7), (0, 1)):
        assert state.turn == seat
        state.apply(Choose(number))
        assert state.events[-1 if seat != 0 else -2] == {"event": "choose", "round": 1, "seat": seat,
                                                         "contract": number, "name": rules.section.contracts[number - 1].name}
    assert state.events[-1]["event"] == "contracts" and state.events[-1]["contracts"] == [1, 4, 7]
    assert state.turn == 1 and state.phase == "draw" and state.legal_actions() == [TAKE, DRAW]
    assert state.observation(1).contract.name.startswith("phase 4")
    assert state.observation(0).contract_numbers == (1, 4, 7)  # every choice is public


def test_a_choice_the_rule_does_not_allow_is_refused():
    state = stacked_rummy_round(load_ruleset(RULES), HANDS, "4G", players=3)
    with pytest.raises(IllegalActionError, match=r"choose one of the contracts you may play this round: 1, 2, .*, 10"):
        state.apply(Choose(11))
    with pytest.raises(IllegalActionError, match="first choose this round's contract"):
        state.apply(DRAW)
    assert parse_input("call", "choose 3") == Choose(3)
    with pytest.raises(IllegalActionError, match="e.g. 'choose 3'"):
        parse_input("call", "choose three")


def test_the_bot_chooses_the_phase_its_hand_lacks_fewest_cards_for():
    rules = load_ruleset(RULES)
    state = stacked_rummy_round(rules, HANDS, "4G", players=3, dealer=2)  # seat 0 chooses first
    assert state.turn == 0
    bot = make_policy(rules, "bot", 1, 0)
    assert bot.act(state.observation(0), state.legal_actions()) == Choose(1)  # 1R 1B 1G and 5R 5B 5Y: two sets of 3


def test_a_choose_or_bury_line_out_of_place_is_refused_by_the_replay(tmp_path):
    import json
    from cardrules.interpreter.errors import RecordError
    state = play_bots(load_ruleset(RULES), ["bot"] * 3, seed=2)
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"discard"' in line)
    for extra in ({"event": "choose", "round": 1, "seat": 0, "contract": 5, "name": "phase 5: 1 run of 8"},
                  {"event": "bury", "round": 1, "card": "W", "upcard": "4G"}):
        path.write_text("\n".join(lines[:at + 1] + [json.dumps(extra)] + lines[at + 1:]) + "\n")
        with pytest.raises(RecordError, match="does not follow from the game so far"):
            replay(path)


def _made_and_chosen(state):
    """For each round: each seat's choice, and whether it went down (made it)."""
    rounds: dict[int, dict[int, list]] = {}
    for e in state.events:
        if e["event"] == "choose":
            rounds.setdefault(e["round"], {})[e["seat"]] = [e["contract"], False]
        elif e["event"] == "meld":
            rounds[e["round"]][e["seat"]][1] = True
    return rounds


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_phase_made_is_never_chosen_again_and_every_game_ends_and_replays(seed, tmp_path):
    rules = load_ruleset(RULES)
    state = play_bots(rules, ["bot"] * 4, seed=seed)
    assert state.is_over
    made: dict[int, set[int]] = {s: set() for s in range(4)}
    for number, seats in sorted(_made_and_chosen(state).items()):
        for seat, (contract, went_down) in seats.items():
            assert contract not in made[seat]
        for seat, (contract, went_down) in seats.items():
            if went_down:
                made[seat].add(contract)
    assert max(len(m) for m in made.values()) == 10  # the game ends when a player has made all ten
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    assert replay(path).complete
    assert replay(path, check_deals=False).complete


def test_a_search_seat_chooses_too():
    rules = load_ruleset(RULES)
    state = new_game(rules, 3, 5)
    state.apply(state.chance_action())
    while state.turn == CHANCE:
        state.apply(state.chance_action())
    search = make_policy(rules, "search:6", 5, state.turn)
    assert search.act(state.observation(state.turn), state.legal_actions()) in state.legal_actions()


def test_the_web_table_offers_a_button_for_each_contract():
    from cardrules.web.families.contract_rummy import RummyWebView
    rules = load_ruleset(RULES)
    state = stacked_rummy_round(rules, HANDS, "4G", players=3)
    controls = RummyWebView(rules).controls(state.observation(1), state.legal_actions())
    buttons = [b for b in controls["buttons"] if b["group"] == "Choose your contract"]
    assert [b["move"] for b in buttons] == [f"choose {n}" for n in range(1, 11)]
    assert buttons[7]["label"] == "phase 8: 7 cards of one colour"
    assert controls["prompt"] == "choose your contract for this round"


def test_openspiel_plays_a_ruleset_whose_players_choose():
    pyspiel = pytest.importorskip("pyspiel")
    from cardrules import openspiel as cos
    game = cos.load(RULES, 3, rounds=2, horizon=200)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["n", "made"])
def test_a_counter_may_not_take_a_name_the_choice_binds(tmp_path, name):
    from cardrules.interpreter import RulesetError
    path = tmp_path / "c.yaml"
    path.write_text(f"extends: phase-10-masters\nname: c\ncounters:\n  {name}: {{initial: 0, update: '0'}}\n")
    with pytest.raises(RulesetError, match=f"'{name}' is a name the language"):
        load_ruleset(path)


def test_the_tensor_of_a_seat_shows_the_contracts_each_seat_has_made():
    from cardrules.interpreter.families.contract_rummy.encoding import RummyEncoder
    rules = load_ruleset(RULES)
    codec = RummyEncoder(rules, 3)
    state = play_bots(rules, ["bot"] * 3, seed=1)
    obs = state.observation(0)
    tensor = codec.tensor(obs)
    at = codec.layout.offsets["made"]
    shown = [[n + 1 for n in range(10) if tensor[at + s * 10 + n]] for s in range(3)]
    assert shown == [sorted(m) for m in obs.seats.made] and any(shown)
