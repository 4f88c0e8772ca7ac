"""The contract-rummy sections of a ruleset's rules in words (see the core
:mod:`cardrules.interpreter.explain`)."""

from __future__ import annotations

from typing import Any

from ...explain import SEAT_WORDS, message_words
from ...pack import Pack
from ...rules import Ace, Ruleset
from .cardset import rummy_pack
from .rules import (EITHER, BuyPriority, BuyVeto, FreedJoker, GoingOut, LayOffOn, RummyRules, SwapFrom, WhenEmpty,
                    round_card_points, wild_cards)

OUT_WORDS = {GoingOut.DISCARD_REQUIRED: "by putting down or laying off all but one card and discarding the last",
             GoingOut.DISCARD_OPTIONAL: "by getting rid of every card, with or without a last discard",
             GoingOut.NO_DISCARD: "only by putting every card onto the table - never by a discard"}


VETO_WORDS = {
    BuyVeto.REFUSE: "The player in turn may refuse a buy (`buying.veto: refuse`): the card then stays on the "
                    "pile and they draw from the stock as usual.",
    BuyVeto.TAKE: "The player in turn may refuse a buy by taking the card themselves, free, as their draw "
                  "(`buying.veto: take`), where they may take the discard.",
}


def _wild_words(rules: Ruleset, setup: Any) -> str:
    """melds.wild in words: the wild cards of each round (at the fewest players), grouped
    when rounds share them."""
    rummy: RummyRules = rules.section
    by_cards: dict[tuple[str, ...], list[int]] = {}
    joker = rummy_pack(setup.pack).joker
    for i, number in enumerate(setup.round_numbers):
        wild = wild_cards(rummy.melds, setup, i)
        shown = _cards_in_words(wild - {joker}, setup.pack)
        by_cards.setdefault(shown, []).append(number)
    rule = f"(`melds.wild`: `{rummy.melds.wild.source if rummy.melds.wild else ''}`)"
    if len(by_cards) == 1:
        shown = next(iter(by_cards))
        listed = ", ".join(shown) if shown else "none"
        head = f"- Wild besides the jokers, in every round: {listed} {rule}."
    else:
        parts = [f"round{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}: {', '.join(shown) or 'none'}"
                 for shown, numbers in by_cards.items()]
        head = f"- Wild besides the jokers {rule}: " + "; ".join(parts) + "."
    if rummy.melds.wild_natural:
        return head + " Elsewhere than in its own place a wild card counts as a joker, for the joker limits too; it " \
            "scores what the card points below give it."
    return head + (" A wild card counts as a joker in every meld, even in the place of its own rank, and for the "
                   "joker limits; it scores what the card points below give it.")


def _cards_in_words(cards: set[int] | frozenset[int], pack: Pack) -> tuple[str, ...]:
    """Cards by rank: "every 2" for a whole rank, else each card (``A♥ A♦``); then the
    special cards by name."""
    out: list[str] = []
    stride, suits = pack.stride, len(pack.suits)
    for rank in range(stride):
        held = [c for c in range(rank, suits * stride, stride) if c in cards]
        if len(held) == suits:
            out.append(f"every {pack.ranks[rank].code}")
        else:
            out += [pack.pretty(c) for c in held]
    out += [pack.specials[pack.special_of[c]].name for c in sorted(cards) if c >= suits * stride]
    return tuple(out)


