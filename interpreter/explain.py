"""A ruleset's rules in words: Markdown generated from the resolved, compiled ruleset,
so a table can print the rules it agreed on (and the words never drift from the data).

>>> from cardrules.interpreter.ruleset import EXAMPLE, ruleset_from_text
>>> text = explain(ruleset_from_text(EXAMPLE))
>>> "| bid 2, took 2 | 12 |" in text and "| bid 4, took 1 | 1 |" in text
True
"""

from __future__ import annotations

from typing import Any

from .cards import NAMES, SUIT_NAMES
from .melds import card_points
from .ruleset import GoingOut, Ruleset

SEAT_WORDS = {"left-of-dealer": "the player to the dealer's left", "dealer": "the dealer",
              "right-of-dealer": "the player to the dealer's right"}
OUT_WORDS = {GoingOut.DISCARD_REQUIRED: "by putting down or laying off all but one card and discarding the last",
             GoingOut.DISCARD_OPTIONAL: "by getting rid of every card, with or without a last discard",
             GoingOut.NO_DISCARD: "only by putting every card onto the table - never by a discard"}

__all__ = ["explain"]


def _players(rules: Ruleset) -> list[int]:
    return list(range(rules.min_players, rules.max_players + 1))


def _schedule_table(rules: Ruleset) -> list[str]:
    counts = _players(rules)
    setups = {n: rules.setup(n) for n in counts}
    varies = len({setups[n].hand_sizes for n in counts}) > 1
    shown = counts if varies else counts[:1]
    head = "| round | " + " | ".join(f"{n} players" if varies else "cards each" for n in shown) + " |"
    lines = [head, "|---" * (len(shown) + 1) + "|"]
    rows = max(len(setups[n].hand_sizes) for n in shown)
    for i in range(rows):
        cells = [str(setups[n].hand_sizes[i]) if i < len(setups[n].hand_sizes) else "" for n in shown]
        lines.append(f"| {i + 1} | " + " | ".join(cells) + " |")
    return lines


def _deck(rules: Ruleset) -> str:
    parts = []
    for n in _players(rules):
        setup = rules.setup(n)
        jokers = f" and {setup.jokers} joker{'s' if setup.jokers != 1 else ''}" if setup.jokers else ""
        total = f" ({setup.deck_size} cards)" if setup.jokers or setup.decks > 1 else ""
        parts.append((setup.decks, setup.jokers, f"{setup.decks} deck{'s' if setup.decks > 1 else ''} of "
                      f"{4 * len(rules.deck.ranks)} cards{jokers}{total}", n))
    groups: dict[str, list[int]] = {}
    for _, _, text, n in parts:
        groups.setdefault(text, []).append(n)
    if len(groups) == 1:
        return next(iter(groups))
    return "; ".join(f"{text} for {ns[0]}-{ns[-1]} players" if len(ns) > 1 else f"{text} for {ns[0]} players"
                     for text, ns in groups.items())


def explain(rules: Ruleset) -> str:
    """The rules of ``rules`` as Markdown."""
    out: list[str] = [f"# {rules.title}", ""]
    if rules.description:
        out += [rules.description, ""]
    source = rules.source
    if source:
        where = ", ".join(f"{k}: {v}" for k, v in source.items())
        out += [f"*Ruleset `{rules.name}`; source: {where}.*", ""]
    out += ["## Players and cards", "",
            f"- {rules.min_players} to {rules.max_players} players." if rules.min_players != rules.max_players
            else f"- {rules.min_players} players.",
            f"- The deck: {_deck(rules)}.",
            f"- Aces rank {'high' if rules.deck.ace == 'high' else 'low' if rules.deck.ace == 'low' else 'high or low'}.",
            f"- {'Seat 0' if rules.deal.first_dealer is not None else 'A seat drawn by lot'} deals first; the deal "
            f"passes {'to the left' if rules.deal.rotation == 'left' else 'to the right' if rules.deal.rotation == 'right' else 'never (one dealer)'}; "
            f"{SEAT_WORDS[rules.deal.first_to_act]} acts first.",
            f"- The {'highest' if rules.winner == 'highest' else 'lowest'} total after the last round wins.", ""]
    if rules.team is not None:
        seats = rules.setup(rules.min_players).teams
        out.insert(-1, f"- Partnerships: each seat's team is `{rules.team.source}` (with {rules.min_players} "
                       f"players: {', '.join(f'seat {s} team {t}' for s, t in enumerate(seats))}); teammates' "
                       "totals add up and every player of the best team wins.")
    if rules.modes:
        out += ["## Modes", ""]
        for name, (description, _) in rules.modes.items():
            marker = " (this ruleset plays it)" if name == rules.mode else ""
            out.append(f"- `{name}`: {description}{marker}")
        out.append("")
    if rules.tricks is not None:
        out += _trick_sections(rules)
    if rules.rummy is not None:
        out += _rummy_sections(rules)
    if rules.notes:
        out += ["## Readings of the source", ""] + [f"- {note}" for note in rules.notes] + [""]
    return "\n".join(out).rstrip() + "\n"


