"""The expression language's syntax: its value types and limits, the typed AST, and the
parser (``schema/expressions.lark``, LALR with positions) that builds it; a few walks
over the tree.  :mod:`.expressions` checks and compiles what this parses."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Mapping

import lark

from .errors import ExpressionError

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


# --- walks over the tree ----------------------------------------------------------------


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


def _names_used(node: Node) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Name):
            out.add(n.name)
        stack.extend(_children(n))
    return out
