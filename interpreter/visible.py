"""What a name or a line of text shows on a screen.

A name is shown in every line about its seat, so two that look alike must not both be
taken, and one that shows nothing is no name.  ``str.isprintable`` is not the test: it
passes the Hangul fillers (U+3164, U+115F, U+1160, U+FFA0) and the blank braille cell
(U+2800), which are drawn as nothing or as a blank, so "Ann" with a filler after it was a
second "Ann"; and it refuses the zero-width joiner (U+200D), a format character that
joins emoji into one (a woman and a laptop into a technologist).

:func:`is_shown_text` says whether a text holds only characters a screen shows as they
are (what ``isprintable`` passes, and the joiners and emoji tag sequences besides);
:func:`has_visible` whether it shows anything at all; :func:`skeleton` is what two
names are compared by.  The tables are Unicode's (DerivedCoreProperties.txt, 15.1).
"""

from __future__ import annotations

import re
import unicodedata

# Default_Ignorable_Code_Point: drawn as nothing where a font has no glyph for them
# (zero-width spaces and joiners, bidi controls, variation selectors, the fillers, tags).
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
# Drawn as a blank as wide as a letter, though not spaces: the fillers, the blank braille
# cell, a null notehead.  A skeleton reads each as a space.
_BLANKS = frozenset("\u115F\u1160\u3164\uFFA0\u2800\U0001D159")
_JOINERS = frozenset("\u200C\u200D")  # zero-width non-joiner (Persian, Indic scripts) and joiner (emoji)
# A subdivision flag: a black flag, tag letters naming the region, a cancel tag (England's: gbeng).
_TAG_SEQUENCE = re.compile("\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F")


def is_ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE)


def is_shown_text(text: str) -> bool:
    """Whether ``text`` holds only characters a screen shows as they are: printable ones
    (no control, format, separator or unassigned character), the zero-width joiner and
    non-joiner, and emoji tag sequences (a flag).  Bidi controls, which reorder what
    follows, and tag characters outside a flag, which show nothing, are not.

    >>> is_shown_text("\\U0001F469\\u200D\\U0001F4BB"), is_shown_text("a\\u202Eb"), is_shown_text("a\\nb")
    (True, False, False)
    """
    rest = _TAG_SEQUENCE.sub("\U0001F3F4", text)
    return all(char.isprintable() or char in _JOINERS for char in rest)


def has_visible(text: str) -> bool:
    """Whether ``text`` shows something: a letter, a digit, a punctuation mark or a
    symbol that is neither ignorable nor drawn blank (a mark alone, a space, a filler or
    a blank braille cell shows nothing).

    >>> has_visible("\\u3164"), has_visible("\\u2800 \\u200B"), has_visible("\\U0001F469\\u200D\\U0001F4BB")
    (False, False, True)
    """
    return any(unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS and not is_ignorable(char)
               for char in text)


def skeleton(text: str) -> str:
    """What ``text`` looks like, for telling two names apart: its NFKC form (fullwidth
    and other compatibility forms as their plain letters), blanks read as spaces, what
    is drawn as nothing left out, spaces collapsed, case folded.

    >>> skeleton("Ann\\u3164") == skeleton(" ANN ") == skeleton("\\uFF21nn\\u200B") == "ann"
    True
    """
    plain = unicodedata.normalize("NFKC", text)
    shown = "".join(" " if char in _BLANKS else "" if is_ignorable(char) else char for char in plain)
    return unicodedata.normalize("NFKC", " ".join(shown.split()).casefold())
