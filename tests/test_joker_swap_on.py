"""joker_swap.on: whose melds a joker may be swapped out of.  Onze (thebearknowsbest.com):
"Exchange a natural card in your hand for a wild card on the board that other players have
lain down" - `on: others-melds` (tests/data/good/onze-others-melds.yaml); `own-melds` the
reverse; `any-meld` (the default) anyone's."""

from __future__ import annotations

import pytest

from cardrules.interpreter import load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.driver import play_out
from cardrules.interpreter.errors import IllegalActionError
from cardrules.interpreter.families.contract_rummy.actions import Swap
from cardrules.interpreter.game import new_game

from helpers import DATA


class Watching:
    """A seat's bot, checking before each of its moves that a swap out of a meld the rule
    does not name is refused with the rule's words (and never listed)."""

    def __init__(self, policy, state, on):
        self.policy, self.state, self.on = policy, state, on
        self.kind, self.needs_observation = policy.kind, policy.needs_observation
        self.refused = 0

    def act(self, observation, legal):
        state = self.state
        seat = state.turn
        if state.phase == "play" and not state.joker_debt and state.down[seat]:
            for meld_id, meld in state.melds.items():
                if (state.owners[meld_id] == seat) == (self.on == "own-melds"):
                    continue  # a meld the rule lets this seat swap from
                for c in set(state.hands[seat]):
                    if state.meld_engine.swap(meld, c) is None:
                        continue
                    swap = Swap(meld_id, c, state.setup.pack)
                    assert swap not in legal
                    with pytest.raises(IllegalActionError, match="jokers may be swapped only out of " + (
                            "your own melds" if self.on == "own-melds" else "the other players' melds")):
                        state.verify(swap)
                    self.refused += 1
        return self.policy.act(observation, legal)


def _play(rules, seed, on):
    state = new_game(rules, 4, seed)
    seats = [Watching(p, state, on) for p in make_policies(rules, ["bot"] * 4, seed)]
    play_out(state, seats)
    return state, sum(s.refused for s in seats)


@pytest.mark.parametrize("on", ["others-melds", "own-melds"])
def test_a_joker_is_swapped_only_out_of_the_melds_the_rule_names(on, tmp_path):
    if on == "others-melds":
        rules = load_ruleset(DATA / "good" / "onze-others-melds.yaml")
    else:
        path = tmp_path / "own.yaml"
        path.write_text("extends: onze\nname: own\njoker_swap: {on: own-melds}\n")
        rules = load_ruleset(path)
    swaps = refused = 0
    for seed in range(4):
        state, n = _play(rules, seed, on)
        refused += n
        owners: dict[tuple[int, int], int] = {}
        for e in state.events:
            if e["event"] == "meld":
                for m in e["melds"]:
                    owners[(e["round"], m["id"])] = e["seat"]
            elif e["event"] == "swap":
                swaps += 1
                mine = owners[(e["round"], e["meld"])] == e["seat"]
                assert mine == (on == "own-melds"), e
    assert swaps and refused  # both sides of the rule were met


def test_explain_says_whose_melds():
    from cardrules.interpreter.explain import explain
    text = explain(load_ruleset(DATA / "good" / "onze-others-melds.yaml"))
    assert "may replace a joker or other wild card in a meld of another player's by the natural card" in text
