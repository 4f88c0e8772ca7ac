"""The trick-taking sections of a ruleset's rules in words (see the core
:mod:`cardrules.interpreter.explain`)."""

from __future__ import annotations

from typing import Any

from ...pack import Pack
from ...explain import SEAT_WORDS, message_words, schedule_table
from ...rules import Ruleset
from ...errors import EvaluationError
from .auction import candidate_bids
from .names import ASIDE, DEFAULT_PHASES, HAND_NAMES, SCATTER
from .rules import NAMED_SUIT, AllPass, AuctionRounds
from .rules import BidOrder, JokerRank, TrickRules, TrumpKind, exchange_env


def explain(rules: Ruleset, notes: bool = False) -> list[str]:
    """The trick-taking sections of the rules in words (Markdown lines).

    (Long because it is the rules read out in the order a player meets them, a few
    lines a key; each section is a block of its own.)"""
    tricks: TrickRules = rules.section
    out = ["## The deal", "", "Cards dealt to each player, round by round:", ""]
    out += schedule_table(rules) + [""]
    trump = tricks.trump
    out += ["## Trump", ""]
    pack = rules.deck.pack
    choices = _choices_words(trump.choices, pack)
    if trump.suit is not None:
        who = "the dealer" if trump.chooser is None else _seat_words(trump.chooser.source, rules)
        if " ".join(trump.suit.source.split()) == "chosen":
            out.append(f"Each round {who} names the trump ({choices}) after looking at their hand, before the "
                       "bidding.")
        else:
            out.append(f"Each round's trump is `{trump.suit.source}` (a suit, or `no_trump`)"
                       + (", where `upcard_suit` is the suit of the card turned up after the deal." if
                          "upcard_suit" in trump.suit.names else "."))
            if "chosen" in trump.suit.names:
                out.append(f"When it gives `chosen`, {who} names the trump ({choices}) after looking at "
                           "their hand, before the bidding.")
    elif trump.kind is TrumpKind.UPCARD:
        out.append("After the deal the next card is turned up; its suit is trump for the round."
                   + (" When no card is left to turn (the whole pack dealt), the dealer's own last card is turned "
                      "up instead: its suit is trump, and it stays in the dealer's hand, seen by all until it is "
                      "played (`trump.no_upcard: dealer-last`)." if trump.dealer_last else
                      " When no card is left to turn, the round has no trump." if trump.no_trump_without_upcard
                      else ""))
    elif trump.kind is TrumpKind.ROTATION:
        names = ["no trump" if s is None else pack.suits[s].name for s in trump.rotation]
        out.append("Trump follows a fixed rotation, round by round: " + ", ".join(names) + ", then again.")
    elif trump.kind is TrumpKind.ORDER_UP:
        first = SEAT_WORDS[rules.deal.first_to_act]
        out.append(f"After the deal the next card is turned up. Starting with {first}, each player in turn may "
                   "order up its suit as trump or pass"
                   + ("; when one does, the dealer takes the turned card and discards a card face down." if
                      trump.pickup else ".")
                   + f" When every player has passed, the turned card is turned down and, again from {first}, "
                   f"each player may name another suit ({choices}) or pass"
                   + (": the dealer may not pass then, and names the trump when everyone else has passed." if
                      trump.stick_the_dealer else "; when every player passes again the hand is thrown in: it "
                      "scores nothing and the next dealer deals.")
                   + " The player who orders up or names the trump is the maker (`maker`, and their side "
                   "`maker_team`, in the scoring).")
    elif trump.kind is TrumpKind.AUCTION and tricks.auction is not None:
        out += _auction_lines(tricks, rules)
    elif trump.kind is TrumpKind.NAMED_BY_HIGHEST_BIDDER:
        out.append("After the bidding, the highest bidder (the first in bidding order on a tie) names the trump "
                   f"({choices}).")
    else:
        out.append("There is no trump.")
    turned = " A turned-up joker means no trump." if trump.suit is None and trump.kind is TrumpKind.UPCARD else ""
    if trump.jokers_top:
        out.append("\nJokers are trumps above every other card; in a no-trump round a joker wins the trick it "
                   "is played to. Of two jokers the first played wins." + turned)
    elif trump.jokers is JokerRank.HIGHEST:
        out.append("\nA joker is the highest card in every round, above the trumps: it wins the trick it is "
                   "played to (of two jokers the first played). It has no suit: when a joker is led the others "
                   "may play any card." + turned)
    elif trump.jokers is JokerRank.LOWEST:
        out.append("\nA joker is the lowest card: it never wins a trick unless every card in it is a joker "
                   "(then the first played wins). It has no suit: when a joker is led, the next card played "
                   "sets the suit to follow." + turned)
    if trump.high_cards:
        high = ", ".join(pack.pretty(c) for c in trump.high_cards)
        above = " and ".join(w for w, on in (("the bowers", trump.bowers), ("the jokers", trump.jokers_top)) if on)
        out.append(f"\nWhenever there is a trump, {high} (highest first) are trumps above the ace of trump"
                   + (f", below {above}" if above else "")
                   + "; each counts as a trump for every purpose (it follows trump, not its printed suit). "
                   "In a no-trump round they are ordinary cards.")
    if trump.bowers:
        top = "the highest card after the jokers" if trump.jokers_top else "the highest card"
        out.append(f"\nThe jack of trump is {top}; the jack of the same colour is the next highest "
                   "and counts as a trump for every purpose (it follows trump, not its printed suit).")
    if tricks.trump_while_bidding is not None:
        out.append(f"\nThe trump (and the turned card) is shown before the bidding when `{tricks.trump_while_bidding.source}`; "
                   "otherwise players bid without knowing it, and it is revealed when the bidding is over.")
    if tricks.phases != DEFAULT_PHASES:
        words = {"deal": "the deal", "trump": "the auction" if trump.kind is TrumpKind.AUCTION else "the trump",
                 "kitty": "the kitty", "exchange": "the pass" if tricks.exchange is None or
                 tricks.exchange.direction.source != "aside" else "the cards laid aside", "bidding": "the bidding",
                 "play": "the tricks", "score": "the scoring"}
        shown = [words[p] for p in tricks.phases if p != "trump" or trump.kind is not TrumpKind.NONE]
        out.append(f"\nA round goes: {', '.join(shown[:-1])} and {shown[-1]}"
                   + (" (no bidding)." if not tricks.has_bidding else "."))
    if tricks.sits_out is not None:
        out.append(f"\nA player sits a hand out when `{tricks.sits_out.source}` holds for them at the deal: "
                   "their hand is laid aside unseen, they neither bid nor play (the turn passes over them, a "
                   "trick has a card fewer), and they score nothing for the round; their counters are "
                   "updated as everyone's, with no tricks taken.")
    if tricks.kitty is not None and tricks.kitty.to_trick is not None:
        kitty = tricks.kitty
        trick = tricks.kitty.to_trick.source
        which = "the first trick" if trick == "1" else "the last trick" if trick == "hand_size" else f"trick `{trick}`"
        out += ["", "## The kitty", "",
                f"`{kitty.cards.source}` cards are dealt face down aside (the kitty). Nobody takes them into "
                f"their hand: they go, face down, with {which} to its winner, as cards that player took (they count "
                "in their card points and counts, not as a trick). Only that player sees them."]
    elif tricks.kitty is not None:
        kitty = tricks.kitty
        assert kitty.taker is not None
        taker = _seat_words(kitty.taker.source, rules) if kitty.taker.source != "declarer" else "the declarer"
        out += ["", "## The kitty", "",
                f"`{kitty.cards.source}` cards are dealt face down aside (the kitty). {taker[0].upper()}{taker[1:]} "
                "takes them into their hand and then discards as many face down"
                + (", which count as a trick they took." if kitty.discards_as_trick else ", which count for nobody.")
                + " Only the taker sees the kitty and the discards."]
    if tricks.exchange is not None:
        out += ["", "## Laying aside" if tricks.exchange.direction.source == "aside" else "## Passing", ""] \
            + _exchange_lines(tricks, rules)
    bidding = tricks.bidding
    seeing = []
    if tricks.own_hand is not None:
        seeing.append(f"Players see their own hand while bidding only when `{tricks.own_hand.source}` (once play "
                      "starts everyone sees their own).")
    if tricks.others_hands is not None:
        seeing.append(f"When `{tricks.others_hands.source}`, every player sees all the other players' hands.")
    if tricks.blind is not None:
        blind_when = f" when `{tricks.blind.when.source}`" if tricks.blind.when is not None else ""
        seeing.append(f"A player may bid blind, before looking at their hand{blind_when}: one of `{tricks.blind.bids.source}`"
                      " (the scoring's `blind`); they choose at their turn to bid, and see their hand only then.")
    starter = SEAT_WORDS[rules.deal.first_to_act] if tricks.bidding_first is None else \
        ("the declarer" if tricks.bidding_first.source == "declarer" else f"`{tricks.bidding_first.source}`")
    if tricks.bids_laid_aside:
        out += ["", "## Bidding", "", *seeing, "Each player's bid is the cards they lay aside (see Laying aside above); "
                "there is no other bidding.", ""]
    elif tricks.has_bidding:
        out += ["", "## Bidding", "", *seeing,
                ("Every player bids at once, without seeing the others' bids." if bidding.order is
                 BidOrder.SIMULTANEOUS else f"Starting with {starter} and going "
                 f"{rules.deal.direction}, each player bids once how many tricks they will take."),
                f"Bids allowed: `{bidding.range.source}` (with the round's `hand_size`).", ""]
    elif seeing:
        out += [""] + seeing
    for i, restriction in enumerate(bidding.restrictions if "bidding" in tricks.phases else ()):
        example = refused_example(rules, i)
        formula = f" (the rule: `{restriction.rule.source}`)" if notes or example is None else ""
        if example is None:
            out.append(f"- A bid is refused with \"{restriction.message.text}\"{formula}.")
        else:
            size, made, who, bid, message = example
            after = f" after the bids {_listing(made)}" if made else ""
            out.append(f"- For example, in a round of {size} card{'s' if size != 1 else ''}{after}, {who} is "
                       f"told: \"{message}\"{formula}.")
    play = tricks.play
    leader = _seat_words(play.leader.source, rules) if play.leader is not None else \
        SEAT_WORDS[rules.deal.first_to_act]
    first = f"{leader[0].upper()}{leader[1:]} leads the first trick"
    if play.first_lead:
        cards = " or else ".join(pack.pretty(c) for c in play.first_lead)
        after = " (after the pass)" if tricks.exchange is not None else ""
        first = (f"The player holding {cards}{after} leads the first trick" + (" with that card" if play.lead_it
                                                                              else "")
                 + f" (when no one holds {'it' if len(play.first_lead) == 1 else 'any'}: {leader})")
    out += ["", "## Play", "",
            f"{first}; the winner of a trick leads the next.",
            "Players must follow the suit led if they can." if play.follow_suit else "Any card may be played.",
            ]
    if play.must_trump:
        out.append("A player who cannot follow suit must play a trump if they hold one.")
    if play.free is not None:
        out.append(f"A card for which `{play.free.source}` holds may be played whatever was led.")
    if play.restrictions:
        out.append("Then each of these rules must hold for the card played; a rule that no card in the hand "
                   "meets is waived for that play:")
        out.append("")
        for restriction in play.restrictions:
            formula = f" (the rule: `{restriction.rule.source}`)" if notes or restriction.message.text != \
                restriction.message.text.replace("{", "") else ""
            text = message_words(restriction.message.text)
            out.append(f"- {text[0].upper() + text[1:]}{formula}.")
        out.append("")
    if tricks.order is not None:
        out += _order_lines(tricks, pack)
    else:
        out.append("The highest trump wins the trick; without trumps, the highest card of the suit led.")
    if play.cancel_identical:
        out.append("Identical cards (several decks) played to one trick cancel each other: neither can win it. "
                   "A trick no card can win (every card that could win cancelled) goes to the player who led it."
                   if tricks.order is None else
                   "Identical cards (several decks) played to one trick cancel each other: neither can win it.")
    if play.last_identical:
        out.append("Of two identical cards (several decks) in one trick, the one played later ranks higher.")
    elif _several_decks(rules) and not play.cancel_identical:
        out.append("Of two identical cards (several decks) in one trick, the one played first ranks higher.")
    out += ["", "## Scoring", ""]
    if tricks.scoring.lets:
        out += ["For each player, with these values worked out first:", ""]
        out += [f"- `{name}` = `{compiled.source}`" for name, compiled in tricks.scoring.lets]
        out.append("")
    scoring = tricks.scoring
    if scoring.card_points is not None:
        out.append(f"Each card taken in a trick is worth `{scoring.card_points.source}` to the player who takes it "
                   "(`card_points` below: the sum over the cards of their tricks).")
    if scoring.trick_points is not None:
        out.append(f"Each trick is worth `{scoring.trick_points.source}` to the player who takes it, worked out as "
                   "it is taken (`trick_points` below: the sum over their tricks; `winning_as` is what the winning "
                   "card was played as, `trick_as` the same for every card).")
    for name, compiled in scoring.counts:
        out.append(f"`{name}` counts the cards a player takes for which `{compiled.source}` "
                   f"(`{name}_by_seat` every player's, `{name}_dealt` the cards dealt, `{name}_taker` who took "
                   "the most).")
    if scoring.card_points is not None or scoring.trick_points is not None or scoring.counts:
        out.append("")
    for when, points in tricks.scoring.cases:
        if when is None and len(tricks.scoring.cases) == 1:
            out.append(f"Each round a player scores `{points.source}`.")
        elif when is None:
            out.append(f"- otherwise: `{points.source}`")
        else:
            out.append(f"- when `{when.source}`: `{points.source}`")
    if tricks.counters:
        out += ["", "Each player keeps these numbers from round to round; after each round's scoring:", ""]
        for counter in tricks.counters:
            out.append(f"- `{counter.name}` starts at `{counter.initial.source}` and becomes "
                       f"`{counter.update.source}`.")
    setup = rules.setup(rules.min_players)
    if tricks.auction is not None and not tricks.has_bidding:
        return out + _contract_examples(rules, setup) + [""]
    if not tricks.has_bidding:
        return out + _taken_examples(rules, setup) + [""]
    size = max(setup.hand_sizes)  # the largest hand the game deals
    others = setup.players - 1
    alone = (" (partners bidding and taking nothing)" if rules.team is not None else "") + \
        f"; the other {'player' if others == 1 else 'players'} bid and took nothing"
    counted = " and no points in the cards or tricks taken" if scoring.card_points is not None or \
        scoring.trick_points is not None else ""
    out += ["", f"Worked example, in a round of {size} cards{alone}{counted}:", "", "| a player who... | scores |",
            "|---|---|"]
    for bid, took in ((3, 5), (2, 2), (4, 3), (0, 0), (4, 1)):
        if max(bid, took) > size:
            continue
        env: dict[str, Any] = {**setup.round_env(0), "hand_size": size, "bid": bid, "tricks": took, "seat": 0,
                               "is_dealer": False, "bids": [bid] + [0] * others, "taken": [took] + [0] * others,
                               "team": 0, "team_bid": bid, "team_tricks": took, "card_points": 0,
                               "trick_points": 0, "card_points_by_seat": [0] * (others + 1),
                               "trick_points_by_seat": [0] * (others + 1), "cards_taken": took * (others + 1),
                               "cards_taken_by_seat": [took * (others + 1)] + [0] * others, "all_card_points": 0,
                               "maker": 0, "maker_team": 0, "alone": False, **_NO_CONTRACT}
        for name, _ in tricks.scoring.counts:
            env.update({name: 0, f"{name}_by_seat": [0] * (others + 1), f"{name}_dealt": 0, f"{name}_taker": -1})
        for counter in tricks.counters:  # as they start
            env[counter.name] = counter.initial({**setup.round_env(0), "seat": 0})
        out.append(f"| bid {bid}, took {took} | {tricks.scoring.points(env)} |")
    return out + [""]


