"""Uploaded rulesets are checked in worker processes, never on the server's event loop.

A pasted ruleset is at most 64 kB, but checking one is not free: a valid 60 kB file of
long play restrictions takes about a second to compile, and one request could stall
every room for as long as its check ran.  So `cardrules serve` keeps a few worker
processes (``python -m cardrules.web.checks``, started on first use and replaced when
one dies); the server sends each the text and awaits the answer without blocking.
Each check runs under limits: processor time (``ITIMER_PROF``: the kernel ends the
worker when its budget is spent, whatever it is doing), memory (``RLIMIT_AS`` a fixed
amount above what the worker needs at rest: a ``MemoryError`` ends the check), and a
wall-clock time after which the parent kills the worker.  The two times guard the
server and judge nothing: what a ruleset may make the loader do is bounded by counts
(interpreter/rules.py), the same on any machine, and a check stopped by a clock is
answered 503, "not checked", never as a verdict on the ruleset.  The workers run at a lower
priority (``nice``), so that on a busy machine the event loop serving the tables
comes first.  At most ``workers`` checks run at once and ``queue`` wait; past that a
check is refused at once ("busy"), so a flood cannot pile up work.

A worker answers with the ruleset's description (as ``/api/validate`` shows it), or
its problems; the server builds a room's ruleset itself only after a worker has
checked it, so that work is bounded by the worker's limits.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import resource
import signal
import sys
from typing import Any

CHECK_WORKERS = 2  # checks at once
CHECK_QUEUE = 8  # checks waiting for a worker; more are refused
CHECK_CPU_SECONDS = 5.0  # processor time one check may take (a guard: the loader's own bounds are counted)
CHECK_WALL_SECONDS = 30.0  # wall-clock time, on a busy machine, before the worker is killed
CHECK_MEMORY = 256 << 20  # bytes of address space a check may add to the worker's own
WORKER_NICE = 10
MAX_REPLY = 16 << 20  # a reply's line (problems quote their source lines)

TOO_LONG = ("the server stopped checking the ruleset at its limit of processor time, which says nothing of the "
            "ruleset: cardrules validate checks it without that limit")
TOO_BUSY = "the server is too busy to finish checking the ruleset: try again in a moment"
TOO_BIG = "the ruleset needs too much memory to check"


class CheckRefused(Exception):
    """A check that was not done, with a one-line reason and the HTTP status to answer."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def describe_rules(rules: Any) -> dict[str, Any]:
    """A ruleset as ``/api/rulesets`` and ``/api/validate`` describe it."""
    from ..interpreter.bots import seat_kinds

    return {"name": rules.name, "title": rules.title or rules.name, "family": rules.family.name,
            "description": rules.description or "", "players": [rules.min_players, rules.max_players],
            "modes": {name: mode[0] for name, mode in rules.modes.items()},
            "kinds": ["human", *seat_kinds(rules)]}


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class _Worker:
    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process
        self.killed = False

    async def ask(self, request: dict[str, Any], wall: float) -> dict[str, Any]:
        """The worker's answer; CheckRefused if it died, ran out of memory or was stopped
        by a clock (it is then ended: the pool replaces it)."""
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request).encode() + b"\n")
            await process.stdin.drain()
            line = await asyncio.wait_for(process.stdout.readline(), wall)
        except asyncio.TimeoutError:  # the clock of a busy machine: no verdict on the ruleset
            await self.end(grace=0)
            raise CheckRefused(TOO_BUSY, 503) from None
        except (ConnectionError, ValueError):  # ValueError: a reply longer than MAX_REPLY
            line = b""
        if not line:
            code = await self.end()
            if code == -signal.SIGPROF:  # the server's guard, not the ruleset's bounds (those are counted)
                raise CheckRefused(TOO_LONG, 503)
            if code == 3:
                raise CheckRefused(TOO_BIG, 422)
            raise CheckRefused(f"the ruleset could not be checked (the checker stopped with status {code})", 422)
        answer: dict[str, Any] = json.loads(line)
        if answer.get("memory"):
            await self.end()  # it ran out of memory and ends itself: a fresh one takes its place
            raise CheckRefused(TOO_BIG, 422)
        return answer

    async def end(self, grace: float = 2.0) -> int | None:
        """End the worker: wait ``grace`` seconds for it to end by itself (it has closed
        its output, or said it will), then kill it.  Its exit status."""
        self.killed = True
        process = self.process
        if grace:
            try:
                return await asyncio.wait_for(process.wait(), grace)
            except asyncio.TimeoutError:
                pass
        if process.returncode is None:  # never a signal to a process already reaped
            try:
                process.kill()
            except ProcessLookupError:
                pass
        return await process.wait()

    @property
    def alive(self) -> bool:
        return not self.killed and self.process.returncode is None


