"""Staged evaluation of a checked expression, for a name bound late (a bidding
restriction asked about every candidate bid)."""

from __future__ import annotations

import operator
from typing import Any, Callable

from .expression_compile import _ARITH, _compile, _int
from .expression_syntax import (CONSTANTS, Binary, BoolLit, Conditional, Env, IntLit, Name, Node, Program, Type,
                                Unary, _children, _names_used)


# A bidding restriction is asked about every candidate bid, and only ``bid`` differs
# between them.  Staging evaluates everything that does not use the late-bound name
# once, and leaves a small *residual* program in that name alone: for the hook
# ``not (is_last and sum(bids) + bid == hand_size)`` the first stage gives ``true`` for
# every bidder but the last, and ``not (S + bid == H)`` (S and H numbers) for the last.
#
# A stager returns (STATIC, value) when the value did not depend on the late name, or
# (kind, residual) where ``residual(env)`` equals the whole expression's value for the
# late name's value in ``env``.  Evaluation is pure, so computing a part early is exact;
# a part that fails is not raised early but left in the residual, to fail exactly where
# a full evaluation would.  DEFERRED (rather than DYNAMIC) says the first stage cannot
# tell whether a full evaluation with the late name unknown would have failed before it
# needed that name: such a failure was left in the residual, or a part was not staged.
STATIC, DYNAMIC, DEFERRED = 0, 1, 2
Staged = tuple[int, Any]
Stager = Callable[[Env], Staged]

# Comparisons as C functions: a residual compares with one call, not a lambda's two.
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def stage(node: Node, types: dict[int, Type], late: str) -> Stager:
    """A two-stage evaluator of the checked tree ``node`` for the late-bound ``late``.

    (Long because it is one dispatch over the node kinds, like ``_compile``, with the
    closures each kind returns written where they are chosen.)"""
    program = _compile(node, types)

    def fold(env: Env) -> Staged:
        """Evaluate now; on failure leave the whole part to the residual (it fails again)."""
        try:
            return STATIC, program(env)
        except Exception:  # noqa: BLE001 - re-raised by the residual, in evaluation order
            return DEFERRED, program

    if isinstance(node, (IntLit, BoolLit)):
        constant = (STATIC, node.value)
        return lambda env: constant
    if isinstance(node, Name):
        key = node.name
        if key in CONSTANTS and key != late:
            fixed = CONSTANTS[key]
            return lambda env: (STATIC, env.get(key, fixed))
        if key == late:
            dynamic = (DYNAMIC, program)
            return lambda env: dynamic

        def name(env: Env) -> Staged:  # the commonest static part: a plain look-up
            try:
                return STATIC, env[key]
            except KeyError:
                return DEFERRED, program

        return name
    if late not in _names_used(node):
        return fold
    if isinstance(node, Unary):
        operand = stage(node.operand, types, late)
        negate = node.op == "-"

        def unary(env: Env) -> Staged:
            kind, x = operand(env)
            if kind == STATIC:  # (the operand folded, e.g. a branch of 'if' without the name)
                try:
                    return STATIC, (_int(-x) if negate else not x)
                except Exception:  # noqa: BLE001 - as in fold()
                    return DEFERRED, program
            return kind, ((lambda e: _int(-x(e))) if negate else (lambda e: not x(e)))

        return unary
    if isinstance(node, Binary) and node.op in ("and", "or"):
        left, right = stage(node.left, types, late), stage(node.right, types, late)
        is_and = node.op == "and"

        def logical(env: Env) -> Staged:
            kind, x = left(env)
            if kind == STATIC:  # decided now, as evaluation would: short-circuit or the right side
                return (STATIC, x) if bool(x) != is_and else right(env)
            rkind, y = right(env)
            ry = _residual(rkind, y)
            return max(kind, rkind), ((lambda e: x(e) and ry(e)) if is_and else (lambda e: x(e) or ry(e)))

        return logical
    if isinstance(node, Binary):
        left, right = stage(node.left, types, late), stage(node.right, types, late)
        op = node.op
        fn = _COMPARE.get(op) or _ARITH[op]
        add = op == "+"  # the commonest operator: its residuals add without a call to fn

        def binary(env: Env) -> Staged:
            lkind, a = left(env)
            rkind, b = right(env)
            if lkind == STATIC and rkind == STATIC:
                try:
                    return STATIC, fn(a, b)
                except Exception:  # noqa: BLE001 - as in fold()
                    return DEFERRED, program
            if rkind == STATIC:
                return lkind, (lambda e: _int(a(e) + b)) if add else (lambda e: fn(a(e), b))
            if lkind == STATIC:
                return rkind, (lambda e: _int(a + b(e))) if add else (lambda e: fn(a, b(e)))
            return max(lkind, rkind), lambda e: fn(a(e), b(e))

        return binary
    if isinstance(node, Conditional):
        test = stage(node.test, types, late)
        then, orelse = stage(node.then, types, late), stage(node.orelse, types, late)

        def conditional(env: Env) -> Staged:
            kind, t = test(env)
            if kind == STATIC:
                return then(env) if t else orelse(env)
            k1, a = then(env)
            k2, b = orelse(env)
            ra, rb = _residual(k1, a), _residual(k2, b)
            return max(kind, k1, k2), lambda e: ra(e) if t(e) else rb(e)

        return conditional
    # Lists, indexing and calls that use the late name are rare in rules: not staged.
    return lambda env: (DEFERRED, program)


def _undecided(stager: Stager) -> Stager:
    """``stager``, but DEFERRED where it finds the late name: whether a full evaluation
    with that name unknown would stop there is not known (see :func:`touches_at_once`)."""
    def undecided(env: Env) -> Staged:
        kind, x = stager(env)
        return (DEFERRED if kind == DYNAMIC else kind), x

    return undecided


def _residual(kind: int, x: Any) -> Program:
    """A stage's result as a program (a value folded in the first stage is a constant)."""
    return (lambda env: x) if kind == STATIC else x


def touches_at_once(node: Node, late: str) -> bool:
    """True when every use of the name ``late`` in ``node`` is an operand of an
    operator that uses its value (arithmetic, a comparison, '-' or 'not'), so that an
    evaluation with that value unknown stops at the first use it reaches.  (As a list
    item, a branch of 'if', an argument or the left of 'in', it could be passed on
    untouched: 'bid in []' is false whatever the bid; '/' and '%' check the divisor
    for zero before they use the dividend.)"""
    stack: list[tuple[Node, Node | None]] = [(node, None)]
    while stack:
        n, parent = stack.pop()
        if isinstance(n, Name) and n.name == late:
            if isinstance(parent, Unary):
                continue
            if isinstance(parent, Binary) and parent.op not in ("and", "or", "in", "not in", "/", "%"):
                continue
            return False
        stack.extend((child, n) for child in _children(n))
    return True
