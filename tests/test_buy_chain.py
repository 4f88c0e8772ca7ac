"""buying.per_discard: a buy uncovers the card below, which the others may buy in turn.
Best Family Games' contract rummy: "Once they finish another player may ask, 'May I' for
the next card and so on" (tests/data/good/may-i-chain.yaml)."""

from __future__ import annotations

import pytest

from cardrules.interpreter import RulesetError, load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.families.contract_rummy.actions import BUY, DRAW, PASS
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record

from helpers import DATA

RULES = DATA / "good" / "may-i-chain.yaml"


def _chains(events):
    """Each turn's buys, in order: (the player in turn, [(buyer, card), ...])."""
    out, turn = [], None
    for e in events:
        if e["event"] == "discard":
            turn = (e["seat"], [])
        elif e["event"] == "buy" and turn is not None:
            turn[1].append((e["seat"], e["card"]))
        elif e["event"] == "draw" and turn is not None:
            if turn[1]:
                out.append((e["seat"], turn[1]))
            turn = None
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_a_buy_uncovers_a_card_the_others_may_buy_and_the_game_replays(seed, tmp_path):
    rules = load_ruleset(RULES)
    state = new_game(rules, 4, seed)
    play_out(state, make_policies(rules, ["bot"] * 4, seed))
    chains = _chains(state.events)
    assert any(len(buys) > 1 for _, buys in chains)
    for player, buys in chains:
        buyers = [seat for seat, _ in buys]
        assert player not in buyers and len(set(buyers)) == len(buyers) and len(buys) <= 10
    path = tmp_path / "game.jsonl"
    save_record(state, path)
    assert replay(path, str(RULES)).complete
    assert replay(path, str(RULES), check_deals=False).complete


def test_the_window_opens_again_on_the_uncovered_card_without_the_buyer():
    rules = load_ruleset(RULES)
    state = new_game(rules, 4, 3)
    while state.turn == CHANCE:
        state.apply(state.chance_action())
    # play to a turn with two cards on the pile, then decline it and let seat after buy
    policies = make_policies(rules, ["bot"] * 4, 3)
    while not (state.phase == "draw" and len(state.pile) >= 2):
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            state.apply(policies[state.turn].act(state.observation(state.turn), state.legal_actions()))
    player, below = state.player, state.pile[-2]
    state.apply(DRAW)
    first = state.turn
    assert state.phase == "window" and BUY in state.legal_actions()
    state.apply(BUY)
    while state.phase == "window" and state.observation(state.turn).top_discard != below:
        state.apply(PASS)  # the rest of the first window
    assert state.phase == "window"
    obs = state.observation(state.turn)
    assert obs.top_discard == below and obs.chain == (first,)
    assert first not in obs.window and player not in obs.window
    assert state.events[-1]["event"] == "buy" and state.events[-1]["seat"] == first


def test_more_than_one_buy_a_turn_is_refused_beside_a_veto_a_forced_buy_or_a_call(tmp_path):
    path = tmp_path / "r.yaml"
    for extra, words in (("  veto: refuse\n", "buying.veto"), ("  forced: true\n", "buying.forced")):
        path.write_text(f"extends: contract-rummy-best-family\nname: r\nbuying:\n  per_discard: 2\n{extra}")
        with pytest.raises(RulesetError, match=f"more than one buy a turn cannot go with this rule: .*{words}"):
            load_ruleset(path)
    path.write_text("extends: contract-rummy-best-family\nname: r\nbuying:\n  per_discard: 11\n")
    with pytest.raises(RulesetError, match="per_discard"):
        load_ruleset(path)