def _going_down_words(rummy: RummyRules, notes: bool) -> str:
    going_down = rummy.going_down
    words = ("Going down means putting down at least the round's contract: further sets and runs may go down "
             "with it" if going_down.extra_melds else
             "Going down means putting down exactly the round's contract - no more melds")
    words += ("; each contract meld goes down with exactly its size (cards are added to it later, by laying off)."
              if going_down.exact_sizes else ", though a meld may be longer than its least size.")
    if any(m.kind is EITHER for c in rummy.contracts for m in c.melds):
        words += " A contract's 'meld' may be a set or a run."
    if going_down.may is not None:
        words += " " + _seat_rule_words("go down", going_down.may, notes)
    if going_down.later_melds:
        names = [spec.name or spec.kind.value for spec in going_down.later_kinds]
        shown = "sets and runs" if names == ["set", "run"] else ", ".join(f"{n}s" for n in names)
        words += (f" Once down, a player may also put down new {shown} (each of at least its least size) "
                  "on any later turn, before discarding.")
    if any(not c.melds for c in rummy.contracts):
        words = ("In a round with no contract, a player goes down only by melding the whole hand into sets and "
                 "runs of at least their least sizes (all of it but the final discard where one is required): "
                 "going down is going out." + ("" if all(not c.melds for c in rummy.contracts) else " " + words))
    return words


