"""The expression language compiled: a checked tree into plain closures ``env -> value``
(constants folded), with the bounds every evaluation keeps (integer size, list length,
division by zero, indexes).  No ``eval`` or ``exec``.

Where many evaluations together must stay bounded (a ruleset's expressions worked out
for every player count and mode, once, at load), a tree is compiled a second time with a
shared budget of :class:`Steps`: counted work, so that the same ruleset is refused or
accepted on any machine at any load, as no deadline on a clock could promise."""

from __future__ import annotations

from typing import Any, Callable

from .errors import EvaluationError
from .expression_syntax import (CONSTANTS, MAX_INT, MAX_LIST, Binary, BoolLit, Call, Conditional, Env, Index, IntLit,
                                ListLit, Name, Node, Program, Type, Unary)


def _int(value: int) -> int:
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise EvaluationError(f"integer {value} is beyond the limit of {MAX_INT}")


def _list(value: list[int]) -> list[int]:
    if len(value) > MAX_LIST:
        raise EvaluationError(f"a list of {len(value)} elements is beyond the limit of {MAX_LIST}")
    return value


def _range(lo: int, hi: int) -> list[int]:
    if abs(hi - lo) >= MAX_LIST:
        raise EvaluationError(f"range {lo}..{hi} has more than {MAX_LIST} elements")
    return list(range(lo, hi + 1)) if lo <= hi else list(range(lo, hi - 1, -1))


def _div(a: int, b: int) -> int:
    if b == 0:
        raise EvaluationError("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise EvaluationError("division by zero (in '%')")
    return a % b


def _index(xs: list[int], i: int) -> int:
    if 0 <= i < len(xs):
        return xs[i]
    raise EvaluationError(f"index {i} is outside a list of {len(xs)} elements")


def _minmax(fn: Callable[[list[int]], int], name: str) -> Callable[[list[int]], int]:
    def run(xs: list[int]) -> int:
        if not xs:
            raise EvaluationError(f"{name}() of an empty list")
        return fn(xs)

    return run


_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: _int(a + b),
    "-": lambda a, b: _int(a - b),
    "*": lambda a, b: _int(a * b),
    "/": _div,
    "%": _mod,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    "..": _range,
}


def _repeat(value: int, times: int) -> list[int]:
    if times < 0:
        raise EvaluationError("repeat() count is negative")
    return _list([value] * min(times, MAX_LIST + 1))


_CALLS: dict[str, Callable[..., Any]] = {
    "abs": lambda x: abs(x),
    "sum": lambda xs: _int(sum(xs)),
    "len": len,
    "count": lambda xs, x: xs.count(x),
    "distinct": lambda xs: len(set(xs)),
    "index": lambda xs, x: xs.index(x) if x in xs else -1,
    "matches": lambda xs, ys: sum(1 for x, y in zip(xs, ys) if x == y),
    "repeat": _repeat,
}


class StepsExhausted(EvaluationError):
    """A budget of :class:`Steps` ran out."""


class Steps:
    """A budget of evaluation steps that many evaluations share: each node evaluated is a
    step, and a node whose value is a list a step more for each of its elements.  Every
    list an operation reads or makes is the value of some node, so an evaluation's work is
    at most a small multiple of the steps it is charged (MAX_LIST bounds one node's)."""

    __slots__ = ("limit", "left", "programs")

    def __init__(self, limit: int):
        self.limit = limit
        self.left = limit
        self.programs: dict[int, Program] = {}  # counted programs by id of their tree, compiled once

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise StepsExhausted(f"more than {self.limit:,} evaluation steps")

    def program(self, tree: Node, types: dict[int, Type]) -> Program:
        """``tree`` compiled to charge this budget (kept: the tree lives as long as its ruleset)."""
        program = self.programs.get(id(tree))
        if program is None:
            program = self.programs[id(tree)] = _compile(tree, types, self)
        return program


def _compile(node: Node, types: dict[int, Type], steps: Steps | None = None) -> Program:
    """Compile a checked node into a closure ``env -> value``; constants fold.  With
    ``steps``, every node evaluated charges them (see :class:`Steps`)."""
    program = _compile_node(node, types, steps)
    if steps is None:
        return program
    spend = steps.spend

    def counted(env: Env) -> Any:
        value = program(env)
        spend(1 + len(value) if type(value) is list else 1)
        return value

    return counted


def _compile_node(node: Node, types: dict[int, Type], steps: Steps | None) -> Program:
    if isinstance(node, (IntLit, BoolLit)):
        value = node.value
        return lambda env: value
    if isinstance(node, Name):
        key = node.name
        if key in CONSTANTS:  # unless a name bound here (a let) hides it
            constant = CONSTANTS[key]
            return lambda env: env.get(key, constant)
        return lambda env: env[key]
    if isinstance(node, Unary):
        operand = _compile(node.operand, types, steps)
        if node.op == "-":
            return lambda env: _int(-operand(env))
        return lambda env: not operand(env)
    if isinstance(node, Binary):
        left, right = _compile(node.left, types, steps), _compile(node.right, types, steps)
        if node.op == "and":
            return lambda env: left(env) and right(env)
        if node.op == "or":
            return lambda env: left(env) or right(env)
        fn = _ARITH[node.op]
        if node.op == "+":  # the commonest operator, kept on a short path
            return lambda env: _int(left(env) + right(env))
        return lambda env: fn(left(env), right(env))
    if isinstance(node, Conditional):
        test, then, orelse = (_compile(n, types, steps) for n in (node.test, node.then, node.orelse))
        return lambda env: then(env) if test(env) else orelse(env)
    if isinstance(node, ListLit):
        parts = [(_compile(item, types, steps), types.get(id(item)) == Type.LIST) for item in node.items]

        def build(env: Env) -> list[int]:
            out: list[int] = []
            for part, splice in parts:
                if splice:
                    out.extend(part(env))
                else:
                    out.append(part(env))
                if len(out) > MAX_LIST:
                    _list(out)
            return out

        return build
    if isinstance(node, Index):
        target, index = _compile(node.target, types, steps), _compile(node.index, types, steps)
        return lambda env: _index(target(env), index(env))
    if isinstance(node, Call):
        args = [_compile(a, types, steps) for a in node.args]
        if node.func in ("min", "max"):
            pick = _minmax(min if node.func == "min" else max, node.func)
            if len(args) == 1:
                (only,) = args
                return lambda env: pick(only(env))
            return lambda env: pick([a(env) for a in args])
        call = _CALLS[node.func]
        if len(args) == 1:
            (only,) = args
            return lambda env: call(only(env))
        return lambda env: call(*(a(env) for a in args))
    raise TypeError(f"unknown node {node!r}")  # pragma: no cover - grammar and AST agree
