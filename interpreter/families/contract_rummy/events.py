"""The events a contract-rummy game writes into its record, built here and only here,
and who sees each of their fields (:func:`visibility`, the family's
``event_visibility``).  The core writes ``game``, ``deal``, ``score``, ``end`` and
``reshuffle`` (:mod:`cardrules.interpreter.game`).

The three events of nearly every turn (``draw``, ``layoff``, ``discard``) are logged as
``(builder, *arguments)`` and built only when the record is read (see
``GameState.events``); the others are built as they are logged.  Cards are card numbers
here and card names in the event.  The fields keep the order the record writes them in.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...cards import NAMES

Codes = Sequence[str]  # the game's pack's codes, by card (the standard pack's: NAMES)
from ...privacy import Declaration, Seen
from .melds import Meld
from .rules import RummyRules

Event = dict[str, Any]


# --- logged lazily: (builder, *arguments) ------------------------------------------------------
def draw(round_number: int, seat: int, source: str, card: int, codes: Codes = NAMES,
         refused: int | None = None) -> Event:
    """A card taken from the discard pile (``source`` "discard") or drawn from the stock;
    ``refused``: the buyer whose buy the drawer refused just before (``buying.veto``)."""
    event: Event = {"event": "draw", "round": round_number, "seat": seat, "from": source, "card": codes[card]}
    if refused is not None:
        event["refused"] = refused
    return event


def layoff(round_number: int, seat: int, meld_id: int, cards: tuple[int, ...], cards_after: tuple[int, ...],
           codes: Codes = NAMES) -> Event:
    return {"event": "layoff", "round": round_number, "seat": seat, "meld": meld_id,
            "cards": [codes[c] for c in cards], "cards_after": [codes[c] for c in cards_after]}


def discard(round_number: int, seat: int, card: int, call: str | None, codes: Codes = NAMES,
            target: int | None = None) -> Event:
    """``call``: the name of the ruleset's fitting-discard call, when the discard is called;
    ``target``: the seat a skip card names (``skip.seat: chosen``)."""
    event: Event = {"event": "discard", "round": round_number, "seat": seat, "card": codes[card]}
    if call is not None:
        event[call] = True
    if target is not None:
        event["skips"] = target
    return event


# --- built as they are logged --------------------------------------------------------------------
def chance_event(name: str, round_number: int, seat: int, success: bool) -> Event:
    """A ruleset chance event of the round's start (a cut of the pack, say), named by the ruleset."""
    return {"event": name, "round": round_number, "seat": seat, "success": success}


def buy(round_number: int, seat: int, card: int, penalty: Sequence[int], codes: Codes = NAMES) -> Event:
    return {"event": "buy", "round": round_number, "seat": seat, "card": codes[card],
            "penalty": [codes[p] for p in penalty]}


def capture(round_number: int, seat: int, meld: int, card: int, freed: int, codes: Codes = NAMES) -> Event:
    """``seat`` (not in turn) put ``card`` in the place of the wild card ``freed`` just put in
    meld ``meld``, and took it (joker_swap.capture)."""
    return {"event": "capture", "round": round_number, "seat": seat, "meld": meld, "card": codes[card],
            "freed": codes[freed]}


def refuse(round_number: int, seat: int, buyer: int, card: int, codes: Codes = NAMES) -> Event:
    """The player in turn (``seat``) refused ``buyer``'s buy of ``card``."""
    return {"event": "refuse", "round": round_number, "seat": seat, "buyer": buyer, "card": codes[card]}


def call(name: str, round_number: int, seat: int, meld_id: int, card: int, given: Sequence[int],
         after: Meld, codes: Codes = NAMES) -> Event:
    """A fitting discard claimed by ``seat`` onto meld ``meld_id`` (the event is named as
    the ruleset names its call), the cards it gave the discarder, and the meld after."""
    return {"event": name, "round": round_number, "seat": seat, "meld": meld_id, "card": codes[card],
            "given": [codes[g] for g in given], "cards_after": after.names(codes)}


def meld(round_number: int, seat: int, melds: Sequence[tuple[int, Meld]], codes: Codes = NAMES) -> Event:
    """``seat`` went down with ``melds`` (meld number, meld)."""
    return {"event": "meld", "round": round_number, "seat": seat,
            "melds": [{"id": meld_id, "kind": m.name or m.kind.value, "cards": m.names(codes)} for meld_id, m in melds]}