# the contract's names in a worked example of a round without an auction
_NO_CONTRACT = {"contract": 0, "contract_suit": -1, "contract_rank": -1, "declarer": -1, "is_declarer": False,
                "is_declarer_side": False, "blind": False}


def _contract_examples(rules: Any, setup: Any) -> list[str]:
    """Worked examples of an auction's scoring: the declarer's side (seat 0) making its
    contract or falling a trick short (taking one, on a call of 0), at the lowest and the
    highest calls."""
    tricks = rules.section
    auction = tricks.auction
    pack = rules.deck.pack
    size = max(setup.hand_sizes)
    calls = sorted({n for n in auction.tricks(setup.round_env(0)) if 0 <= n <= size})
    players = setup.players
    rows = ["", f"Worked example, in a round of {size} cards, for the declarer (the first seat of its side):", "",
            "| contract | the declarer's side took | scores |", "|---|---|---|"]
    for n, rank in ((calls[0], 0), (calls[-1], len(auction.suits) - 1)):
        suit = auction.suits[rank]
        word = "no trump" if suit is None else "a named suit" if suit == NAMED_SUIT else pack.suits[suit].name
        for took in dict.fromkeys((n, n - 1 if n else 1, size)):  # (a call of none is broken by a trick)
            env: dict[str, Any] = {**setup.round_env(0), "hand_size": size, "bid": 0, "tricks": took, "seat": 0,
                                   "is_dealer": False, "bids": [0] * players, "taken": [took] + [0] * (players - 1),
                                   "team": 0, "team_bid": 0, "team_tricks": took, "card_points": 0,
                                   "trick_points": 0, "card_points_by_seat": [0] * players,
                                   "trick_points_by_seat": [0] * players, "cards_taken": took * players,
                                   "cards_taken_by_seat": [took * players] + [0] * (players - 1),
                                   "all_card_points": 0, "maker": 0, "maker_team": 0, "alone": False,
                                   "contract": n, "contract_suit": -1 if suit is None else
                                   next((c for c in tricks.trump.choices if c is not None), -1)
                                   if suit == NAMED_SUIT else suit,
                                   "contract_rank": rank, "declarer": 0, "is_declarer": True,
                                   "is_declarer_side": True, "blind": False}
            for name, _ in tricks.scoring.counts:
                env.update({name: 0, f"{name}_by_seat": [0] * players, f"{name}_dealt": 0, f"{name}_taker": -1})
            for counter in tricks.counters:
                env[counter.name] = counter.initial({**setup.round_env(0), "seat": 0})
            try:
                rows.append(f"| {n} {word} | {took} | {tricks.scoring.points(env)} |")
            except EvaluationError:
                continue
    return rows


