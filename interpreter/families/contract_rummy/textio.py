"""What a player types at a contract-rummy table, and what a record line means."""

from __future__ import annotations

import json
from typing import Any

from ...deal import deal_from_event
from ...errors import IllegalActionError
from ...game import CHANCE
from ...pack import STANDARD, Pack
from ...textio import NUMBER
from .actions import (ALLOW, BUY, DRAW, PASS, REFUSE, TAKE, Choose, Claim, CutOutcome, Discard, GoDown, LayOff,
                      RummyAction, StockCard, Swap)
from .state import Move, Phase, RummyState


def _seat_or_number(word: str) -> bool:
    """Whether ``word`` is a small number as a player types it (ASCII digits only: int()
    would refuse other digits, and a long one is no seat or contract)."""
    return word.isascii() and word.isdigit() and len(word) <= 6


def parse_input(call: str, text: str, veto: bool = False, pack: Pack = STANDARD) -> RummyAction:
    """An action from what a player typed at a rummy table: ``take``, ``draw``, ``buy``,
    ``pass``, ``choose 3`` (a contract, where each player chooses), ``allow`` or ``refuse`` (a buy, as the player in turn; ``veto``: they are
    asked now, so ``yes`` and ``no`` answer too), ``claim 2``, ``meld 8h 8s jk | 5d 6d
    jk 8d``, ``layoff 2 9d`` (``layoff 2 jk low``), ``swap 2 7d``, ``discard ks``
    (``discard ks call`` to protect it; ``discard skip to 2``, a skip card naming the seat
    it skips); ``call`` is the word the ruleset gives its
    fitting-discard call; ``pack`` the game's (cards are typed by its codes)."""
    # Long on purpose: every form a player may type, move by move, each with its own
    # hint when it is wrong.
    card = pack.card
    words = text.strip().lower().replace(",", " , ").split()
    if not words:
        raise IllegalActionError("type what you do (or 'help')")
    verb, rest = words[0], words[1:]
    simple: dict[str, RummyAction] = {
        "take": TAKE, "pick": TAKE, "draw": DRAW, "stock": DRAW, "buy": BUY, "may": BUY, "pass": PASS, "no": PASS,
        "allow": ALLOW, "permit": ALLOW, "refuse": REFUSE, "deny": REFUSE}
    if veto:
        simple.update(yes=ALLOW, y=ALLOW, no=REFUSE, n=REFUSE)
    if verb in simple and not rest or (verb == "may" and rest == ["i"]):
        return simple[verb]

    def cards(items: list[str]) -> tuple[int, ...]:
        try:
            return tuple(card(w) for w in items if w not in (",", "|"))
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None

    def meld_number(word: str) -> int:
        if not NUMBER.fullmatch(word) or word.startswith("-"):
            raise IllegalActionError(f"'{word}' is not a meld number (the melds on the table are numbered)")
        return int(word)

    if verb in ("choose", "contract", "phase"):
        if len(rest) != 1 or not _seat_or_number(rest[0]):
            raise IllegalActionError("choose which contract? give its number, e.g. 'choose 3'")
        return Choose(int(rest[0]))
    if verb in ("claim", call) and len(rest) == 1 and NUMBER.fullmatch(rest[0]):
        return Claim(meld_number(rest[0]))
    if verb in ("meld", "down", "go"):
        if verb == "go" and rest[:1] == ["down"]:
            rest = rest[1:]
        groups: list[list[str]] = [[]]
        for w in " ".join(rest).replace("|", " | ").replace(":", ": ").split():
            if w in ("|", "/", ";"):
                groups.append([])
            else:
                groups[-1].append(w)
        groups = [g for g in groups if g]
        # a meld's kind may lead it ('set: 8h 8s jk'), for every meld or none
        kinds = tuple(g[0][:-1] if g[0].endswith(":") else "" for g in groups)
        if any(kinds) and not all(kinds):
            raise IllegalActionError("give every meld its kind ('meld set: 8h 8s jk | run: 5d 6d jk 8d') or none")
        melds = tuple(cards(g[1:] if any(kinds) else g) for g in groups)
        if not melds or not all(melds):
            raise IllegalActionError("meld which cards? e.g. 'meld 8h 8s jk | 5d 6d jk 8d'")
        return GoDown(melds, kinds if any(kinds) else None, pack)
    if verb in ("layoff", "lay", "add"):
        if verb == "lay" and rest[:1] == ["off"]:
            rest = rest[1:]
        if len(rest) < 2:
            raise IllegalActionError("lay off on which meld? e.g. 'layoff 2 9d'")
        at_low = None
        if rest[-1] in ("low", "high"):
            at_low = rest[-1] == "low"
            rest = rest[:-1]
        return LayOff(meld_number(rest[0]), cards(rest[1:]), at_low, None, pack)
    if verb == "swap":
        if len(rest) != 2:
            raise IllegalActionError("swap which card into which meld? e.g. 'swap 2 7d'")
        return Swap(meld_number(rest[0]), cards(rest[1:])[0], pack)
    if verb == "discard" or (verb == call and rest):
        target = None
        if "to" in rest[1:]:  # a skip card naming the seat it skips: 'discard skip to 2' (call before or after)
            at = rest.index("to", 1)
            if at + 1 >= len(rest) or not _seat_or_number(rest[at + 1]):
                raise IllegalActionError(f"'{' '.join(rest[at + 1:at + 2]) or 'nothing'}' is not a seat number: "
                                         "e.g. 'discard skip to 2'")
            target = int(rest[at + 1])
            rest = rest[:at] + rest[at + 2:]
        calling = verb == call or rest[-1:] in (["call"], [call])
        items = [w for w in rest if w not in ("call", call)]
        if len(items) != 1:
            raise IllegalActionError("discard which card? e.g. 'discard ks'")
        return Discard(cards(items)[0], calling, pack, target)
    if veto:
        raise IllegalActionError(f"'{text.strip()}' is not an answer: allow or refuse the buy")
    raise IllegalActionError(f"'{text.strip()}' is not a move here: try take, draw, buy, pass, meld, "
                             "layoff, swap, discard, choose (or 'help')")


