"""One room: its seats (people and bots), the game, who is watching, and what each
connection is sent.

The room is the referee: a move is a line of text as a player would type it at the
terminal, parsed by the family (``parse_input``) and verified by the engine; the game
is driven by the one driver loop (:func:`~cardrules.interpreter.driver.play_out`),
each person's seat a policy that hands over the move its player sent and stops the
loop when there is none.  Every connection is sent only what its seat may see, built
from what the engine gives that seat: ``state.observation(seat)`` (a spectator's,
``observation(None)``, holds no hand) and the narration of the engine's public views of
the events (``state.event_views(None)``), so a view cannot show a hidden card.
Everything here runs on the server's one event loop thread: a move is applied and
broadcast without awaiting, so no two changes of a room interleave.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..narration.render import Renderer, standings
from ..interpreter.saves import SaveWriter, new_header
from ..interpreter.bots import make_policy, seat_kinds
from ..interpreter.driver import Stop, play_out
from ..interpreter.errors import EvaluationError, IllegalActionError
from ..interpreter.family import Policy
from ..interpreter.game import CHANCE, OVER, GameState, new_game, seed_problem
from ..interpreter.pack import STANDARD, Pack
from ..interpreter.record import dump_event
from ..interpreter.rules import Ruleset
from ..interpreter.textio import parse_input
from ..interpreter.visible import has_visible, is_shown_text, skeleton
from .families import web_view_for
from .guards import AddressBuckets, Bucket
from .roomfiles import MAX_NAME, RoomError
from .roomfiles import clean_name

if TYPE_CHECKING:
    from .rooms import Rooms

MAX_MOVES_LISTED = 300
CHAT_LINES = 50  # the room's chat kept, for those who join later (in memory only)
MAX_CHAT = 200  # characters in one chat line
MAX_MELD_CHECK = 60  # cards in one meld a page asks about
# Chat lines and reactions a second one address may send a room, on average, and at once;
# and a room may be sent by everyone together.
CHAT_RATE, CHAT_BURST = 0.5, 5
ROOM_CHAT_RATE, ROOM_CHAT_BURST = 2.0, 10
CHAT_ADDRESSES = 64  # addresses whose chat rate a room keeps (past that the idle ones are forgotten)
REACTIONS = ("👍", "👏", "😂", "😮", "😢", "🎉")
LOG_LINES = 40


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@lru_cache(maxsize=64)
def pack_faces(pack: Pack) -> dict[str, list[str]]:
    """Each card code of ``pack``: [how it shows, its colour, its name] for the page
    (kept per pack: the same for every message)."""
    faces = {}
    for c, code in enumerate(pack.codes):
        k = pack.special_of[c]
        name = pack.specials[k].name if k >= 0 else \
            f"{pack.ranks[pack.rank_of[c]].name} of {pack.suits[pack.suit_of[c]].name}"
        faces[code] = [pack.pretty(c), pack.colour(c) or "", name]
    return faces


class PublicNarration(Renderer):
    """The terminal table's narration, kept as lines instead of printed: with no
    private seat it says only what everyone at the table sees."""

    def __init__(self, names: Sequence[str], rules: Ruleset, mode: str | None):
        super().__init__(names, rules, mode=mode, quiet=True, narrate=False)
        self.lines: deque[str] = deque(maxlen=LOG_LINES)
        self.end: dict[str, Any] | None = None

    def say(self, text: str) -> None:
        super().say(text)
        self.lines.append(text)

    def card(self, name: str) -> str:
        return self.pack.pretty(self.pack.card(name))

    def cards(self, names: Sequence[str]) -> str:
        return " ".join(self.card(n) for n in names)

    def event(self, event: dict[str, Any]) -> None:
        if event["event"] == "deal":  # the log tells the round being played (the sheet has the others)
            self.lines.clear()
            self.lines.append(f"-- round {event['round']}: {event['hand_size']} cards, dealer "
                              f"{self.names[event['dealer']]}")
        if event["event"] == "end":
            self.end = event
        super().event(event)


@dataclass
class Seat:
    kind: str  # "human" or a bot kind
    name: str | None = None
    token_hash: str | None = None
    connections: int = 0
    gone_since: float | None = None  # when its last connection closed (time.monotonic)
    pending: Any = None  # the move its player sent, for the driver loop to take
    refusal: str | None = None  # why the engine refused that move
    stand_in: Policy | None = None  # the bot that plays while its player is away

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


class _PersonSeat:
    """A person's seat as a policy of the driver loop: it hands over the move its player
    sent; with none, a stand-in bot moves if the player has been gone long enough, else
    the loop stops until a move arrives."""

    kind = "human"
    needs_observation = True

    def __init__(self, room: Room, seat: int):
        self.room = room
        self.seat = seat

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        seat = self.room.seats[self.seat]
        if seat.pending is not None:
            move, seat.pending = seat.pending, None
            return move
        if self.room.stand_in_due(self.seat) and self.room.spend_bot_move():
            if seat.stand_in is None:
                seat.stand_in = self.room.new_bot(self.seat)
            bot = seat.stand_in
            if seat.connections and self.room.narration is not None:  # there, but the clock ran out
                self.room.narration.say(f"{seat.name or 'a player'}'s time ran out: a bot moves for them")
            return bot.act(observation if bot.needs_observation else None, legal)
        raise Stop

    def refused(self, action: Any, error: IllegalActionError) -> None:
        self.room.seats[self.seat].refusal = self.room.narration.refusal(str(error)) if self.room.narration \
            else str(error)


class _BotSeat:
    """A bot's seat: it moves as long as the room allows bot moves in this pass (the
    room paces the bots so people can follow)."""

    kind = "bot"

    def __init__(self, room: Room, bot: Policy):
        self.room = room
        self.bot = bot
        self.needs_observation = bot.needs_observation

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        if not self.room.spend_bot_move():
            raise Stop
        return self.bot.act(observation, legal)


class Client:
    """One connection, as a room sees it: its seat (None: a spectator), a way to send it
    a message without waiting (the server's connection queues it), and the address it
    comes from (as the limits count it: web/guards.py's ``client_address``)."""

    def __init__(self, send: Callable[[dict[str, Any]], None], address: str = "unknown"):
        self.send = send
        self.address = address
        self.room: Room | None = None
        self.seat: int | None = None
        self.name: str | None = None  # a spectator's name, as given when joining (for the chat)


@dataclass
class Limits:
    takeover: float = 60.0  # seconds a person may be gone, in their turn, before a bot moves for them
    bot_delay: float = 0.6  # seconds between bot moves, so people can follow
    max_rooms: int = 200
    max_spectators: int = 8
    max_tabs: int = 3  # connections a seat may have at once
    idle_close: float = 1800.0  # seconds a started game nobody is in stays open


class Room:
    def __init__(self, rooms: Rooms, name: str, rules: Ruleset, *, bundled: str | None, text: str | None,
                 players: int, mode: str | None, kinds: Sequence[str], seed: int, file_id: str,
                 clock: int | None = None):
        self.rooms = rooms
        self.name = name
        self.rules = rules
        self.bundled = bundled
        self.text = text
        self.players = players
        self.mode = mode
        if seed_problem(seed):  # a room file's seed, or one given to Rooms.create
            raise RoomError(str(seed_problem(seed)))
        self.seed = seed
        self.file_id = file_id
        self.seats = [Seat(kind) for kind in kinds]
        self.clients: list[Client] = []
        self.state: GameState | None = None
        self.policies: list[Any] = []
        self.narration: PublicNarration | None = None
        self.writer: SaveWriter | None = None
        self.web = web_view_for(rules)
        self.problem: str | None = None  # the rules could not go on
        self._bot_budget: int | None = None
        self._runner: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()  # the last join: the oldest idle room makes way first
        self.empty_since: float | None = time.monotonic()  # when its last connection left (None: someone is in)
        # The turn clock (seconds a person has for a move, None: no clock, as the room's maker
        # chose): past it a stand-in bot makes that move for a player who is there but idle.
        self.clock = clock
        self._turn: tuple[int, int] | None = None  # (moves, seat) of the move being waited for
        self._turn_since = 0.0
        # The end of a round stays on the table until every person there has seen it: the
        # round just scored, and the seats still to say "next deal" (the next deal waits).
        self.round_end: int | None = None
        self.round_waiting: set[int] = set()
        self.chat_lines: deque[dict[str, Any]] = deque(maxlen=CHAT_LINES)
        # The chat's rate, by address and for the room as a whole, kept by the room: a
        # connection opened again, or another beside it, starts from where the last one was.
        self.chat_rates = AddressBuckets(CHAT_RATE, CHAT_BURST, most=CHAT_ADDRESSES)
        self.chat_rate = Bucket(ROOM_CHAT_RATE, ROOM_CHAT_BURST)
        self._round_end_since = 0.0

    # --- seats ------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def is_over(self) -> bool:
        return self.state is not None and self.state.turn == OVER

    def names(self) -> list[str]:
        return [seat.name or f"seat {i + 1}" for i, seat in enumerate(self.seats)]

    def seat_of_token(self, token: Any) -> int | None:
        if not isinstance(token, str) or not 10 <= len(token) <= 100:
            return None
        digest = _digest(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        return None

    def join(self, client: Client, name: Any, token: Any) -> str | None:
        """Seat ``client``: by its token (a player coming back), else in the first free
        seat for people (before the start), else as a spectator.  Returns a new token
        when it takes a seat for the first time."""
        seat = self.seat_of_token(token)
        new_token = None
        if seat is None and not self.started:
            person = clean_name(name, "your name", MAX_NAME)
            if any(s.name and skeleton(s.name) == skeleton(person) for s in self.seats):
                raise RoomError(f"someone in this room is already called {person}: choose another name")
            free = [i for i, s in enumerate(self.seats) if s.is_human and s.token_hash is None]
            if free:
                seat = free[0]
                new_token = secrets.token_urlsafe(24)
                self.seats[seat].name = person
                self.seats[seat].token_hash = _digest(new_token)
                self.rooms.save_room(self)
        if seat is not None:
            if self.seats[seat].connections >= self.rooms.limits.max_tabs:
                raise RoomError("this seat is already open in too many windows")
            self.seats[seat].connections += 1
            self.seats[seat].gone_since = None
        elif sum(1 for c in self.clients if c.seat is None) >= self.rooms.limits.max_spectators:
            raise RoomError("this room is full: every seat is taken and there is no room to watch")
        client.room, client.seat = self, seat
        if seat is None:
            try:
                client.name = clean_name(name, "your name", MAX_NAME)
            except RoomError:
                client.name = None
        self.clients.append(client)
        self.last_active = time.monotonic()
        self.empty_since = None
        return new_token

    def leave(self, client: Client) -> None:
        if client in self.clients:
            self.clients.remove(client)
            if not self.clients:
                self.empty_since = time.monotonic()
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections = max(0, seat.connections - 1)
            if seat.connections == 0:
                seat.gone_since = time.monotonic()
                self._seen_round_end(client.seat)
        client.room = None
        self.broadcast()

    # --- the chat -----------------------------------------------------------------------------
    def chat(self, client: Client, text: Any) -> None:
        """A line of plain text from ``client`` to everyone in the room (RoomError: why not)."""
        if not isinstance(text, str):
            raise RoomError("a chat line is text")
        line = " ".join(unicodedata.normalize("NFC", text).split())
        if not has_visible(line):  # nothing, or only what shows nothing (fillers, blank braille)
            raise RoomError("say something first")
        if len(line) > MAX_CHAT:
            raise RoomError(f"a chat line has at most {MAX_CHAT} characters")
        if not is_shown_text(line):
            raise RoomError("a chat line is plain text")
        self._chat_turn(client)
        entry = {"from": self._speaker(client), "seat": client.seat, "text": line}
        self.chat_lines.append(entry)
        for other in list(self.clients):
            other.send({"type": "chat", "lines": [entry]})

    def react(self, client: Client, emoji: Any) -> None:
        """A reaction (one of :data:`REACTIONS`) shown to everyone in the room, not kept."""
        if emoji not in REACTIONS:
            raise RoomError("a reaction is one of " + " ".join(REACTIONS))
        self._chat_turn(client)
        for other in list(self.clients):
            other.send({"type": "reaction", "from": self._speaker(client), "seat": client.seat, "emoji": emoji})

    def check_meld(self, cards: Any) -> dict[str, Any]:
        """Whether the cards of a meld being built make a meld under this round's rules
        (RoomError for a malformed ask): the page marks each pending meld as it is built."""
        if not (isinstance(cards, list) and 0 < len(cards) <= MAX_MELD_CHECK
                and all(isinstance(c, str) and 0 < len(c) <= 8 for c in cards)):
            raise RoomError(f"a meld to check is a list of 1 to {MAX_MELD_CHECK} card codes")
        check = getattr(self.web, "meld_check", None)
        if self.state is None or check is None:
            raise RoomError("this game has no melds to check")
        ok, text = check(self.state, cards)
        return {"type": "check", "cards": cards, "ok": ok, "text": text[:200]}

    def chat_history(self) -> dict[str, Any]:
        return {"type": "chat", "lines": list(self.chat_lines), "history": True}

    def _chat_turn(self, client: Client) -> None:
        """Take a chat line's turn from the client's address and from the room (RoomError:
        one of them has none left; nothing is taken then)."""
        mine = self.chat_rates.bucket(client.address)
        if not mine.has():
            raise RoomError("you are chatting too fast: wait a moment")
        if not self.chat_rate.take():
            raise RoomError("this room is chatting too fast: wait a moment")
        mine.take()

    def _speaker(self, client: Client) -> str:
        if client.seat is not None:
            return self.names()[client.seat]
        return f"{client.name or 'someone'} (watching)"

    def start(self, seat: int | None) -> None:
        if self.started:
            raise RoomError("the game has already started")
        if seat != 0:
            raise RoomError(f"only {self.names()[0]}, who made the room, can start the game")
        kinds = seat_kinds(self.rules)
        fill = "bot" if "bot" in kinds else kinds[0]
        for i, s in enumerate(self.seats):
            if s.is_human and s.token_hash is None:  # nobody took it: a bot does
                s.kind = fill
            if not s.is_human and s.name is None:
                s.name = f"{s.kind}-{i + 1}"
        names = self.names()
        self.state = new_game(self.rules, self.players, self.seed, names, self.mode, None)
        self.policies = [make_policy(self.rules, s.kind, self.seed, i) if not s.is_human else None
                         for i, s in enumerate(self.seats)]
        self._begin(header=new_header(self.rules, None, self.seed, self.mode, [s.kind for s in self.seats], names))
        self.rooms.save_room(self)
        self.advance(bots=0)
        self.broadcast()
        self.kick()

    def _begin(self, header: dict[str, Any] | None) -> None:
        """Wrap the seats' policies for the driver loop, and open the save."""
        assert self.state is not None
        self.policies = [_PersonSeat(self, i) if s.is_human else _BotSeat(self, self.policies[i])
                         for i, s in enumerate(self.seats)]
        self.narration = PublicNarration(self.names(), self.rules, self.mode)
        self.narration.catch_up_state(self.state)
        path = self.rooms.save_path(self)
        if path is not None and not self.is_over:
            self.writer = SaveWriter(path, header, durable=False)  # synced beside the loop (server.py)

    def new_bot(self, seat: int) -> Policy:
        kinds = seat_kinds(self.rules)
        return make_policy(self.rules, "bot" if "bot" in kinds else kinds[0], self.seed + 7919, seat)

    # --- moves ------------------------------------------------------------------------------
    def move(self, seat: int | None, text: Any) -> None:
        """The move ``text`` by the player at ``seat``: refused with the reason (RoomError),
        or applied, after which the bots move."""
        if not isinstance(text, str) or not text.strip():
            raise RoomError("a move is a line of text, e.g. 'play QS' or 'bid 3'")
        state = self.state
        if state is None:
            raise RoomError("the game has not started yet")
        if seat is None:
            raise RoomError("you are watching: only the players at the table move")
        if self.problem is not None:
            raise RoomError(self.problem)
        if state.turn == OVER:
            raise RoomError("the game is over")
        if state.turn != seat:
            raise RoomError(f"it is not your turn: it is {self._whose_turn()}")
        try:
            action = parse_input(self.rules, state.observation(seat), text)
        except IllegalActionError as exc:
            raise RoomError(self._refusal(str(exc))) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RoomError(f"'{text[:60]}' is not a move here ({type(exc).__name__})") from None
        person = self.seats[seat]
        person.pending, person.refusal = action, None
        try:
            self.advance(bots=0)
        finally:  # whatever happened, the move is not taken again later
            person.pending = None
        refusal, person.refusal = person.refusal, None
        self.broadcast()
        self.kick()
        if refusal is not None:
            raise RoomError(refusal)

    def _refusal(self, text: str) -> str:
        return self.narration.refusal(text) if self.narration is not None else text

    def _whose_turn(self) -> str:
        assert self.state is not None
        turn = self.state.turn
        return f"{self.names()[turn]}'s turn" if turn >= 0 else "no one's turn"

    def spend_bot_move(self) -> bool:
        if self._bot_budget is None:
            return True
        if self._bot_budget <= 0:
            return False
        self._bot_budget -= 1
        return True

    def stand_in_due(self, seat: int) -> bool:
        person = self.seats[seat]
        if person.connections == 0:
            return (person.gone_since is not None
                    and time.monotonic() - person.gone_since >= self.rooms.limits.takeover)
        return self.clock_left(seat) == 0

    def clock_left(self, seat: int) -> float | None:
        """Seconds left on the turn clock for ``seat``'s move (None: no clock, or not its
        move); the clock starts when the move is first waited for."""
        state = self.state
        if self.clock is None or state is None or state.turn != seat or not self.seats[seat].is_human:
            return None
        now = time.monotonic()
        if self._turn != (state.moves, seat):
            self._turn, self._turn_since = (state.moves, seat), now
        return max(0.0, self.clock - (now - self._turn_since))

    def bot_due(self) -> bool:
        """Whether a bot (or a stand-in) is to move now."""
        state = self.state
        if state is None or state.turn == OVER or self.problem is not None:
            return False
        if state.turn == CHANCE:  # a deal held for the round's end: due once everyone has seen it
            return self.round_end is None or (self.clock is not None
                                               and time.monotonic() - self._round_end_since >= self.clock)
        return not self.seats[state.turn].is_human or self.stand_in_due(state.turn)

    def advance(self, bots: int | None) -> bool:
        """Drive the game until a person is to move (or ``bots`` bot moves are made);
        True if anything happened."""
        state = self.state
        if state is None or state.turn == OVER or self.problem is not None:
            return False
        before = state.moves
        self._bot_budget = bots
        try:
            play_out(state, self.policies, chance=self._chance, on_action=self._on_action, on_event=self._on_event)
        except EvaluationError as exc:  # the rules themselves cannot go on
            self.problem = f"the rules cannot go on: {exc}"
        finally:
            self._bot_budget = None
        if state.turn == OVER:
            self._finish()
        return state.moves != before

    def _on_action(self, seat: int, action: Any) -> None:
        if self.writer is not None:
            self.writer.action(str(action))

    def _on_event(self, event: dict[str, Any]) -> None:
        if self.narration is not None:  # what everyone may see of it (the engine's view), not the event
            assert self.state is not None
            self.narration.follow(self.state)
        if event.get("event") == "score" and self.state is not None and self.state.turn != OVER:
            present = {i for i, s in enumerate(self.seats) if s.is_human and s.connections > 0}
            if present:  # people are watching: the round's end stays until each has seen it
                self.round_end, self.round_waiting = int(event.get("round", 0)), present
                self._round_end_since = time.monotonic()

    def _chance(self, state: GameState) -> Any:
        """Chance's move, unless the end of a round is still being looked at (then the
        next deal waits: the driver loop stops until the last person says "next")."""
        if self.round_end is not None:
            if self.clock is None or time.monotonic() - self._round_end_since < self.clock:
                raise Stop
            self.round_end, self.round_waiting = None, set()  # the turn clock ran out on it
        return state.chance_action()

    def next_deal(self, seat: int | None) -> None:
        """The player at ``seat`` has seen the round's end; the last one to say so lets the
        next deal come."""
        if seat is None:
            raise RoomError("you are watching: the players say when to deal")
        if self.round_end is None:
            raise RoomError("no round is waiting to be dealt")
        self._seen_round_end(seat)
        self.broadcast()
        self.kick()

    def _seen_round_end(self, seat: int) -> None:
        self.round_waiting.discard(seat)
        if self.round_end is not None and not self.round_waiting:
            self.round_end = None

    def _finish(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        self.rooms.save_room(self)

    def kick(self) -> None:
        """Let the bots move, paced, in a task of their own (one at a time per room)."""
        if self._runner is not None or not self.bot_due():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script using rooms directly): move at once
            self.advance(bots=None)
            self.broadcast()
            return
        self._runner = loop.create_task(self._run_bots())

    async def _run_bots(self) -> None:
        try:
            delay = self.rooms.limits.bot_delay
            while self.bot_due():
                if delay:
                    await asyncio.sleep(delay)
                if self.state is None or not self.bot_due():
                    break
                if self.advance(bots=1 if delay else None):
                    self.broadcast()
        finally:
            self._runner = None

    # --- what each connection sees ----------------------------------------------------------
    def broadcast(self) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for client in list(self.clients):
            if client.seat not in cache:
                cache[client.seat] = self.message_for(client.seat)
            client.send(cache[client.seat])

    def message_for(self, seat: int | None) -> dict[str, Any]:
        if self.state is None:
            return self.lobby_message(seat)
        return self.table_message(seat)

    def _describe(self) -> dict[str, Any]:
        return {"room": self.name, "ruleset": self.rules.name, "title": self.rules.title or self.rules.name,
                "family": self.rules.family.name, "players": self.players, "mode": self.mode,
                "uploaded": self.text is not None, "clock": self.clock}

    def lobby_message(self, seat: int | None) -> dict[str, Any]:
        return {"type": "lobby", **self._describe(), "you": seat,
                "seats": [{"name": s.name, "kind": "person" if s.is_human else s.kind, "taken": s.token_hash is not None,
                           "connected": s.connections > 0} for s in self.seats],
                "spectators": sum(1 for c in self.clients if c.seat is None),
                "can_start": seat == 0}

    def table_message(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        assert state is not None and self.narration is not None
        names = self.names()
        spectator = seat is None
        obs = state.observation(seat)  # a spectator's (None) holds no hand and nothing private
        my_turn = seat is not None and state.turn == seat and self.problem is None
        legal = list(state.legal_actions()) if my_turn else []
        message: dict[str, Any] = {
            "type": "table", **self._describe(), "you": seat, "version": state.moves, "step": state.event_count,
            "round": obs.round, "rounds": obs.rounds, "hand_size": obs.hand_size, "dealer": obs.dealer,
            "phase": str(obs.phase), "turn": state.turn if state.turn >= 0 else None,
            "heading": (f"Round {self.round_end} of {obs.rounds} is over" if self.round_end is not None else
                        self.narration.round_title(obs.round) if self.narration.round and state.turn != OVER else ""),
            "seats": [{"name": names[i], "kind": "person" if s.is_human else s.kind, "total": obs.totals[i],
                       "connected": s.connections > 0 if s.is_human else True,
                       "stand_in": s.is_human and s.connections == 0 and state.turn == i and self.stand_in_due(i),
                       "note": note}
                      for i, (s, note) in enumerate(zip(self.seats, self.web.seat_notes(obs, spectator)))],
            "panels": self.web.panels(obs, names, spectator),
            "log": list(self.narration.lines),
            "last": self.narration.view.last_lines(),
            "taken": self.narration.view.taken() if hasattr(self.narration.view, "taken") else None,
            "last_title": self.narration.view.last_help,
            "sheet": [{"round": number, "cells": cells, "totals": totals}
                      for number, cells, totals in self.narration.sheet],
            "sheet_legend": self.narration.view.sheet_legend,
            "over": state.turn == OVER,
            "problem": self.problem,
        }
        if self.round_end is not None:  # the round's end is on the table: who has yet to see it
            message["round_end"] = {"round": self.round_end,
                                    "waiting": [names[i] for i in sorted(self.round_waiting)],
                                    "seen": seat is None or seat not in self.round_waiting}
        left = self.clock_left(state.turn) if state.turn >= 0 and self.problem is None else None
        if left is not None:  # the seconds left for the move waited for (the page counts down)
            message["clock_left"] = round(left, 1)
        pack = state.setup.pack
        if pack is not STANDARD:  # a pack of the ruleset's own: how the page shows each card
            message["pack"] = pack_faces(pack)
        if seat is not None:
            controls = self.web.controls(obs, legal, names)
            if my_turn:
                self._fill_refusals(obs, controls)
            else:
                controls.update(buttons=[], composers=[], select=False)
            message["hand"] = controls.pop("hand")
            message["controls"] = controls
            message["moves"] = [str(a) for a in legal[:MAX_MOVES_LISTED]]
        if state.turn == OVER:
            end = self.narration.end or {}
            teams = end.get("teams") or []
            message["standings"] = standings(names, list(state.totals), teams, self.rules.winner == "highest")
            message["winners"] = [names[s] for s in state.winners]
            message["record"] = f"/rooms/{self.file_id}/record"
        return message

    def _fill_refusals(self, obs: Any, controls: dict[str, Any]) -> None:
        """For a move the page offers but the engine will refuse, the engine's reason."""
        assert self.state is not None
        for item in controls.get("hand", []) + controls.get("buttons", []):
            text = item.pop("try", None)
            if not text:
                continue
            try:
                self.state.verify(parse_input(self.rules, obs, text))
            except IllegalActionError as exc:
                item["refused"] = self._refusal(str(exc))
            else:
                item["move"] = text

    # --- the record -------------------------------------------------------------------------
    def record_text(self) -> str:
        if self.state is None or self.state.turn != OVER:
            raise RoomError("the record is offered once the game is over")
        return "".join(dump_event(event) + "\n" for event in self.state.events)
