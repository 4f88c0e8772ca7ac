"""Reading ``trick.order`` and ``trick.roles`` (a card's power in a trick as data) into
a :class:`~.power.TrickOrder`, every problem at its key's line and column.

``trick.order`` lists the tiers from lowest to highest; ``led`` and ``trump`` must each
appear once; every other entry is a mapping with ``cards`` (special cards by code) or
``rule`` (the cards a predicate picks each round). Every special card of the pack but
the joker (which ``trump.jokers`` ranks) needs a place: in a tier, or through its roles.
"""

from __future__ import annotations


from ...expressions import Type
from ...rules import ROUND_NAMES, RulesBuilder
from .power import LED_TIER, TRUMP_TIER, LEAD_FREE, LEAD_NEXT, LEAD_SETS, TIES_CANCEL, TIES_FIRST, Tier, TrickOrder

# trick.order's rule: one card of the pack, and the round's trump and turned card
TIER_NAMES: dict[str, Type] = {**ROUND_NAMES, "card": Type.INT, "card_suit": Type.INT, "card_rank": Type.INT,
                               "card_is_special": Type.BOOL, "trump": Type.INT, "has_upcard": Type.BOOL,
                               "upcard": Type.INT, "upcard_suit": Type.INT, "upcard_rank": Type.INT,
                               "upcard_is_joker": Type.BOOL, "upcard_is_special": Type.BOOL, "dealer": Type.INT}
_LEADS = {"free": LEAD_FREE, "next": LEAD_NEXT, "sets": LEAD_SETS}


def build_order(builder: RulesBuilder) -> TrickOrder | None:
    # Long on purpose: one step per key of trick.order and trick.roles in the schema's
    # order, each reporting its problems at its own key.
    given = builder.get(("trick", "order"))
    pack = builder.pack
    specials = {s.code: pack.special(s.code) for s in pack.specials}
    if given is None:
        unplaced = [code for code in specials if code != "JK"]
        if unplaced:
            builder.fail(("deck", "specials"), f"the special cards {', '.join(unplaced)} need a place in "
                         "trick.order (their power in a trick)", at_key=True, span=8)
        if builder.get(("trick", "roles")) is not None:
            builder.fail(("trick", "roles"), "trick.roles name tiers of trick.order, which is not given",
                         at_key=True, span=5)
        return None
    tiers: list[Tier] = []
    placed: set[int] = set()
    names: set[str] = set()
    unsaid: list[int] = []  # tiers of suited cards that leave off_suit unsaid
    role_tiers = {str(r).upper() if str(r).upper() in specials else str(r)
                  for listed in (builder.get(("trick", "roles")) or {}).values() if isinstance(listed, list)
                  for r in listed}
    for i, entry in enumerate(given):
        path = ("trick", "order", i)
        if entry in ("led", "trump"):
            tier = LED_TIER if entry == "led" else TRUMP_TIER
            if entry in names:
                builder.fail(path, f"'{entry}' is listed twice")
            names.add(entry)
            tiers.append(tier)
            continue
        if not isinstance(entry, dict):
            builder.fail(path, "a tier is led, trump, or a mapping with cards or rule")
            continue
        codes = [str(c).upper() for c in entry.get("cards", [])]
        cards: set[int] = set()
        for j, code in enumerate(codes):
            if code not in specials:
                builder.fail(path + ("cards", j), f"'{code}' is not a special card of the pack (deck.specials: "
                             f"{', '.join(specials) or 'none'})")
            elif specials[code] in placed:
                builder.fail(path + ("cards", j), f"{code} has a place in trick.order already")
            else:
                cards.add(specials[code])
                placed.add(specials[code])
        rule = None
        if entry.get("rule") is not None:
            rule = builder.expr(path + ("rule",), TIER_NAMES, Type.BOOL)
        name = str(entry.get("name") or (codes[0] if codes else f"tier-{i + 1}"))
        if rule is None and not cards and not (entry.get("cards") == [] and name in role_tiers):
            builder.fail(path, f"tier '{name}' has no cards, and no card of trick.roles is played as it" if
                         entry.get("cards") == [] else
                         "a tier needs cards (special cards by code) or a rule (the cards it picks); a tier only "
                         "played as (trick.roles) is written cards: [] with its name")
        if name in names:
            builder.fail(path, f"two tiers are called '{name}': give one a name")
        names.add(name)
        follows = entry.get("follows", "own" if rule is not None else "none")
        tiers.append(Tier(name, frozenset(cards), rule, _LEADS[entry.get("lead", "free")], follows,
                          entry.get("any_time", follows == "none"), entry.get("ties", TIES_FIRST),
                          frozenset(str(w).upper() if str(w).upper() in specials else str(w)
                                    for w in entry.get("wins_over", [])), entry.get("off_suit", "wins") == "wins",
                          path))
        if rule is not None and follows == "own" and "off_suit" not in entry and \
                entry.get("rule") not in (False, "false"):  # (a rule picking no card has no suit either)
            unsaid.append(len(tiers) - 1)
    _warn_off_suit(builder, tiers, unsaid)
    for needed in ("led", "trump"):
        if needed not in names:
            builder.fail(("trick", "order"), f"trick.order needs '{needed}' (where the cards of the suit led "
                         "and the trumps stand)", at_key=True, span=5)
    for t, tier in enumerate(tiers):
        for w in tier.wins_over:
            if w not in names:
                builder.fail(tier.path + ("wins_over",), f"'{w}' is not a tier of trick.order")
    roles: list[tuple[int, tuple[str, ...]]] = []
    for code, listed in (builder.get(("trick", "roles")) or {}).items():
        path = ("trick", "roles", code)
        card = specials.get(str(code).upper())
        if card is None:
            builder.fail(path, f"'{code}' is not a special card of the pack", at_key=True, span=len(str(code)))
            continue
        if card in placed:
            builder.fail(path, f"{code} has a place in trick.order already; a card with roles takes its "
                         "place from the role it is played as", at_key=True, span=len(str(code)))
        wanted = tuple(str(r).upper() if str(r).upper() in specials else str(r) for r in listed)
        for r in wanted:
            if r not in names or r in ("led", "trump"):
                builder.fail(path, f"'{r}' is not a tier of trick.order a card can be played as")
        if len(wanted) < 2:
            builder.fail(path, "a card with roles has at least two to choose from")
        placed.add(card)
        roles.append((card, wanted))
    for code, card in specials.items():
        if code != "JK" and card not in placed:
            builder.fail(("trick", "order"), f"the special card {code} has no place in trick.order (nor roles)",
                         at_key=True, span=5)
    _warn_never_winning(builder, tiers, roles)
    return TrickOrder.from_tiers(tiers, roles, builder.get(("trick", "all_cancelled"), "leader"))