def action_from_event(state: RummyState, event: dict[str, Any]) -> Move | None:
    """The next action the line ``event`` calls for; a replay calls this until the game
    produces the line's event (so an undecorated buy window becomes passes)."""
    # Long on purpose: one case a record line's kind, each decoded back to the move it
    # stands for in this state.
    kind = event["event"]
    seat = event.get("seat")
    call = state.section.fitting_discard_call.name
    pack = state.setup.pack
    card = pack.card
    if kind == "draw" and "refused" in event and state.refused_buyer() is None:  # (else it reads as passes)
        raise IllegalActionError(f"this draw follows a refused buy (\"refused\": {json.dumps(event['refused'])}), "
                                 "but no \"refuse\" line comes before it")
    if state.turn == CHANCE:
        if kind == "deal":
            return deal_from_event(event, state.deck, pack)
        events = state.section.chance_events
        if state.phase is Phase.DEAL and state.chance_step < len(events):
            if kind != events[state.chance_step].name:
                raise IllegalActionError(f"the round begins with the {events[state.chance_step].name}")
            return CutOutcome(state.chance_step, bool(event["success"]))
        if kind == "draw" and event.get("from") == "stock":
            return StockCard(card(event["card"]), pack)
        if kind == "bury":  # the card turned up in place of the buried one
            return StockCard(card(event["upcard"]), pack)
        if kind == "buy" and isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players:
            raise IllegalActionError(f"seat {seat} may not buy this discard: {state.why_no_buy(seat)}")
        raise IllegalActionError(f"a card comes off the stock now, not a \"{kind}\" event")
    if state.phase is Phase.CHOOSING:
        if kind == "choose" and seat == state.turn:
            return Choose(int(event["contract"]))
        raise IllegalActionError(f"seat {state.turn} chooses its contract now, not a \"{kind}\" event")
    if state.phase is Phase.DRAWING:
        if kind == "draw" and event.get("from") == "discard":
            return TAKE
        if kind == "buy" and state.section.buying.forced and state.outcomes_from_record:
            state.forced = [card(c) for c in event.get("penalty", [])]  # the forced buy's, as the line says
        if kind in ("draw", "buy", "refuse", call):
            return DRAW
    if state.phase is Phase.WINDOW:
        if kind == "refuse" and event["buyer"] == state.turn:  # the buy the player in turn refused
            return BUY
        if kind == "buy" and seat == state.turn:
            if state.outcomes_from_record:  # else the stock's own top cards, checked against the line
                state.forced = [card(c) for c in event.get("penalty", [])]
            return BUY
        if kind == call and seat == state.turn:
            if state.outcomes_from_record:  # else the cards the game's RNG picks, checked against the line
                state.forced = [card(c) for c in event.get("given", [])]
            return Claim(event["meld"])
        return PASS
    if state.phase is Phase.CAPTURE:  # each seat asked passes, but the one whose capture the line is
        if kind == "capture" and seat == state.turn:
            return Swap(event["meld"], card(event["card"]), pack)
        return PASS
    if kind == "capture":
        raise IllegalActionError("no wild card was just put on the table: there is nothing to capture")
    if state.phase is Phase.VETO:  # an allowed buy is the buy itself
        if kind == "refuse":
            return REFUSE
        if kind == "buy":
            return ALLOW
        if kind in ("draw", "meld", "layoff", "swap", "discard", call):
            raise IllegalActionError(f"seat {state.player} must first allow or refuse seat {state.buyer}'s buy, "
                                     f"not a \"{kind}\" event")
        return None
    if kind in ("meld", "layoff", "swap", "discard") and seat is not None and seat != state.turn:
        raise IllegalActionError(f"seat {seat} acts out of turn (it is {state.whose_turn()})")
    if kind == "meld":
        return GoDown(tuple(tuple(card(c) for c in m["cards"]) for m in event["melds"]),
                      tuple(str(m.get("kind", "")) for m in event["melds"]), pack)
    if kind == "layoff":
        after = event.get("cards_after")
        return LayOff(event["meld"], tuple(card(c) for c in event["cards"]),
                      cards_after=tuple(card(c) for c in after) if after else None, pack=pack)
    if kind == "swap":
        return Swap(event["meld"], card(event["card"]), pack)
    if kind == "discard":
        target = event.get("skips")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise IllegalActionError(f"\"skips\" names a seat by its number, not {target!r}")
        return Discard(card(event["card"]), bool(event.get(call, False)), pack, target)
    if kind in ("draw", "buy", "refuse", call):
        raise IllegalActionError(f"\"{kind}\" does not fit here: seat {state.turn} is playing its turn")
    return None
