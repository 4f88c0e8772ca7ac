"""Contract rummy with a pack of its own (tests/data/packs/five-suits-rummy.yaml: five suits,
the fifth stars ``R``, ranks 3 to K, two packs, four jokers, a wild special card, the
Wild Bear ``WB``, and one that is never wild, the Blocker ``BLK``): melds as a player
would check them, validate's findings at their line, whole games with bot, random and
search seats at every player count (cards conserved, records replay), the record's and
the table's codes, and a standard-pack game unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from cardrules.interpreter import IllegalActionError, load_ruleset
from cardrules.interpreter.bots import make_policies
from cardrules.interpreter.families.contract_rummy.actions import Discard, GoDown
from cardrules.interpreter.families.contract_rummy.melds import MeldEngine
from cardrules.interpreter.families.contract_rummy.rules import round_card_points, wild_cards
from cardrules.interpreter.game import CHANCE, new_game
from cardrules.interpreter.record import replay, save_record
from cardrules.interpreter.ruleset import build_ruleset
from helpers import DATA, rummy_draw

FIVE = DATA / "packs" / "five-suits-rummy.yaml"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(FIVE)


def engine(rules, players=4, round_index=0):
    setup = rules.setup(players)
    return MeldEngine(rules.section.melds, setup.env, wild_cards(rules.section.melds, setup, round_index),
                      rules.section.going_down, setup.pack, setup.ranks)


def cards(rules, text):
    return tuple(rules.deck.pack.card(c) for c in text.split())


# --- melds with the pack --------------------------------------------------------------------
@pytest.mark.parametrize("kind, text, problem", [
    ("run", "5R 6R 7R 8R", None),  # a run in the fifth suit
    ("run", "5R JK 7R 8R", None),  # a joker in its place
    ("run", "5R WB 7R 8R", None),  # the Wild Bear is wild (melds.wild: card == wild_bear)
    ("run", "3R 4R 5R 6R", None),  # the lowest rank of the pack starts a run
    ("run", "TR JR QR KR", None),  # the king ends one
    ("run", "JR QR KR JK", "not in sequence"),  # nothing above the king: no ace in this pack
    ("run", "JK 3R 4R 5R", "not in sequence"),  # nothing below the 3
    ("run", "QR KR 3R 4R", "not in sequence"),  # no corner without melds.run.wrap
    ("run", "5R JK JK 8R", "side by side"),
    ("run", "5R 6S 7R 8R", "one suit"),
    ("set", "7S 7H 7C 7D 7R", None),  # a set of all five suits
    ("set", "7R 7R 7S", None),  # two packs: two 7 of stars
    ("set", "7S WB JK", None),
    ("set", "7S 7H BLK", "goes in no meld"),  # the Blocker is never wild
    ("set", "7S 7H 8R", "one rank"),
])
def test_melds_follow_the_pack(rules, kind, text, problem):
    check = engine(rules)
    given = cards(rules, text)
    found = check.why_not_run(given) if kind == "run" else check.why_not_set(given)
    if problem is None:
        assert found is None
        made = check.make(check.classify(given).kind, given)
        assert made.kind.value == kind
    else:
        assert found is not None and problem in found


def test_a_run_in_the_fifth_suit_takes_lay_offs_and_swaps_at_its_ends(rules):
    check = engine(rules)
    run = check.make(check.classify(cards(rules, "5R JK 7R 8R")).kind, cards(rules, "5R JK 7R 8R"))
    assert run.suit == 4 and check.stands_for(run, 1) == rules.deck.pack.card("6R")
    assert check.lay_off(run, rules.deck.pack.card("4R")).cards == cards(rules, "4R 5R JK 7R 8R")
    assert check.lay_off(run, rules.deck.pack.card("9R")).cards == cards(rules, "5R JK 7R 8R 9R")
    assert check.lay_off(run, rules.deck.pack.card("9S")) is None
    assert check.swap(run, rules.deck.pack.card("6R")).cards == cards(rules, "5R 6R 7R 8R")
    assert check.accepts(run) == frozenset(cards(rules, "4R 9R"))
    top = check.make(check.classify(cards(rules, "TR JR QR KR")).kind, cards(rules, "TR JR QR KR"))
    assert check.accepts(top) == frozenset(cards(rules, "9R"))  # nothing above the king
    assert check.lay_off(top, rules.deck.pack.card("JK")).cards == cards(rules, "JK TR JR QR KR")
    five = check.make(check.classify(cards(rules, "7S 7H 7C 7D")).kind, cards(rules, "7S 7H 7C 7D"))
    assert rules.deck.pack.card("7R") in check.accepts(five)


def test_the_go_down_search_finds_melds_of_the_fifth_suit_and_the_wild_cards(rules):
    check = engine(rules)
    contract = rules.section.contracts[1].melds  # a set and a run
    hand = cards(rules, "9S 9R WB 4R 5R 7R JK KD BLK 3C")
    options = check.go_down_options(hand, contract)
    assert options
    for option in options:
        assert rules.deck.pack.card("BLK") not in [c for m in option for c in m.cards]
        assert check.contract_problem(list(option), contract) is None
    shown = {tuple(rules.deck.pack.codes[c] for c in m.cards) for option in options for m in option}
    assert ("4R", "5R", "WB", "7R") in shown or ("4R", "5R", "JK", "7R") in shown


def test_card_points_by_the_packs_codes(rules):
    setup = rules.setup(4)
    table = round_card_points(rules.section, setup, 0)
    assert sum(table[c] for c in cards(rules, "3R KR JK WB BLK")) == 5 + 10 + 25 + 25 + 15


def test_card_points_as_an_expression_of_the_card_and_the_round(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(f"extends: {FIVE}\nname: x\nmelds:\n  wild: \"card_rank == hand_size - 6 or card == wild_bear\"\n"
                    "card_points: \"if card_is_joker then 50 else if card_is_wild then 20 else if card_is_special "
                    "then 15 else card_rank\"\n")
    rules = load_ruleset(path)
    setup = rules.setup(4)
    table = round_card_points(rules.section, setup, 0)  # 9 cards dealt: the 3s are wild
    assert [table[c] for c in cards(rules, "3R 4S TD KR JK WB BLK")] == [20, 4, 10, 13, 50, 20, 15]


# --- validate: a contract the pack cannot meet, codes it does not know ---------------------------
def validate(tmp_path, text, name="bad"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {FIVE}\nname: {name}\n" + text)
    done = subprocess.run([sys.executable, "-m", "cardrules", "validate", "--no-play", str(path)],
                          capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def test_validate_refuses_a_run_longer_than_the_packs_ranks(tmp_path):
    code, out = validate(tmp_path, "contracts:\n  - [set, set]\n  - [run of 12]\n  - [run, run]\n")
    assert code == 1
    assert "bad.yaml:5:" in out and "the longest possible run has 11 cards" in out


def test_validate_refuses_a_set_larger_than_five_suits_allow(tmp_path):
    code, out = validate(tmp_path, "melds:\n  set: {distinct_suits: true}\n  wild: \"card == wild_bear\"\n"
                         "contracts:\n  - [set of 12]\n  - [set, run]\n  - [run, run]\n")
    assert code == 1 and "a set may hold 5 natural cards of a rank (one of each suit)" in out and "bad.yaml:7:" in out


def test_validate_names_a_card_points_code_the_pack_does_not_have(tmp_path):
    code, out = validate(tmp_path, "card_points:\n  \"3 4 5 6 7 8 9\": 5\n  \"T J Q K\": 10\n  \"JK WB BLK\": 25\n"
                         "  \"Z\": 1\n")
    assert code == 1
    assert "bad.yaml:7:3:" in out and "'Z', which is neither a rank of the pack" in out


def test_validate_wants_every_special_card_of_the_deck_priced(tmp_path):
    code, out = validate(tmp_path, "card_points:\n  \"3 4 5 6 7 8 9\": 5\n  \"T J Q K\": 10\n  \"JK WB\": 25\n")
    assert code == 1 and "the special card BLK" in out and "bad.yaml:3:1:" in out


def test_the_standard_pack_still_refuses_another_packs_codes(tmp_path):
    path = tmp_path / "std.yaml"
    path.write_text("extends: shanghai-isra\nname: std\ncard_points:\n  \"A\": 20\n  \"T J Q K\": 10\n"
                    "  \"2 3 4 5 6 7 8 9\": 5\n  \"JK\": 50\n  \"R\": 3\n")
    done = subprocess.run([sys.executable, "-m", "cardrules", "validate", "--no-play", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "std.yaml:8:3:" in done.stdout + done.stderr


# --- whole games ---------------------------------------------------------------------------------
def in_play(state):
    everything = Counter()
    for hand in state.hands:
        everything.update(hand)
    everything.update(state.stock)
    everything.update(state.pile)
    for meld in state.melds.values():
        everything.update(meld.cards)
    return everything


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_games_with_bot_random_and_search_seats(rules, tmp_path, players):
    kinds = ["bot", "search:6", "random", "bot", "search:6", "bot"][:players]
    state = new_game(rules, players, seed=players, ruleset_ref=str(FIVE))
    deck = Counter(state.deck)
    assert len(state.deck) == 2 * 55 + 4 + 2 + 2
    policies = make_policies(rules, kinds, players)
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 200_000
        if state.turn == CHANCE:
            state.apply(state.chance_action())
        else:
            legal = state.legal_actions()
            action = policies[state.turn].act(state.observation(state.turn), legal)
            assert action in legal
            state.apply(action)
        if state.phase != "deal":
            assert in_play(state) == deck  # every card in one place
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    result = replay(path)
    assert result.complete and result.state.totals == state.totals
    text = path.read_text("utf-8")
    assert '"R"' not in text  # cards are codes: rank then suit
    dealt = [json.loads(line) for line in text.splitlines() if '"event": "deal"' in line]
    codes = {c for d in dealt for hand in d["hands"] for c in hand}
    assert any(c.endswith("R") for c in codes) and codes <= set(rules.deck.pack.codes)


def test_a_go_down_by_the_packs_codes_is_recorded_and_replayed(rules, tmp_path):
    state = new_game(rules, 2, seed=0, ruleset_ref=str(FIVE))
    pack = rules.deck.pack
    # (seat 1, left of the dealer, plays first)
    state.stack_deal((cards(rules, "5S 5H 6S 6H 8S 8H TS TH QS"), cards(rules, "7S 7H 7R 9R 9C WB 3S 4S KD")),
                     pack.card("3C"), cards(rules, "KR 4D"))
    rummy_draw(state)  # draws KR
    down = next(a for a in state.legal_actions() if isinstance(a, GoDown))
    assert str(down) == "meld set: 7S 7H 7R | set: 9C 9R WB"
    state.apply(down)
    state.apply(Discard(pack.card("KR"), False, pack))
    assert str(state.legal_actions()[0]) in ("take", "draw")
    with pytest.raises(IllegalActionError):
        state.apply(rules.family.parse_input(rules, state.observation(state.turn), "discard 2S"))
    typed = rules.family.parse_input(rules, None, "meld 7s 7h 7r")
    assert typed.melds == (cards(rules, "7S 7H 7R"),)
    path = tmp_path / "g.jsonl"
    save_record(state, path)
    events = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    meld = next(e for e in events if e["event"] == "meld")
    assert [m["cards"] for m in meld["melds"]] == [["7S", "7H", "7R"], ["9C", "9R", "WB"]]
    assert replay(path, check_deals=False).state.melds == state.melds


def test_the_terminal_replay_and_explain_show_the_pack(tmp_path):
    record = tmp_path / "g.jsonl"
    done = subprocess.run([sys.executable, "-m", "cardrules", "play", str(FIVE), "--seats", "bot,bot,bot",
                           "--seed", "2", "--fast", "--record", str(record)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "cardrules", "replay", str(record)], capture_output=True, text=True)
    assert done.returncode == 0 and ": ok," in done.stdout
    done = subprocess.run([sys.executable, "-m", "cardrules", "explain", str(FIVE)], capture_output=True, text=True)
    assert "stars (★, written R, blue)" in done.stdout
    assert "Ranks, low to high: 3 4 5 6 7 8 9 T J Q K" in done.stdout
    assert "in the order of the ranks, 3 to K" in done.stdout
    assert "Never wild, so in no meld: Blocker" in done.stdout
    assert "| joker, wild bear | 25 |" in done.stdout


def test_a_person_plays_saves_and_resumes_with_the_packs_cards(tmp_path):
    save = tmp_path / "s.jsonl"
    done = subprocess.run([sys.executable, "-m", "cardrules", "play", str(FIVE), "--seats", "human,bot",
                           "--seed", "4", "--save", str(save), "--fast"], input="pass\ndraw\ndiscard 3s\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert "Your hand: 3♠   4♥ 6♥   6♣ 10♣ K♣   10♦   3★ Q★" in done.stdout, done.stdout
    assert "[2] bot-1's set: 4♣ 4★ 4★" in done.stdout  # the bot went down with two 4 of stars
    moves = [json.loads(line) for line in save.read_text("utf-8").splitlines()[1:]]
    assert "meld set: 5S 5C JK | set: 4C 4R 4R" in moves and "discard 3S" in moves
    done = subprocess.run([sys.executable, "-m", "cardrules", "resume", str(save), "--fast"], input="quit\n",
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr
    assert "Your hand: 4♠   4♥ 6♥   6♣ 10♣ K♣   10♦   3★ Q★" in done.stdout, done.stdout


def test_the_web_table_names_the_packs_cards(rules):
    from cardrules.web.families.contract_rummy import RummyWebView

    state = new_game(rules, 2, seed=0)
    pack = rules.deck.pack
    state.stack_deal((cards(rules, "7S 7H 7R 9R 9C WB 3S 4S KD"), cards(rules, "5S 5H 6S 6H 8S 8H TS TH QS")),
                     pack.card("3R"), cards(rules, "KR 4D"), dealer=1)
    view = RummyWebView(rules)
    obs = state.observation(0)
    panels = view.panels(obs, ["a", "b"], False)
    assert panels[0]["items"][1]["cards"] == ["3R"]
    rummy_draw(state)
    controls = view.controls(state.observation(0), state.legal_actions())
    assert {h["card"] for h in controls["hand"]} >= {"7R", "9R", "WB", "KR"}
    assert any(b["move"] == "meld set: 7S 7H 7R | set: 9C 9R WB" for b in controls["buttons"])


def test_a_standard_pack_ruleset_is_read_as_before():
    rules = build_ruleset_text("extends: shanghai-isra\nname: same\n")
    assert rules.deck.pack is load_ruleset("shanghai-isra").deck.pack


def build_ruleset_text(text):
    from cardrules.interpreter.loader import document_from_text

    return build_ruleset(document_from_text(text, "same.yaml"))
