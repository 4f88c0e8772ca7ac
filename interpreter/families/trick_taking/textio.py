"""What a player types at a trick-taking table, and what a record line means."""

from __future__ import annotations

from typing import Any, Sequence

from ...deal import deal_from_event
from ...errors import IllegalActionError
from ...pack import STANDARD, Pack
from ...textio import DIGITS
from .actions import DECLINE, LOOK, Bid, BlindBid, Call, ChooseTrump, Move, Play, TrickAction, discards, passes, plays, trump_choices
from .phases import Phase
from .state import TrickTakingState


def parse_input(phase: str, text: str, pack: Pack = STANDARD, roles: Any = None,
                offered: int | None = None) -> TrickAction:
    """An action from what a player typed: ``3``, ``bid 3``, ``QS``, ``10h``, ``play q♠``,
    ``trump hearts`` / ``trump none``, ``pass QS`` (or the card alone, in the exchange).  Raises IllegalActionError with a hint.

    (Long because it reads every form a player may type, phase by phase, each with its
    own hint when it is wrong.)"""
    words = text.strip().lower().split()
    if not words:
        raise IllegalActionError("type a bid or a card (or 'help')")
    verb, rest = words[0], words[1:]
    if phase == Phase.BLIND:  # before looking at the hand: 'look', or a blind bid ('blind 0', 'blind nil')
        if words == ["look"] or words == ["no"]:
            return LOOK
        number = " ".join(rest if verb == "blind" else words)
        number = "0" if number == "nil" else number
        if not DIGITS.fullmatch(number) or len(number) > 6:
            raise IllegalActionError("bid blind ('blind 0', 'blind nil') or 'look' at your hand first")
        return BlindBid(int(number))
    if verb == "bid" or (phase == Phase.BIDDING and DIGITS.fullmatch(verb)):
        numbers = rest if verb == "bid" else words
        if len(numbers) != 1 or not DIGITS.fullmatch(numbers[0]):
            raise IllegalActionError(f"'{text.strip()}' is not a bid: type one number, e.g. 'bid 3'")
        if len(numbers[0].lstrip("-")) > 6:
            raise IllegalActionError(f"{numbers[0][:20]} is far beyond any bid")
        return Bid(int(numbers[0]))  # a bid out of range is refused by the rules, with the range
    if phase == Phase.BIDDING and verb not in ("trump", "name", "play"):
        raise IllegalActionError(f"'{text.strip()}' is not a bid: type a number, e.g. '3' or 'bid 3'")
    if phase == Phase.CHOOSE_TRUMP and " ".join(words) in ("pass", "no", "decline"):
        return DECLINE
    alone = phase == Phase.CHOOSE_TRUMP and len(words) > 1 and words[-1] == "alone"
    if alone:  # "trump hearts alone", "order alone": the call, made to play alone
        call = parse_input(phase, " ".join(words[:-1]), pack, roles, offered)
        if not isinstance(call, ChooseTrump):
            raise IllegalActionError("'alone' goes with a trump: 'trump hearts alone' or 'order alone'")
        return ChooseTrump(call.suit, call.code, True)
    if phase == Phase.CHOOSE_TRUMP and offered is not None and " ".join(words) in (
            "order", "order up", "order it up", "up", "pick up", "pick it up", "accept", "yes"):
        offered_suit = pack.suit_of[offered]
        if offered_suit >= 0:
            return trump_choices(pack)[offered_suit]
    if phase == Phase.DISCARD or phase == Phase.KITTY:
        target = rest if verb == "discard" else words
        try:
            return discards(pack)[pack.card(" ".join(target))]
        except ValueError as exc:
            raise IllegalActionError(f"discard a card, e.g. 'QS' or 'discard QS': {exc}") from None
    if verb in ("trump", "name") or phase == Phase.CHOOSE_TRUMP:
        if phase == Phase.CHOOSE_TRUMP and verb not in ("trump", "name"):
            rest = words  # at the trump prompt a suit alone names it: 'hearts', 'h', 'none'
        if not rest:
            raise IllegalActionError("name a suit: 'trump hearts', 'trump s' or 'trump none'")
        word = " ".join(rest) if rest[0] == "no" and len(rest) > 1 else rest[0]
        choices = trump_choices(pack)
        if word in ("none", "no", "nt", "notrump", "no-trump", "no trump", "no trumps", "notrumps"):
            return choices[-1]
        for i, suit in enumerate(pack.suits):
            name = suit.name.lower()
            if word in (suit.code.lower(), name, name.rstrip("s"), suit.symbol.lower()):
                return choices[i]
        names = ", ".join(suit.name for suit in pack.suits)
        raise IllegalActionError(f"'{word}' is not a suit ({names} or none)")
    if verb == "pass" or phase == Phase.EXCHANGE:
        target = rest if verb == "pass" else words
        if verb == "play" or not target:
            raise IllegalActionError("pass a card: type it, e.g. 'QS' or 'pass QS'")
        try:
            return passes(pack)[pack.card(" ".join(target))]
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
    target = rest if verb == "play" else words
    role = None
    if "as" in target[1:]:  # "TIG as PIR": the card, then the role it is played as
        at = target.index("as", 1)
        target, role = target[:at], " ".join(target[at + 1:])
    try:
        card = pack.card(" ".join(target))
    except ValueError as exc:
        if roles and len(target) > 1:  # "joker high": the role's word last
            try:
                card, role = pack.card(" ".join(target[:-1])), target[-1]
            except ValueError:
                raise IllegalActionError(str(exc)) from None
        else:
            raise IllegalActionError(str(exc)) from None
    if role is not None:
        return Play(card, _role(pack, roles or {}, card, role), pack.codes[card])
    return plays(pack)[card]


