"""The pack as data: a ruleset's suits, ranks and named special cards, each card kind a
small integer with its attributes in tables.

A card of the pack is an ``int``: a suited card is ``suit * stride + rank`` (``rank``
the rank's place in the pack's order, low to high), a special card comes after every
suited card, in the order the ruleset lists them. The standard pack (the French suits
S H D C, ranks 2 to A, and the joker ``JK``) has ``stride`` 13 and the joker 52, exactly
as :mod:`.cards`, so every ruleset written before packs were data, and every record and
save of one, reads and plays as before.

A card's *code* is how records and the prompt name it: rank code then suit code for a
suited card (``TS``, ``14G``), the special's own code otherwise (``JK``, ``HI``). Codes
are unique within a pack, ignoring case. Copies of one card from several decks are the
same int and the same code; cards the rules tell apart (a big and a little joker, a
card that always wins and one that always loses) are different kinds with different codes.

>>> STANDARD.code(STANDARD.card("10h")), STANDARD.card("JK"), STANDARD.pretty(25)
('TH', 52, 'A♥')
>>> pack = Pack.build(suits=[Suit("G", "green", "G", "green"), Suit("B", "black", "B", "black")],
...                   ranks=[Rank(str(n), str(n), n) for n in range(1, 15)],
...                   specials=[Special("HK", "High King", "♛")])
>>> pack.card("14g"), pack.code(27), pack.card("high king"), pack.suit_of[28], pack.value_of[13]
(13, '14B', 28, -1, 14)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import cards as _standard


@dataclass(frozen=True, slots=True)
class Suit:
    code: str  # one letter (records: the last part of a suited card's code)
    name: str  # a word, also a name in expressions (``spades``, ``green``)
    symbol: str  # how the table shows it (``♠``)
    colour: str  # ``red``, ``black``, or any colour word (for colour rules and the screen)


@dataclass(frozen=True, slots=True)
class Rank:
    code: str  # ``T``, ``14``, ``Q``
    name: str  # ``ten``, ``14``, ``queen``
    value: int  # the number runs and card points go by (2..14 for the standard ranks: ace 14)


@dataclass(frozen=True, slots=True)
class Special:
    code: str  # ``JK``, ``WZ``
    name: str  # ``Joker``, ``High King``
    symbol: str  # how the table shows it (``Jkr``)


class Pack:
    """Every kind of card a ruleset's pack can hold, and each one's attributes."""

    __slots__ = ("suits", "ranks", "specials", "stride", "standard", "codes", "suit_of", "rank_of", "value_of",
                 "special_of", "size", "_by_text", "_shown", "_shown_ascii")

    def __init__(self, suits: Sequence[Suit], ranks: Sequence[Rank], specials: Sequence[Special],
                 standard: bool = False):
        self.suits = tuple(suits)
        self.ranks = tuple(ranks)
        self.specials = tuple(specials)
        self.standard = standard
        self.stride = len(self.ranks)
        suited = len(self.suits) * self.stride
        self.size = suited + len(self.specials)
        codes: list[str] = []
        suit_of: list[int] = []
        rank_of: list[int] = []
        value_of: list[int] = []
        special_of: list[int] = []
        for s, suit in enumerate(self.suits):
            for r, rank in enumerate(self.ranks):
                codes.append(rank.code + suit.code)
                suit_of.append(s)
                rank_of.append(r)
                value_of.append(rank.value)
                special_of.append(-1)
        for k, special in enumerate(self.specials):
            codes.append(special.code)
            suit_of.append(-1)
            rank_of.append(-1)
            value_of.append(0)
            special_of.append(k)
        self.codes = tuple(codes)
        self.suit_of = tuple(suit_of)
        self.rank_of = tuple(rank_of)
        self.value_of = tuple(value_of)
        self.special_of = tuple(special_of)
        self._by_text = self._texts()
        self._shown = tuple(self._pretty(c, False) for c in range(self.size))
        self._shown_ascii = tuple(self._pretty(c, True) for c in range(self.size))

    @classmethod
    def build(cls, *, suits: Sequence[Suit], ranks: Sequence[Rank], specials: Sequence[Special] = ()) -> Pack:
        """A pack of these suits, ranks and special cards (the standard pack when they are
        the French ones: then the cards are numbered as :mod:`.cards` numbers them)."""
        if tuple(suits) == STANDARD.suits and tuple(ranks) == STANDARD.ranks and \
                tuple(specials) in ((), STANDARD.specials):
            return STANDARD
        return cls(suits, ranks, specials)

    # --- reading and writing cards ----------------------------------------------------------
    def _texts(self) -> dict[str, int]:
        """Every text that names one card: its code, and the forms people type."""
        texts: dict[str, int] = {}

        def add(text: str, c: int) -> None:
            texts.setdefault(text.upper().replace(" ", ""), c)

        for c, code in enumerate(self.codes):
            add(code, c)
        for s, suit in enumerate(self.suits):
            for r, rank in enumerate(self.ranks):
                c = s * self.stride + r
                for rank_text in {rank.code, rank.name, str(rank.value)}:
                    for suit_text in {suit.code, suit.symbol, suit.name}:
                        add(rank_text + suit_text, c)
                    add(f"{rank_text}of{suit.name}", c)
        specials = list(enumerate(self.specials))
        for k, special in specials[1:] + specials[:1]:  # the joker's names last: a special may be called Joker
            c = len(self.suits) * self.stride + k
            for text in (special.name, special.symbol):
                add(text, c)
        if self.standard:  # the standard pack's own forms: "10s", "1h" for an ace, "Jkr", "joker", "*"
            for text, c in _standard_forms().items():
                add(text, c)
        return texts

    def card(self, text: str) -> int:
        """The card ``text`` names (a code, or as people type it: ``10h``, ``q♠``, ``high king``);
        ValueError with a readable reason."""
        t = text.strip().upper().replace(" ", "")
        found = self._by_text.get(t)
        if found is not None:
            return found
        own = ", ".join(f"{s.code} ({s.name})" for s in self.specials[1:])
        if self.standard:
            try:
                return _standard.card(text)  # its own readable reasons ("has no suit (S, H, D or C)")
            except ValueError as exc:
                if not own:
                    raise
                raise ValueError(f"{exc}; or a special card: {own}") from None
        if not t:
            raise ValueError("no card given")
        examples = ", ".join(self.codes[c] for c in (0, self.stride - 1) if c < self.size)
        raise ValueError(f"'{text}' is not a card of this pack (write rank then suit, e.g. {examples}"
                         + (f"; or a special card: {own})" if own else ")"))

    def code(self, c: int) -> str:
        return self.codes[c]

    def pretty(self, c: int, *, ascii_only: bool = False) -> str:
        """A card for people: ``10♥`` (``10H``), a special card's symbol."""
        return (self._shown_ascii if ascii_only else self._shown)[c]

    def _pretty(self, c: int, ascii_only: bool) -> str:
        k = self.special_of[c]
        if k >= 0:
            special = self.specials[k]
            return special.code if ascii_only and not special.symbol.isascii() else special.symbol
        rank = self.ranks[self.rank_of[c]]
        suit = self.suits[self.suit_of[c]]
        shown = "10" if rank.code == "T" else rank.code
        return shown + (suit.code if ascii_only or not suit.symbol else suit.symbol)

    def colour(self, c: int) -> str | None:
        """The colour of the card's suit (None for a suitless card)."""
        s = self.suit_of[c]
        return self.suits[s].colour if s >= 0 else None

    def suited(self, suit: int, rank: int) -> int:
        return suit * self.stride + rank

    def special(self, code: str) -> int:
        """The card of the special ``code`` (KeyError if the pack has none)."""
        for k, special in enumerate(self.specials):
            if special.code == code:
                return len(self.suits) * self.stride + k
        raise KeyError(code)

    def deck(self, decks: int, jokers: int, ranks: Sequence[str], removed: Sequence[int] = (),
             specials: Sequence[tuple[int, int]] = ()) -> list[int]:
        """Every card of a game's deck, in order (shuffle it with an injected RNG): each
        suit's cards of the ``ranks`` kept (codes) but the ``removed`` ones, ``decks``
        times, then the jokers, then each special card as many times as ``specials`` says.
        For the standard pack, the order :func:`.cards.make_deck` gives."""
        keep = [r for r, rank in enumerate(self.ranks) if rank.code in ranks]
        gone = set(removed)
        one = [s * self.stride + r for s in range(len(self.suits)) for r in keep if s * self.stride + r not in gone]
        out = one * decks
        if jokers:
            out += [self.special("JK")] * jokers
        for card, count in specials:
            out += [card] * count
        return out

    def __repr__(self) -> str:
        return f"Pack({len(self.suits)} suits x {self.stride} ranks + {len(self.specials)} specials)"


