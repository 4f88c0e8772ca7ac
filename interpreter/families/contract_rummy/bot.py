"""A heuristic contract-rummy player, playing from its observation and the rules.

It keeps partial sets and runs (open-ended runs over inside ones), takes or buys a
discard that completes a meld within its buy limit, refuses (as the player in turn,
where ``buying.veto`` lets it) a buy of a card it would want itself or that joins the
cards the buyer is known to have taken, goes down as soon as it can, lays
off everything it can, swaps jokers out of runs, and discards its highest-value dead
card while avoiding cards the next player could lay off.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ...rules import Ruleset
from .actions import ALLOW, DRAW, PASS, REFUSE, TAKE, Buy, Choose, Claim, Discard, GoDown, LayOff, RummyAction, Swap
from .cardset import rummy_pack
from .rules import EITHER, GROUP, RUN, SET, Like, RummyRules
from .observation import RummyObservation
from .phases import Phase

_DRAWING, _WINDOW, _VETO, _CAPTURE = Phase.DRAWING, Phase.WINDOW, Phase.VETO, Phase.CAPTURE  # compared on every decision
_CHOOSING = Phase.CHOOSING
# Turns into a round (all seats' turns) after which the bot no longer takes back from the
# pile a card it discarded itself this round, unless the card lets it go down: two or
# three bots could otherwise pass the same few cards round for hundreds of turns (each
# taking the other's discard as a partial meld and throwing another), until the turn limit.
LATE_TURNS = 120
# How many of its best discards the bot offers a search to try (see shortlist): the
# search's playouts, spread over every card of a hand, gave each one or two sampled deals.
SHORTLIST = 3


class RummyBot:
    """Plays toward the round's contract; see the module's description."""

    kind = "bot"
    needs_observation = True
    skips_forced = True  # a single legal action is returned unread (see Policy)

    def __init__(self, rules: Ruleset, seed: int | str = 0):
        self.rng = random.Random(seed)
        self.section: RummyRules = rules.section
        self._step = rules.deal.direction.step  # the next player is seat + step
        self._needs_cache: tuple[Any, tuple[bool, bool]] = (None, (False, False))
        cards = rummy_pack(rules.deck.pack)
        # _neighbours[rank][r]: what holding rank r of a suit adds to keeping rank ``rank``
        # of that suit (2 beside it, 1 a gap away; the ace beside the king and the two),
        # looked up, not worked out, for each card of each hand scored
        self._neighbours = cards.neighbours
        self._stride = cards.stride
        self._suits = cards.suits
        self._suited = cards.suited  # special cards from here: a card that is not wild goes in no meld
        self._melding: dict[tuple[Any, ...], int] = {}  # see _left_after
        # the discard it took this turn (round, turn number, card): it does not throw that
        # card back in the same turn (two bots passing one card to and fro for ever)
        self._took: tuple[int, int, int] | None = None
        # the cards it discarded this round, with the round and the last turn number seen:
        # a turn number lower than the last one seen is another game or another sampled
        # world of a search (a playout bot plays many), and the memory starts afresh
        self._thrown: tuple[int, int, set[int]] = (-1, -1, set())
        # runs of any suits (melds.run.same_suit: false): a run's neighbours are of every suit;
        # groups (melds.kinds like colour or suit): cards that share the colour or suit build them
        melds = self.section.melds
        self._any_suit_runs = not melds.run_same_suit
        colours: dict[str, int] = {}
        self._colour_of = tuple(colours.setdefault(s.colour, len(colours)) for s in rules.deck.pack.suits)
        self._groups_cache: tuple[Any, tuple[Like, ...]] = (None, ())
        # (either takes the general scoring, apart: the plain one runs at nearly every decision)
        self._general = self._any_suit_runs or bool(melds.kinds)

    def _remember_thrown(self, obs: RummyObservation, card: int) -> None:
        thrown = self._thrown
        if thrown[0] != obs.round or obs.turn_number < thrown[1]:
            thrown = self._thrown = (obs.round, obs.turn_number, {card})
        else:
            thrown[2].add(card)
            if obs.turn_number != thrown[1]:
                self._thrown = (thrown[0], obs.turn_number, thrown[2])

    def _takes_back(self, obs: RummyObservation, c: int) -> bool:
        """Whether taking ``c`` from the pile, late in the round, would take back a card
        this seat discarded this round without completing a meld (see LATE_TURNS)."""
        thrown_round, last_turn, cards = self._thrown
        if obs.turn_number <= LATE_TURNS or thrown_round != obs.round or obs.turn_number < last_turn or \
                c not in cards or c in obs.wild or obs.down[obs.seat] or obs.contract is None or \
                not obs.contract.melds:
            return False
        # (late in a long round only, so the go-down search below runs rarely)
        return not obs.table.engine.go_down_options(list(obs.hand) + [c], obs.contract.melds, 1)

    def act(self, obs: RummyObservation, legal: Sequence[RummyAction]) -> RummyAction:
        actions = legal
        if len(actions) == 1:
            return actions[0]
        phase = obs.phase
        if phase == _DRAWING:
            top = obs.top_discard
            if TAKE in actions and top is not None and self._wants(obs, top, buying=False) and \
                    not self._takes_back(obs, top):
                self._took = (obs.round, obs.turn_number, top)
                return TAKE
            return DRAW
        if phase == _CHOOSING:
            return self._choose(obs, actions)
        if phase == _CAPTURE:  # a wild card for a natural one: always worth it
            return next((a for a in actions if isinstance(a, Swap)), actions[0])
        if obs.contract is not None and not obs.contract.melds:  # no contract: go out by melding
            return self._meld_out(obs, actions)
        if phase == _WINDOW:
            # one pass over the (few) actions: a window is a quarter of all decisions
            buy = None
            for a in actions:
                if isinstance(a, Claim):
                    return a  # the first claim listed
                if isinstance(a, Buy):
                    buy = a
            if buy is not None and obs.top_discard is not None and self._wants(obs, obs.top_discard, buying=True):
                return buy
            return PASS
        if phase == _VETO:
            return REFUSE if self._denies(obs) else ALLOW
        action = self._play(obs, actions)
        if type(action) is Discard:  # (remembered for _takes_back)
            self._remember_thrown(obs, action.card)
        return action

    def shortlist(self, obs: RummyObservation, legal: Sequence[RummyAction]) -> list[int] | None:
        """For the search (see Policy.shortlist): where the bot only discards (nothing to
        go down with, swap or lay off), the places in ``legal`` of its SHORTLIST best
        discards, one a card (called where it may be, as the bot plays it), its own choice
        first; else None (every action is worth a look)."""
        if len(legal) <= SHORTLIST or obs.phase == _DRAWING or obs.phase == _WINDOW or obs.phase == _VETO or \
                obs.phase == _CAPTURE or (obs.contract is not None and not obs.contract.melds):
            return None
        if not all(type(a) is Discard for a in legal):
            return None
        # one discard a card: the called one where the card may be called (as the bot plays it)
        by_card: dict[int, Discard] = {}
        for a in legal:
            if a.card not in by_card or a.call:  # type: ignore[union-attr]
                by_card[a.card] = a  # type: ignore[union-attr,assignment]
        discards = self._kept_back(obs, list(by_card.values()))
        keys = [key[:2] for key in self._discard_keys(obs, discards)]
        order = sorted(range(len(discards)), key=lambda i: (keys[i], i))[:SHORTLIST]
        place = {id(a): i for i, a in enumerate(legal)}
        return [place[id(discards[i] if discards[i].target is None else self._aim(obs, discards[i], legal))]
                for i in order]

    # --- the choice of a contract (contract.choose) --------------------------------------------
    def _choose(self, obs: RummyObservation, actions: Sequence[RummyAction]) -> RummyAction:
        """The contract the hand is nearest to (the fewest cards missing, see _missing); of
        equally near ones the last listed (the harder, where contracts grow harder)."""
        contracts = self.section.contracts
        best, best_missing = actions[0], None
        for a in actions:
            if type(a) is Choose:
                missing = self._missing(obs, contracts[a.number - 1].melds)
                if best_missing is None or missing <= best_missing:
                    best, best_missing = a, missing
        return best

    def _missing(self, obs: RummyObservation, melds: Sequence[Any]) -> int:
        """About how many cards ``obs.hand`` lacks for ``melds``: each part, the largest
        first, takes the natural cards that best start it (the most of one rank for a set;
        of one run's window of ranks, of one suit unless runs are of any suits; of one
        colour, suit or any for a group), and the hand's wild cards fill what is left."""
        wild, suited, stride = obs.wild, self._suited, self._stride
        left = [c for c in obs.hand if c not in wild and c < suited]
        wilds = len(obs.hand) - len(left) - sum(1 for c in obs.hand if c not in wild and c >= suited)
        kinds = self.section.melds.kinds
        missing = 0
        for meld in sorted(melds, key=lambda m: -m.min_size):
            size = meld.min_size
            options: list[list[int]] = []
            if meld.kind is SET or meld.kind is EITHER:
                by_rank: dict[int, list[int]] = {}
                for c in left:
                    by_rank.setdefault(c % stride, []).append(c)
                options += [cards[:size] for cards in by_rank.values()]
            if meld.kind is RUN or meld.kind is EITHER:
                groups: dict[int, dict[int, int]] = {}
                for c in left:  # one card of each rank, by suit (or all together)
                    groups.setdefault(0 if self._any_suit_runs else c // stride, {}).setdefault(c % stride, c)
                for ranks in groups.values():
                    for low in range(max(1, stride - size + 1)):
                        options.append([ranks[r] for r in range(low, low + size) if r in ranks])
            if meld.kind is GROUP and meld.name in kinds:
                like = kinds[meld.name].like
                by_kind: dict[Any, list[int]] = {}
                for c in left:
                    key = self._colour_of[c // stride] if like is Like.COLOUR else \
                        c // stride if like is Like.SUIT else 0
                    by_kind.setdefault(key, []).append(c)
                options += [cards[:size] for cards in by_kind.values()]
            used = max(options, key=len, default=[])
            for c in used:
                left.remove(c)
            missing += size - len(used)
        return max(0, missing - wilds)

    # --- what a card is worth to this hand ------------------------------------------------
    def _needs(self, obs: RummyObservation) -> tuple[bool, bool]:
        assert obs.contract is not None
        contract = obs.contract.melds
        cached_for, needs = self._needs_cache
        if cached_for is not contract:  # one contract a round: work it out once
            kinds = {m.kind for m in contract}
            needs = SET in kinds or EITHER in kinds, RUN in kinds or EITHER in kinds
            self._needs_cache = (contract, needs)
        return needs

    def _keep_score(self, obs: RummyObservation, hand: Sequence[int], c: int) -> float:
        """How much ``c`` helps toward the contract if it joins ``hand`` (higher: keep
        it): 100 for a joker; else 3 for each other card of its rank (at most 2) where
        the contract has sets, and its run neighbours in ``hand`` where it has runs (see
        ``_neighbours``).  A discard decision scores every card of the hand the same
        way, from counts made once (see _play).  (``c`` itself counts once toward its
        rank, and nothing toward its run: it is no neighbour of its own.)"""
        wild = obs.wild
        if c in wild:
            return 100.0
        suited = self._suited
        if c >= suited:
            return 0.0  # a special card that is not wild builds nothing
        need_sets, need_runs = self._needs(obs)
        if self._general:
            return self._general_keep_score(obs, hand, c, need_sets, need_runs)
        stride = self._stride
        rank, suit = c % stride, c // stride
        same_rank = 1
        total = 0.0
        near = self._neighbours[rank]
        for x in hand:
            if x not in wild and x < suited:
                if x % stride == rank:
                    same_rank += 1
                if need_runs and x // stride == suit:
                    total += near[x % stride]
        if need_sets:
            total += 3.0 * min(same_rank - 1, 2)
        return total

    def _general_keep_score(self, obs: RummyObservation, hand: Sequence[int], c: int, need_sets: bool,
                            need_runs: bool) -> float:
        """_keep_score where runs are of any suits or the contract has groups of the
        ruleset's own kinds: a run's neighbours of every suit, each rank once (a second
        card of a rank held adds nothing to a run); and the cards of the group's colour
        or suit (see _group_score).  ``hand``: the other cards (``c`` not among them)."""
        wild, suited, stride = obs.wild, self._suited, self._stride
        naturals = [x for x in hand if x not in wild and x < suited]
        rank = c % stride
        near = self._neighbours[rank]
        total = 0.0
        if need_runs:
            if self._any_suit_runs:
                held = {x % stride for x in naturals}
                if rank not in held:
                    total += sum(near[r] for r in held)
            else:
                total += sum(near[x % stride] for x in naturals if x // stride == c // stride)
        if need_sets:
            total += 3.0 * min(sum(1 for x in naturals if x % stride == rank), 2)
        groups = self._groups(obs)
        if groups:
            total += self._group_score(groups, naturals, c)
        return total

    def _groups(self, obs: RummyObservation) -> tuple[Like, ...]:
        """What the contract's groups (melds.kinds like colour, suit or any) are made of."""
        assert obs.contract is not None
        contract = obs.contract.melds
        cached_for, groups = self._groups_cache
        if cached_for is not contract:
            kinds = self.section.melds.kinds
            groups = tuple(dict.fromkeys(kinds[m.name].like for m in contract if m.kind is GROUP and m.name in kinds))
            self._groups_cache = (contract, groups)
        return groups

    def _group_score(self, groups: tuple[Like, ...], naturals: Sequence[int], c: int) -> float:
        """What ``c`` adds toward the contract's groups: 1 for each natural card of
        ``naturals`` (the others) of its colour (or suit; any card, for a group of any cards)."""
        stride = self._stride
        suit = c // stride
        total = 0.0
        for like in groups:
            if like is Like.COLOUR:
                colour = self._colour_of[suit]
                total += sum(1 for x in naturals if self._colour_of[x // stride] == colour)
            elif like is Like.SUIT:
                total += sum(1 for x in naturals if x // stride == suit)
            else:
                total += 1.0
        return total

    def keep_score(self, obs: RummyObservation, c: int) -> float:
        """How much ``c``, held in this seat's hand, helps toward the contract (as the
        bot scores its discards: 0 for a card that builds nothing)."""
        rest = list(obs.hand)
        if c in rest:
            rest.remove(c)  # one copy: with two packs the other is a pair
        return self._keep_score(obs, rest, c)

    def _wants(self, obs: RummyObservation, c: int, *, buying: bool) -> bool:
        if obs.down[obs.seat]:
            return not buying and obs.table.fits(c)
        if c in obs.wild:
            return True
        if obs.contract is not None and not obs.contract.melds:  # no contract: by the hand's melding
            return self._better_with(obs, c, 2 if buying else 1)
        score = self._keep_score(obs, obs.hand, c)
        return score >= (4.0 if buying else 3.0)

    def _denies(self, obs: RummyObservation) -> bool:
        """Whether to refuse the buy asked of the player in turn: the card is wild, or one
        it would take itself, or it would join the cards the buyer is known to have taken
        from the pile (as the bot would score it for its own hand: a pair, or a run's
        neighbour).  (Only cards that left the pile face up are looked at: never the
        buyer's hand.)"""
        c, buyer = obs.top_discard, obs.buyer
        if c is None or buyer is None:
            return False
        if c in obs.wild or self._wants(obs, c, buying=False):
            return True
        known = obs.known[buyer]
        return bool(known) and self._keep_score(obs, known, c) >= 3.0

    # --- a round with no contract: every card melded ------------------------------------------
    def _left_after(self, obs: RummyObservation, hand: Sequence[int]) -> int:
        """The points the best melding of ``hand`` leaves unmatched (kept for the hands
        of one round: a decision asks about the hand less each of its cards)."""
        key = (obs.round, obs.wild, tuple(sorted(hand)))
        got = self._melding.get(key)
        if got is None:
            if len(self._melding) > 4096:
                self._melding.clear()
            got = self._melding[key] = obs.table.engine.best_melding(hand, obs.points)[0]
        return got

    def _best_discard(self, obs: RummyObservation, hand: Sequence[int],
                      allowed: set[int] | None = None) -> tuple[int, int]:
        """(points left, card) of the discard (of ``allowed`` cards, else any) that
        leaves ``hand`` melding best (of equal ones, the costliest card goes)."""
        best: tuple[int, int, int] | None = None
        for c in dict.fromkeys(hand):
            if allowed is not None and c not in allowed:
                continue
            rest = list(hand)
            rest.remove(c)
            option = (self._left_after(obs, rest), -obs.points[c], c)
            if best is None or option < best:
                best = option
        assert best is not None
        return best[0], best[2]

    def _meld_out(self, obs: RummyObservation, actions: Sequence[RummyAction]) -> RummyAction:
        """Go out when it can; else discard the card that leaves the hand melding best
        (the fewest points unmatched), taking or buying a discard that makes it meld
        better."""
        if obs.phase == _WINDOW:
            for a in actions:
                if isinstance(a, Buy) and obs.top_discard is not None and self._better_with(obs, obs.top_discard, 2):
                    return a
            return PASS
        if obs.phase == _VETO:
            return ALLOW
        for a in actions:
            if isinstance(a, GoDown):
                return a
        discards = [a for a in actions if isinstance(a, Discard) and not a.call]
        if not discards:
            return actions[0]
        allowed = {a.card for a in discards}
        natural = allowed - obs.wild  # a wild card is kept: it fits any meld later
        _, card = self._best_discard(obs, obs.hand, natural or allowed)
        chosen = next(a for a in discards if a.card == card)
        return chosen if chosen.target is None else self._aim(obs, chosen, discards)

    def _better_with(self, obs: RummyObservation, c: int, by: int) -> bool:
        """Whether holding ``c`` (and then discarding the best card) leaves at least
        ``by`` points fewer unmatched than discarding the best card now."""
        hand = [*obs.hand, c]
        natural = set(hand) - obs.wild
        return self._best_discard(obs, hand, natural or None)[0] <= self._left_after(obs, obs.hand) - by

    # --- a turn after drawing ---------------------------------------------------------------
    def _play(self, obs: RummyObservation, actions: Sequence[RummyAction]) -> RummyAction:
        # Long on purpose: the rest of the bot's turn, in the order it decides (go down,
        # lay off, swap, discard): each step reads what the steps before it chose.
        # one pass over the actions, sorted by kind (the lists keep the listing order)
        downs: list[GoDown] = []
        swaps: list[Swap] = []
        lay_offs: list[LayOff] = []
        discards: list[Discard] = []
        calls = False  # a discard may be called
        for a in actions:
            if isinstance(a, Discard):
                discards.append(a)
                calls = calls or a.call
            elif isinstance(a, LayOff):
                lay_offs.append(a)
            elif isinstance(a, GoDown):
                downs.append(a)
            elif isinstance(a, Swap):
                swaps.append(a)
        if downs:
            # the most cards put down, then the fewest wild cards in them
            wild = obs.wild
            return min(downs, key=lambda a: (-sum(map(len, a.melds)), sum(1 for m in a.melds for c in m if c in wild)))
        if swaps:
            return swaps[0]
        if lay_offs:
            # naturals first (the first listed); a joker goes on a run (it extends play)
            # rather than a set
            for a in lay_offs:
                if obs.wild.isdisjoint(a.cards):
                    return a

            def on_set(a: LayOff) -> bool:
                meld = obs.table.meld(a.meld)
                return meld is not None and meld.kind is SET

            return min(lay_offs, key=on_set)
        if not discards:
            return actions[0]
        discards = self._kept_back(obs, discards)
        keys = self._discard_keys(obs, discards)
        best = discards[keys.index(min(keys))]  # the lowest key wins, the first listed on a tie
        if calls:
            called = [a for a in discards if a.call and a.card == best.card]
            best = called[0] if called else best
        return best if best.target is None else self._aim(obs, best, discards)

    def _aim(self, obs: RummyObservation, action: Discard, discards: Sequence[RummyAction]) -> Discard:
        """Where a skip card names the seat it skips (``skip.seat: chosen``), ``action``
        naming the player nearest to going out (the fewest cards held; of those, one down
        first, then the first in turn order): the one to slow down."""
        options = [a for a in discards if type(a) is Discard and a.card == action.card and a.call == action.call
                   and a.target is not None]
        return min(options, key=lambda a: (obs.hand_counts[a.target], not obs.down[a.target]))  # type: ignore[index]

    def _kept_back(self, obs: RummyObservation, discards: list[Discard]) -> list[Discard]:
        """``discards`` less the card taken from the pile this turn (it was taken to be kept)."""
        took = self._took
        if took is not None and took[0] == obs.round and took[1] == obs.turn_number and len(discards) > 1:
            keeping = [a for a in discards if a.card != took[2]]
            if keeping:
                return keeping
        return discards

    def _discard_keys(self, obs: RummyObservation, discards: Sequence[Discard]) -> list[tuple[float, int, bool]]:
        """Each discard's key, lowest best: (keep + 5 if it feeds the next player's melds,
        -worth, call)."""
        seat = obs.seat
        points = obs.points
        feeds = obs.down[(seat + self._step) % obs.players]  # the next player's melds
        fits = obs.table.fits
        # A down hand keeps nothing for the contract: its cards are not scored at all.
        # Else each card's keep score (as _keep_score gives it), from the hand's rank
        # counts and each suit's ranks, counted once for all the discards.
        scoring = not obs.down[seat]
        stride, suited, neighbours = self._stride, self._suited, self._neighbours
        if scoring:
            need_sets, need_runs = self._needs(obs)
            ranks = [0] * stride
            by_suit: list[list[int]] = [[] for _ in range(self._suits)]
            wild = obs.wild
            for x in obs.hand:
                if x not in wild and x < suited:
                    ranks[x % stride] += 1
                    by_suit[x // stride].append(x % stride)
            general = self._general
        keys: list[tuple[float, int, bool]] = []
        for a in discards:
            c = a.card
            keep = 0.0
            if scoring:
                if c in wild:
                    keep = 100.0
                elif general:
                    if c < suited:
                        rest = list(obs.hand)
                        rest.remove(c)
                        keep = self._general_keep_score(obs, rest, c, need_sets, need_runs)
                elif c < suited:
                    rank = c % stride
                    if need_sets:
                        others = ranks[rank] - 1
                        keep += 3.0 * (others if others < 2 else 2)
                    if need_runs:
                        near = neighbours[rank]
                        for r in by_suit[c // stride]:
                            keep += near[r]
            if feeds and fits(c):
                keep += 5.0
            keys.append((keep, -points[c], a.call))
        return keys
