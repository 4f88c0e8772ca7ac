"""The expression language: parse -> typed AST -> check -> compile to callables.

The grammar lives in ``schema/expressions.lark``.  An expression is parsed once (LALR,
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
import operator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Mapping

import lark

from .errors import EvaluationError, ExpressionError

MAX_SOURCE = 2000  # characters in one expression
MAX_DEPTH = 60  # nesting of the syntax tree
MAX_INT = 10**15  # magnitude of any integer value
MAX_LIST = 10_000  # elements of any list value


# Names every expression may use, whatever the place: suits as the engine numbers them
# (``no_trump`` where a suit may be none) and the ranks above ten.  A name bound at the
# place (a ``let`` of the same spelling) hides one.
CONSTANTS: dict[str, int] = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3, "no_trump": -1,
                             "jack": 11, "queen": 12, "king": 13, "ace": 14}


class Type(StrEnum):
    """The three value types of the language."""

    INT = "int"
    BOOL = "bool"
    LIST = "list"  # a list of integers


Env = Mapping[str, Any]
Program = Callable[[Env], Any]


# --- AST -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Node:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True, slots=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class Name(Node):
    name: str


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str  # "-" or "not"
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str  # + - * / % == != < <= > >= and or in notin ..
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Conditional(Node):
    test: Node
    then: Node
    orelse: Node


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    func_end: int
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Index(Node):
    target: Node
    index: Node


# --- parsing -------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    grammar = resources.files("cardrules.schema").joinpath("expressions.lark").read_text("utf-8")
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _span(meta: Any) -> tuple[int, int]:
    return (meta.start_pos, meta.end_pos) if not getattr(meta, "empty", False) else (0, 0)


@lark.v_args(meta=True)
class _ToAst(lark.Transformer[Any, Node]):
    """Turns the lark parse tree into AST nodes (one method per grammar alias)."""

    def int_(self, meta: Any, children: list[Any]) -> Node:
        """atom: INT"""
        token = children[0]
        if len(token) > 15:
            raise ExpressionError("integer literal is too large", token.start_pos, token.end_pos)
        return IntLit(*_span(meta), int(token))

    def true(self, meta: Any, children: list[Any]) -> Node:
        """atom: "true" """
        return BoolLit(*_span(meta), True)

    def false(self, meta: Any, children: list[Any]) -> Node:
        """atom: "false" """
        return BoolLit(*_span(meta), False)

    def name(self, meta: Any, children: list[Any]) -> Node:
        """atom: NAME"""
        return Name(*_span(meta), str(children[0]))

    def call(self, meta: Any, children: list[Any]) -> Node:
        """atom: NAME "(" [expr ("," expr)*] ")" """
        token = children[0]
        return Call(*_span(meta), str(token), token.end_pos, tuple(children[1:]))

    def list_(self, meta: Any, children: list[Any]) -> Node:
        """atom: "[" [item ("," item)*] "]" """
        return ListLit(*_span(meta), tuple(children))

    def index(self, meta: Any, children: list[Any]) -> Node:
        """postfix: postfix "[" expr "]" """
        return Index(*_span(meta), children[0], children[1])

    def neg(self, meta: Any, children: list[Any]) -> Node:
        """unary: "-" unary"""
        return Unary(*_span(meta), "-", children[0])

    def not_(self, meta: Any, children: list[Any]) -> Node:
        """not_expr: "not" not_expr"""
        return Unary(*_span(meta), "not", children[0])

    def binary(self, meta: Any, children: list[Any]) -> Node:
        """sum: sum ADD_OP product; product: product MUL_OP unary"""
        left, op, right = children
        return Binary(*_span(meta), str(op), left, right)

    def compare(self, meta: Any, children: list[Any]) -> Node:
        """comparison: range_expr COMP_OP range_expr"""
        left, op, right = children
        return Binary(*_span(meta), str(op), left, right)

    def in_(self, meta: Any, children: list[Any]) -> Node:
        """comparison: range_expr "in" range_expr"""
        return Binary(*_span(meta), "in", children[0], children[1])

    def not_in(self, meta: Any, children: list[Any]) -> Node:
        """comparison: range_expr "not" "in" range_expr"""
        return Binary(*_span(meta), "not in", children[0], children[1])

    def range(self, meta: Any, children: list[Any]) -> Node:
        """range_expr: sum ".." sum"""
        return Binary(*_span(meta), "..", children[0], children[1])

    def and_(self, meta: Any, children: list[Any]) -> Node:
        """and_expr: and_expr "and" not_expr"""
        return Binary(*_span(meta), "and", children[0], children[1])

    def or_(self, meta: Any, children: list[Any]) -> Node:
        """or_expr: or_expr "or" and_expr"""
        return Binary(*_span(meta), "or", children[0], children[1])

    def conditional(self, meta: Any, children: list[Any]) -> Node:
        """conditional: "if" expr "then" expr "else" expr"""
        return Conditional(*_span(meta), *children)


_TOKEN_WORDS = {
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "NAME": "a name",
    "INT": "a number",
    "RPAR": "')'",
    "LPAR": "'('",
    "RSQB": "']'",
    "LSQB": "'['",
    "COMMA": "','",
    "THEN": "'then'",
    "ELSE": "'else'",
    "IF": "'if'",
    "$END": "the end",
}


def _expected(tokens: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, repr(t.lower())) for t in tokens if not t.startswith("__")})
    if len(words) > 6:
        return ""
    return " (expected " + ", ".join(words) + ")" if words else ""


def parse(source: str) -> Node:
    """Parse an expression into its AST, or raise :class:`ExpressionError`.

    >>> parse("1 + 2")
    Binary(start=0, end=5, op='+', left=IntLit(start=0, end=1, value=1), right=IntLit(start=4, end=5, value=2))
    """
    if len(source) > MAX_SOURCE:
        raise ExpressionError(f"expression is longer than {MAX_SOURCE} characters", 0, 1)
    if not source.strip():
        raise ExpressionError("empty expression", 0, 1)
    try:
        tree = _parser().parse(source)
    except lark.UnexpectedCharacters as exc:
        at = exc.pos_in_stream or 0
        ch = source[at] if at < len(source) else ""
        hint = " ('=' compares only as '==')" if ch == "=" else ""
        raise ExpressionError(f"unexpected character {ch!r}{hint}", at) from None
    except lark.UnexpectedToken as exc:
        token = exc.token
        if token.type == "$END":
            raise ExpressionError(
                "expression ends too early" + _expected(exc.expected), len(source) - 1, len(source)
            ) from None
        raise ExpressionError(
            f"unexpected {str(token)!r}" + _expected(exc.expected),
            token.start_pos,
            token.end_pos,
        ) from None
    except lark.UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ExpressionError(f"cannot parse expression: {exc}", 0) from None
    if isinstance(tree, lark.Tree):
        _check_depth(tree)
    try:
        node: Node = _ToAst().transform(tree)
        return node
    except lark.exceptions.VisitError as exc:  # lark wraps what a transformer method raises
        if isinstance(exc.orig_exc, ExpressionError):
            raise exc.orig_exc from None
        raise


def _check_depth(tree: lark.Tree[Any]) -> None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExpressionError(f"expression is nested more than {MAX_DEPTH} deep", 0)
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, lark.Tree))


# --- type checking ---------------------------------------------------------------------
_FUNCTIONS: dict[str, str] = {
    "min": "min(list) or min(a, b, ...)",
    "max": "max(list) or max(a, b, ...)",
    "abs": "abs(int)",
    "sum": "sum(list)",
    "len": "len(list)",
    "count": "count(list, int)",
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
        if name in ("sum", "len"):
            if arity(1):
                want(0, Type.LIST)
            return Type.INT
        if name == "count":
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


def _free_names(node: Node) -> bool:
    if isinstance(node, Name):
        return True  # (a constant too: a let may hide it, and lets are not known here)
    return any(_free_names(child) for child in _children(node))


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Conditional):
        return (node.test, node.then, node.orelse)
    if isinstance(node, (ListLit,)):
        return node.items
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Index):
        return (node.target, node.index)
    return ()


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


def _names_used(node: Node) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Name):
            out.add(n.name)
        stack.extend(_children(n))
    return out


def names_read(source: str) -> frozenset[str]:
    """The names an expression reads (nothing for one that does not parse: its problem
    is reported where it is compiled)."""
    try:
        return frozenset(_names_used(parse(source)))
    except ExpressionError:
        return frozenset()


def compile_checked(source: str, names: Mapping[str, Type],
                    want: Type | tuple[Type, ...] | None = None) -> Compiled:
    """Parse, check and compile ``source``; raise the first :class:`ExpressionError`.

    ``want`` is the type (or types) the place in the ruleset needs.
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
            value = program({})
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


# --- staged evaluation -------------------------------------------------------------------
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
    """A two-stage evaluator of the checked tree ``node`` for the late-bound ``late``."""
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
