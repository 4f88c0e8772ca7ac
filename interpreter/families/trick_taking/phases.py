"""The phases of a trick-taking round, in the order a round goes through them: the deal,
a trump named by a seat (before the bidding or after it), the exchange of cards between
seats, the bidding, the trick play;
``over`` once the game has ended.  Each phase's rules and its part of the state live in
a module of its own (:mod:`.dealing`, :mod:`.trump`, :mod:`.auction`,
:mod:`.trickplay`, :mod:`.scoring`, :mod:`.observation`)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    DEAL = "deal"
    CHOOSE_TRUMP = "trump"
    EXCHANGE = "exchange"
    DISCARD = "discard"
    BIDDING = "bidding"
    PLAYING = "play"
    OVER = "over"
    # (after OVER, so that the encodings of the phases before them keep their places)
    AUCTION = "auction"  # trump.kind: auction, the calls of tricks and suits (contracts.py)
    KITTY = "kitty"  # the kitty's taker discarding (kitty.py)
    BLIND = "blind"  # a seat choosing to bid blind or to look at its hand first (bidding.blind; blind.py)


# The phases as plain module constants, for the family's own modules to import by name:
# the hot paths compare against them on every move, and an enum class attribute costs a
# lookup through the enum machinery each time.
_DEAL, _CHOOSE_TRUMP, _BIDDING, _PLAYING, _OVER = (Phase.DEAL, Phase.CHOOSE_TRUMP, Phase.BIDDING, Phase.PLAYING,
                                                   Phase.OVER)
_EXCHANGE, _DISCARD = Phase.EXCHANGE, Phase.DISCARD
_AUCTION, _KITTY, _BLIND = Phase.AUCTION, Phase.KITTY, Phase.BLIND
