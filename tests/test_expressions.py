"""The expression language: parse, check, compile, evaluate, and its limits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules.interpreter.errors import EvaluationError, ExpressionError
from cardrules.interpreter.expressions import (MAX_DEPTH, MAX_LIST, Type, check_source,
                                               compile_checked, parse)

INTS = {"a": Type.INT, "b": Type.INT, "c": Type.INT}


def run(source: str, names=None, **env):
    return compile_checked(source, names or {k: Type.INT for k in env})(env)


@pytest.mark.parametrize("source, env, expected", [
    ("tricks + (if tricks == bid then 10 else 0)", {"tricks": 5, "bid": 3}, 5),
    ("tricks + (if tricks == bid then 10 else 0)", {"tricks": 2, "bid": 2}, 12),
    ("tricks + (if tricks == bid then 10 else 0)", {"tricks": 3, "bid": 4}, 3),
    ("if tricks == bid then 10 else -abs(bid - tricks)", {"tricks": 2, "bid": 4}, -2),
    ("7 / 2", {}, 3),
    ("-7 / 2", {}, -4),
    ("7 % 3", {}, 1),
    ("2 + 3 * 4 - 1", {}, 13),
    ("(2 + 3) * 4", {}, 20),
    ("max(1, 5, 3) + min(4, 2)", {}, 7),
    ("sum([1, 2, 3]) + len(1..4) + count([1, 2, 1], 1)", {}, 12),
])
def test_arithmetic_and_conditionals(source, env, expected):
    assert run(source, **env) == expected


def test_ranges_count_down_and_lists_splice():
    assert run("[10..1, 2..10]") == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert run("[a, 1..3, a]", a=9) == [9, 1, 2, 3, 9]
    assert run("repeat(11, 3)") == [11, 11, 11]
    assert run("[5, 6, 7][1]") == 6


def test_booleans_and_membership():
    names = {"bid": Type.INT, "bids": Type.LIST, "hand_size": Type.INT, "is_last": Type.BOOL}
    hook = "not (is_last and sum(bids) + bid == hand_size)"
    assert compile_checked(hook, names)({"bid": 3, "bids": [2, 1], "hand_size": 6, "is_last": True}) is False
    assert compile_checked(hook, names)({"bid": 2, "bids": [2, 1], "hand_size": 6, "is_last": True}) is True
    assert run("3 in 0..5 and 7 not in [1, 2]") is True


def test_constant_expressions_fold_at_compile_time():
    compiled = compile_checked("[10..1, 2..10]", {})
    assert compiled.is_constant and compiled.names == frozenset()
    assert compile_checked("a + 1", INTS).names == frozenset({"a"})


@pytest.mark.parametrize("source, message, start", [
    ("bidz + 1", "unknown name 'bidz' (did you mean 'bid'?)", 0),
    ("1 +", "expression ends too early", 2),
    ("bid = 1", "unexpected character '=' ('=' compares only as '==')", 4),
    ("bid + true", "the right side of '+' must be an integer, not a boolean", 6),
    ("if bid then 1 else 2", "the condition after 'if' must be a boolean, not an integer", 3),
    ("if bid > 1 then 1 else false", "'then' gives an integer but 'else' gives a boolean", 0),
    ("abs(1, 2)", "abs() takes 1 argument, got 2: abs(int)", 0),
    ("summ([1])", "unknown function 'summ' (did you mean 'sum'?)", 0),
    ("bid[0]", "only a list can be indexed; the indexed value must be a list, not an integer", 0),
    ("bid == [1]", "cannot compare an integer with a list", 0),
    ("", "empty expression", 0),
])
def test_errors_say_what_and_where(source, message, start):
    errors = check_source(source, {"bid": Type.INT})
    assert errors, source
    assert errors[0].message.startswith(message)
    assert errors[0].start == start


def test_every_error_in_an_expression_is_reported():
    errors = check_source("bidd + trikcs", {"bid": Type.INT, "tricks": Type.INT})
    assert [e.start for e in errors] == [0, 7]


def test_wrong_result_type_for_the_place():
    errors = check_source("bid + 1", {"bid": Type.INT}, Type.BOOL)
    assert errors[0].message == "this expression gives an integer but a boolean is needed here"


def test_evaluation_is_bounded():
    with pytest.raises(EvaluationError, match="division by zero"):
        run("a / b", a=1, b=0)
    with pytest.raises(EvaluationError, match="more than"):
        run("a..b", a=0, b=MAX_LIST * 10)
    with pytest.raises(EvaluationError, match="beyond the limit"):
        run("a * a * a * a", a=10**6)
    with pytest.raises(EvaluationError, match="outside a list"):
        run("[1, 2][a]", a=5)
    with pytest.raises(EvaluationError, match="empty list"):
        compile_checked("min(xs)", {"xs": Type.LIST})({"xs": []})
    with pytest.raises(ExpressionError, match="division by zero"):
        compile_checked("1 / 0", {})  # a constant fails when it is compiled


def test_nesting_and_length_are_limited():
    with pytest.raises(ExpressionError, match="nested"):
        parse("-(" * (MAX_DEPTH + 5) + "1" + ")" * (MAX_DEPTH + 5))
    with pytest.raises(ExpressionError, match="longer than"):
        parse("1 + " * 1000 + "1")


def test_a_huge_literal_is_an_error_not_a_crash():
    errors = check_source("bid + 12345678901234567890", {"bid": Type.INT})
    assert errors[0].message == "integer literal is too large" and errors[0].start == 6


def test_keywords_are_not_names():
    assert check_source("if", {})[0].message.startswith("expression ends too early")
    assert check_source("true and false", {}) == []


small = st.integers(min_value=-1000, max_value=1000)


@given(small, small, small)
def test_arithmetic_agrees_with_integer_arithmetic(a, b, c):
    assert run("a + b * c - (a - b)", a=a, b=b, c=c) == a + b * c - (a - b)
    assert run("a * (b + c)", a=a, b=b, c=c) == a * (b + c)
    if b:
        assert run("a / b", a=a, b=b) == a // b
        assert run("a % b", a=a, b=b) == a % b
    assert run("max(a, b, c) - min(a, b, c)", a=a, b=b, c=c) == max(a, b, c) - min(a, b, c)
    assert run("if a < b then a else b", a=a, b=b) == min(a, b)


@given(st.integers(-50, 50), st.integers(-50, 50))
def test_ranges_are_inclusive_in_either_direction(a, b):
    values = run("a..b", a=a, b=b)
    assert values[0] == a and values[-1] == b and len(values) == abs(a - b) + 1
    assert all(abs(x - y) == 1 for x, y in zip(values, values[1:]))


@given(st.text(max_size=60))
def test_any_text_parses_or_fails_cleanly(text):
    """Arbitrary input never escapes as anything but ExpressionError."""
    for error in check_source(text, {"bid": Type.INT, "bids": Type.LIST}):
        assert isinstance(error, ExpressionError)
        assert 0 <= error.start <= max(len(text), 1)