_NO_TRUMP_WORDS = ("nt", "none", "no", "notrump", "notrumps", "no-trump", "no-trumps", "no trump", "no trumps", "sans")
_NAMED_WORDS = ("suit", "named", "trump", "a suit")


def parse_call(text: str, pack: Pack = STANDARD) -> TrickAction:
    """A call in an auction: ``pass``, ``7H``, ``bid 7 hearts``, ``6nt``, ``bid 8 no trump``,
    ``4 suit`` (a suit the winner names).  Raises IllegalActionError with a hint."""
    words = text.strip().lower().split()
    if words and words[0] == "bid":
        words = words[1:]
    if not words:
        raise IllegalActionError("call a number of tricks and a suit ('7H', 'bid 7 hearts', '6NT') or 'pass'")
    if " ".join(words) in ("pass", "no", "p"):
        return DECLINE
    head = words[0]
    digits = len(head) - len(head.lstrip("0123456789"))
    if digits == 0 or digits > 3:
        raise IllegalActionError(f"'{text.strip()}' is not a call: a number of tricks and a suit, e.g. '7H', "
                                 "'bid 7 hearts', '6NT', or 'pass'")
    tricks = int(head[:digits])
    word = " ".join(([head[digits:]] if head[digits:] else []) + words[1:])
    if word in _NO_TRUMP_WORDS:
        return Call(tricks, None, "NT")
    if word in _NAMED_WORDS:
        return Call(tricks, None, "", True)
    for i, suit in enumerate(pack.suits):
        name = suit.name.lower()
        if word in (suit.code.lower(), name, name.rstrip("s"), suit.symbol.lower()):
            return Call(tricks, i, suit.code)
    names = ", ".join(suit.name for suit in pack.suits)
    raise IllegalActionError(f"'{word}' is not a suit of a call ({names}, NT for no trump, or 'suit' for one "
                             "named after winning)")


def _role(pack: Pack, roles: Any, card: int, word: str) -> str:
    """The role a player named for ``card`` (a tier's name, or a special card's code or
    name in that tier)."""
    options: Sequence[str] | None = roles.get(card)
    if not options:
        raise IllegalActionError(f"{pack.codes[card]} is played as itself: type just the card")
    for option in options:
        texts = {option.lower()}
        if option in {s.code for s in pack.specials}:
            texts.add(pack.specials[pack.special_of[pack.special(option)]].name.lower())
        if word.lower() in texts or word.lower().replace(" ", "") in {t.replace(" ", "") for t in texts}:
            return option
    raise IllegalActionError(f"{pack.codes[card]} is played as " + " or ".join(options) + f", not '{word}'")


def action_from_event(state: TrickTakingState, event: dict[str, Any]) -> Move | None:
    """The action a trick-taking record line stands for (None: not an action)."""
    kind = event["event"]
    pack = state.setup.pack
    if kind == "deal":
        return deal_from_event(event, state.deck, pack)
    if kind in ("bid", "play", "trump", "pass", "decline", "discard", "call", "look") and "seat" in event and \
            event["seat"] != state.turn:
        raise IllegalActionError(f"seat {event['seat']} acts out of turn (it is {state.whose_turn()})")
    if kind == "bid":
        value = event["bid"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"bid {value!r} is not a number")
        return BlindBid(value) if event.get("blind") is True else Bid(value)
    if kind == "look":
        return LOOK
    if kind == "pass":
        return passes(pack)[pack.card(event["card"])]
    if kind == "call":
        tricks, suit = event["tricks"], event["suit"]
        if not isinstance(tricks, int) or isinstance(tricks, bool):
            raise ValueError(f"tricks {tricks!r} is not a number")
        if suit == "none":
            return Call(tricks, None, "NT")
        if suit == "named":
            return Call(tricks, None, "", True)
        codes = [s.code for s in pack.suits]
        if not isinstance(suit, str) or suit not in codes:
            raise ValueError(f"{suit!r} is not a suit")
        return Call(tricks, codes.index(suit), suit)
    if kind == "decline":
        return DECLINE
    if kind == "discard":
        return discards(pack)[pack.card(event["card"])]
    if kind == "play":
        c = pack.card(event["card"])
        role = event.get("as")
        if role is not None:
            if not isinstance(role, str):
                raise ValueError(f"\"as\" {role!r} is not a role")
            return Play(c, role, pack.codes[c])
        return plays(pack)[c]
    if kind == "trump" and state.phase is Phase.CHOOSE_TRUMP:
        suit = event["suit"]
        codes = [s.code for s in pack.suits]
        if suit is not None and (not isinstance(suit, str) or suit not in codes):
            raise ValueError(f"{suit!r} is not a suit")
        chosen = trump_choices(pack)[-1 if suit is None else codes.index(suit)]
        return ChooseTrump(chosen.suit, chosen.code, True) if event.get("alone") is True else chosen
    return None