def _auction_lines(tricks: Any, rules: Any) -> list[str]:
    """The auction in words: the calls, their order, when it ends, a hand passed out."""
    auction = tricks.auction
    pack = rules.deck.pack
    suits = ["no trump" if s is None else "a suit named by the winner" if s == NAMED_SUIT else pack.suits[s].name
             for s in auction.suits]
    first = SEAT_WORDS[rules.deal.first_to_act]
    rounds = ("each player calls once" if auction.rounds is AuctionRounds.ONCE else
              "the calls go round until all but one player have passed after a call (a player who passes may not "
              "call again)")
    passed = {AllPass.REDEAL: "the hand is thrown in (it scores nothing) and the next dealer deals",
              AllPass.REDEAL_SAME_DEALER: "the hand is thrown in (it scores nothing) and the same dealer deals again",
              AllPass.DEALER_BIDS: "the last player to call may not pass"}[auction.all_pass]
    return [f"An auction makes the trump. Starting with {first} and going {rules.deal.direction}, each player "
            "calls a number of "
            f"tricks (`{auction.tricks.source}`) with a trump, or passes; {rounds}. Each call must be higher than the "
            f"last: more tricks, or as many in a higher suit ({', '.join(suits)}, lowest first). When everyone "
            f"passes, {passed}. The highest call wins: its player is the declarer (`declarer`), its suit the trump, "
            "and its tricks the contract (`contract`, `contract_suit`, `contract_rank` in the scoring)."
            + (" A call of 0 tricks is a call as the others are, not a pass: won, it is a contract of none "
               "(`contract` 0, with its `declarer`)." if _calls_none(auction, rules) else "")]