def _trick_sections(rules: Ruleset) -> list[str]:
    tricks = rules.tricks
    assert tricks is not None
    out = ["## The deal", "", "Cards dealt to each player, round by round:", ""]
    out += _schedule_table(rules) + [""]
    trump = tricks.trump
    out += ["## Trump", ""]
    if trump.kind == "upcard":
        out.append("After the deal the next card is turned up; its suit is trump for the round."
                   + (" When no card is left to turn, the round has no trump." if trump.no_trump_without_upcard
                      else ""))
    elif trump.kind == "rotation":
        names = ["no trump" if s is None else SUIT_NAMES[s] for s in trump.rotation]
        out.append("Trump follows a fixed rotation, round by round: " + ", ".join(names) + ", then again.")
    elif trump.kind == "named-by-highest-bidder":
        out.append("After the bidding, the highest bidder (the first in bidding order on a tie) names a suit "
                   "as trump, or no trump.")
    else:
        out.append("There is no trump.")
    if trump.jokers_top:
        out.append("\nJokers are trumps above every other card; in a no-trump round a joker wins the trick it "
                   "is played to. Of two jokers the first played wins. A turned-up joker means no trump.")
    if trump.bowers:
        top = "the highest card after the jokers" if trump.jokers_top else "the highest card"
        out.append(f"\nThe jack of trump is {top}; the jack of the same colour is the next highest "
                   "and counts as a trump for every purpose (it follows trump, not its printed suit).")
    bidding = tricks.bidding
    out += ["", "## Bidding", "",
            ("Every player bids at once, without seeing the others' bids." if bidding.order == "simultaneous"
             else f"Starting with {SEAT_WORDS[rules.deal.first_to_act]} and going clockwise, each player bids "
                  "once how many tricks they will take."),
            f"Bids allowed: `{bidding.range.source}` (with the round's `hand_size`).", ""]
    for restriction in bidding.restrictions:
        out.append(f"- A bid must satisfy `{restriction.rule.source}`; otherwise: "
                   f"\"{_template_text(restriction.message)}\".")
    play = tricks.play
    out += ["", "## Play", "",
            f"{SEAT_WORDS[rules.deal.first_to_act].capitalize()} leads the first trick; the winner of a trick "
            "leads the next.",
            "Players must follow the suit led if they can." if play.follow_suit else "Any card may be played.",
            ]
    if play.must_trump:
        out.append("A player who cannot follow suit must play a trump if they hold one.")
    out += ["The highest trump wins the trick; without trumps, the highest card of the suit led.", "",
            "## Scoring", ""]
    for when, points in tricks.scoring.cases:
        if when is None and len(tricks.scoring.cases) == 1:
            out.append(f"Each round a player scores `{points.source}`.")
        elif when is None:
            out.append(f"- otherwise: `{points.source}`")
        else:
            out.append(f"- when `{when.source}`: `{points.source}`")
    alone = " (partners bidding and taking nothing)" if rules.team is not None else ""
    out += ["", f"Worked example, in a round of 10 cards{alone}:", "", "| a player who... | scores |", "|---|---|"]
    setup = rules.setup(rules.min_players)
    for bid, took in ((3, 5), (2, 2), (4, 3), (0, 0), (4, 1)):
        env: dict[str, Any] = {**setup.env, "round": 1, "hand_size": 10, "bid": bid, "tricks": took, "seat": 0,
                               "is_dealer": False, "bids": [bid], "taken": [took], "team": 0,
                               "team_bid": bid, "team_tricks": took}
        out.append(f"| bid {bid}, took {took} | {tricks.scoring.points(env)} |")
    return out + [""]


def _template_text(template: Any) -> str:
    return "".join(p if isinstance(p, str) else "{" + p.source + "}" for p in template.parts)