def _warn_off_suit(builder: RulesBuilder, tiers: list[Tier], unsaid: list[int]) -> None:
    """A warning for a tier of cards that keep their suit, below ``trump``, that does not
    say whether one of them off the suit led can win: it does (as it always has), which the
    rank of the tier does not make plain (above the trumps it is what a trump does too)."""
    names = [t.name for t in tiers]
    top = names.index("trump") if "trump" in names else len(tiers)
    for t in unsaid:
        if t < top:
            builder.warn(tiers[t].path, f"tier '{tiers[t].name}': its cards keep their suit, and one of them off "
                         "the suit led (neither led nor trump) still takes the trick by its tier: say off_suit: wins "
                         "if it should, or off_suit: loses")


def _warn_never_winning(builder: RulesBuilder, tiers: list[Tier], roles: list[tuple[int, tuple[str, ...]]]) -> None:
    """A warning for a tier below ``led`` that can never take a trick: it wins only a trick
    of its own and lower tiers' cards alone, and at no allowed player count does the pack
    hold one such card for every player."""
    names = [t.name for t in tiers]
    if "led" not in names or builder.deck is None:
        return
    low = names.index("led")
    counts = dict(builder.deck.specials)
    players_min, players_max = builder.get(("players", "min")), builder.get(("players", "max"))
    if not isinstance(players_min, int) or not isinstance(players_max, int) or players_max - players_min > 20:
        return
    for t in range(low):
        tier = tiers[t]
        if tier.rule is not None or tier.ties == TIES_CANCEL or tier.wins_over:
            continue
        below = {tiers[u].name for u in range(t + 1)}
        cards = set().union(*(tiers[u].cards for u in range(t + 1)))
        cards |= {card for card, wanted in roles if below & set(wanted)}
        enough = False
        for players in range(players_min, players_max + 1):
            try:
                decks = int(builder.deck.decks({"players": players}))
                held = sum(int(counts[c]({"players": players, "decks": decks})) * decks for c in cards if c in counts)
            except Exception:  # noqa: BLE001 - the counts' own problems are reported by the setup's checks
                return
            if held >= players:
                enough = True
                break
        if not enough:
            builder.warn(tier.path, f"{tier.name} never takes a trick: below 'led', it wins only a trick of "
                         "such cards alone, and the pack never holds one for every player")