def _calls_none(auction: Any, rules: Any) -> bool:
    """A call of 0 tricks is among the first round's calls."""
    try:
        return 0 in auction.tricks(rules.setup(rules.min_players).round_env(0))
    except EvaluationError:
        return False


def _exchange_lines(tricks: TrickRules, rules: Ruleset) -> list[str]:
    """The pass, in words: its rule, and what it is in the first rounds (at each player count)."""
    exchange = tricks.exchange
    assert exchange is not None
    if exchange.direction.source == "aside":
        out = [f"Before the play every player lays `{exchange.cards.source}` cards aside face down, out of the "
               "round: nobody receives them, and no one but their owner sees them"
               + (f" until the round is over. They are the player's bid: each card laid aside is worth "
                  f"`{exchange.bid.source}` tricks (of the card's names), and the bid is their sum, hidden from the "
                  "others until the round is over, when every player's cards laid aside are turned up."
                  if exchange.bid is not None else ".")
               + " All lay aside at once, in turn from the first to bid.", ""]
        return out
    out = [f"Before the play every player passes `{exchange.cards.source}` cards, face down, to the player "
           f"`{exchange.direction.source}` seats to their left (`left` 1, `right` one fewer than the players, "
           "`across` half the players, `hold` 0: no pass; `scatter`: that many to each other player, the first "
           "to the left, the next to the player after, and so on; `aside`: laid aside face down, out of the round). All "
           "pass at once: no one sees the cards passed to them before passing their own.", ""]
    for players in range(rules.min_players, rules.max_players + 1):
        setup = rules.setup(players)
        shown = []
        for index in range(min(len(setup.hand_sizes), 6)):
            env = exchange_env(setup, index, 0)
            try:
                count, direction = int(exchange.cards(env)), int(exchange.direction(env))
            except EvaluationError:
                break
            offset = direction % players
            where = ("no pass" if count <= 0 else f"{count} to each other player" if direction == SCATTER else
                     f"{count} laid aside" if direction == ASIDE else
                     "no pass" if offset == 0 else
                     f"{count} to the {'left' if offset == 1 else 'right' if offset == players - 1 else 'player across' if 2 * offset == players else f'{offset}th seat to the left'}")
            shown.append(f"round {setup.round_numbers[index]}: {where}")
        out.append(f"- With {players} players: " + "; ".join(shown) + (", and so on." if shown else "."))
    return out