def explain(rules: Ruleset, notes: bool = False) -> list[str]:
    """The contract-rummy sections of the rules in words (Markdown lines); ``notes`` adds
    each seat rule's formula."""
    # Long on purpose: the rules read out in the order a player meets them, a few lines
    # a key; each section is a block of its own.
    rummy: RummyRules = rules.section
    setup = rules.setup(rules.min_players)
    counts = range(rules.min_players, rules.max_players + 1)
    # the cards dealt round by round, by player count; one column per distinct schedule
    schedules: dict[tuple[int, ...], list[int]] = {}
    for n in counts:
        schedules.setdefault(rules.setup(n).hand_sizes, []).append(n)
    turned = ("the next card is turned face up to start the discard pile (the flip card)." if rules.deal.upcard
              else "no card is turned.")
    bury = rummy.stock.bury_upcard
    if rules.deal.upcard and bury is not None:
        turned += (f" A turned card for which `{bury.source}` holds (`stock.bury_upcard`) is buried in the stock, "
                   "at a random place below its top card, and the next card is turned instead, until one is not "
                   "(while the stock holds a card it does not name).")
    sizes = sorted(set(setup.hand_sizes))
    if len(schedules) == 1 and len(sizes) == 1:
        deal = f"Each player is dealt {sizes[0]} cards; {turned}"
        columns: list[str] = []
    else:
        deal = f"Each player is dealt the cards the table below gives for the round; {turned}"
        columns = (["cards dealt"] if len(schedules) == 1 else
                   [f"cards, {_players_words(players)}" for players in schedules.values()])
    if rules.deal.random_hand_size is not None:
        deal += (f" The hand size is drawn at random at each deal from `{rules.deal.random_hand_size.source}` (each "
                 "entry as likely; `hand_size` there is the schedule's number, the most the round may deal).")
    out = ["## The deal", "", deal, "", "## Contracts", "",
           _going_down_words(rummy, notes), "",
           "| " + " | ".join(["round", "contract", *columns, "going out"]) + " |",
           "|" + "---|" * (3 + len(columns))]
    numbers = setup.round_numbers
    if rummy.own_contracts:  # each seat its own: the table lists the contracts, not the rounds
        out[out.index("| " + " | ".join(["round", "contract", *columns, "going out"]) + " |")] = \
            "| " + " | ".join(["contract", "melds", *columns, "going out"]) + " |"
        if rummy.contract_rule is not None:
            differ = not set(rummy.contract_rule.names).isdisjoint({"seat", *(c.name for c in rummy.counters)})
            out.insert(6, f"Each player plays their own contract each round: number `{rummy.contract_rule.source}` "
                          "of the list below (`contract`)" + (", so players at one table may be on different contracts."
                                                             if differ else "."))
        else:
            assert rummy.contract_choose is not None
            out.insert(6, "Each player chooses their own contract at the start of each round, after the deal, in turn "
                          "from the first player and seen by all: any of the list below for which "
                          f"`{rummy.contract_choose.source}` holds (`contract.choose`: `n` is the contract's number, "
                          "`made` the numbers of those the player has made in earlier rounds, by going down with "
                          "them), so players at one table may be on different contracts.")
        out.insert(7, "")
        for number, contract in enumerate(rummy.contracts, 1):
            spelled = ", ".join(str(m) for m in contract.melds) or "no contract: meld every card"
            dealt = [str(schedule[0]) for schedule in schedules] if columns else []
            out.append("| " + " | ".join([str(number), f"{contract.name}{'' if contract.name == spelled else f' ({spelled})'}",
                                          *dealt, contract.going_out.value]) + " |")
        numbers = ()
    if rummy.counters:
        out += ["", "Each player carries counters from round to round, updated after each round's scoring:", ""]
        for counter in rummy.counters:
            out.append(f"- `{counter.name}` starts at `{counter.initial.source}` and becomes `{counter.update.source}`.")
    for i, number in enumerate(numbers, 1):
        contract = rummy.contracts[number - 1]
        spelled = ", ".join(str(m) for m in contract.melds) or "no contract: meld every card"
        name = contract.name if contract.name != spelled else spelled
        label = f"{i}" + (f" (round {number} of the full game)" if number != i else "")
        dealt = [str(schedule[i - 1]) for schedule in schedules] if columns else []
        out.append("| " + " | ".join([label, f"{name}{'' if name == spelled else f' ({spelled})'}", *dealt,
                                      contract.going_out.value]) + " |")
    melds = rummy.melds
    cards = rummy_pack(setup.pack)
    pack = setup.pack
    if cards.has_ace and "A" in setup.ranks:
        ace = "; aces " + {Ace.HIGH: "high only", Ace.LOW: "low only", Ace.EITHER: "high or low"}[melds.run_ace]
        corner = "K-A-2" if pack.standard else f"{pack.ranks[-2].code}-A-{pack.ranks[0].code}"
    else:  # no ace: the rank order, lowest to highest
        ace = f", in the order of the ranks, {setup.ranks[0]} to {setup.ranks[-1]}"
        corner = f"{setup.ranks[-1]}-{setup.ranks[0]}"
    out += ["", "## Melds", "",
            f"- A set is {melds.set_min} or more cards of one rank"
            + (", no two natural cards of one suit." if melds.set_distinct_suits else "."),
            f"- A run is {melds.run_min} or more cards in sequence {'in one suit' if melds.run_same_suit else 'of any suits'}{ace}"
            + (f"; runs may turn the corner ({corner})." if melds.wrap else "; a run never turns the corner."),
            ]
    for kind in melds.kinds.values():
        like = {"set": "a set", "run": "a run", "colour": "natural cards of one colour, any ranks",
                "suit": "natural cards of one suit, any ranks", "any": "any cards"}[kind.like.value]
        out.append(f"- The kind {kind.name} (`melds.kinds`) is {kind.min_size} or more cards: {like}"
                   + (f", that also meet `{kind.rule.source}`" if kind.rule is not None else "")
                   + (f" ({kind.description})" if kind.description else "") + "; laid off on, it stays one.")
    dead = [s.name for c, s in zip(range(cards.suited + 1, cards.size), pack.specials[1:])
            if any(c == card and n > 0 for card, n in setup.special_counts)
            and all(c not in wild_cards(melds, setup, i) for i in range(len(setup.round_numbers)))]
    if dead:
        out.append(f"- Never wild, so in no meld: {', '.join(dead)}.")
    if any(rules.setup(n).jokers for n in counts) or melds.wild is not None:
        lead = ("Jokers are wild." if any(rules.setup(n).jokers for n in counts)
                else "There are no jokers; the wild cards below play as jokers.")
        out.append(f"- {lead} Most jokers in one meld: {_jokers_words(melds.jokers_per_meld)}"
                   + ("" if melds.jokers_adjacent else "; two jokers may never stand side by side in a run") + "."
                   + (" A natural card may be laid off in the place of a joker of a run that stands for it: the joker "
                      "then moves to the run's high end (its low end when the run cannot go higher)."
                      if melds.jokers_move else ""))
    if melds.wild is not None:
        out.append(_wild_words(rules, setup))
        if melds.wild_natural:
            out.append("- A wild card in its own place counts as the natural card it is (`melds.wild_natural`): in a "
                       "set of its rank, or in its rank's place in a run of its suit, it is no joker for the limits "
                       "above and is never swapped out; three or more of them are a set of their rank.")
    if melds.distinct_set_ranks:
        out.append("- Going down, no two sets may be of the same rank.")
    if melds.no_consecutive_same_suit_runs:
        out.append("- Going down, no two runs of one suit may join end to end (they may later, by lay-offs).")
    lay = rummy.lay_off
    out += ["", "## A turn", "",
            "The player in turn takes the top discard (free) or draws from the stock."]
    buying = rummy.buying
    if buying.allowed:
        order = _priority_words(buying)
        limit = (f"; each player may buy {_by_round(buying.limit, setup, 'time', 'a round')}."
                 if not _unlimited(buying.limit, setup) else "; a player may buy any number of times.")
        if buying.forced:
            limit = (f"; each player is pushed at most {_by_round(buying.limit, setup, 'time', 'a round')}."
                     if not _unlimited(buying.limit, setup) else "; a player may be pushed any number of times.")
            out.append("If they draw from the stock, the discard they passed over is pushed (`buying.forced`): no "
                       f"one is asked; the first player ({order}) who may buy it must take it"
                       + _penalty_words(buying.penalty_cards, setup) + ", before the player in turn draws" + limit)
        else:
            chain = "one buy per discard" if buying.per_discard == 1 else (
                f"after a buy, the card it uncovers is offered again to those who have not bought this turn, up to "
                f"{buying.per_discard} buys a turn")
            out.append(f"If they draw from the stock, the others may buy the discard, in priority {order}: {chain}"
                       + _penalty_words(buying.penalty_cards, setup) + limit)
        if buying.may is not None and buying.may_message is not None:
            out.append(_rule_words("Buying", buying.may.source, buying.may_message.text, notes))
        if buying.veto is not BuyVeto.NONE:
            out.append(VETO_WORDS[buying.veto] + " A refused buy does not count toward the buyer's limit, and no "
                       "one else is asked for that discard.")
    if rummy.fitting_discard_call.allowed:
        out.append("A discard that fits a meld on the table may be protected by its discarder with a call; "
                   "otherwise any other player may call it, lay it off, and give the discarder "
                   f"{rummy.fitting_discard_call.penalty_draw} card(s) drawn blind from their hand. A call "
                   "comes before a buy.")
    if lay.allowed:
        where = "any meld" if lay.on is LayOffOn.ANY_MELD else "their own melds"
        if lay.requires_down:
            out.append(f"A player who is down may lay off cards on {where}"
                       + (", from the turn they go down." if lay.same_turn_as_going_down
                          else ", from the turn after they go down."))
        else:
            out.append(f"Any player, down or not, may lay off cards on {where}"
                       + ("." if lay.same_turn_as_going_down else ", but not in the turn they go down."))
    if lay.allowed and lay.may is not None:
        out.append(_seat_rule_words("lay off", lay.may, notes))
    swap = rummy.joker_swap
    if swap.allowed and swap.may is not None:
        out.append(_seat_rule_words("swap a joker", swap.may, notes))
    if swap.allowed:
        out.append(("A player who is down" if swap.requires_down else "Any player, down or not,")
                   + " may replace a joker" + (" or other wild card" if melds.wild is not None else "") + " in a " + ("run" if swap.melds is SwapFrom.RUNS else "meld")
                   + {"any-meld": "", "own-melds": " of their own", "others-melds": " of another player's"}[swap.on]
                   + " by the natural card it stands for; the freed joker "
                   + ("goes to their hand." if swap.freed_joker is FreedJoker.TO_HAND
                      else "must be laid off again that same turn."))
    if swap.capture:
        out.append("When a player puts a joker" + (" or other wild card" if melds.wild is not None else "")
                   + " on the table (going down, melding or laying off), the others may capture it at once "
                   "(`joker_swap.capture`): each other player in turn order from the next is asked, and may put the "
                   "natural card it stands for in its place and take it into their hand; the first capture ends "
                   "the asking, and the player then goes on with their turn.")
    if rummy.take_discard is not None:
        out.append(_seat_rule_words("take the discard in their turn", rummy.take_discard, notes))
    out.append("The turn ends with a discard, or by going out.")
    if rummy.skip_cards is not None:
        whom = ("a player its discarder names (any other player; in the last turns after a player went out, one "
                "still to take a last turn) lose their next turn" if rummy.skip_chosen else
                "the next player lose their next turn")
        out.append(f"Discarding a card that skips (`skip.cards`: `{rummy.skip_cards.source}`) makes {whom}"
                   + (", and one turned up at the deal skips the first player's first turn." if rummy.skip_upcard
                      else ".") + (" A card that goes out skips no one." if rummy.skip_chosen else ""))
        if rummy.skip_may is not None:
            out.append(_seat_rule_words("name a player to skip", rummy.skip_may, notes)[:-1]
                       + "; where no one may be named, the card is discarded naming no one.")
    if rummy.discard is not None:
        out.append(_seat_rule_words("discard", rummy.discard, notes)[:-1]
                   + "; a player whose every card this refuses may discard any of them.")
    stock = rummy.stock
    out += ["", "## Going out and the end of a round", "",
            f"Unless a round says otherwise, a player goes out {OUT_WORDS[rummy.going_out]}.",
            "When the stock runs out, " + (f"the discards but the top card are shuffled into a new stock "
                                           f"(at most {_times(stock.reshuffles)}); after that "
                                           if stock.when_empty is WhenEmpty.RESHUFFLE_DISCARDS else "")
            + "the round ends with every hand counted" + (" that `going_out.counted` counts" if rummy.counted
                                                          is not None else "")
            + f". A round also ends after {stock.turn_limit} turns.",
            *_last_turn_words(rummy, setup),
            "", "## Scoring", "",
            "The player who goes out scores 0; everyone else "
            + ("lays down the best melding of their hand into sets and runs (the engine finds it) and scores "
               "only the cards it leaves unmatched:" if rummy.count_unmatched else "scores the cards left in hand:"),
            "", "| cards | points |", "|---|---|"]
    out += _points_rows(rummy, setup)
    if rummy.counted is not None:
        out += ["", f"Only a hand for which `{rummy.counted.source}` holds scores (`going_out.counted`: `goer` is "
                    "the player who went out, -1 for no one; `team` and `goer_team` their partnerships); "
                    "any other scores 0."]
    for bonus in rummy.bonuses:
        out.append("")
        out.append(f"Bonus `{bonus.name}`: when `{bonus.when.source}` for the player going out, that player "
                   f"scores `{bonus.goer.source}` more and every other player `{bonus.others.source}`.")
    for event in rummy.chance_events:
        out.append("")
        out.append(f"Chance event `{event.name}` ({event.description}): once a round, with odds of 1 in "
                   f"{event.one_in}, {SEAT_WORDS[event.seat]} succeeds; then that player scores "
                   f"`{event.actor.source}` more and every other player `{event.others.source}`.")
    hand = _example_hand(rummy, setup)
    if hand:
        table = round_card_points(rummy, setup, 0)
        codes = setup.pack.codes
        out += ["", f"Worked example: a hand of {' '.join(codes[c] for c in hand)} left over scores "
                    f"{sum(table[c] for c in hand)}"
                    + (" in the first round." if rummy.card_points_rule is not None else "."), ""]
    return out


