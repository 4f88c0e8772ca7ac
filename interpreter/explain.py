"""A ruleset's rules in words: Markdown generated from the resolved, compiled ruleset,
so a table can print the rules it agreed on (and the words never drift from the data).
The sections every game has are written here; the family writes its own.

>>> from cardrules.interpreter import ruleset_from_text
>>> from cardrules.interpreter.families.trick_taking import EXAMPLE
>>> text = explain(ruleset_from_text(EXAMPLE))
>>> "| bid 2, took 2 | 12 |" in text and "| bid 4, took 1 | 1 |" in text
True
"""

from __future__ import annotations

import re

from .pack import STANDARD
from .rules import Ruleset

SEAT_WORDS = {"left-of-dealer": "the player to the dealer's left", "dealer": "the dealer",
              "right-of-dealer": "the player to the dealer's right"}

__all__ = ["explain", "message_words", "notes_by_ruleset", "schedule_table", "SEAT_WORDS"]


def _players(rules: Ruleset) -> list[int]:
    return list(range(rules.min_players, rules.max_players + 1))


def schedule_table(rules: Ruleset) -> list[str]:
    """A Markdown table of the cards dealt each round (a column per player count where
    the schedule depends on it)."""
    counts = _players(rules)
    setups = {n: rules.setup(n) for n in counts}
    varies = len({setups[n].hand_sizes for n in counts}) > 1
    shown = counts if varies else counts[:1]
    head = "| round | " + " | ".join(f"{n} players" if varies else "cards each" for n in shown) + " |"
    lines = [head, "|---" * (len(shown) + 1) + "|"]
    rows = max(len(setups[n].hand_sizes) for n in shown)
    cells = [[str(setups[n].hand_sizes[i]) if i < len(setups[n].hand_sizes) else "" for n in shown]
             for i in range(rows)]
    i = 0
    while i < rows:  # a run of rounds dealing alike is one row ("| 14-200 | 13 |")
        j = i
        while j + 1 < rows and cells[j + 1] == cells[i]:
            j += 1
        label = f"{i + 1}" if j == i else f"{i + 1}-{j + 1}" if j - i > 1 else None
        if label is None:  # two alike: both rows, as a schedule reads them
            lines += [f"| {i + 1} | " + " | ".join(cells[i]) + " |", f"| {j + 1} | " + " | ".join(cells[j]) + " |"]
        else:
            lines.append(f"| {label} | " + " | ".join(cells[i]) + " |")
        i = j + 1
    if rules.deal.random_hand_size is not None:
        lines += ["", f"Each round's hand size is drawn at random at the deal from `{rules.deal.random_hand_size.source}` "
                  "(each entry as likely; `hand_size` there is the table's number, the most the round may deal); "
                  "the record's deal line names the size drawn."]
    return lines


def message_words(text: str) -> str:
    """A rule's message as the rules show it, its ``{expression}`` placeholders (worked
    out only when a move is refused) written as the formulas: "(`cards_left` cards would
    be left)"."""
    return re.sub(r"\{([^{}]*)\}", lambda m: f"`{m.group(1).strip()}`", text)


def _deck(rules: Ruleset) -> str:
    parts = []
    for n in _players(rules):
        setup = rules.setup(n)
        pack = setup.pack
        jokers = f" and {setup.jokers} joker{'s' if setup.jokers != 1 else ''}" if setup.jokers else ""
        specials = "".join(f", {count} {pack.specials[pack.special_of[c]].name}"
                           f"{'' if count == 1 or pack.specials[pack.special_of[c]].name.endswith('s') else 's'}"
                           for c, count in setup.special_counts if count)
        total = f" ({setup.deck_size} cards)" if setup.jokers or specials or setup.decks > 1 else ""
        without = f" ({', '.join(pack.pretty(c) for c in setup.removed)} taken out)" if setup.removed else ""
        parts.append((setup.decks, setup.jokers, f"{setup.decks} deck{'s' if setup.decks > 1 else ''} of "
                      f"{len(pack.suits) * len(setup.ranks) - len(setup.removed)} cards{without}{jokers}"
                      f"{specials}{total}", n))
    groups: dict[str, list[int]] = {}
    for _, _, text, n in parts:
        groups.setdefault(text, []).append(n)
    if len(groups) == 1:
        return next(iter(groups))
    return "; ".join(f"{text} for {ns[0]}-{ns[-1]} players" if len(ns) > 1 else f"{text} for {ns[0]} players"
                     for text, ns in groups.items())


