"""What a person at the table sees, played as a user plays (scripted input through
click's CliRunner): the round header before the round's first move, the playable cards
at the prompt and the card played for you, who is winning the trick and the bids
against the tricks, the commands last / rules / help / hint / undo, --names, "your
set", and suit symbols in refusals.  The same at a real terminal: test_terminal.py."""

from __future__ import annotations

import re


def test_the_round_header_comes_before_the_bots_first_bids(run_cli):
    # the human sits last: three bots bid before the first prompt
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="1\nquit\n")
    out = result.output
    header = "== Round 1 of 19: 10 cards, dealer bot-0, trump spades (2S turned) =="
    assert header in out
    assert out.index(header) < out.index("bot-1 bids")


def test_the_round_header_comes_before_the_bots_moves_of_every_round(run_cli):
    # a whole game at a human seat: each round's header precedes that round's first move
    from cardrules.interpreter.cards import NAMES

    cycle = [str(b) for b in range(11)] + list(NAMES[:52])
    result = run_cli("play", "oh-hell", "--seats", "bot,bot,human", "--seed", "5", "--fast", "--ascii",
                     input="\n".join(cycle * 130) + "\n")
    assert "Game over." in result.output
    lines = result.output.splitlines()
    headers = [i for i, line in enumerate(lines) if line.startswith("== Round ")]
    moves = [i for i, line in enumerate(lines) if re.match(r"  \S+ (bids?|plays?) ", line)]
    assert len(headers) == len(re.findall(r"^Round \d+ of \d+: ", result.output, re.M))  # one per round
    for number, start in enumerate(headers):
        end = headers[number + 1] if number + 1 < len(headers) else len(lines)
        first_move = min(i for i in moves if i > start)
        assert start < first_move < end


def test_a_named_trump_is_announced_and_the_header_says_it_is_not_named_yet(run_cli, tmp_path):
    path = tmp_path / "named.yaml"
    path.write_text("extends: oh-hell\nname: named\ntrump: {kind: named-by-highest-bidder}\n")
    result = run_cli("play", str(path), "--seats", "bot,bot,human", "--seed", "2", "--fast", "--ascii",
                     input="\n".join(["0"] * 3 + ["quit"]) + "\n")
    assert "== Round 1 of" in result.output and "trump not named yet ==" in result.output


def test_resume_shows_the_round_header_again(run_cli, tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "3", "--fast", "--ascii", "--save", str(save),
            input="1\nquit\n")
    result = run_cli("resume", str(save), "--fast", "--ascii", input="quit\n")
    assert "resuming at round 1" in result.output
    assert result.output.index("== Round 1 of 19: 10 cards") < result.output.index("your card")


def test_the_rummy_header_names_the_contract(run_cli):
    result = run_cli("play", "shanghai-isra", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="quit\n")
    header = "== Round 1 of 7: 11 cards, dealer bot-0, contract SET SET (set of 3, set of 3) =="
    assert header in result.output
    assert result.output.index(header) < result.output.index("bot-1 takes")


def _cycle():
    from cardrules.interpreter.cards import NAMES

    return [str(b) for b in range(11)] + list(NAMES[:52])


def test_the_card_prompt_lists_the_playable_cards(run_cli):
    # seat 3 follows clubs after A♣ and J♣: only its clubs are listed
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="1\nquit\n")
    assert "Your hand: 4S 7S   9H 10H   3D   4C 5C 6C 7C 10C" in result.output
    assert "you, your card (4C 5C 6C 7C 10C) > " in result.output


def test_a_single_legal_card_is_played_for_you_unless_no_autoplay(run_cli, tmp_path):
    record = tmp_path / "auto.jsonl"
    auto = run_cli("play", "oh-hell", "--seats", "human,bot,bot", "--seed", "8", "--fast", "--ascii",
                   "--record", str(record), input="\n".join(_cycle() * 130) + "\n")
    assert auto.exit_code == 0 and "Game over." in auto.output
    forced = re.findall(r"\(only (\S+) can be played: played for you\)\n  you play (\w+)", auto.output)
    assert len(forced) >= 19  # at least the last trick of every round
    assert all(shown == played for shown, played in forced)
    # every prompt the person answered offered more than one card
    assert not re.search(r"your card \(\S+\) > ", auto.output)
    asked = run_cli("play", "oh-hell", "--seats", "human,bot,bot", "--seed", "8", "--fast", "--ascii", "--no-autoplay",
                    input="\n".join(_cycle() * 130) + "\n")
    assert asked.exit_code == 0 and "Game over." in asked.output
    assert "can be played: played for" not in asked.output
    assert re.search(r"your card \(\S+\) > ", asked.output)


