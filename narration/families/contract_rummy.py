"""The contract-rummy table at the terminal: the contract, the discard on offer, the
melds on the table, buys, and the round's penalty sheet.  Events a ruleset names
itself (its chance events, its fitting-discard call) are narrated by the names the
ruleset gives them."""

from __future__ import annotations

from typing import Any, Sequence


from ...interpreter.families.contract_rummy.actions import (Allow, Buy, Choose, Claim, Discard, DrawStock, GoDown, LayOff,
                                                            Pass, Refuse, Swap, TakeDiscard)
from ...interpreter.families.contract_rummy.bot import RummyBot
from ...interpreter.families.contract_rummy.rules import GoingOut, RummyRules
from ...interpreter.families.contract_rummy.state import Phase, RummyObservation
from ...interpreter.rules import Ruleset
from ..output import echo, possessive

GOING_OUT_WORDS = {GoingOut.NO_DISCARD: "go out with every card on the table",
                   GoingOut.DISCARD_OPTIONAL: "go out with or without a last discard",
                   GoingOut.DISCARD_REQUIRED: "go out with a last discard"}


NO_CONTRACT = "no contract: go out by melding every card"


class RummyView:
    def __init__(self, rules: Ruleset, renderer: Any):
        self.rules = rules
        self.section: RummyRules = rules.section
        self.r = renderer
        self.call = self.section.fitting_discard_call.name
        self.codes = rules.deck.pack.codes  # the game's pack's card codes, by card
        self.chance_events = {e.name for e in self.section.chance_events}

    def _name(self, seat: int) -> str:
        return self.r.names[seat]

    # --- narration ---
    def event(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == self.call:
            self.on_call(event)
        elif kind in self.chance_events:
            self.on_chance_event(event)
        else:
            handler = getattr(self, f"on_{kind}", None)
            if handler is not None:
                handler(event)

    def on_draw(self, event: dict[str, Any]) -> None:
        if event["from"] == "discard":
            self.r.say(f"{self._name(event['seat'])} takes {self.r.card(event['card'])}")
        elif event.get("card"):  # your own draw (the engine shows the card to you alone)
            self.r.say(f"{self._name(event['seat'])} draws {self.r.card(event['card'])} from the stock")
        else:
            self.r.say(f"{self._name(event['seat'])} draws from the stock")

    def on_meld(self, event: dict[str, Any]) -> None:
        melds = "; ".join(f"[{m['id']}] {self.r.cards(m['cards'])}" for m in event["melds"])
        down = self.r.round.setdefault(("down", event["round"]), set())  # (going_down.later_melds)
        self.r.say(f"{self._name(event['seat'])} " + ("puts down a new meld" if event["seat"] in down else "goes down")
                   + f": {melds}")
        down.add(event["seat"])

    def on_layoff(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self._name(event['seat'])} lays off {self.r.cards(event['cards'])} on [{event['meld']}]")

    def on_capture(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self._name(event['seat'])} captures {self.r.card(event['freed'])} from [{event['meld']}], "
                   f"putting {self.r.card(event['card'])} in its place")

    def on_swap(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self._name(event['seat'])} swaps {self.r.card(event['card'])} for the joker "
                   f"in [{event['meld']}]")

    def on_discard(self, event: dict[str, Any]) -> None:
        call = " and calls it" if event.get(self.call) else ""
        target = event.get("skips")
        aimed = f": {self._name(target)} will lose a turn" if isinstance(target, int) else ""
        self.r.say(f"{self._name(event['seat'])} discards {self.r.card(event['card'])}{call}{aimed}")
        self.r.end_turn()

    def on_call(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self._name(event['seat'])} calls {self.r.card(event['card'])} onto "
                   f"[{event['meld']}] and gives a card away")

    def on_chance_event(self, event: dict[str, Any]) -> None:
        if event.get("success"):
            self.r.round.setdefault("bonuses", []).append(f"the {event['event']} by {self._name(event['seat'])}")

    def on_out(self, event: dict[str, Any]) -> None:
        self.r.round.setdefault("out", event["seat"])  # (the first out; others may go out in a last turn)
        self.r.say(f"{self._name(event['seat'])} goes out")
        self.r.end_turn()

    def on_laydown(self, event: dict[str, Any]) -> None:
        melds = "; ".join(self.r.cards(m["cards"]) for m in event["melds"]) or "nothing"
        left = self.r.cards(event["left"]) if event["left"] else "nothing"
        self.r.say(f"{self._name(event['seat'])} lays down {melds}; left: {left}")

    def on_choose(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self._name(event['seat'])} chooses {event['name']}")

    def on_contracts(self, event: dict[str, Any]) -> None:
        """Each player's own contract this round (``contract``)."""
        self.r.round["contracts"] = event["names"]
        self.r.say("Contracts: " + "; ".join(f"{self._name(s)} {name}" for s, name in enumerate(event["names"])))

    def on_skip(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self._name(event['seat'])} is skipped: this turn is lost")

    def on_bury(self, event: dict[str, Any]) -> None:
        """A turned-up card buried in the stock (``stock.bury_upcard``), another turned."""
        self.r.say(f"{self.r.card(event['card'])} is turned up and buried in the stock; "
                   f"{self.r.card(event['upcard'])} is turned up instead")

    def on_exhausted(self, event: dict[str, Any]) -> None:
        self.r.round["exhausted"] = event["reason"]

    def on_bonus(self, event: dict[str, Any]) -> None:
        self.r.round.setdefault("bonuses", []).append(event["name"])

    def on_buy(self, event: dict[str, Any]) -> None:
        buys = self.r.round.setdefault("buys", [0] * len(self.r.names))
        buys[event["seat"]] += 1
        penalty = (": " + self.r.cards(event["penalty"]) if event["penalty"] and event["penalty"][0] is not None
                   else "")  # your own penalty cards (the engine shows them to you alone)
        verb = "is pushed" if self.section.buying.forced else "buys"  # a forced buy is no choice (buying.forced)
        self.r.say(f"{self._name(event['seat'])} {verb} {self.r.card(event['card'])} "
                   f"(+{len(event['penalty'])} from the stock{penalty})")

    def on_refuse(self, event: dict[str, Any]) -> None:
        self.r.say(f"{self._name(event['seat'])} refuses {possessive(self._name(event['buyer']))} buy of "
                   f"{self.r.card(event['card'])}")

    last_help = "the last turn"

    def last_lines(self) -> list[str]:
        return self.r.last_turn_lines()

    # --- the round's summary ---
    def round_header(self) -> str:
        deal = self.r.round.get("deal")
        if not deal:
            return ""
        if self.section.own_contracts:  # each player's own: named by the contracts event
            return ", each player on their own contract"
        contract = self.section.contracts[self.r.setup.round_numbers[deal["round"] - 1] - 1]
        return f", contract {contract.name} ({', '.join(str(m) for m in contract.melds) or NO_CONTRACT})"

    sheet_legend = "the round's points (cards left, bonuses), and the buys made"

    def sheet_cell(self, seat: int, event: dict[str, Any]) -> str:
        buys = self.r.round.get("buys", [0] * len(self.r.names))[seat]
        out = "out" if self.r.round.get("out") == seat else ""
        return f"{event['points'][seat]:+d}" + (f" {out}" if out else "") + (f" b{buys}" if buys else "")

    def score_sheet(self, event: dict[str, Any]) -> None:
        round_ = self.r.round
        if "out" in round_:
            how = f"{self._name(round_['out'])} went out"
        else:
            how = "no one went out (" + ("the stock ran out" if round_.get("exhausted") == "stock"
                                        else "the turn limit was reached") + ")"
        extra = "; ".join(round_.get("bonuses", []))
        echo(f"  {how}" + (f"; {extra}" if extra else ""))  # the contract is in the round's title
        buys = round_.get("buys", [0] * len(self.r.names))
        w = self.r.width
        echo(f"  {'':{w}} {'buys':>5} {'points':>7} {'total':>6}")
        for seat, name in enumerate(self.r.names):
            echo(f"  {name:{w}} {buys[seat]:>5} {event['points'][seat]:>7} {event['totals'][seat]:>6}")

    # --- a person's turn ---
    def show_table(self, obs: RummyObservation) -> None:
        contract = obs.contract
        if contract is not None:
            spelled = ", ".join(str(m) for m in contract.melds) or NO_CONTRACT
            echo(f"{'Your contract' if obs.contracts else 'Contract'}: {contract.name} ({spelled}); "
                 f"{GOING_OUT_WORDS[contract.going_out]}")
        if obs.contracts:  # each player's own
            echo("Contracts: " + "; ".join(f"{self._name(s)} {c.name}" for s, c in enumerate(obs.contracts)
                                           if s != obs.seat))
        if obs.counters:
            echo("Counters: " + "; ".join(f"{name} " + " ".join(f"{self._name(s)} {v}" for s, v in enumerate(values))
                                          for name, values in obs.counters))
        top = obs.top_discard
        echo(f"Stock: {obs.stock} cards. Top discard: "
                   f"{self.r.card(self.codes[top]) if top is not None else '-'}"
                   + (" (protected)" if obs.discard_protected else "")
                   + f". Buys left: {obs.buys_left}.")
        if obs.table.melds:
            echo("Table:")
            for m in obs.table.melds:
                echo(f"  [{m.id}] {possessive(self._name(m.owner))} {m.meld.name or m.meld.kind.value}: "
                     f"{self.r.cards(m.meld.names(self.codes))}")
        down = [self._name(s) for s, d in enumerate(obs.down) if d]
        echo(f"Down: {', '.join(down) if down else 'no one yet'}. Cards held: "
                   + ", ".join(f"{self._name(s)} {n}" for s, n in enumerate(obs.hand_counts)))
        if obs.joker_debt and obs.seat == obs.player:
            echo("You freed a joker: lay it off before you discard.")

    def hand_text(self, obs: RummyObservation) -> str:
        return self.r.hand_text([self.codes[c] for c in sorted(obs.hand)])

    def prompt(self, obs: RummyObservation, legal: Sequence[Any]) -> str:
        if obs.phase == Phase.CHOOSING:
            options = "; ".join(f"{a.number}: {self.section.contracts[a.number - 1].name}" for a in legal
                                if isinstance(a, Choose))
            return f"choose your contract for this round (choose N) - {options}"
        if obs.phase == Phase.DRAWING:
            return "take the discard or draw (take / draw)"
        if obs.phase == Phase.VETO and obs.top_discard is not None and obs.buyer is not None:
            options = " or ".join(str(a) for a in legal)
            return f"{self._name(obs.buyer)} wants to buy {self.r.card(self.codes[obs.top_discard])}: {options}?"
        if obs.phase == Phase.CAPTURE:
            options = " / ".join(str(a) for a in legal)
            return f"a wild card was just put down in [{', '.join(map(str, obs.offered))}]: capture it or pass ({options})"
        if obs.phase == Phase.WINDOW and obs.top_discard is not None:
            options = " / ".join(str(a) for a in legal)
            return f"{self.r.card(self.codes[obs.top_discard])} is on offer ({options})"
        aims = sorted({a.target for a in legal if isinstance(a, Discard) and a.target is not None})
        if aims:  # skip.seat: chosen: a skip card names the seat it skips
            return ("meld / layoff / swap / discard (a skip card names whom it skips: 'discard CARD to N', N one of "
                    + ", ".join(f"{s} {self._name(s)}" for s in aims) + ")")
        return "meld / layoff / swap / discard"

    def hint_reason(self, obs: RummyObservation, action: Any) -> str | None:
        """Why the contract-rummy bot makes ``action``, in the terms it decides by (see
        its module: it keeps cards that build the contract's sets and runs, and throws
        the costliest card that builds nothing)."""
        top = obs.top_discard
        card = self.r.card(self.codes[top]) if top is not None else "the discard"
        down = obs.down[obs.seat]
        if obs.contract is not None and not obs.contract.melds:  # no contract: the bot goes by the hand's melding
            if isinstance(action, GoDown):
                return "your whole hand melds: go out"
            if isinstance(action, Discard):
                return "of the cards you may discard, it leaves the rest melding best (the fewest points unmatched)"
            if isinstance(action, TakeDiscard):
                return f"with {card} your hand melds better"
            if isinstance(action, DrawStock):
                return f"{card} does not make your hand meld better"
        if isinstance(action, TakeDiscard):
            return f"{card} can be laid off on the table" if down else f"{card} goes with cards you hold"
        if isinstance(action, DrawStock):
            return "there is no discard to take" if top is None else f"{card} does not help your hand"
        if isinstance(action, (Buy, Claim)):
            return f"{card} goes with cards you hold" + (", worth a buy" if isinstance(action, Buy) else "")
        if isinstance(action, Pass):
            return f"{card} does not help your hand enough to buy it" if not down else "you are down: buys add cards"
        if isinstance(action, (Allow, Refuse)):
            buyer = self._name(obs.buyer) if obs.buyer is not None else "the buyer"
            if isinstance(action, Refuse):
                return f"{card} is a card you want, or it goes with cards {buyer} took from the pile"
            return f"you do not want {card}, and it goes with none of the cards {buyer} took from the pile"
        if isinstance(action, Choose):
            return "of the contracts you may choose, your hand lacks the fewest cards for this one"
        if isinstance(action, GoDown):
            return "you hold the contract: go down as soon as you can, with as many cards as you can"
        if isinstance(action, Swap):
            return "a joker freed from the table is a wild card for your own melds"
        if isinstance(action, LayOff):
            return "every card laid off is one less in your hand when someone goes out"
        if isinstance(action, Discard) and action.target is not None:  # skip.seat: chosen
            return (f"of the players you may skip, {self._name(action.target)} holds the fewest cards: the nearest "
                    "to going out")
        if isinstance(action, Discard):
            keep = RummyBot(self.rules).keep_score(obs, action.card)
            feeds = obs.down[(obs.seat + self.rules.deal.direction.step) % obs.players]
            fits = " and the next player cannot lay it off" if feeds else ""
            if down:
                return f"the card that costs most if you are caught with it{fits}"
            if keep == 0:
                return f"it goes with none of your cards, and it costs most of those that do not{fits}"
            return f"every card builds something; this one builds least{fits}"
        return None

    def forced(self, obs: Any, legal: Sequence[Any]) -> str | None:
        return None  # every choice here is the player's own

    def help_text(self) -> str:
        """The moves of this ruleset, as a player types them (only those its rules have)."""
        section = self.section
        buying = section.buying.allowed and not section.buying.forced
        first = ["take", "draw"] + (["buy", "pass"] if buying or section.fitting_discard_call.allowed else [])
        if section.fitting_discard_call.allowed:
            first.append(f"{self.call} N")
        veto = buying and section.buying.veto.value != "none"
        lines = ["  " + " | ".join(first + (["allow", "refuse"] if veto else []))
                 + ("   (allow or refuse a buy in your turn)" if veto else ""),
                 "  meld 8h 8s jk | 5d 6d jk 8d   (go down: melds split by '|', runs low to high;",
                 "    name each meld's kind where the cards could be read otherwise: meld set: 8h 8s jk | run: ...)"]
        plays = ["layoff N 9d [low|high]"] if section.lay_off.allowed else []
        if section.joker_swap.allowed or section.joker_swap.capture:
            plays.append("swap N 7d")
        plays.append("discard ks" + (f" [{self.call}]" if section.fitting_discard_call.allowed else ""))
        if section.skip_chosen:
            plays.append("discard skip to N (a skip naming seat N)")
        lines.append("  " + "   ".join(plays))
        if section.contract_choose is not None:
            lines.append("  choose N   (your contract for the round)")
        return "\n".join(lines)

    # --- simulate ---
    def seat_columns(self) -> str:
        return f" {'went out':>9} {'penalty/round':>14}"

    def seat_cells(self, entry: dict[str, Any]) -> str:
        return f" {100 * entry['went_out_rate']:8.1f}% {entry['mean_penalty_per_round']:14.1f}"

    def summary_lines(self, stats: dict[str, Any]) -> list[str]:
        rummy = stats["rummy"]
        lines = [f"  rounds: {rummy['rounds']}; someone went out in {100 * rummy['gone_out_rate']:.1f}%; "
                 f"no one went down in {100 * rummy['nobody_down_rate']:.1f}%; "
                 f"{rummy['buys_per_round']:.2f} buys a round; "
                 f"mean penalty {rummy['mean_penalty_per_round']:.1f} a seat a round"]
        named = {f"{e.name}s" for e in self.section.chance_events}
        events = {k: v for k, v in rummy["counts"].items() if k.startswith("bonus_") or k in named
                  or k in ("swaps", "calls", "buys_refused")}
        if events:
            lines.append("  events: " + ", ".join(f"{k.removeprefix('bonus_')} {v}" for k, v in sorted(events.items())))
        return lines
