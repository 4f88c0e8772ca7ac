"""The buying window and the veto of a contract-rummy turn.  When the player in turn
declines the discard (:meth:`BuyingPhase._decline_discard`, the window's entry point),
the others, in the ruleset's priority order, may buy it (one buy per discard, within
their limit, with penalty cards off the stock; where ``buying.forced`` says so the first
of them that may buy takes it, unasked) or, where the ruleset allows the call,
claim a discard that fits a meld on the table (the claimer gives the discarder cards
from its hand).  Where ``buying.veto`` says so, the player in turn then allows the buy
or refuses it (the card stays on the pile, or they take it as their draw).  Then the
player in turn draws from the stock (:mod:`.drawing`).  Entry points for the window:
:meth:`~BuyingPhase._window_actions`, :meth:`~BuyingPhase._verify_window`; for the
veto: :meth:`~BuyingPhase._veto_actions`, :meth:`~BuyingPhase._verify_veto`."""

from __future__ import annotations

from ...errors import EvaluationError, IllegalActionError
from . import events
from .actions import ALLOW, BUY, PASS, REFUSE, Allow, Buy, Claim, Pass, Refuse
from .phases import _VETO, _WINDOW
from .round import Move, RoundState, not_now
from .rules import BuyPriority, BuyVeto


