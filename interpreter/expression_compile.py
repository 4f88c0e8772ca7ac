"""The expression language compiled: a checked tree into plain closures ``env -> value``
(constants folded), with the bounds every evaluation keeps (integer size, list length,
division by zero, indexes).  No ``eval`` or ``exec``."""

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


def _compile(node: Node, types: dict[int, Type]) -> Program:
    """Compile a checked node into a closure ``env -> value``; constants fold."""
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
        operand = _compile(node.operand, types)
        if node.op == "-":
            return lambda env: _int(-operand(env))
        return lambda env: not operand(env)
    if isinstance(node, Binary):
        left, right = _compile(node.left, types), _compile(node.right, types)
        if node.op == "and":
            return lambda env: left(env) and right(env)
        if node.op == "or":
            return lambda env: left(env) or right(env)
        fn = _ARITH[node.op]
        if node.op == "+":  # the commonest operator, kept on a short path
            return lambda env: _int(left(env) + right(env))
        return lambda env: fn(left(env), right(env))
    if isinstance(node, Conditional):
        test, then, orelse = (_compile(n, types) for n in (node.test, node.then, node.orelse))
        return lambda env: then(env) if test(env) else orelse(env)
    if isinstance(node, ListLit):
        parts = [(_compile(item, types), types.get(id(item)) == Type.LIST) for item in node.items]

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
        target, index = _compile(node.target, types), _compile(node.index, types)
        return lambda env: _index(target(env), index(env))
    if isinstance(node, Call):
        args = [_compile(a, types) for a in node.args]
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
