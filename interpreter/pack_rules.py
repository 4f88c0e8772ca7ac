"""Reading a ruleset's pack (``deck.suits``, ``deck.ranks``, ``deck.specials``) into a
:class:`~.pack.Pack`, with every problem at its key's line and column.

Without those keys the pack is the standard one (the French suits, ranks 2 to A, and the
joker), numbered exactly as before packs were data. ``deck.ranks`` as a list of the
standard rank codes in their order keeps the standard pack (fewer ranks in the deck, as
today); a list with any other rank (``1``, ``14``, a mapping), or the standard codes in
another order, makes the ranks the ruleset's own, in the order listed, low to high.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .cards import RANKS
from .expressions import CONSTANTS, Compiled, Type
from .pack import JOKER, STANDARD, STANDARD_RANKS, STANDARD_SUITS, Pack, Rank, Special, Suit

if TYPE_CHECKING:
    from .rules import RulesBuilder

_CODE = re.compile(r"^[A-Za-z0-9]{1,6}$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_STANDARD_RANK_TEXTS = {str(r) for r in RANKS} | {str(n) for n in range(2, 10)} | {"10"}
MAX_SUITS = 8
MAX_RANKS = 30
MAX_SPECIALS = 24


def expression_name(name: str) -> str:
    """The name a suit or special card has in expressions: its name in lower case, each
    run of other characters an underscore (``High King`` -> ``high_king``)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def is_standard_ranks(value: Any) -> bool:
    """Whether ``deck.ranks`` as written keeps the standard ranks: a list of their codes in
    their own order (the ace anywhere: ``deck.ace`` places it). Listed in another order they
    are the ruleset's own ranks, ranking as listed (``[9, J, Q, K, T, A]``: the ten above the
    king)."""
    if not (isinstance(value, list) and all(not isinstance(v, dict) and str(v).upper() in _STANDARD_RANK_TEXTS
                                            for v in value) and all(str(v) != "1" for v in value)):
        return False
    places = [RANKS.index(_rank_code(v)) for v in value if _rank_code(v) != "A"]
    return all(a <= b for a, b in zip(places, places[1:]))


def _rank_code(value: Any) -> str:
    code = str(value).upper()
    return "T" if code == "10" else code


def build_pack(builder: RulesBuilder) -> tuple[Pack, tuple[tuple[int, Compiled], ...], dict[str, int]]:
    """The ruleset's pack, each special card's count (an expression of players and decks,
    per pack), and the names the pack gives expressions (a suit's name: its number; a
    special card's name: its card)."""
    get = builder.get
    suits_given = get(("deck", "suits"))
    ranks_given = get(("deck", "ranks"))
    specials_given = get(("deck", "specials")) or []
    custom_ranks = isinstance(ranks_given, list) and not is_standard_ranks(ranks_given)
    if suits_given is None and not custom_ranks and not specials_given:
        return STANDARD, (), {}
    suits = _suits(builder, suits_given) if suits_given is not None else STANDARD_SUITS
    if custom_ranks and all(not isinstance(v, dict) and str(v).upper() in _STANDARD_RANK_TEXTS for v in ranks_given):
        # standard codes out of their order rank as listed, but the ace where deck.ace puts it
        # (and a code listed twice once, as the standard ranks always took it)
        codes = list(dict.fromkeys(_rank_code(v) for v in ranks_given))
        ranks_given = [c for c in codes if c != "A"] + [c for c in codes if c == "A"]
    ranks = _ranks(builder, ranks_given) if custom_ranks else STANDARD_RANKS
    specials = _specials(builder, specials_given)
    # the joker (deck.jokers) is every pack's first special card, so `jokers` works in any pack
    standard = suits is STANDARD_SUITS and ranks is STANDARD_RANKS
    pack = STANDARD if standard and not specials else Pack(suits, ranks, (JOKER, *specials), standard=standard)
    _check_codes(builder, pack, bool(specials_given))
    counts = tuple((pack.special(s.code),
                    builder.expr(("deck", "specials", i, "count"), {"players": Type.INT, "decks": Type.INT},
                                 Type.INT, 1))
                   for i, s in enumerate(specials))
    names: dict[str, int] = {}
    if suits is not STANDARD_SUITS:
        for i, suit in enumerate(suits):
            names[expression_name(suit.name)] = i
    for i, special in enumerate(specials):
        names[expression_name(special.name)] = pack.special(special.code)
    for i, name in enumerate(names):
        if not _NAME.match(name):
            builder.fail(("deck",), f"the pack's name '{name}' is not a name expressions can use")
    return pack, counts, names