def test_an_autoplayed_card_is_saved_and_resumed(run_cli, tmp_path):
    save = tmp_path / "game.jsonl"
    # a 1-card round: after the bid the only card is played for you
    path = tmp_path / "one.yaml"
    path.write_text("extends: oh-hell\nname: one\ndeal: {hand_size: \"1..2\"}\n")
    result = run_cli("play", str(path), "--seats", "human,bot,bot", "--seed", "1", "--fast", "--ascii",
                     "--save", str(save), input="0\nquit\n")
    assert "can be played: played for you" in result.output
    moves = save.read_text().splitlines()[1:]
    assert any(m.startswith('"play ') for m in moves)
    resumed = run_cli("resume", str(save), "--fast", "--ascii", "--no-autoplay", input="quit\n")
    assert resumed.exit_code == 0 and "resuming at round" in resumed.output


def test_who_is_winning_the_trick_and_the_bids_against_the_tricks(run_cli):
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="1\n4c\nquit\n")
    out = result.output
    # bot-0 bids 4 last: 2 + 4 + 1 + 4 = 11 bid for 10 tricks
    assert "  bot-0 bids 4\n  bids total 11 for 10 tricks: 1 over\n" in out
    assert "Bids: bot-0 4, bot-1 2, bot-2 4, you 1 (bids total 11 for 10 tricks: 1 over)" in out
    # spades are trump with bowers: J♣, the left bower, beats the A♣ led
    assert "  bot-1 plays AC\n  bot-2 plays JC; bot-2 is winning with JC\n" in out
    assert "Trick 1: bot-1 AC  bot-2 JC   (bot-2 is winning with JC)" in out
    assert "  you play 4C; bot-2 is winning with JC\n  bot-0 plays 2C\n  bot-2 wins trick 1 with JC\n" in out


def test_under_and_even_bids(run_cli):
    from cardrules.narration.render import Renderer
    from cardrules.interpreter.loader import locate
    from cardrules.interpreter.ruleset import load_ruleset

    renderer = Renderer(["a", "b", "c"], load_ruleset(locate("oh-hell")))
    renderer.round = {"deal": {"hand_size": 8}}
    assert renderer.view._bids_against_tricks([3, 2, 2]) == "bids total 7 for 8 tricks: 1 under"
    assert renderer.view._bids_against_tricks([3, 3, 2]) == "bids total 8 for 8 tricks: even"


def test_last_shows_the_last_trick(run_cli):
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="last\n1\n4c\nlast\nquit\n")
    out = result.output
    assert "  no trick has been played yet this round\n" in out
    assert "  trick 1: bot-1 AC  bot-2 JC  you 4C  bot-0 2C; bot-2 wins with JC\n" in out


def test_last_shows_the_last_rummy_turn_and_what_came_since(run_cli):
    result = run_cli("play", "shanghai-isra", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="last\ndraw\nlast\nquit\n")
    out = result.output
    assert "  last turn:\n    bot-2 takes JS\n    bot-2 discards 10C\n" in out
    # (alone against bots you see the card you drew)
    assert re.search(r"  last turn:\n    bot-2 takes JS\n    bot-2 discards 10C\n  since then:\n"
                     r"    you draw \S\S? from the stock\n", out)


def test_rules_prints_the_players_explain_and_help_lists_every_command(run_cli):
    from cardrules.interpreter.explain import explain
    from cardrules.interpreter.loader import locate
    from cardrules.interpreter.ruleset import load_ruleset

    result = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "3", "--fast", "--ascii",
                     input="rules\nhelp\nquit\n")
    assert explain(load_ruleset(locate("oh-shit")), notes=False).rstrip() in result.output
    for command in ("hand", "last", "score", "rules", "help", "quit"):
        assert re.search(rf"^    {command} +\S", result.output, re.M), command
    assert "last   the last trick" in result.output
    rummy = run_cli("play", "shanghai-isra", "--seats", "human,bot,bot,bot", "--seed", "3", "--fast",
                    input="help\nquit\n")
    assert "last   the last turn" in rummy.output and "meld 8h 8s jk" in rummy.output