def _taken_examples(rules: Ruleset, setup: Any) -> list[str]:
    """Worked examples of a round without bidding: what a player scores for some cards taken.

    (Long because each example deals itself a hand of cards taken and scores it through
    the rules, and says so in words.)"""
    tricks: TrickRules = rules.section
    scoring = tricks.scoring
    pack = setup.pack
    deck = pack.deck(setup.decks, setup.jokers, setup.ranks, setup.removed, setup.special_counts)
    players = setup.players
    size = setup.hand_sizes[0]
    dealt = deck[:size * players] if len(deck) > size * players else deck

    def value(rule: Any, card: int) -> int:
        env = {**setup.round_env(0), "trump": -1, "card": card, "card_suit": pack.suit_of[card],
               "card_rank": pack.value_of[card], "card_is_special": pack.special_of[card] >= 0,
               "card_is_joker": pack.special_of[card] == 0}
        return int(rule(env))

    worth = {c: value(scoring.card_points, c) if scoring.card_points is not None else 0 for c in set(dealt)}
    counts = [(name, {c: value(rule, c) for c in set(dealt)}) for name, rule in scoring.counts]

    def trick_points(plays: list[tuple[int, list[int]]]) -> list[int]:
        """Each seat's trick_points over ``plays`` (who took each trick, and its cards, in
        the order played; each trick led and won by its first card)."""
        by_seat = [0] * players
        rule = scoring.trick_points
        if rule is None:
            return by_seat
        for number, (seat, cards) in enumerate(plays, 1):
            env = {**setup.round_env(0), "seat": seat, "trick": number, "is_last_trick": number == len(plays),
                   "trick_cards": cards, "trick_as": cards, "winning_card": cards[0], "winning_as": cards[0],
                   "led_suit": pack.suit_of[cards[0]], "trump": -1, "trick_card_points": sum(worth[c] for c in cards)}
            by_seat[seat] += int(rule(env))
        return by_seat

    def scores(won: list[list[int]], plays: list[tuple[int, list[int]]]) -> int:
        env: dict[str, Any] = {**setup.round_env(0), "bid": 0, "seat": 0, "is_dealer": False,
                               "bids": [0] * players, "team": 0, "team_bid": 0, "maker": 0, "maker_team": 0,
                               "alone": False, **_NO_CONTRACT}
        taken = [len(cards) // players for cards in won]
        points = [sum(worth[c] for c in cards) for cards in won]
        by_trick = trick_points(plays)
        env.update(tricks=taken[0], taken=taken, team_tricks=taken[0], card_points=points[0],
                   card_points_by_seat=points, trick_points=by_trick[0], trick_points_by_seat=by_trick,
                   cards_taken=len(won[0]), cards_taken_by_seat=[len(cards) for cards in won],
                   all_card_points=sum(points))
        for name, of in counts:
            by_seat = [sum(of[c] for c in cards) for cards in won]
            most = max(by_seat)
            env.update({name: by_seat[0], f"{name}_by_seat": by_seat, f"{name}_dealt": sum(by_seat),
                        f"{name}_taker": by_seat.index(most) if most > 0 else -1})
        for counter in tricks.counters:
            env[counter.name] = counter.initial({**setup.round_env(0), "seat": 0})
        return int(scoring.points(env))

    ranked = sorted(dict.fromkeys(dealt), key=lambda c: (worth[c], pack.rank_of[c]))
    plain = [c for c in ranked if worth[c] == 0]
    cases: list[tuple[str, list[int]]] = [("took no trick", [])]
    if plain and len(plain) >= players:
        cases.append(("took one trick of cards worth nothing", plain[:players]))
    best, least = ranked[-1], ranked[0]
    if worth[best] > 0:
        cases.append((f"took one trick holding {pack.pretty(best)} (the rest worth nothing)",
                      [best] + plain[:players - 1]))
    if worth[least] < 0:
        cases.append((f"took one trick holding {pack.pretty(least)} (the rest worth nothing)",
                      [least] + plain[:players - 1]))
    cases.append(("took every trick", list(dealt)))
    maker = " (the player the maker)" if scoring.names & {"maker", "maker_team"} else ""
    ordered = (" (the player's tricks are the first ones played, each trick won by its first card)"
               if scoring.trick_points is not None else "")
    out = ["", f"Worked example, in a round of {size} cards at {players} players{maker}, the other tricks shared in "
           f"turn among the other players{ordered}:", "", "| a player who... | scores |", "|---|---|"]
    for words, mine in cases:
        rest = list(dealt)
        for c in mine:
            rest.remove(c)
        won: list[list[int]] = [mine] + [[] for _ in range(players - 1)]
        plays = [(0, mine[k:k + players]) for k in range(0, len(mine), players)]
        for k in range(0, len(rest), players):  # trick by trick, to the other seats in turn
            seat = 1 + (k // players) % (players - 1)
            won[seat] += rest[k:k + players]
            plays.append((seat, rest[k:k + players]))
        try:
            out.append(f"| {words} | {scores(won, plays)} |")
        except (EvaluationError, ArithmeticError, IndexError):
            continue
    if len(cases) > 1:  # and the player left of them took every trick
        everything = [(1, list(dealt)[k:k + players]) for k in range(0, len(dealt), players)]
        try:
            out.append(f"| took no trick, the next player every trick | "
                       f"{scores([[], list(dealt)] + [[] for _ in range(players - 2)], everything)} |")
        except (EvaluationError, ArithmeticError, IndexError):
            pass
    return out


def _listing(bids: list[int]) -> str:
    return ", ".join(map(str, bids[:-1])) + " and " + str(bids[-1]) if len(bids) > 1 else str(bids[0])


def refused_example(rules: Ruleset, which: int, budget: int = 3000
                    ) -> tuple[int, list[int], str, int, str] | None:
    """A bid that bidding restriction ``which`` (and no rule before it) refuses, for the
    worked example of the rules in words: (hand size, bids made before, who bids, the bid,
    the refusal in the rule's own words). Searched over the rounds of the smallest table,
    the smaller hands first (but not a single card when a larger one shows it), within
    ``budget`` situations; None when none is found."""
    tricks: TrickRules = rules.section
    bidding = tricks.bidding
    if not bidding.restrictions[which].rule.names.isdisjoint(HAND_NAMES):
        return None  # it turns on the bidder's cards: the rule itself is shown
    players = max(rules.min_players, min(4, rules.max_players))
    setup = rules.setup(players)
    simultaneous = bidding.order is BidOrder.SIMULTANEOUS
    order_of_rounds = sorted(range(len(setup.hand_sizes)), key=lambda i: (setup.hand_sizes[i] < 3,
                                                                            setup.hand_sizes[i], i))
    dealer = 0
    order = [(dealer + rules.deal.direction.step * (1 + k)) % players for k in range(players)]
    seen = 0
    lowest = None  # (no auction)
    if tricks.auction is not None:  # the estimates after an auction: its lowest call, won by the first bidder
        lowest = min((n for n in tricks.auction.tricks(setup.round_env(0)) if n >= 0), default=None)

    def contract_of(position: int) -> dict[str, Any]:
        return {"contract": lowest or 0, "contract_suit": -1, "contract_rank": -1 if lowest is None else 0,
                "declarer": -1 if lowest is None else order[0], "is_declarer": lowest is not None and position == 0}

    for index in order_of_rounds[:8]:
        base = setup.round_env(index)
        base.update(hand_suits=[], hand_ranks=[], trump=-1)  # (a message may read them: no particular hand)
        for counter in tricks.counters:
            base[counter.name] = 0
        try:
            candidates = candidate_bids(bidding, base)
        except EvaluationError:
            continue
        size = setup.hand_sizes[index]
        typical = size / players
        stack: list[list[int]] = [[]]
        while stack and seen < budget:
            made = stack.pop()
            position = len(made)
            if position == players:
                continue
            seat = order[position]
            env = dict(base)
            for counter in tricks.counters:
                env[counter.name] = int(counter.initial({**setup.round_env(0), "seat": seat}))
            env.update(seat=seat, position=position, is_dealer=seat == dealer, bids=[] if simultaneous else made,
                       is_first=position == 0 and not simultaneous,
                       is_last=position == players - 1 and not simultaneous, **contract_of(position))
            allowed = []
            for bid in candidates:
                seen += 1
                env["bid"] = bid
                try:
                    broken = next((j for j, r in enumerate(bidding.restrictions) if not r.rule(env)), None)
                    if broken == which:
                        who = "the dealer" if seat == dealer else (
                            "the first bidder" if position == 0 else f"the bidder in place {position + 1}")
                        return size, made, who, bid, bidding.restrictions[which].message.render(env)
                except EvaluationError:
                    broken = -1
                if broken is None:
                    allowed.append(bid)
            # the likeliest bids last, so that they are tried first
            stack.extend(made + [b] for b in sorted(allowed, key=lambda b: -abs(b - typical)))
    return None


def _several_decks(rules: Ruleset) -> bool:
    """Whether some player count plays with more than one deck."""
    return any(rules.setup(n).decks > 1 for n in range(rules.min_players, rules.max_players + 1))


def _order_lines(tricks: TrickRules, pack: Pack) -> list[str]:
    """trick.order in words, the strongest cards first."""
    order = tricks.order
    names = {t.name: _tier_words(t, pack, order.roles) for t in order.tiers if t.name not in ("led", "trump")}
    out = ["", "Who takes a trick, from the strongest cards down (a card of a higher line beats every card "
           "of the lines below it):", ""]
    for tier in reversed(order.tiers):
        if tier.name == "trump":
            out.append("- the trumps, the highest of them winning;")
            continue
        if tier.name == "led":
            out.append("- the cards of the suit led, the highest winning; a card of another suit (not a trump) "
                       "never wins.")
            continue
        words = [f"**{names[tier.name]}**"]
        if tier.wins_over:
            words.append("but takes any trick that " + " or ".join(names.get(w, w) for w in sorted(tier.wins_over))
                         + " is in, whatever else is there")
        words.append({"free": "led, it leaves the others free to play any card",
                      "next": "led, the next card with a suit sets the suit to follow",
                      "sets": "led, it sets its own suit"}[tier.lead])
        if not tier.off_suit_wins:
            words.append("of a suit neither led nor trump, it cannot win")
        if tier.any_time:
            words.append("it may be played at any time, even by a player who could follow suit")
        elif tier.follows == "trump":
            words.append("it counts as a trump for following")
        words.append({"first": "of two, the first played wins", "last": "of two, the later one wins",
                      "cancel": "two identical ones cancel each other"}[tier.ties])
        out.append("- " + "; ".join(words) + ";")
    out[-1] = out[-1].rstrip(";.") + "."
    # a tier only roles reach is said by its name here (its line names the cards played as it)
    as_names = {t.name: f"`{t.name}`" for t in order.tiers
                if not t.cards and t.rule is None and t.name not in ("led", "trump")}
    for card, roles in order.roles.items():
        special = pack.specials[pack.special_of[card]]
        out.append(f"\n{special.name} ({special.code}) is played as "
                   + " or as ".join(as_names.get(r) or names.get(r, r) for r in roles)
                   + f", as its player says when playing it (`{special.code} as {roles[0]}`).")
    if any(t.ties == "cancel" for t in order.tiers) or tricks.play.cancel_identical:
        out.append("When every card of a trick is cancelled, " + ("the player who led it takes it." if
                   order.all_cancelled == "leader" else "the first card's player takes it."))
    return out


def _tier_words(tier: Any, pack: Pack, roles: Any) -> str:
    """A tier by its cards' names (the rule's formula for a tier a rule picks; the cards
    played as it for a tier only roles reach)."""
    if tier.rule is not None and not tier.cards:
        return f"the cards for which `{tier.rule.source}` holds"
    if not tier.cards:
        players = sorted(card for card, wanted in roles.items() if tier.name in wanted)
        return " and ".join(pack.specials[pack.special_of[c]].name for c in players) + f" played as `{tier.name}`"
    cards = sorted(tier.cards)
    return " and ".join(pack.specials[pack.special_of[c]].name for c in cards) + \
        (f" (`{tier.name}`)" if tier.name != pack.codes[cards[0]] else "")


def _choices_words(choices: tuple[int | None, ...], pack: Pack) -> str:
    """"a suit, or no trump", or the choices listed where trump.choices limits them."""
    every = set(range(len(pack.suits)))
    if set(choices) == every | {None}:
        return "a suit, or no trump"
    if set(choices) == every:
        count = ("one two three four five six seven eight".split() + [str(len(every))])[min(len(every), 9) - 1]
        return f"one of the {count} suits; not no trump"
    names = ["no trump" if c is None else pack.suits[c].name for c in choices]
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


_OFFSETS = {"1": "to the dealer's left", "-1": "to the dealer's right", "players-1": "to the dealer's right"}


def _seat_words(source: str, rules: Ruleset) -> str:
    """A seat expression (``play.leader``, ``trump.chooser``) in words where it is one of
    the common forms (the dealer, a seat counted from the dealer, the first to act, the
    highest bidder), else the formula."""
    text = "".join(source.split())
    if text == "dealer":
        return "the dealer"
    if text == "first":
        return f"the first to act ({SEAT_WORDS[rules.deal.first_to_act]})"
    if text == "highest_bidder":
        return "the highest bidder (the first in bidding order on a tie)"
    if text.startswith("dealer+") or text.startswith("dealer-"):
        offset = text[6:].lstrip("+")
        if offset in _OFFSETS:
            return f"the player {_OFFSETS[offset]}"
        if offset.isdigit():
            return f"the player {offset} seats to the dealer's left"
    if text.isdigit():
        return f"seat {text} (counting the first seat as 0)"
    return f"the player at seat `{source.strip()}` (counted round the table from seat 0)"
