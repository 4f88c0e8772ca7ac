"""Candidate moves for the shared legality check (tests/test_legality.py): a superset
of the moves a player could make at a decision (and some that cannot be made), so that
the check can confirm that exactly the listed ones are accepted by ``verify``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import ALLOW, BUY, DRAW, PASS, REFUSE, TAKE, Claim, Discard, GoDown, LayOff, Swap

if TYPE_CHECKING:
    from .state import Move, RummyState


def candidate_actions(state: RummyState) -> list[Move]:
    """Take, draw, buy, pass, allow, refuse; a claim of every meld (and of one that is
    not there); a discard of every card held (and of one not held) with and without a
    call (a skip card naming each seat, where the discarder names it); a lay-off of every card held on every meld (a wild card at either end of a
    run); a swap of every card held into every meld; and every go-down the listing gives
    (go-downs are listed in canonical form; tests/test_go_down_search.py checks that
    search against a brute-force enumeration)."""
    seat = state.turn
    held = list(dict.fromkeys(state.hands[seat]))
    pack = state.setup.pack
    not_held = next(c for c in range(pack.size) if c not in held)
    ids = list(state.melds) + [len(state.melds) + 1]
    out: list[Move] = [TAKE, DRAW, BUY, PASS, ALLOW, REFUSE]
    out += [Claim(m) for m in ids]
    out += [Discard(c, call, pack) for c in held + [not_held] for call in (False, True)]
    if state.section.skip_chosen:  # a skip card naming each seat (its own, and one past the table, too)
        out += [Discard(c, False, pack, t) for c in held if c in state.skips for t in range(state.players + 1)]
    for m in ids:
        meld = state.melds.get(m)
        for c in held:
            if c in state.meld_engine.wild:  # its canonical forms: an end of a run, or no end on a set or group
                ends = (None,) if meld is not None and meld.kind != "run" else (False, True)
                out += [LayOff(m, (c,), end, None, pack) for end in ends]
            else:
                out.append(LayOff(m, (c,), None, None, pack))
                out.append(Swap(m, c, pack))
    return out + [a for a in state.legal_actions() if isinstance(a, GoDown)]