def _pack_lines(rules: Ruleset) -> list[str]:
    """The pack's own suits, ranks and special cards, when it is not the standard one."""
    pack = rules.deck.pack
    if pack is STANDARD:
        return []
    out = []
    if not pack.standard:
        out.append("- Suits: " + ", ".join(f"{s.name} ({s.symbol or s.code}, written {s.code}"
                                           + (f", {s.colour}" if s.colour else "") + ")" for s in pack.suits) + ".")
        # the ranks the deck holds (the standard codes may keep only some of the standard ranks)
        ranks = rules.deck.ranks if rules.deck.ranks_rule is None else tuple(r.code for r in pack.ranks)
        first = pack.codes[[r.code for r in pack.ranks].index(ranks[0])] if ranks else pack.codes[0]
        out.append("- Ranks, low to high: " + " ".join(ranks) + f"; a card is written rank then suit ({first}).")
    for special in pack.specials[1:]:
        out.append(f"- {special.name} ({special.symbol}): written {special.code}.")
    return out


def explain(rules: Ruleset, notes: bool = False) -> str:
    """The rules of ``rules`` as Markdown, for players; with ``notes`` also for authors:
    the source in full, the rules' formulas and the readings chosen (each inherited note
    replaced by a child's note with the same label)."""
    out: list[str] = [f"# {rules.title}", ""]
    if rules.description:
        out += [rules.description, ""]
    source = rules.source
    if source and notes:
        where = ", ".join(f"{k}: {v}" for k, v in source.items())
        out += [f"*Ruleset `{rules.name}`; source: {where}.*", ""]
    elif source.get("url"):
        out += [f"*From {source['url']}.*", ""]
    out += ["## Players and cards", "",
            f"- {rules.min_players} to {rules.max_players} players." if rules.min_players != rules.max_players
            else f"- {rules.min_players} players.",
            f"- The deck: {_deck(rules)}.",
            *_pack_lines(rules),
            *([f"- Aces rank {'high' if rules.deck.ace == 'high' else 'low' if rules.deck.ace == 'low' else 'high or low'}."]
              if any(r.code == "A" for r in rules.deck.pack.ranks)
              and (rules.deck.ranks_rule is not None or "A" in rules.deck.ranks) else []),
            f"- {_first_dealer(rules.deal.first_dealer)} deals first; the deal "
            f"passes {'to the left' if rules.deal.rotation == 'left' else 'to the right' if rules.deal.rotation == 'right' else 'never (one dealer)'}; "
            f"{SEAT_WORDS[rules.deal.first_to_act]} acts first"
            + (", and the turn goes counter-clockwise (to the right)." if rules.deal.direction.step < 0 else "."),
            (f"- The winner: of the players with the {' then '.join(('highest ' if best == 'highest' else 'lowest ') + f'`{rule.source}`' for rule, best in rules.winner_by)}, "
             f"the {'highest' if rules.winner == 'highest' else 'lowest'} total (`winner_by`)."
             if rules.winner_by else
             f"- The {'highest' if rules.winner == 'highest' else 'lowest'} total after the last round wins.")
            + (" A tie for the best total goes to the player with the "
               + " then ".join(('highest ' if best == 'highest' else 'lowest ') + f"`{rule.source}`"
                               for rule, best in rules.tie_break)
               + " (`tie_break`); a tie it leaves is shared." if rules.tie_break else "")
            + (f" The game ends after the first round after which `{rules.end_when.source}` holds (`totals`: "
               "each player's total, `team_totals`: each player's team's"
               + ("; each counter: every player's value" if rules.section is not None and
                  list(rules.family.counter_names(rules.section)) else "")
               + "), or after the last round of the "
               "schedule." if rules.end_when is not None else ""), ""]
    if rules.team is not None:
        seats = rules.setup(rules.min_players).teams
        out.insert(-1, f"- Partnerships: each seat's team is `{rules.team.source}` (with {rules.min_players} "
                       f"players: {', '.join(f'seat {s} team {t}' for s, t in enumerate(seats))}); teammates' "
                       "totals add up and every player of the best team wins.")
    if rules.modes:
        out += ["## Modes", ""]
        for name, (description, _) in rules.modes.items():
            marker = " (this ruleset plays it)" if name == rules.mode else ""
            out.append(f"- `{name}`: {description}{_mode_rounds(rules, name)}{marker}")
        out.append("")
    out += rules.family.explain(rules, notes)
    if rules.notes and notes:
        out += ["## Readings of the source", ""]
        groups = notes_by_ruleset(rules)
        for name, kept in groups:
            if len(groups) > 1:
                out += [_notes_heading(rules, name), ""]
            out += [f"- {note}" for note in kept] + [""]
    return "\n".join(out).rstrip() + "\n"