def _last_turn_words(rummy: RummyRules, setup: Any) -> list[str]:
    """going_out.last_turns in words."""
    if rummy.last_turns is None:
        return []
    turns = _by_round(rummy.last_turns, setup, "more turn")
    if turns == "0 more turns":
        return []
    turns = "one last turn" if turns == "1 more turn" else turns
    who = "each other player" if rummy.last_turn_for is None else \
        f"each other player for whom `{rummy.last_turn_for.source}` holds (`going_out.last_turn_for`)"
    return [f"When a player goes out, {who} takes {turns}, in turn order (a player who "
            "melds every card then goes out too and scores 0); then the round ends."]


def _points_rows(rummy: RummyRules, setup: Any) -> list[str]:
    """The penalty points as table rows: each value with the cards it prices (by the
    mapping's codes; for an expression, the first round's points, the formula, and in
    which later rounds which cards score otherwise)."""
    by_points: dict[int, list[str]] = {}
    if rummy.card_points_rule is None:
        pack = setup.pack
        names = {s.code: s.name.lower() for s in pack.specials}
        for rank, points in rummy.card_points.items():
            by_points.setdefault(points, []).append(names.get(rank, rank))
        return [f"| {', '.join(ranks)} | {points} |" for points, ranks in sorted(by_points.items(), reverse=True)]
    priced = [_priced(round_card_points(rummy, setup, i), setup) for i in range(len(setup.round_numbers))]
    for label, points in priced[0].items():
        by_points.setdefault(points, []).append(label)
    rows = [f"| {', '.join(labels)} | {points} |" for points, labels in sorted(by_points.items(), reverse=True)]
    changes = []
    for number, later in zip(setup.round_numbers[1:], priced[1:]):
        differ = [f"{label} {points}" for label, points in later.items() if priced[0].get(label) != points]
        if differ:
            changes.append(f"round {number}: " + ", ".join(differ))
    rows += ["", f"The points are `card_points`: `{rummy.card_points_rule.source}`, worked out each round; the "
             "table gives the first round's" + (" (then " + "; ".join(changes) + ")." if changes else ".")]
    return rows