class BuyingPhase(RoundState):
    """The window in which the others may buy or claim the declined discard, and the
    player in turn's answer to a buy."""

    __slots__ = ()

    # --- the window ---------------------------------------------------------------------------
    def _decline_discard(self) -> None:
        """The player in turn declined the discard (they draw from the stock): the window
        opens for the seats that have a choice."""
        self.buyer = None
        self.window = self._window_order() if self.pile and not self.protected else []
        if self.section.buying.forced:  # no one is asked: the first seat that may buy takes it
            buyer = next((seat for seat in self.window if self._can_buy(seat)), None)
            self.window = []
            if buyer is not None:
                self._buy(buyer)
            self._draw_for_player()
            return
        self.window_pos = -1
        self._window_next()

    def _window_order(self, with_discarder: bool = False) -> list[int]:
        """The seats asked, in order (``with_discarder``: the top card's discarder too, for
        a card a buy uncovered)."""
        buying = self.section.buying
        if not (buying.allowed or self.section.fitting_discard_call.allowed):
            return []
        player, discarder = self.player, self.discarder  # discarder: None for the flip card
        priority = buying.priority
        if priority is BuyPriority.FROM_PLAYER_IN_TURN:
            first, step = player + 1, 1
        elif priority is BuyPriority.FROM_DEALER_LEFT:
            first, step = self.dealer + 1, 1
        else:
            step = buying.priority_step
            first = player + step if buying.priority_first is None else self._priority_first()
        players = self.players
        order = [(first + k * step) % players for k in range(players)]
        return [s for s in order if s != player and (with_discarder or s != discarder)]

    def _priority_first(self) -> int:
        """buying.priority.first, now: the seat asked first."""
        rule = self.section.buying.priority_first
        assert rule is not None
        env = self.setup.round_env(self.round_index)
        env.update(dealer=self.dealer, player=self.player,
                   discarder=self.dealer if self.discarder is None else self.discarder)
        return int(self._evaluate(rule, env, ("buying", "priority", "first")))

    def _window_next(self) -> None:
        """Ask the next seat in the window that has a choice; close it when none is left."""
        while True:
            self.window_pos += 1
            if self.window_pos >= len(self.window):
                self._close_window()
                return
            seat = self.window[self.window_pos]
            if self._can_buy(seat) or (self._may_claim(seat) and self._claimable()):
                self.phase = _WINDOW
                self.turn = seat
                return

    def _window_actions(self, seat: int) -> list[Move]:
        actions: list[Move] = [PASS]
        if self._can_buy(seat):
            actions.append(BUY)
        if self._may_claim(seat):
            actions += [Claim(m) for m in self._claimable()]
        return actions

    def _verify_window(self, seat: int, action: Move) -> None:
        if isinstance(action, Pass):
            return
        if isinstance(action, Buy):
            self._verify_buy(seat)
            return
        if isinstance(action, Claim):
            if not self._may_claim(seat):
                raise IllegalActionError("you need a card to give the discarder before you can call")
            if action.meld not in self._claimable():
                raise IllegalActionError(f"the discard does not fit meld {action.meld}")
            return
        raise not_now(action, f"you may buy the discard or pass now, not '{action}'")

    def _can_buy(self, seat: int) -> bool:
        limit = self._round_facts()[4]  # None where the ruleset has no buying
        return (limit is not None and self.buyer is None and bool(self.pile) and not self.protected
                and self.buys[seat] < limit and (self.section.buying.may is None or self._may_buy(seat)))

    def _may_buy(self, seat: int) -> bool:
        buying = self.section.buying
        assert buying.may is not None
        return bool(self._evaluate(buying.may, self._seat_env(seat), ("buying", "may", "rule")))

    def _may_claim(self, seat: int) -> bool:
        """A claimer gives cards from its hand and must keep one (an empty hand between
        turns is no way to go out)."""
        return len(self.hands[seat]) > self.section.fitting_discard_call.penalty_draw

    def _claimable(self) -> list[int]:
        if not self.section.fitting_discard_call.allowed or self.protected or not self.pile:
            return []
        top = self.pile[-1]
        return [m for m, meld in self.melds.items() if self.meld_engine.fits(meld, top)]

    def _verify_buy(self, seat: int) -> None:
        buying = self.section.buying
        if not buying.allowed:
            raise IllegalActionError("this ruleset has no buying")
        if self.protected:
            raise IllegalActionError("that discard was protected with a call")
        if self.buyer is not None:
            raise IllegalActionError("the discard is already bought: one buy per discard")
        limit = self._round_value(buying.limit, ("buying", "limit"))
        if self.buys[seat] >= limit:
            raise IllegalActionError(f"you have made your {limit} buys this round")
        if buying.may is not None and not self._may_buy(seat):
            assert buying.may_message is not None
            try:
                raise IllegalActionError(buying.may_message.render(self._seat_env(seat)))
            except EvaluationError as exc:
                raise EvaluationError(f"buying.may.message: {exc}", ("buying", "may", "message")) from None

    def why_no_buy(self, seat: int) -> str:
        """Why ``seat`` was not offered the discard just declined (for a replay's
        refusal of a record's buy line)."""
        if seat == self.player:
            return "it is the player in turn, who takes the discard free or not at all"
        if seat == self.discarder:
            return "it discarded that card"
        try:
            self._verify_buy(seat)
        except IllegalActionError as exc:
            return str(exc).replace("you have made your", "it has made its")
        return "the buying window had closed"

    def _ask_to_buy(self) -> None:
        """The seat asked wants to buy the discard: it is the buyer unless a later seat
        claims the card, so the window goes on, for claims only (one buy per discard)."""
        self.buyer = self.turn
        self._window_next()

    def _close_window(self) -> None:
        if self.buyer is not None:
            if self._vetoes:  # the player in turn answers the buy first (buying.veto)
                self.window = []
                self.phase = _VETO
                self.turn = self.player
                return
            self._buy(self.buyer)
            if self.section.buying.per_discard > 1 and self._offer_uncovered():
                return
        self.buyer = None
        self.window = []
        self.forced = []
        if self.chain:
            self.chain = ()  # (the turn's buys are over: observations show them only in a window)
        self._draw_for_player()

    def _offer_uncovered(self) -> bool:
        """buying.per_discard: after the buy by ``buyer``, the card it uncovered is offered
        in a new window (the window order less the seats that bought this turn; the card's
        own discarder is asked too), while the turn's buys are fewer than per_discard.
        Whether a window opened."""
        self.chain += (self.buyer,)  # type: ignore[operator]
        if len(self.chain) >= self.section.buying.per_discard or not self.pile:
            return False
        self.buyer = None
        order = self._window_order(with_discarder=True)
        self.window = [s for s in order if s not in self.chain]
        self.window_pos = -1
        self._window_next()
        return True

    def _buy(self, seat: int) -> None:
        c = self.pile.pop()
        self.hands[seat].append(c)
        self.known[seat] += (c,)
        penalty = []
        for _ in range(self._round_value(self.section.buying.penalty_cards, ("buying", "penalty_cards"))):
            drawn = self._take_stock_card()
            if drawn is None:
                break
            penalty.append(drawn)
        self.hands[seat].extend(penalty)
        self.buys[seat] += 1
        self.counters["buys"] += 1
        # (a reshuffle its penalty cards called for is logged first: its line comes before the
        # buy's, as before any line that takes a card from the stock it makes)
        self.log(events.buy(self.round, seat, c, penalty, self.setup.pack.codes))

    def _claim(self, meld_id: int) -> None:
        claimer = self.turn
        discarder = self.discarder if self.discarder is not None else self.player
        c = self.pile.pop()
        self._changed(meld_id, self.meld_engine.lay_off(self.melds[meld_id], c) or self.melds[meld_id])
        given = []
        for _ in range(self.section.fitting_discard_call.penalty_draw):
            hand = self.hands[claimer]
            if not hand:
                break
            pick = self.forced.pop(0) if self.forced else hand[self.rng("aux").randrange(len(hand))]
            if pick not in hand:
                raise IllegalActionError(f"the claimer holds no {self.setup.pack.codes[pick]} to give")
            hand.remove(pick)
            self._forget(claimer, pick)
            self.hands[discarder].append(pick)
            given.append(pick)
        self.counters["calls"] += 1
        # the cards given are seen by the two players they pass between
        self.log(events.call(self.section.fitting_discard_call.name, self.round, claimer, meld_id, c, given,
                             self.melds[meld_id], self.setup.pack.codes), seen={"given": frozenset({claimer, discarder})})
        self.buyer = None
        self.window = []
        self._draw_for_player()

    # --- the veto (buying.veto) ---------------------------------------------------------------
    def _veto_actions(self) -> list[Move]:
        return [ALLOW, REFUSE] if self._may_refuse() else [ALLOW]

    def _may_refuse(self) -> bool:
        """Whether the player in turn may refuse the buy asked (in the veto phase): always
        under ``veto: refuse``; under ``take`` only where they may take the discard."""
        return self.section.buying.veto is BuyVeto.REFUSE or self._can_take()

    def _verify_veto(self, action: Move) -> None:
        """The player in turn's answer to a buy: allow, or refuse where they may."""
        assert self.buyer is not None
        asked = f"seat {self.buyer} wants to buy {self.setup.pack.codes[self.pile[-1]]}"
        if isinstance(action, Allow):
            return None
        if isinstance(action, Refuse):
            if not self._may_refuse():
                rule = self.section.take_discard
                assert rule is not None
                reason = self._seat_refusal(rule, self.player, "take_discard")
                raise IllegalActionError(f"{asked}; you may only allow it: refusing means taking the discard "
                                         f"yourself, and {reason}")
            return None
        raise IllegalActionError(f"{asked}: allow or refuse it, not '{action}'")

    def _allow(self) -> None:
        """The player in turn allowed the buy: it happens, then they draw from the stock."""
        assert self.buyer is not None
        self._buy(self.buyer)
        self.buyer = None
        self.forced = []
        self._draw_for_player()

    def refused_buyer(self) -> int | None:
        """The buyer whose buy the player in turn has just refused, before their draw (whose
        record line names it, ``refused``: else the record would read as well without the
        ``refuse`` line, as if every seat had passed); None at any other time."""
        last = self._log[-1] if self._log else None
        return last["buyer"] if isinstance(last, dict) and last["event"] == "refuse" else None

    def _refuse(self) -> None:
        """The player in turn refused the buy: the buyer keeps its buys and no one else is
        asked; the card stays on the pile and they draw from the stock (``refuse``), or
        they take it, free, as their draw (``take``)."""
        buyer = self.buyer
        assert buyer is not None
        self.log(events.refuse(self.round, self.player, buyer, self.pile[-1], self.setup.pack.codes))
        self.counters["buys_refused"] += 1
        self.buyer = None
        self.forced = []
        if self.section.buying.veto is BuyVeto.TAKE:
            self._take_discard()
            self.turn = self.player
        else:
            self._draw_for_player()