def test_names_name_the_seats_in_hot_seat_play_and_on_resume(run_cli, tmp_path):
    save = tmp_path / "game.jsonl"
    result = run_cli("play", "oh-shit", "--seats", "bot,human,human", "--names", "Robo,Ann,Bob", "--seed", "3",
                     "--fast", "--ascii", "--save", str(save), input="\n1\n\nquit\n")
    out = result.output
    assert result.exit_code == 0
    assert "dealer Robo" in out and "Pass the screen to Ann and press Enter" in out
    assert "Ann, your bid (" in out and "  Ann bids 1\n" in out and "Pass the screen to Bob" in out
    resumed = run_cli("resume", str(save), "--fast", "--ascii", input="\nquit\n")
    assert "Bob, your bid (" in resumed.output


def test_names_with_bots_only(run_cli):
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot", "--names", "North,East,South", "--seed", "3",
                     "--fast", "--ascii")
    assert result.exit_code == 0 and "dealer North" in result.output and "Winner" in result.output


def test_a_wrong_names_count_is_a_usage_error(run_cli):
    result = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--names", "Ann,Bob")
    assert result.exit_code == 2
    assert "--names gives 2 names for 3 seats; give one name a seat, in seat order" in result.output
    for bad, message in (("Ann,,Cy", "empty name"), ("Ann,ann,Cy", "the same name twice"),
                         ("Ann,Bob," + "x" * 30, "not a usable name")):
        result = run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--names", bad)
        assert result.exit_code == 2 and message in result.output, bad


def test_refusals_show_cards_with_suit_symbols(run_cli):
    # not --ascii: the table's cards are Q♠, and so are the cards a refusal names
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--no-color",
                     input="1\n2s\n4c\nkd\n9h\nquit\n")
    out = result.output
    assert "  you do not hold 2♠\n" in out and "  you do not hold K♦\n" in out
    assert "  you must follow spades\n" in out
    assert "2S" not in out and "KD" not in out.replace("'kd'", "")


def test_a_refusal_keeps_what_the_player_typed():
    from cardrules.narration.render import Renderer
    from cardrules.interpreter.loader import locate
    from cardrules.interpreter.ruleset import load_ruleset

    renderer = Renderer(["you", "b", "c"], load_ruleset(locate("oh-hell")))
    assert renderer.refusal("it is time to bid, not 'play QS'") == "it is time to bid, not 'play QS'"
    assert renderer.refusal("you do not hold TS (JS counts as a spade)") == "you do not hold 10♠ (J♠ counts as a spade)"
    assert renderer.refusal("you hold 2 JK; this needs 3") == "you hold 2 Jkr; this needs 3"
    assert renderer.refusal("the dealer's bid ASKS nothing") == "the dealer's bid ASKS nothing"


def test_your_set_not_you_s_set(capsys):
    from cardrules.narration.render import Renderer
    from cardrules.interpreter.loader import locate
    from cardrules.interpreter.ruleset import load_ruleset

    renderer = Renderer(["you", "bot-1", "bot-2", "bot-3"], load_ruleset(locate("shanghai-isra")), narrate=True,
                        ascii_only=True)
    renderer.event({"event": "refuse", "round": 1, "seat": 1, "buyer": 0, "card": "7H"})
    renderer.event({"event": "refuse", "round": 1, "seat": 0, "buyer": 2, "card": "7H"})
    out = capsys.readouterr().out
    assert "  bot-1 refuses your buy of 7H\n" in out and "  you refuse bot-2's buy of 7H\n" in out
    assert "you's" not in out


def test_the_rummy_table_says_your_set(capsys):
    from cardrules.narration.render import Renderer
    from cardrules.interpreter.bots import make_policies
    from cardrules.interpreter.driver import Stop, play_out
    from cardrules.interpreter.game import new_game
    from cardrules.interpreter.loader import locate
    from cardrules.interpreter.ruleset import load_ruleset

    rules = load_ruleset(locate("shanghai-isra"))
    names = ["you", "bot-1", "bot-2", "bot-3"]
    state = new_game(rules, 4, 3, names)

    def stop_when_seat_0_melds(event):
        if event["event"] == "meld" and event["seat"] == 0:
            raise Stop

    play_out(state, make_policies(rules, ["bot"] * 4, 3), on_event=stop_when_seat_0_melds)
    renderer = Renderer(names, rules, ascii_only=True)
    renderer.view.show_table(state.observation(0))
    out = capsys.readouterr().out
    assert re.search(r"\] your (set|run): ", out), out
    assert "you's" not in out


