"""The names each place of a trick-taking ruleset binds for its expressions (what
docs/ruleset-language.md's "Names bound in each place" lists), and the round's phases."""

from __future__ import annotations

from ...expressions import Type
from ...rules import ROUND_NAMES

# the contract an auction (trump.kind: auction) made this round: the tricks bid (0: none),
# the bid's suit (no_trump: none), its place in auction.suits (0: the lowest), the declarer
# (-1: none)
CONTRACT_NAMES: dict[str, Type] = {"contract": Type.INT, "contract_suit": Type.INT, "contract_rank": Type.INT,
                                   "declarer": Type.INT}
BID_NAMES: dict[str, Type] = {**ROUND_NAMES, "bid": Type.INT, "bids": Type.LIST, "seat": Type.INT,
                              "position": Type.INT, "is_dealer": Type.BOOL, "is_first": Type.BOOL,
                              "is_last": Type.BOOL, **CONTRACT_NAMES, "is_declarer": Type.BOOL,
                              # the bidder's own hand, as it sees it (empty while it cannot), and the trump
                              "hand_suits": Type.LIST, "hand_ranks": Type.LIST, "trump": Type.INT}
# the bidding names that read the bidder's hand: a restriction that reads one is worked out afresh for each hand
HAND_NAMES = frozenset({"hand_suits", "hand_ranks", "trump"})
SCORE_NAMES: dict[str, Type] = {**ROUND_NAMES, "bid": Type.INT, "tricks": Type.INT, "seat": Type.INT,
                                "is_dealer": Type.BOOL, "bids": Type.LIST, "taken": Type.LIST,
                                "team": Type.INT, "team_bid": Type.INT, "team_tricks": Type.INT,
                                # scoring.card_points and scoring.trick_points, summed over the tricks taken
                                "card_points": Type.INT, "card_points_by_seat": Type.LIST,
                                "trick_points": Type.INT, "trick_points_by_seat": Type.LIST,
                                # the cards in the seat's tricks, and every seat's count
                                "cards_taken": Type.INT, "cards_taken_by_seat": Type.LIST,
                                "all_card_points": Type.INT,
                                # the seat that made the trump (ordered it up or named it), and its team
                                "maker": Type.INT, "maker_team": Type.INT,
                                # the maker plays alone (trump.alone), its partner sitting out
                                "alone": Type.BOOL,
                                # the auction's contract, and whether the seat is the declarer or its partner
                                **CONTRACT_NAMES, "is_declarer": Type.BOOL, "is_declarer_side": Type.BOOL,
                                # the seat bid blind, before looking at its hand (bidding.blind)
                                "blind": Type.BOOL,
                                # every seat's total (and its team's) before this round's points
                                "totals": Type.LIST, "team_totals": Type.LIST}
# trump.suit: the round's names and the turned card
TRUMP_NAMES: dict[str, Type] = {**ROUND_NAMES, "has_upcard": Type.BOOL, "upcard_suit": Type.INT,
                                "upcard_rank": Type.INT, "upcard_is_joker": Type.BOOL, "upcard": Type.INT,
                                "upcard_is_special": Type.BOOL, "dealer": Type.INT, "chosen": Type.INT}
CHOSEN = 100  # trump.suit's `chosen` (no suit's number): trump.chooser names the trump before the bidding
UPCARD_NAMES = frozenset(TRUMP_NAMES) - frozenset(ROUND_NAMES) - {"dealer", "chosen"}  # the turned card's
# trump.chooser: who names the trump when trump.suit gives `chosen`
CHOOSER_NAMES: dict[str, Type] = {k: v for k, v in TRUMP_NAMES.items() if k != "chosen"}
# sits_out: whether a seat sits the hand out, at the deal (with the seat's counters)
SIT_OUT_NAMES: dict[str, Type] = {**ROUND_NAMES, "seat": Type.INT, "dealer": Type.INT}
# play.leader: who leads the first trick, once the bids are in
LEADER_NAMES: dict[str, Type] = {**ROUND_NAMES, "dealer": Type.INT, "first": Type.INT, "bids": Type.LIST,
                                 "highest_bidder": Type.INT, "trump": Type.INT, **CONTRACT_NAMES}