class Checker:
    """The pool of checking workers of one server (see the module's docstring)."""

    def __init__(self, *, workers: int = CHECK_WORKERS, queue: int = CHECK_QUEUE,
                 cpu_seconds: float = CHECK_CPU_SECONDS, wall_seconds: float = CHECK_WALL_SECONDS,
                 memory: int = CHECK_MEMORY):
        self.workers, self.queue = workers, queue
        self.cpu_seconds, self.wall_seconds, self.memory = cpu_seconds, wall_seconds, memory
        self._slots: asyncio.Semaphore | None = None
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._same: dict[str, asyncio.Task[dict[str, Any]]] = {}  # checks in flight, by text

    def is_checking(self, text: str) -> bool:
        """Whether ``text`` is being checked now (asking again costs nothing)."""
        return _key(text) in self._same

    async def check(self, text: str) -> dict[str, Any]:
        """Check ``text``: ``{"ok": True, "describe": {...}}`` or ``{"ok": False,
        "problems": [...]}``; CheckRefused when a clock stopped it, it needed too much
        memory, or the workers are busy.  The same text asked again while its check
        runs waits for that one check (which goes on if the one who asked first leaves)."""
        key = _key(text)
        task = self._same.get(key)
        if task is None:
            if self._slots is None:
                self._slots = asyncio.Semaphore(self.workers)
            if len(self._same) >= self.workers + self.queue:
                raise CheckRefused("the server is busy checking other rulesets: try again in a moment", 503)
            task = self._same[key] = asyncio.get_running_loop().create_task(self._check(text))
            task.add_done_callback(lambda _: self._same.pop(key, None))
        try:
            return await asyncio.shield(task)
        except CheckRefused:
            raise
        except (OSError, ValueError, KeyError) as exc:  # no checker could start, or it said something odd
            print(f"cardrules serve: internal error in a ruleset check: {type(exc).__name__}: {exc}", file=sys.stderr)
            raise CheckRefused(f"the ruleset could not be checked ({type(exc).__name__})", 500) from None

    async def _check(self, text: str) -> dict[str, Any]:
        assert self._slots is not None
        await self._slots.acquire()
        try:
            while self._idle and not self._idle[-1].alive:
                self._all.discard(self._idle.pop())
            worker = self._idle.pop() if self._idle else await self._spawn()
            try:
                return await worker.ask({"text": text, "cpu": self.cpu_seconds}, self.wall_seconds)
            finally:
                if worker.alive:
                    self._idle.append(worker)
                else:
                    self._all.discard(worker)
        finally:
            self._slots.release()

    async def _spawn(self) -> _Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cardrules.web.checks", str(self.memory), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=MAX_REPLY)
        worker = _Worker(process)
        self._all.add(worker)
        return worker

    async def close(self) -> None:
        for task in list(self._same.values()):
            task.cancel()
        for worker in list(self._all):
            if worker.process.stdin is not None:
                worker.process.stdin.close()  # a worker ends when its input does
            await worker.end()
        self._all.clear()
        self._idle.clear()

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers alive now."""
        return [w.process.pid for w in self._all if w.alive]


# --- the worker -----------------------------------------------------------------------------
def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _answer(text: str) -> dict[str, Any]:
    from ..interpreter.errors import RulesetError
    from .rooms import load_upload, problems_json

    try:
        rules = load_upload(text)
    except RulesetError as exc:
        return {"ok": False, "problems": problems_json(exc)}
    return {"ok": True, "describe": describe_rules(rules)}


def worker_main(memory: int) -> None:
    """Answer checks, one JSON line in and one out, until stdin closes.  Exit status 3:
    out of memory where no answer could be written."""
    os.nice(WORKER_NICE)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C at the server's terminal is the server's
    from .rooms import load_upload

    load_upload("extends: oh-hell\nname: warm-up\n")  # the grammar and the schema, compiled once
    if memory and hasattr(resource, "RLIMIT_AS") and os.path.exists("/proc/self/status"):
        limit = _address_space() + memory
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    for line in stdin:
        try:
            request = json.loads(line)
            # the kernel ends this process (SIGPROF) once the check has used its processor time
            signal.setitimer(signal.ITIMER_PROF, float(request["cpu"]))
            try:
                answer = _answer(request["text"])
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            reply = json.dumps(answer).encode() + b"\n"
        except (MemoryError, SystemError):  # SystemError: how some C code reports a failed allocation
            reply = b'{"memory": true}\n'
        except Exception as exc:  # noqa: BLE001 - one line to the server, never a traceback
            reply = json.dumps({"ok": False, "problems": [], "error": f"internal error ({type(exc).__name__})"}
                               ).encode() + b"\n"
        try:
            stdout.write(reply)
            stdout.flush()
        except MemoryError:
            sys.exit(3)
        if reply.startswith(b'{"memory"'):
            return


if __name__ == "__main__":
    worker_main(int(sys.argv[1]) if len(sys.argv) > 1 else CHECK_MEMORY)
