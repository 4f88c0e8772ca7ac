"""The contract-rummy table in the browser: the contract, the stock and the discard on
offer, the melds on the table, the buy window and who may buy, and controls to take or
buy the discard, go down, lay off, swap a joker and discard."""

from __future__ import annotations

from typing import Any, Sequence

from ...interpreter.families.contract_rummy.actions import (Allow, Buy, Choose, Claim, Discard, DrawStock, GoDown, LayOff,
                                                             Pass, Refuse, Swap, TakeDiscard)
from ...interpreter.families.contract_rummy.rules import GoingOut, RummyRules
from ...interpreter.families.contract_rummy.state import Phase, RummyObservation
from ...interpreter.rules import Ruleset

GOING_OUT_WORDS = {GoingOut.NO_DISCARD: "go out with every card on the table",
                   GoingOut.DISCARD_OPTIONAL: "go out with or without a last discard",
                   GoingOut.DISCARD_REQUIRED: "go out with a last discard"}
MAX_SUGGESTIONS = 8




class RummyWebView:
    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.section: RummyRules = rules.section
        self.call = self.section.fitting_discard_call.name
        self.pack = rules.deck.pack
        self.codes = self.pack.codes  # the game's pack's card codes, by card

    def _cards(self, cards: Sequence[int]) -> str:
        return " ".join(self.pack.pretty(c) for c in cards)

    def meld_check(self, state: Any, codes: Sequence[str]) -> tuple[bool, str]:
        """Whether ``codes`` (a meld being built at the table) make a set or a run under
        this round's rules, and in words what it is or why not.  Only the rules are read:
        nothing of any hand."""
        try:
            cards = [self.pack.card(code) for code in codes]
        except ValueError as exc:
            return False, str(exc)
        try:
            meld = state.meld_engine.classify(cards)
        except ValueError as exc:
            return False, str(exc)
        return True, f"a {meld.name or meld.kind.value}"

    def panels(self, obs: RummyObservation, names: Sequence[str], spectator: bool) -> list[dict[str, Any]]:
        facts: list[dict[str, Any]] = []
        if obs.contract is not None and not (spectator and obs.contracts):  # (a spectator: every seat's, below)
            facts.append({"label": "Your contract" if obs.contracts else "Contract",
                          "value": f"{obs.contract.name}: "
                          + (", ".join(str(m) for m in obs.contract.melds) or "no contract: go out by melding every card")
                          + f"; {GOING_OUT_WORDS[obs.contract.going_out]}"})
        if obs.contracts:  # each player's own
            facts.append({"label": "Contracts", "value": "; ".join(f"{names[s]}: {c.name}" for s, c in
                                                                     enumerate(obs.contracts))})
        for name, values in obs.counters:
            facts.append({"label": name.replace("_", " ").capitalize(),
                          "value": ", ".join(f"{names[s]} {v}" for s, v in enumerate(values))})
        if obs.phase != Phase.OVER:
            top = obs.top_discard
            facts.append({"label": "Discard", "value": "" if top is not None else "empty",
                          "cards": [self.codes[top]] if top is not None else [],
                          "note": "protected" if obs.discard_protected else ""})
            facts.append({"label": "Stock", "value": f"{obs.stock} cards"})
            if not spectator:
                facts.append({"label": "Your buys left", "value": str(obs.buys_left)})
            if obs.phase == Phase.WINDOW and top is not None:
                who = ", ".join(names[s] for s in obs.window) or "no one"
                asked = f"; {names[obs.buyer]} asked to buy it" if obs.buyer is not None else ""
                facts.append({"label": "Buy window", "value": f"{self.pack.pretty(top)} is on offer to {who} (in order){asked}"})
            if obs.phase == Phase.VETO and obs.buyer is not None and top is not None:
                facts.append({"label": "Buy", "value": f"{names[obs.buyer]} wants to buy {self.pack.pretty(top)}; "
                              f"{names[obs.player]} allows or refuses"})
            if obs.joker_debt:
                facts.append({"label": "Joker", "value": f"{names[obs.player]} freed a joker and must lay it off "
                              "before discarding"})
        panels: list[dict[str, Any]] = [{"kind": "facts", "items": facts}]
        melds = [{"id": m.id, "owner": m.owner, "kind": m.meld.name or m.meld.kind.value, "cards": m.meld.names(self.codes)}
                 for m in obs.table.melds]
        panels.append({"kind": "melds", "title": "Melds on the table", "melds": melds,
                       "empty": "no one has gone down yet"})
        known = [{"seat": s, "cards": [self.codes[c] for c in cards]} for s, cards in enumerate(obs.known)
                 if cards and (spectator or s != obs.seat)]
        if known:
            panels.append({"kind": "hands", "title": "Cards taken from the pile, still held", "hands": known})
        return panels

    def seat_notes(self, obs: RummyObservation, spectator: bool) -> list[str]:
        notes = []
        for seat in range(obs.players):
            parts = [f"{obs.hand_counts[seat]} cards"]
            if obs.down[seat]:
                parts.append("down")
            if obs.buys[seat]:
                parts.append(f"{obs.buys[seat]} buy{'s' if obs.buys[seat] > 1 else ''}")
            if obs.skipped and obs.skipped[seat]:
                parts.append("skips the next turn")
            notes.append(", ".join(parts))
        return notes

    def controls(self, obs: RummyObservation, legal: Sequence[Any], names: Sequence[str] = ()) -> dict[str, Any]:
        mine = obs.turn == obs.seat
        top = self.pack.pretty(obs.top_discard) if obs.top_discard is not None else "the discard"
        buttons: list[dict[str, Any]] = []
        composers: list[dict[str, Any]] = []
        prompt = "wait for your turn"
        discardable = {a.card for a in legal if isinstance(a, Discard)}
        for action in legal:
            if isinstance(action, TakeDiscard):
                buttons.append({"label": f"Take {top}", "move": str(action), "group": "Draw"})
            elif isinstance(action, DrawStock):
                buttons.append({"label": "Draw from the stock", "move": str(action), "group": "Draw"})
            elif isinstance(action, Buy):
                buttons.append({"label": f"Buy {top}", "move": str(action), "group": "Buy window"})
            elif isinstance(action, Pass):
                buttons.append({"label": "Pass", "move": str(action),
                                "group": "Capture" if obs.phase == Phase.CAPTURE else "Buy window"})
            elif isinstance(action, Claim):
                buttons.append({"label": f"{self.call.capitalize()} {top} onto [{action.meld}]", "move": str(action),
                                "group": "Buy window"})
            elif isinstance(action, Allow):
                buttons.append({"label": "Allow the buy", "move": str(action), "group": "Buy"})
            elif isinstance(action, Refuse):
                buttons.append({"label": "Refuse the buy", "move": str(action), "group": "Buy"})
            elif isinstance(action, Discard) and action.target is not None:  # skip.seat: chosen
                buttons.append({"label": f"Discard {self.pack.pretty(action.card)}"
                                         + (f" and {self.call}" if action.call else "")
                                         + f": {names[action.target] if action.target < len(names) else f'seat {action.target}'} loses a turn",
                                "move": str(action), "group": "Skip a player"})
            elif isinstance(action, Choose):
                buttons.append({"label": self.section.contracts[action.number - 1].name, "move": str(action),
                                "group": "Choose your contract"})
        if obs.phase == Phase.CAPTURE:  # a capture: put a card in a wild card's place and take the wild card
            for action in legal:
                if isinstance(action, Swap):
                    buttons.append({"label": f"Capture: {self.pack.pretty(action.card)} for the wild card in "
                                             f"[{action.meld}]", "move": str(action), "group": "Capture"})
        suggestions = [a for a in legal if isinstance(a, (GoDown, LayOff, Swap)) and obs.phase != Phase.CAPTURE]
        for action in suggestions[:MAX_SUGGESTIONS]:
            if isinstance(action, GoDown):
                label = ("Meld: " if obs.seat >= 0 and obs.down[obs.seat] else "Go down: ") + \
                    " | ".join(self._cards(m) for m in action.melds)
            elif isinstance(action, LayOff):
                label = f"Lay off {self._cards(action.cards)} on [{action.meld}]"
            else:
                label = f"Swap {self.pack.pretty(action.card)} for the joker in [{action.meld}]"
            buttons.append({"label": label, "move": str(action), "group": "Suggested"})
        if mine and obs.phase == Phase.CHOOSING:
            prompt = "choose your contract for this round"
        elif mine and obs.phase == Phase.DRAWING:
            prompt = "take the discard or draw"
        elif mine and obs.phase == Phase.WINDOW:
            prompt = f"{top} is on offer: buy it or pass"
        elif mine and obs.phase == Phase.VETO:
            prompt = "allow or refuse the buy"
        elif mine and obs.phase == Phase.CAPTURE:
            prompt = "a wild card was just put down: capture it or pass"
        elif mine and obs.phase == Phase.PLAYING:
            prompt = "pick cards, then go down, lay off, swap or discard"
            composers = [
                {"label": "Discard", "template": "discard {cards}", "count": [1, 1]},
                {"label": "Go down", "template": "meld {groups}", "groups": True, "count": [1, 60]},
                {"label": "Lay off on", "template": "layoff {meld} {cards}", "meld": True, "count": [1, 60]},
                {"label": "Swap for the joker in", "template": "swap {meld} {cards}", "meld": True, "count": [1, 1]},
            ]
            if any(a.call for a in legal if isinstance(a, Discard)):
                composers.insert(1, {"label": f"Discard and {self.call}", "template": "discard {cards} call",
                                     "count": [1, 1]})
        playing = mine and obs.phase == Phase.PLAYING
        hand = [{"card": self.codes[c], "move": None, "playable": c in discardable} for c in sorted(obs.hand)]
        return {"hand": hand, "select": playing, "buttons": buttons, "composers": composers, "prompt": prompt}
