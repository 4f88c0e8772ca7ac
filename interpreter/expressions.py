"""The expression language: parse -> typed AST -> check -> compile to callables.

The grammar lives in ``schema/expressions.lark``; the syntax tree and the parser in
:mod:`.expression_syntax`, the compiler in :mod:`.expression_compile`, staged evaluation in
:mod:`.expression_staging`; this module checks and is the language's front door.  An expression is parsed once (LALR,
positions kept), turned into frozen dataclass nodes, type-checked against the names
its place in the ruleset binds, and compiled into a plain Python closure that takes an
environment mapping names to values.  Nothing here calls ``eval`` or ``exec``, there
are no loops, and evaluation is bounded: integers and lists have size limits.

>>> program = compile_checked("tricks + (if tricks == bid then 10 else 0)",
...                              {"tricks": Type.INT, "bid": Type.INT})
>>> program({"tricks": 2, "bid": 2}), program({"tricks": 5, "bid": 3})
(12, 5)
>>> compile_checked("[3..1, 2..3]", {})({})
[3, 2, 1, 2, 3]
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Mapping

from .errors import EvaluationError, ExpressionError
from .expression_compile import Steps, StepsExhausted, _compile
from .expression_staging import DEFERRED, STATIC, Stager, _undecided, stage, touches_at_once
from .expression_syntax import (CONSTANTS, MAX_DEPTH, MAX_INT, MAX_LIST, MAX_SOURCE, Binary, BoolLit, Call,
                                Conditional, Env, Index, IntLit, ListLit, Name, Node, Program, Type, Unary,
                                _free_names, _names_used, parse)

# What the rest of cardrules imports from here (the language's one front door).
__all__ = ["CONSTANTS", "DEFERRED", "MAX_DEPTH", "MAX_INT", "MAX_LIST", "MAX_SOURCE", "STATIC", "Compiled", "Env",
           "Node", "Program", "Stager", "Steps", "StepsExhausted", "Type", "check_source", "compile_checked", "names_read", "parse", "stage"]


# --- type checking ---------------------------------------------------------------------
_FUNCTIONS: dict[str, str] = {
    "min": "min(list) or min(a, b, ...)",
    "max": "max(list) or max(a, b, ...)",
    "abs": "abs(int)",
    "sum": "sum(list)",
    "len": "len(list)",
    "count": "count(list, int)",
    "distinct": "distinct(list)",
    "index": "index(list, int)",
    "matches": "matches(list, list)",
    "repeat": "repeat(int, count)",
}


class Checker:
    """Infers the type of each node; collects every error with its position."""

    def __init__(self, names: Mapping[str, Type]):
        self.names = names
        self.errors: list[ExpressionError] = []

    def fail(self, node: Node, message: str, start: int | None = None, end: int | None = None) -> None:
        self.errors.append(ExpressionError(message, node.start if start is None else start,
                                           node.end if end is None else end))

    def expect(self, node: Node, want: Type, what: str) -> None:
        got = self.check(node)
        if got is not None and got != want:
            self.fail(node, f"{what} must be {_a(want)}, not {_a(got)}")

    def check(self, node: Node) -> Type | None:
        method = getattr(self, "check_" + type(node).__name__)
        found: Type | None = method(node)
        return found

    def check_IntLit(self, node: IntLit) -> Type:
        return Type.INT

    def check_BoolLit(self, node: BoolLit) -> Type:
        return Type.BOOL

    def check_Name(self, node: Name) -> Type | None:
        if node.name in self.names:
            return self.names[node.name]
        if node.name in CONSTANTS:
            return Type.INT
        message = f"unknown name '{node.name}'"
        close = difflib.get_close_matches(node.name, list(self.names), n=1)
        if close:
            message += f" (did you mean '{close[0]}'?)"
        elif self.names:
            message += "; names here: " + ", ".join(sorted(self.names))
        else:
            message += "; no names are bound here"
        self.fail(node, message)
        return None

    def check_Unary(self, node: Unary) -> Type:
        if node.op == "-":
            self.expect(node.operand, Type.INT, "the operand of '-'")
            return Type.INT
        self.expect(node.operand, Type.BOOL, "the operand of 'not'")
        return Type.BOOL

    def check_Binary(self, node: Binary) -> Type | None:
        op = node.op
        if op in ("and", "or"):
            self.expect(node.left, Type.BOOL, f"the left side of '{op}'")
            self.expect(node.right, Type.BOOL, f"the right side of '{op}'")
            return Type.BOOL
        if op in ("in", "not in"):
            self.expect(node.left, Type.INT, f"the left side of '{op}'")
            self.expect(node.right, Type.LIST, f"the right side of '{op}'")
            return Type.BOOL
        if op in ("==", "!="):
            left, right = self.check(node.left), self.check(node.right)
            if left is not None and right is not None and left != right:
                self.fail(node, f"cannot compare {_a(left)} with {_a(right)}")
            return Type.BOOL
        if op in ("<", "<=", ">", ">="):
            self.expect(node.left, Type.INT, f"the left side of '{op}'")
            self.expect(node.right, Type.INT, f"the right side of '{op}'")
            return Type.BOOL
        if op == "..":
            self.expect(node.left, Type.INT, "the start of a range")
            self.expect(node.right, Type.INT, "the end of a range")
            return Type.LIST
        self.expect(node.left, Type.INT, f"the left side of '{op}'")
        self.expect(node.right, Type.INT, f"the right side of '{op}'")
        return Type.INT

    def check_Conditional(self, node: Conditional) -> Type | None:
        self.expect(node.test, Type.BOOL, "the condition after 'if'")
        then, orelse = self.check(node.then), self.check(node.orelse)
        if then is not None and orelse is not None and then != orelse:
            self.fail(node, f"'then' gives {_a(then)} but 'else' gives {_a(orelse)}")
            return None
        return then or orelse

    def check_ListLit(self, node: ListLit) -> Type:
        for item in node.items:
            got = self.check(item)
            if got == Type.BOOL:
                self.fail(item, "a list holds integers (or lists to splice in), not a boolean")
        return Type.LIST

    def check_Index(self, node: Index) -> Type:
        self.expect(node.target, Type.LIST, "only a list can be indexed; the indexed value")
        self.expect(node.index, Type.INT, "an index")
        return Type.INT

    def check_Call(self, node: Call) -> Type | None:
        name, args = node.func, node.args
        if name not in _FUNCTIONS:
            message = f"unknown function '{name}'"
            close = difflib.get_close_matches(name, list(_FUNCTIONS), n=1)
            message += f" (did you mean '{close[0]}'?)" if close else "; functions: " + ", ".join(_FUNCTIONS)
            self.fail(node, message, node.start, node.func_end)
            for arg in args:
                self.check(arg)
            return None
        types = [self.check(arg) for arg in args]

        def arity(expected: int) -> bool:
            if len(args) != expected:
                self.fail(node, f"{name}() takes {expected} argument{'s' if expected != 1 else ''}, "
                          f"got {len(args)}: {_FUNCTIONS[name]}")
                return False
            return True

        def want(i: int, t: Type) -> None:
            got = types[i]
            if got is not None and got != t:
                self.fail(args[i], f"argument {i + 1} of {name}() must be {_a(t)}, not {_a(got)}")

        if name in ("min", "max"):
            if len(args) == 0:
                self.fail(node, f"{name}() needs at least one argument: {_FUNCTIONS[name]}")
            elif len(args) == 1:
                want(0, Type.LIST)
            else:
                for i in range(len(args)):
                    want(i, Type.INT)
            return Type.INT
        if name == "abs":
            if arity(1):
                want(0, Type.INT)
            return Type.INT
        if name in ("sum", "len", "distinct"):
            if arity(1):
                want(0, Type.LIST)
            return Type.INT
        if name == "matches":
            if arity(2):
                want(0, Type.LIST)
                want(1, Type.LIST)
            return Type.INT
        if name in ("count", "index"):
            if arity(2):
                want(0, Type.LIST)
                want(1, Type.INT)
            return Type.INT
        # repeat
        if arity(2):
            want(0, Type.INT)
            want(1, Type.INT)
        return Type.LIST


def _a(t: Type) -> str:
    return {"int": "an integer", "bool": "a boolean", "list": "a list"}[t.value]


# --- compiling ------------------------------------------------------------------------
class _TypeRecorder(Checker):
    """A checker that remembers each node's type (the compiler needs list items')."""

    def __init__(self, names: Mapping[str, Type]):
        super().__init__(names)
        self.types: dict[int, Type] = {}

    def check(self, node: Node) -> Type | None:
        result = super().check(node)
        if result is not None:
            self.types[id(node)] = result
        return result


@dataclass(frozen=True)
class Compiled:
    """A checked, compiled expression: ``program(env)`` evaluates it."""

    source: str
    type: Type
    program: Program
    names: frozenset[str]
    constant: Any = None
    is_constant: bool = False
    # The checked tree and its node types, kept for staged evaluation (see :meth:`staged`).
    tree: Node | None = field(default=None, compare=False, repr=False)
    types: dict[int, Type] | None = field(default=None, compare=False, repr=False)
    _stagers: dict[str, Stager] = field(default_factory=dict, compare=False, repr=False)

    def __call__(self, env: Env) -> Any:
        return self.program(env)

    def counted(self, steps: Steps, env: Env) -> Any:
        """This expression evaluated in ``env``, charging ``steps`` (StepsExhausted when
        they run out); the value is the one a call gives."""
        if self.tree is None:  # a constant, worked out when it was compiled
            steps.spend(1)
            return self.constant
        return steps.program(self.tree, self.types or {})(env)

    def staged(self, late: str) -> Stager:
        """This expression evaluated in two stages, for a name bound late (see
        :func:`stage`); built on first use and kept."""
        stager = self._stagers.get(late)
        if stager is None:
            if self.tree is None:  # a constant: nothing to stage
                value = self.constant
                stager = self._stagers[late] = lambda env: (STATIC, value)
            else:
                stager = stage(self.tree, self.types or {}, late)
                if not touches_at_once(self.tree, late):
                    stager = _undecided(stager)
                self._stagers[late] = stager
        return stager
def names_read(source: str) -> frozenset[str]:
    """The names an expression reads (nothing for one that does not parse: its problem
    is reported where it is compiled)."""
    try:
        return frozenset(_names_used(parse(source)))
    except ExpressionError:
        return frozenset()


def compile_checked(source: str, names: Mapping[str, Type],
                    want: Type | tuple[Type, ...] | None = None, steps: Steps | None = None) -> Compiled:
    """Parse, check and compile ``source``; raise the first :class:`ExpressionError`.

    ``want`` is the type (or types) the place in the ruleset needs; an expression that
    reads no name is worked out here, charging ``steps`` if given (StepsExhausted).
    """
    tree = parse(source)  # once: the checks below are those of check_source, on this tree
    recorder = _TypeRecorder(names)
    result_type = recorder.check(tree)
    if recorder.errors:
        raise recorder.errors[0]
    error = _want_error(tree, result_type, want)
    if error is not None:
        raise error
    assert result_type is not None
    program = _compile(tree, recorder.types)
    if not _free_names(tree):
        try:
            value = program({}) if steps is None else _compile(tree, recorder.types, steps)({})
        except StepsExhausted:
            raise
        except EvaluationError as exc:
            raise ExpressionError(str(exc), tree.start, tree.end) from None
        return Compiled(source, result_type, lambda env: value, frozenset(), value, True)
    return Compiled(source, result_type, program, frozenset(_names_used(tree)), tree=tree, types=recorder.types)


def check_source(source: str, names: Mapping[str, Type],
                 want: Type | tuple[Type, ...] | None = None) -> list[ExpressionError]:
    """Every syntax and type error of ``source``, each with its character span."""
    try:
        tree = parse(source)
    except ExpressionError as exc:
        return [exc]
    checker = Checker(names)
    got = checker.check(tree)
    if checker.errors:
        return checker.errors
    error = _want_error(tree, got, want)
    return [error] if error is not None else []


def _want_error(tree: Node, got: Type | None, want: Type | tuple[Type, ...] | None) -> ExpressionError | None:
    """The error when ``tree`` gives a type ``got`` that the place does not take."""
    wants = (want,) if isinstance(want, Type) else want
    if wants and got is not None and got not in wants:
        need = " or ".join(_a(w) for w in wants)
        return ExpressionError(f"this expression gives {_a(got)} but {need} is needed here", tree.start, tree.end)
    return None