def _suits(builder: RulesBuilder, given: Any) -> tuple[Suit, ...]:
    out: list[Suit] = []
    if len(given) > MAX_SUITS:
        builder.fail(("deck", "suits"), f"a pack has at most {MAX_SUITS} suits")
    seen: set[str] = set()
    for i, entry in enumerate(given[:MAX_SUITS]):
        code = str(entry.get("code", ""))
        name = str(entry.get("name", code))
        path = ("deck", "suits", i)
        if len(code) != 1 or not code.isalpha():
            builder.fail(path + ("code",), f"a suit's code is one letter, not '{code}'")
        if not _NAME.match(expression_name(name)):
            builder.fail(path + ("name",), f"the suit name '{name}' must start with a letter")
        for text in (code.upper(), expression_name(name)):
            if text in seen:
                builder.fail(path, f"two suits are called '{text}'")
            seen.add(text)
        if expression_name(name) in CONSTANTS and expression_name(name) not in ("spades", "hearts", "diamonds",
                                                                               "clubs"):
            builder.fail(path + ("name",), f"'{name}' is a name the language already has")
        out.append(Suit(code.upper(), name, str(entry.get("symbol", code.upper())),
                        str(entry.get("colour", entry.get("color", "black")))))
    if not out:
        builder.fail(("deck", "suits"), "a pack needs at least one suit")
        return STANDARD_SUITS
    return tuple(out)


def _ranks(builder: RulesBuilder, given: list[Any]) -> tuple[Rank, ...]:
    out: list[Rank] = []
    if len(given) > MAX_RANKS:
        builder.fail(("deck", "ranks"), f"a pack has at most {MAX_RANKS} ranks")
    seen: set[str] = set()
    for i, entry in enumerate(given[:MAX_RANKS]):
        path = ("deck", "ranks", i)
        if isinstance(entry, dict):
            code = str(entry.get("code", ""))
            name = str(entry.get("name", code))
            value = entry.get("value")
        else:
            code = str(entry)
            name = code
            value = None
        code = code.upper()
        if code == "10":
            code = "T"
        if not _CODE.match(code):
            builder.fail(path, f"a rank's code is letters and digits, not '{code}'")
        if value is None:
            standard = next((r for r in STANDARD_RANKS if r.code == code), None)
            value = standard.value if standard is not None else int(code) if code.isdigit() else i + 1
        if not isinstance(value, int) or isinstance(value, bool) or not -1000 <= value <= 1000:
            builder.fail(path, f"a rank's value is a whole number from -1000 to 1000, not {value!r}")
            value = i + 1
        if code in seen:
            builder.fail(path, f"the rank '{code}' is listed twice")
        seen.add(code)
        out.append(Rank(code, name, value))
    if not out:
        builder.fail(("deck", "ranks"), "a pack needs at least one rank")
        return STANDARD_RANKS
    return tuple(out)


def _specials(builder: RulesBuilder, given: list[Any]) -> tuple[Special, ...]:
    out: list[Special] = []
    if len(given) > MAX_SPECIALS:
        builder.fail(("deck", "specials"), f"a pack has at most {MAX_SPECIALS} kinds of special card")
    for i, entry in enumerate(given[:MAX_SPECIALS]):
        path = ("deck", "specials", i)
        code = str(entry.get("code", "")).upper()
        name = str(entry.get("name", code))
        if not _CODE.match(code):
            builder.fail(path + ("code",), f"a card's code is 1 to 6 letters and digits, not '{code}'")
        if not _NAME.match(expression_name(name)):
            builder.fail(path + ("name",), f"the card name '{name}' must start with a letter")
        out.append(Special(code, name, str(entry.get("symbol", name))))
    return tuple(out)


def _check_codes(builder: RulesBuilder, pack: Pack, has_specials: bool) -> None:
    """Every card's code is unique (ignoring case), and no special card shares a name."""
    seen: dict[str, int] = {}
    for c, code in enumerate(pack.codes):
        if code.upper() in seen:
            k = pack.special_of[c]
            path = ("deck", "specials", k - 1) if k >= 1 else ("deck", "ranks")
            builder.fail(path, f"two cards of the pack would both be written '{code}': give one another code")
        seen.setdefault(code.upper(), c)
    names = [expression_name(s.name) for s in pack.specials[1:]]  # (the first: deck.jokers' joker)
    for i, name in enumerate(names):
        if names.index(name) != i:
            builder.fail(("deck", "specials", i), f"two special cards are called '{name}'")
        elif name == expression_name(JOKER.name) and builder.get(("deck", "jokers"), 0) not in (0, "0"):
            builder.fail(("deck", "specials", i, "name"), f"'{pack.specials[i + 1].name}' is the name of the "
                         "jokers of deck.jokers, which this pack has: call the special card otherwise")
