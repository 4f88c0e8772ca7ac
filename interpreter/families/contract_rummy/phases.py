"""The phases of a contract-rummy round, in the order a turn goes through them: the
deal (and the round's chance events), the draw (take the discard or draw from the
stock), the buying window the others get when the discard is declined, the veto of a
buy by the player in turn (``buying.veto``), the play (go down, lay off, swap, discard
or go out); ``over`` once the game has ended.  Each phase's rules and its part of the
state live in a module of its own (:mod:`.dealing`, :mod:`.drawing`, :mod:`.buying`,
:mod:`.going_down`, :mod:`.laying_off`, :mod:`.discarding`, :mod:`.scoring`); see
:mod:`.state`."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    DEAL = "deal"
    CHOOSING = "choose"  # each player chooses their contract for the round (contract.choose)
    DRAWING = "draw"
    WINDOW = "window"
    VETO = "veto"  # the player in turn allows or refuses a buy (buying.veto)
    CAPTURE = "capture"  # the others may capture a wild card just put on the table (joker_swap.capture)
    PLAYING = "play"
    OVER = "over"


# The phases as plain module constants, for the family's own modules to import by name:
# the hot paths compare against them on every move, and an enum class attribute costs a
# lookup through the enum machinery each time.
_DEAL, _DRAWING, _WINDOW, _VETO, _PLAYING, _OVER = (Phase.DEAL, Phase.DRAWING, Phase.WINDOW, Phase.VETO,
                                                    Phase.PLAYING, Phase.OVER)
_CAPTURE = Phase.CAPTURE
_CHOOSING = Phase.CHOOSING