def test_hint_says_what_the_bot_would_do_and_why(run_cli, tmp_path):
    record = tmp_path / "hinted.jsonl"
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     "--record", str(record), input="hint\n1\nhint\n4c\nhint\nquit\n")
    out = result.output
    assert "  the bot would bid 1: your hand looks worth about 0.9 tricks\n" in out
    # bot-2's J♣ (the left bower) holds the trick, and no club beats it
    assert ("  the bot would play 4C: you need 1 more trick, but nothing you hold takes this trick: "
            "keep your good cards\n") in out
    assert "    hint   what the bot would do here, and why" in run_cli(
        "play", "oh-shit", "--seats", "human,bot,bot", "--seed", "3", "--fast", input="help\nquit\n").output
    # asking changes nothing: the same game without hints gives the same record
    plain = tmp_path / "plain.jsonl"
    run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
            "--record", str(plain), input="1\n4c\nquit\n")
    assert record.read_text() == plain.read_text()


def test_hint_in_rummy_names_the_bots_move(run_cli):
    result = run_cli("play", "shanghai-isra", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     input="hint\ndraw\nhint\nquit\n")
    assert "  the bot would draw: 10C does not help your hand\n" in result.output
    assert "  the bot would meld set: 3S 3H 3C | set: 6D 6D Jkr: you hold the contract: go down as soon as you can" \
        in result.output


def test_rummy_hints_give_the_bots_reasons():
    """Each kind of rummy move the bot makes comes with its reason, worked out from the
    seat's observation as the bot decides (a discard that builds nothing is said so)."""
    from cardrules.narration.families.contract_rummy import RummyView
    from cardrules.narration.render import Renderer
    from cardrules.interpreter import load_ruleset, new_game
    from cardrules.interpreter.bots import make_policy

    rules = load_ruleset("shanghai-isra")
    view = RummyView(rules, Renderer(["a", "b", "c", "d"], rules, ascii_only=True))
    state = new_game(rules, 4, seed=5)
    bots = [make_policy(rules, "bot", 5, seat) for seat in range(4)]
    reasons: dict[str, set[str]] = {}
    while not state.is_over and state.round_index < 2:
        if state.turn < 0:
            state.apply(state.chance_action())
            continue
        obs = state.observation(state.turn)
        action = bots[state.turn].act(obs, state.legal_actions())
        why = view.hint_reason(obs, action)
        assert why, action
        reasons.setdefault(type(action).__name__, set()).add(why)
        state.apply(action)
    assert {"DrawStock", "TakeDiscard", "Discard", "GoDown"} <= set(reasons)
    assert any("goes with none of your cards" in why for why in reasons["Discard"])
    assert all(why.endswith("goes with cards you hold") for why in reasons["TakeDiscard"])


def test_the_joker_is_typed_as_the_table_shows_it():
    from cardrules.interpreter.cards import JOKER, card

    assert card("Jkr") == card("jkr") == card("JK") == card("joker") == JOKER


def test_undo_takes_back_your_move_and_the_bots_replies_and_replay_stays_exact(run_cli, tmp_path):
    save, record = tmp_path / "undo.jsonl", tmp_path / "undo-record.jsonl"
    result = run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
                     "--save", str(save), "--record", str(record), input="undo\n1\n4c\nundo\n5c\nquit\n")
    out = result.output
    assert "  you have made no move to take back\n" in out
    assert "  taken back: your last move and the 2 moves after it\n" in out
    assert out.count("  bot-0 plays 2C\n") == 2  # the bots' replies, played again after the undo
    lines = save.read_text().splitlines()
    assert '{"undo": 3}' in lines and lines[-3:] == ['"play 5C"', '"play 2C"', '"play KS"']
    # the record is the game as played after the undo: the same as never playing 4C
    straight = tmp_path / "straight.jsonl"
    run_cli("play", "oh-shit", "--seats", "bot,bot,bot,human", "--seed", "3", "--fast", "--ascii",
            "--record", str(straight), input="1\n5c\nquit\n")
    assert record.read_text() == straight.read_text()
    assert run_cli("replay", str(record)).exit_code == 0
    # the save with its undo resumes where the game stopped
    resumed = run_cli("resume", str(save), "--fast", "--ascii", input="quit\n")
    assert "resuming at round 1 after 9 moves" in resumed.output  # the 3 moves taken back are gone
    assert "Your hand: 4S 7S   9H 10H   3D   4C 6C 7C 10C" in resumed.output
    # and a move made before the game was resumed can be taken back too
    again = run_cli("resume", str(save), "--fast", "--ascii", input="undo\nquit\n")
    assert "  taken back: your last move and the 2 moves after it\n" in again.output
    assert save.read_text().splitlines()[-1] == '{"undo": 3}'