def _standard_forms() -> dict[str, int]:
    forms: dict[str, int] = {}
    for c in range(_standard.JOKER):
        rank, suit = _standard.NAMES[c][0], _standard.NAMES[c][1]
        for s in (suit, _standard.SUIT_SYMBOLS[suit]):
            if rank == "T":
                forms["10" + s] = c
            if rank == "A":
                forms["1" + s] = c
        for symbol, letter in (("♤", "S"), ("♡", "H"), ("♢", "D"), ("♧", "C")):
            if letter == suit:
                forms[("10" if rank == "T" else rank) + symbol] = c
    for text in ("JOKER", "JKR", "JO", "*"):
        forms[text] = _standard.JOKER
    return forms


STANDARD_SUITS = (Suit("S", "spades", "♠", "black"), Suit("H", "hearts", "♥", "red"),
                  Suit("D", "diamonds", "♦", "red"), Suit("C", "clubs", "♣", "black"))
_RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king",
               "ace")
STANDARD_RANKS = tuple(Rank(code, name, value) for code, name, value in
                       zip(_standard.RANKS, _RANK_NAMES, range(2, 15)))
JOKER = Special("JK", "Joker", "Jkr")
STANDARD = Pack(STANDARD_SUITS, STANDARD_RANKS, (JOKER,), standard=True)
assert STANDARD.codes == _standard.NAMES and STANDARD.special("JK") == _standard.JOKER