# bidding.blind.when: may this seat bid blind? the bidding's names (no bid yet) and the totals
BLIND_NAMES: dict[str, Type] = {**{k: v for k, v in BID_NAMES.items() if k != "bid" and k not in HAND_NAMES}, "totals": Type.LIST,
                                "team_totals": Type.LIST}
# auction.tricks: the numbers of tricks a seat may bid in the auction
AUCTION_NAMES: dict[str, Type] = dict(ROUND_NAMES)
# kitty.cards, kitty.taker and bidding.first: the round's, the dealer, the first to act and the contract
KITTY_NAMES: dict[str, Type] = {**ROUND_NAMES, "dealer": Type.INT, "first": Type.INT, **CONTRACT_NAMES}
# play.restrictions and play.free: one card a seat might play, and the trick as it stands
PLAY_NAMES: dict[str, Type] = {**ROUND_NAMES, "seat": Type.INT, "is_dealer": Type.BOOL, "bid": Type.INT,
                               "bids": Type.LIST, "taken": Type.LIST, "tricks": Type.INT, "trick": Type.INT,
                               "position": Type.INT, "is_lead": Type.BOOL, "led_suit": Type.INT,
                               "trump": Type.INT, "card_suit": Type.INT, "card_rank": Type.INT,
                               "card_is_trump": Type.BOOL, "card_is_joker": Type.BOOL, "card": Type.INT,
                               "card_is_special": Type.BOOL, "can_follow": Type.BOOL,
                               "holds_trump": Type.BOOL, "cards_in_hand": Type.INT,
                               "trump_in_trick": Type.BOOL, "trump_broken": Type.BOOL, "beats": Type.BOOL,
                               "can_beat": Type.BOOL,
                               # the card tried's scoring.card_points, the suits played this round
                               # (in play order) and the card_points of every card played this round
                               "card_points": Type.INT, "played_suits": Type.LIST, "points_played": Type.INT}
# counters.*.update: the round's scoring names and the points just scored
COUNTER_NAMES: dict[str, Type] = {**SCORE_NAMES, "points": Type.INT}
# scoring.card_points: one card of the pack, in a round whose trump is known
CARD_POINT_NAMES: dict[str, Type] = {**ROUND_NAMES, "card": Type.INT, "card_suit": Type.INT, "card_rank": Type.INT,
                                     "card_is_special": Type.BOOL, "card_is_joker": Type.BOOL, "trump": Type.INT}
# scoring.trick_points: one trick, for the seat that took it
TRICK_POINT_NAMES: dict[str, Type] = {**ROUND_NAMES, "seat": Type.INT, "trick": Type.INT, "is_last_trick": Type.BOOL,
                                      "trick_cards": Type.LIST, "trick_as": Type.LIST, "winning_card": Type.INT,
                                      "winning_as": Type.INT, "led_suit": Type.INT, "trump": Type.INT,
                                      "trick_card_points": Type.INT}


# scoring.counts: one card of the pack, as scoring.card_points sees it
COUNT_NAMES = CARD_POINT_NAMES
# exchange.cards and exchange.direction: the round's, and the directions by name
EXCHANGE_NAMES: dict[str, Type] = {**ROUND_NAMES, "dealer": Type.INT, "left": Type.INT, "right": Type.INT,
                                   "across": Type.INT, "hold": Type.INT, "scatter": Type.INT, "aside": Type.INT}
SCATTER = 1000  # exchange.direction's `scatter`: `cards` cards to each other seat (no seat's offset)
ASIDE = 1001  # exchange.direction's `aside`: the cards are laid aside face down, out of the round (no receiver)
# the steps of a round, in the order a ruleset may list them under `phases`
PHASE_NAMES = ("deal", "trump", "kitty", "exchange", "bidding", "play", "score")
DEFAULT_PHASES = ("deal", "trump", "bidding", "play", "score")