def test_undo_is_for_one_person_against_bots(run_cli):
    result = run_cli("play", "oh-shit", "--seats", "human,human,bot", "--seed", "3", "--fast", "--ascii",
                     input="\n1\n\nundo\nquit\n")
    assert "  undo is for one person playing against bots\n" in result.output


def test_a_damaged_undo_line_is_refused(run_cli, tmp_path):
    save = tmp_path / "game.jsonl"
    run_cli("play", "oh-shit", "--seats", "human,bot,bot", "--seed", "3", "--fast", "--save", str(save),
            input="1\nquit\n")
    with save.open("a") as out:
        out.write('{"undo": 99}\n')
    result = run_cli("resume", str(save))
    assert result.exit_code == 1 and "damaged line (an undo of 99 actions)" in result.output


def test_score_shows_a_sheet_of_every_round_and_the_game_ends_with_standings(run_cli, tmp_path):
    # three one-card rounds: bid 0 each time, ask for the score sheet before the last bid
    path = tmp_path / "short.yaml"
    path.write_text("extends: oh-hell\nname: short\ndeal: {hand_size: \"[1, 1, 1]\"}\nbidding: {restrictions: null}\n")
    result = run_cli("play", str(path), "--seats", "human,bot,bot", "--seed", "2", "--fast", "--ascii",
                     "--names", "Ann,Bob,Cy", input="0\n0\nscore\n0\n")
    out = result.output
    assert result.exit_code == 0, out
    sheet = out[out.index("  round  "):]
    rows = sheet.splitlines()
    assert rows[0].split() == ["round", "Ann", "Bob", "Cy"]
    assert rows[1].split()[0] == "1" and rows[2].split()[0] == "2" and rows[3].split()[0] == "total"
    assert re.fullmatch(r"\s+1\s+(\S+/\d [+-]\d+\s+){3}", rows[1] + " ")  # bid/taken points, each seat
    assert "bid/taken" in rows[4]
    # the standings, best first, ties sharing a place
    end = out[out.index("Game over."):].splitlines()[1:4]
    totals = [int(line.split()[-1]) for line in end]
    assert totals == sorted(totals, reverse=True)
    for line, total in zip(end, totals):
        place = line.split()[0]
        assert place.endswith("=") == (totals.count(total) > 1)


def test_your_own_stock_draw_is_named_but_never_with_two_people_at_the_screen(run_cli, tmp_path):
    alone = run_cli("play", "shanghai-isra", "--seats", "bot,human,bot,bot", "--seed", "3", "--fast", "--ascii",
                    "--save", str(tmp_path / "a.jsonl"), input="draw\nquit\n").output
    drawn = re.search(r"you draw (\S+) from the stock", alone)
    assert drawn and drawn.group(1) in alone[alone.index(drawn.group(0)):].split("Your hand:")[1].split("\n")[0]
    # hot seat: the second player passes on the buy, so the first one's stock draw is told
    two = run_cli("play", "shanghai-isra", "--seats", "bot,human,human,bot", "--seed", "3", "--fast", "--ascii",
                  "--save", str(tmp_path / "b.jsonl"), input="\ndraw\n\npass\n\nquit\n").output
    assert re.search(r"player-1 draws from the stock", two) and not re.search(r"draws? \S+ from the stock", two)


def test_refusals_name_seats_as_the_table_does():
    from cardrules.narration.render import Renderer
    from cardrules.interpreter import load_ruleset

    table = Renderer(["Ann", "Bob", "Cy", "Di"], load_ruleset("shanghai-isra"))
    assert table.refusal("seat 2 wants to buy 5C: allow or refuse it, not 'seat 3'") == \
        "Cy wants to buy 5♣: allow or refuse it, not 'seat 3'"  # what was typed stays as typed