def notes_by_ruleset(rules: Ruleset) -> list[tuple[str, list[str]]]:
    """The notes shown, grouped by the ruleset (of the `extends` chain) that wrote them,
    the farthest parent first: [(ruleset name, its notes)].  A parent's notes describe
    the parent's rules, which a child may have changed, so they are never shown as the
    child's.  A labelled note ("Game end: ...") is replaced by a later ruleset's note of
    the same label, shown under that ruleset's name; the notes of one file are all shown,
    whatever their labels (two notes of one file may well start alike: "Not expressible:")."""
    document = rules.document
    origins = []
    for i in range(len(rules.notes)):
        pos = document.positions.get(("notes", i))
        origins.append(document.names.get(pos.source.name, rules.name) if pos is not None else rules.name)
    labels = [_label(note) for note in rules.notes]
    last_origin = {label: origins[i] for i, label in enumerate(labels) if label is not None}
    groups: dict[str, list[str]] = {}
    for note, label, origin in zip(rules.notes, labels, origins):
        if label is None or last_origin[label] == origin:  # else a later ruleset's note replaces it
            groups.setdefault(origin, []).append(note)
    return list(groups.items())


def _notes_heading(rules: Ruleset, name: str) -> str:
    """Whose notes follow: this ruleset's, its parent's, or a farther parent's."""
    chain = [rules.document.names.get(file, file) for file in rules.document.chain]  # the ruleset first
    if name == rules.name or name not in chain[1:]:
        return f"Of `{rules.name}` itself:"
    place = chain.index(name, 1)
    through = "" if place == 1 else f" through `{chain[place - 1]}`"
    return (f"From `{name}`, which this ruleset extends{through}: readings of its rules (where `{rules.name}` "
            "changes a rule, the rules above are the ones played):")


def _label(note: str) -> str | None:
    match = _LABEL.match(note)
    return match.group(1).lower() if match else None


_LABEL = re.compile(r"([A-Z][^:'\"]{0,40}):\s")


def _first_dealer(seat: int | None) -> str:
    if seat is None:
        return "A seat drawn by lot"
    return "The first seat (seat 0)" if seat == 0 else f"Seat {seat} (counting the first seat as 0)"


def _mode_rounds(rules: Ruleset, mode: str) -> str:
    """" (rounds 4 to 7)": the rounds a mode plays (at the fewest players), as numbers of
    the full game."""
    try:
        numbers = list(rules.setup(rules.min_players, mode).round_numbers)
    except Exception:  # noqa: BLE001 - validate reports a mode that cannot be set up
        return ""
    if not numbers:
        return ""
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return f" (rounds {numbers[0]} to {numbers[-1]})"
    return f" (round{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))})"