def _rummy_sections(rules: Ruleset) -> list[str]:
    rummy = rules.rummy
    assert rummy is not None
    setup = rules.setup(rules.min_players)
    sizes = sorted(set(setup.hand_sizes))
    out = ["## The deal", "",
           f"Each player is dealt {', '.join(map(str, sizes))} cards; "
           + ("the next card is turned face up to start the discard pile (the flip card)." if rules.deal.upcard
              else "no card is turned."), "",
           "## Contracts", "",
           "Going down means putting down exactly the round's contract - no more melds, though a meld may be "
           "longer than its least size.", "",
           "| round | contract | going out |", "|---|---|---|"]
    numbers = setup.round_numbers
    for i, number in enumerate(numbers, 1):
        contract = rummy.contracts[number - 1]
        spelled = ", ".join(str(m) for m in contract.melds)
        name = contract.name if contract.name != spelled else spelled
        label = f"{i}" + (f" (round {number} of the full game)" if number != i else "")
        out.append(f"| {label} | {name}{'' if name == spelled else f' ({spelled})'} | "
                   f"{contract.going_out.value} |")
    melds = rummy.melds
    ace = {"high": "high only", "low": "low only", "either": "high or low"}[melds.run_ace]
    out += ["", "## Melds", "",
            f"- A set is {melds.set_min} or more cards of one rank.",
            f"- A run is {melds.run_min} or more cards in sequence in one suit; aces {ace}"
            + ("; runs may turn the corner (K-A-2)." if melds.wrap else "; a run never turns the corner."),
            f"- Jokers are wild. Most jokers in one meld: `{melds.jokers_per_meld.source}` (by its `size`)"
            + ("" if melds.jokers_adjacent else "; two jokers may never stand side by side in a run") + "."]
    if melds.distinct_set_ranks:
        out.append("- Going down, no two sets may be of the same rank.")
    if melds.no_consecutive_same_suit_runs:
        out.append("- Going down, no two runs of one suit may join end to end (they may later, by lay-offs).")
    lay = rummy.lay_off
    out += ["", "## A turn", "",
            "The player in turn takes the top discard (free) or draws from the stock."]
    buying = rummy.buying
    if buying.allowed:
        order = ("clockwise from the player in turn" if buying.priority == "clockwise-from-player-in-turn"
                 else "from the player closest to the dealer's left")
        out.append(f"If they draw from the stock, the others may buy the discard, in priority {order}: one buy "
                   f"per discard, taking `{buying.penalty_cards.source}` penalty card(s) from the stock too; "
                   f"each player may buy `{buying.limit.source}` time(s) a round.")
    if rummy.fitting_discard_call.allowed:
        out.append("A discard that fits a meld on the table may be protected by its discarder with a call; "
                   "otherwise any other player may call it, lay it off, and give the discarder "
                   f"{rummy.fitting_discard_call.penalty_draw} card(s) drawn blind from their hand. A call "
                   "comes before a buy.")
    if lay.allowed:
        out.append("A player who is down may lay off cards on " + ("any meld" if lay.on == "any-meld"
                                                                  else "their own melds")
                   + (", from the turn they go down." if lay.same_turn_as_going_down
                      else ", from the turn after they go down."))
    swap = rummy.joker_swap
    if swap.allowed:
        out.append("A player who is down may replace a joker in a " + ("run" if swap.melds == "runs" else "meld")
                   + " by the natural card it stands for; the freed joker "
                   + ("goes to their hand." if swap.freed_joker == "to-hand"
                      else "stays on the table and must be laid off that turn."))
    out.append("The turn ends with a discard, or by going out.")
    stock = rummy.stock
    out += ["", "## Going out and the end of a round", "",
            f"Unless a round says otherwise, a player goes out {OUT_WORDS[rummy.going_out]}.",
            "When the stock runs out, " + (f"the discards but the top card are shuffled into a new stock "
                                           f"(at most {stock.reshuffles} time(s)); after that "
                                           if stock.when_empty == "reshuffle-discards" else "")
            + f"the round ends with every hand counted. A round also ends after {stock.turn_limit} turns.",
            "", "## Scoring", "", "The player who goes out scores 0; everyone else scores the cards left in hand:", "",
            "| cards | points |", "|---|---|"]
    by_points: dict[int, list[str]] = {}
    for rank, points in rummy.card_points.items():
        by_points.setdefault(points, []).append("joker" if rank == "JK" else rank)
    for points, ranks in sorted(by_points.items(), reverse=True):
        out.append(f"| {', '.join(ranks)} | {points} |")
    for bonus in rummy.bonuses:
        out.append("")
        out.append(f"Bonus `{bonus.name}`: when `{bonus.when.source}` for the player going out, that player "
                   f"scores `{bonus.goer.source}` more and every other player `{bonus.others.source}`.")
    for event in rummy.chance_events:
        out.append("")
        out.append(f"Chance event `{event.name}` ({event.description}): once a round, with odds of 1 in "
                   f"{event.one_in}, {SEAT_WORDS[event.seat]} succeeds; then that player scores "
                   f"`{event.actor.source}` more and every other player `{event.others.source}`.")
    hand = [c for c in (12, 11, 52, 5) if c != 52 or "JK" in rummy.card_points]  # AS KS JK 7S
    out += ["", f"Worked example: a hand of {' '.join(NAMES[c] for c in hand)} left over scores "
                f"{card_points(hand, dict(rummy.card_points))}.", ""]
    return out