def _priced(table: tuple[int, ...], setup: Any) -> dict[str, int]:
    """A round's points of the deck's cards, by label: a rank's code where the deck's
    cards of that rank score alike, else each card's code; the joker and special cards
    by name."""
    pack = setup.pack
    cards = rummy_pack(pack)
    out: dict[str, int] = {}
    for code in setup.ranks:
        r = cards.rank_index[code]
        ranked = [s * cards.stride + r for s in range(cards.suits)]
        if len({table[c] for c in ranked}) == 1:
            out[code] = table[ranked[0]]
        else:
            out.update((pack.codes[c], table[c]) for c in ranked)
    if setup.jokers:
        out["joker"] = table[cards.joker]
    for c, n in setup.special_counts:
        if n > 0:
            out[pack.specials[pack.special_of[c]].name.lower()] = table[c]
    return out


def _example_hand(rummy: RummyRules, setup: Any) -> list[int]:
    """A hand to score as a worked example, of cards the pack holds (at the fewest
    players) and the rules price: its two highest ranks, a joker, and a seven (or a rank
    from the middle of the pack), in the first suit where the pack has them: AS KS JK 7S
    for the full pack.  A pack without aces, kings or sevens gets cards it has."""
    pack = setup.pack
    cards = rummy_pack(pack)
    priced = rummy.card_points_rule is not None
    deck = set(pack.deck(1, 0, setup.ranks, setup.removed))
    ranks = sorted({c % cards.stride for c in deck if priced or pack.ranks[pack.rank_of[c]].code in rummy.card_points},
                   reverse=True)
    chosen = ranks[:2]
    rest = [r for r in ranks if r not in chosen]
    seven = cards.rank_index.get("7", -1)
    if rest:
        chosen.append(seven if seven in rest else rest[len(rest) // 2])
    hand = [next(s * cards.stride + r for s in range(cards.suits) if s * cards.stride + r in deck) for r in chosen]
    if (priced and setup.jokers) or (not priced and "JK" in rummy.card_points):
        hand.insert(min(2, len(hand)), cards.joker)
    return hand


_LABELS = {"go down": "Going down", "lay off": "Laying off", "swap a joker": "Swapping a joker",
           "take the discard in their turn": "Taking the discard", "discard": "Discarding"}


def _seat_rule_words(what: str, rule: Any, notes: bool) -> str:
    """A seat rule (``KEY.may``) in words: what a refused player is told (and, for the
    author or where the words have placeholders, the formula)."""
    return _rule_words(_LABELS.get(what, what.capitalize()), rule.rule.source, rule.message.text, notes)


def _rule_words(label: str, formula: str, message: str, notes: bool) -> str:
    shown = notes or "{" in message
    return f"{label}: {message_words(message)}" + (f" (allowed when `{formula}`)" if shown else "") + "."


def _count(compiled: Any, unit: str) -> str:
    """An int expression as a count of ``unit``: the number when it is one, else the formula."""
    if not compiled.names:
        try:
            n = int(compiled({}))
        except Exception:  # noqa: BLE001 - shown as the formula instead
            return f"`{compiled.source}` {unit}s"
        return f"{n} {unit}{'' if n == 1 else 's'}"
    return f"`{compiled.source}` {unit}s (by the round)"


def _jokers_words(compiled: Any) -> str:
    if compiled.source.strip() == "size":
        return "any number"
    if not compiled.names:
        return _count(compiled, "joker")
    return f"`{compiled.source}` (by the meld's `size`)"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _players_words(players: list[int]) -> str:
    if len(players) == 1:
        return f"{players[0]} players"
    return f"{players[0]}-{players[-1]} players" if players == list(range(players[0], players[-1] + 1)) else \
        ", ".join(map(str, players)) + " players"


def _by_round(compiled: Any, setup: Any, unit: str, each: str = "") -> str:
    """A count that may change by round, in words: one number (and ``each``: "a
    round"), or each round's number in turn (at the fewest players)."""
    try:
        values = [int(compiled(setup.round_env(i))) for i in range(len(setup.round_numbers))]
    except Exception:  # noqa: BLE001 - a rule that needs more than the round: the formula
        return _count(compiled, unit) + (f" {each}" if each else "")
    if len(set(values)) == 1:
        return f"{values[0]} {unit}{'' if values[0] == 1 else 's'}" + (f" {each}" if each else "")
    return f"{', '.join(map(str, values))} {unit}s in the rounds in turn"


def _penalty_words(compiled: Any, setup: Any) -> str:
    words = _by_round(compiled, setup, "penalty card")
    return "" if words == "0 penalty cards" else f", taking {words} from the stock too"


UNLIMITED = 99  # a buying limit this high is "no limit" in words (docs: "a number no round reaches")


def _unlimited(compiled: Any, setup: Any) -> bool:
    try:
        return all(int(compiled(setup.round_env(i))) >= UNLIMITED for i in range(len(setup.round_numbers)))
    except Exception:  # noqa: BLE001 - a rule that needs more than the round
        return False


def _priority_words(buying: Any) -> str:
    """The buying priority in words: who is asked first, and which way round."""
    if buying.priority is BuyPriority.FROM_PLAYER_IN_TURN:
        return "clockwise from the player in turn"
    if buying.priority is BuyPriority.FROM_DEALER_LEFT:
        return "from the player closest to the dealer's left"
    way = "clockwise" if buying.priority_step == 1 else "counter-clockwise"
    if buying.priority_first is None:
        return f"{way} from the player in turn"
    return f"{way} from the seat `{buying.priority_first.source}` names"