def swap(round_number: int, seat: int, meld_id: int, card: int, codes: Codes = NAMES) -> Event:
    return {"event": "swap", "round": round_number, "seat": seat, "meld": meld_id, "card": codes[card]}


def laydown(round_number: int, seat: int, melds: Sequence[Meld], left: Sequence[int], codes: Codes = NAMES) -> Event:
    """At the round's end (``going_out.count: unmatched``), ``seat`` lays down the best
    melding of its hand: ``melds`` and the cards ``left`` unmatched, which it scores."""
    return {"event": "laydown", "round": round_number, "seat": seat,
            "melds": [{"kind": m.name or m.kind.value, "cards": m.names(codes)} for m in melds],
            "left": [codes[c] for c in left]}


def contracts(round_number: int, numbers: Sequence[int], names: Sequence[str]) -> Event:
    """Each seat's contract this round (``contract``): its number in ``contracts`` and its name."""
    return {"event": "contracts", "round": round_number, "contracts": list(numbers), "names": list(names)}


def skip(round_number: int, seat: int) -> Event:
    """``seat`` loses this turn (a skip card was discarded to it)."""
    return {"event": "skip", "round": round_number, "seat": seat}


def choose(round_number: int, seat: int, number: int, name: str) -> Event:
    """``seat`` chose contract ``number`` (named ``name``) for the round (``contract.choose``)."""
    return {"event": "choose", "round": round_number, "seat": seat, "contract": number, "name": name}


def bury(round_number: int, card: int, upcard: int, codes: Codes = NAMES) -> Event:
    """The turned-up ``card`` was buried in the stock and ``upcard`` turned instead
    (``stock.bury_upcard``)."""
    return {"event": "bury", "round": round_number, "card": codes[card], "upcard": codes[upcard]}


def out(round_number: int, seat: int) -> Event:
    return {"event": "out", "round": round_number, "seat": seat}


def exhausted(round_number: int, reason: str) -> Event:
    """The round ended with no one out: ``reason`` "stock" or "turns"."""
    return {"event": "exhausted", "round": round_number, "reason": reason}


def bonus(round_number: int, name: str, seat: int) -> Event:
    return {"event": "bonus", "round": round_number, "name": name, "seat": seat}


# --- who sees what ---------------------------------------------------------------------------
_DRAWN_FROM_PILE = {"seat": Seen.ALL, "from": Seen.ALL, "card": Seen.ALL, "refused": Seen.ALL}
_DRAWN_BLIND = {"seat": Seen.ALL, "from": Seen.ALL, "card": Seen.ACTOR, "refused": Seen.ALL}


def _draw_visibility(event: Mapping[str, Any]) -> Mapping[str, Seen]:
    """A card taken from the discard pile was face up; one from the stock is the drawer's."""
    return _DRAWN_FROM_PILE if event.get("from") == "discard" else _DRAWN_BLIND


def visibility(section: RummyRules) -> dict[str, Declaration]:
    """Who sees each field of this family's events: everything is on the table but a
    card drawn from the stock and a buy's penalty cards (the player's own), and the
    cards a call moves from the claimer's hand to the discarder's (those two)."""
    public: dict[str, Declaration] = {
        kind: {field: Seen.ALL for field in fields} for kind, fields in (
            ("refuse", ("seat", "buyer", "card")), ("meld", ("seat", "melds")),
            ("layoff", ("seat", "meld", "cards", "cards_after")), ("swap", ("seat", "meld", "card")),
            ("out", ("seat",)), ("exhausted", ("reason",)), ("bonus", ("name", "seat")),
            ("laydown", ("seat", "melds", "left")), ("contracts", ("contracts", "names")), ("skip", ("seat",)),
            ("bury", ("card", "upcard")), ("choose", ("seat", "contract", "name")), ("capture", ("seat", "meld", "card", "freed")))}
    public["draw"] = _draw_visibility
    public["buy"] = {"seat": Seen.ALL, "card": Seen.ALL, "penalty": Seen.ACTOR}
    called = section.fitting_discard_call.name
    public["discard"] = {"seat": Seen.ALL, "card": Seen.ALL, called: Seen.ALL, "skips": Seen.ALL}
    public[called] = {"seat": Seen.ALL, "meld": Seen.ALL, "card": Seen.ALL, "cards_after": Seen.ALL,
                    "given": Seen.NOBODY}  # each call's event names its two seats
    for event in section.chance_events:
        public[event.name] = {"seat": Seen.ALL, "success": Seen.ALL}
    return public
