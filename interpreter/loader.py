"""Load a ruleset file in stages: YAML (with positions) -> `extends` -> JSON Schema.

The output is a :class:`Document`: plain JSON-like data plus, for every path into it,
the file, line and column it came from, so every later stage can report a problem
where the author wrote it.  :mod:`cardrules.interpreter.ruleset` then turns the
document into typed objects.
"""

from __future__ import annotations

import difflib
import itertools
import hashlib
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import yaml

from .errors import Problem, RulesetError
from .files import FileRefused, is_file, read_bounded

MAX_FILE_BYTES = 1 << 20
MAX_NODES = 50_000
MAX_DEPTH = 40
MAX_EXTENDS = 16
MAX_INTEGER = 10**15  # the magnitude of any number in a ruleset, as of any integer in an expression
MAX_WHOLE_FLOAT = MAX_INTEGER  # a whole-number float up to this is read as an integer
MAX_SCHEMA_ERRORS = 1000

JsonPath = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Source:
    """One ruleset file's name (as shown in messages) and text."""

    name: str
    text: str
    quotable: bool = True  # its lines may be shown in messages (a file named .yaml/.yml, or a string)
    lines: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        # split once: a problem quotes its line, and a file may have thousands of problems
        object.__setattr__(self, "lines", tuple(self.text.splitlines()))

    def line(self, number: int) -> str | None:
        if not self.quotable:
            return None  # never echo a file that is not a ruleset (extends: /etc/passwd)
        return self.lines[number - 1] if 0 < number <= len(self.lines) else None


@dataclass(frozen=True, slots=True)
class Pos:
    """Where a value (and the key that holds it) was written."""

    source: Source
    line: int
    column: int
    key_line: int
    key_column: int
    style: str | None = None  # YAML scalar style: None (plain), "'", '"', "|", ">"
    single_line: bool = True


@dataclass
class Document:
    """JSON-like ruleset data with the position of every value."""

    data: dict[str, Any]
    positions: dict[JsonPath, Pos]
    source: Source
    chain: list[str] = field(default_factory=list)  # the files it was resolved from
    names: dict[str, str] = field(default_factory=dict)  # each of those files' ruleset name, by file

    def pos(self, path: JsonPath) -> Pos | None:
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path)

    def problem(self, path: JsonPath, message: str, *, kind: str = "semantic", at_key: bool = False,
                offset: int | None = None, span: int = 1) -> Problem:
        """A problem located at ``path`` (at a character ``offset`` within a string)."""
        pos = self.pos(path)
        if pos is None:
            return Problem(self.source.name, 0, 0, message, kind)
        if at_key:
            return Problem(pos.source.name, pos.key_line, pos.key_column, message, kind,
                           pos.source.line(pos.key_line), span)
        line, column = pos.line, pos.column
        if offset is not None and pos.single_line:
            column += offset + (1 if pos.style in ("'", '"') else 0)
        return Problem(pos.source.name, line, column, message, kind, pos.source.line(line), span)

    def sha256(self) -> str:
        """Hash of the fully resolved ruleset (canonical JSON)."""
        text = json.dumps(self.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- YAML with positions -------------------------------------------------------------
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader (libyaml's, about 20 times faster, where PyYAML has it); we build
    values ourselves from its node graph."""


_READS_BYTES = _Loader.__mro__[1] is not yaml.SafeLoader  # libyaml counts a reader error's position in bytes


def _walk(loader: _Loader, node: yaml.Node, path: JsonPath, key_mark: yaml.Mark | None,
          source: Source, positions: dict[JsonPath, Pos], problems: list[Problem],
          budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig(f"the YAML document has more than {MAX_NODES} values (aliases count each time)",
                      node.start_mark)
    if len(path) > MAX_DEPTH:
        raise _TooBig(f"the YAML document is nested more than {MAX_DEPTH} deep", node.start_mark)
    mark = node.start_mark
    km = key_mark or mark
    style = getattr(node, "style", None)
    single = node.start_mark.line == node.end_mark.line
    line, column = mark.line + 1, mark.column + 1
    if isinstance(node, yaml.ScalarNode) and style in ("|", ">"):
        # a block scalar: point into its text, which starts on the next non-blank line
        content = [n for n in range(mark.line + 2, node.end_mark.line + 2) if (source.line(n) or "").strip()]
        if content:
            text = source.line(content[0]) or ""
            line, column = content[0], len(text) - len(text.lstrip()) + 1
            single = len(content) == 1
    positions[path] = Pos(source, line, column, km.line + 1, km.column + 1, style, single)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                problems.append(Problem(source.name, key_node.start_mark.line + 1,
                                        key_node.start_mark.column + 1, "a key must be a plain value",
                                        "yaml", source.line(key_node.start_mark.line + 1)))
                continue
            read, key = _scalar(loader, key_node, source, problems)
            if not read:
                continue
            key = str(key) if not isinstance(key, bool) and key is not None else str(key_node.value)
            if key in out:
                problems.append(Problem(source.name, key_node.start_mark.line + 1,
                                        key_node.start_mark.column + 1, f"duplicate key '{key}'", "yaml",
                                        source.line(key_node.start_mark.line + 1), len(key)))
            out[key] = _walk(loader, value_node, path + (key,), key_node.start_mark, source,
                             positions, problems, budget)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_walk(loader, item, path + (i,), None, source, positions, problems, budget)
                for i, item in enumerate(node.value)]
    return _scalar(loader, node, source, problems)[1]


def _scalar(loader: _Loader, node: yaml.Node, source: Source, problems: list[Problem]) -> tuple[bool, Any]:
    """The value of a scalar node (a key or a value), as JSON types: (True, value), or
    (False, None) with the problem added to ``problems``.  This is the one place a number
    comes in from YAML, so it is bounded here: later stages format, hash and compare
    numbers, and Python refuses to write an integer of more than 4,300 digits (YAML 1.1
    reads ``0xfff...`` of any length)."""
    line, column = node.start_mark.line + 1, node.start_mark.column + 1

    def refuse(message: str) -> tuple[bool, Any]:
        problems.append(Problem(source.name, line, column, message, "yaml", source.line(line),
                                max(1, min(len(str(node.value)), 40))))
        return False, None

    tag = str(node.tag).rpartition(":")[2]
    try:
        value = loader.construct_object(node)
    except (ValueError, KeyError, AttributeError, TypeError, IndexError, OverflowError) as exc:
        if tag == "int" and "digits" in str(exc):  # an integer of more digits than Python reads
            return refuse("this number is too long to read")
        return refuse(f"this value cannot be read as the type its tag gives (!!{tag[:20]})")
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_WHOLE_FLOAT:
        value = int(value)  # 3.0 is 3 wherever a number is meant; 3.5 stays a float the schema refuses
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
        return refuse(f"this number is too large (a ruleset's numbers are at most {MAX_INTEGER:,} either side "
                      "of 0)")
    elif not isinstance(value, (str, int, float, bool)) and value is not None:
        # dates, binary...: keep the text the author wrote; the schema will reject it
        value = str(node.value)
    return True, value


class _TooBig(Exception):
    def __init__(self, message: str, mark: yaml.Mark):
        super().__init__(message)
        self.line, self.column = mark.line + 1, mark.column + 1


def _where(text: str, offset: int, in_bytes: bool) -> tuple[int, int]:
    """The line and column (1-based, lines as :class:`Source` splits them) of a
    character ``offset`` into ``text`` (a byte offset into its UTF-8 if ``in_bytes``)."""
    before = text.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "ignore") if in_bytes else text[:offset]
    lines = before.splitlines(keepends=True)
    if not lines:
        return 1, 1
    if lines[-1].splitlines()[0] != lines[-1]:  # it ends with a line break: the next line starts here
        return len(lines) + 1, 1
    return len(lines), len(lines[-1]) + 1


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def parse_yaml(source: Source) -> tuple[Any, dict[JsonPath, Pos]]:
    """Parse one YAML document safely, keeping positions; raise RulesetError."""
    problems: list[Problem] = []
    surrogate = _SURROGATE.search(source.text)
    if surrogate:  # text handed over as a string (an upload) need not be valid Unicode
        line, column = _where(source.text, surrogate.start(), False)
        raise RulesetError([Problem(source.name, line, column, f"the text is not valid Unicode (a lone surrogate, "
                                    f"U+{ord(surrogate.group()):04X})", "yaml", source.line(line))])
    loader: _Loader | None = None
    try:
        loader = _Loader(source.text)  # (PyYAML's own reader checks the characters here)
        root = loader.get_single_node()
        if root is None:
            raise RulesetError([Problem(source.name, 1, 1, "the file is empty", "yaml")])
        positions: dict[JsonPath, Pos] = {}
        data = _walk(loader, root, (), None, source, positions, problems, [MAX_NODES])
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = " ".join(x for x in (exc.context, exc.problem) if x) or "YAML syntax error"
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise RulesetError([Problem(source.name, line, column, f"YAML syntax error: {message}", "yaml",
                                    source.line(line))]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: a position, not a mark
        line, column = _where(source.text, exc.position, _READS_BYTES)
        character = exc.character if isinstance(exc.character, int) else 0
        raise RulesetError([Problem(source.name, line, column, f"YAML syntax error: {exc.reason} "
                                    f"(U+{character:04X})", "yaml", source.line(line))]) from None
    except yaml.YAMLError as exc:
        raise RulesetError([Problem(source.name, 0, 0, f"YAML error: {str(exc).splitlines()[0] if str(exc) else ''}",
                                    "yaml")]) from None
    except _TooBig as exc:
        raise RulesetError([Problem(source.name, exc.line, exc.column, str(exc), "yaml",
                                    source.line(exc.line))]) from None
    except RecursionError:
        raise RulesetError([Problem(source.name, 0, 0, "the YAML document is nested too deep", "yaml")]) from None
    finally:
        if loader is not None:
            loader.dispose()
    if problems:
        raise RulesetError(problems)
    return data, positions


# --- finding files ---------------------------------------------------------------------
def bundled_dir() -> Path:
    return Path(str(resources.files("cardrules.rulesets")))


def bundled_names() -> list[str]:
    return sorted(p.stem for p in bundled_dir().glob("*.yaml"))


def is_path_ref(ref: str) -> bool:
    """A reference is a path if it names a YAML file or a folder; else a bundled name."""
    return "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml"))


def locate(ref: str, relative_to: Path | None = None) -> Path:
    """The file a RULESET argument or an `extends` value names (FileNotFoundError)."""
    if is_path_ref(ref):
        path = Path(ref)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        if not is_file(path):
            raise FileNotFoundError(f"no ruleset file '{ref}'")
        return path
    path = bundled_dir() / f"{ref}.yaml"
    if is_file(path):
        return path
    names = bundled_names()
    close = difflib.get_close_matches(ref, names, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else f"; bundled rulesets: {', '.join(names)}"
    raise FileNotFoundError(f"no bundled ruleset '{ref}'{hint}")


def display_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):  # (not below the current folder; or a name no file system takes)
        try:
            if path.resolve().parent == bundled_dir().resolve():
                return f"<bundled>/{path.name}"
        except (ValueError, OSError):
            pass
        return str(path)


def read_source(path: Path, name: str | None = None) -> Source:
    shown = name or display_name(path)
    try:
        text = read_bounded(path, MAX_FILE_BYTES, "a ruleset").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError([Problem(shown, 0, 0, f"file is not UTF-8 text ({exc.reason} at byte {exc.start})",
                                    "io")]) from None
    except FileRefused as exc:
        raise RulesetError([Problem(shown, 0, 0, str(exc), "io")]) from None
    return Source(shown, text, path.suffix.lower() in (".yaml", ".yml"))


# --- extends -----------------------------------------------------------------------------
# Tables whose keys group things (a card_points key like "T J Q K" names four ranks): a
# child's table replaces the parent's whole, or a rank could end up priced twice.
REPLACED_WHOLE = frozenset({"card_points"})
# Lists that document rather than rule: a child's notes follow its parent's.
APPENDED = frozenset({"notes"})


def _merge(parent: Any, child: Any) -> Any:
    """Deep merge: mappings merge key by key, a child's null deletes, anything else replaces."""
    if isinstance(parent, dict) and isinstance(child, dict):
        out = dict(parent)
        for key, value in child.items():
            if value is None:
                out.pop(key, None)
            elif key in APPENDED and isinstance(out.get(key), list) and isinstance(value, list):
                out[key] = out[key] + value
            elif key in out and key not in REPLACED_WHOLE:
                out[key] = _merge(out[key], value)
            else:
                out[key] = value
        return out
    return child


def _merge_positions(data: Any, path: JsonPath, child: dict[JsonPath, Pos], parent: dict[JsonPath, Pos],
                     out: dict[JsonPath, Pos]) -> None:
    pos = child.get(path) or parent.get(path)
    if pos is not None:
        out[path] = pos
    if path and path[-1] in APPENDED and path in child and path in parent and isinstance(data, list):
        inherited = sum(1 for p in parent if len(p) == len(path) + 1 and p[:-1] == path)
        for i in range(len(data)):
            here = (path + (i,), child, i - inherited) if i >= inherited else (path + (i,), parent, i)
            pos = here[1].get(path + (here[2],))
            if pos is not None:
                out[here[0]] = pos
        return
    # (a scalar where a whole-replaced table belongs has no items: the schema refuses it)
    whole = isinstance(data, list) or (bool(path) and path[-1] in REPLACED_WHOLE and isinstance(data, dict))
    if whole:
        # a list (or a whole-replaced table) comes from one file: never mix in the other's items
        source = child if path in child else parent
        items = enumerate(data) if isinstance(data, list) else data.items()
        for key, value in items:
            _merge_positions(value, path + (key,), source, {}, out)
    elif isinstance(data, dict):
        for key, value in data.items():
            _merge_positions(value, path + (key,), child, parent, out)


def load_document(ref: str | Path, *, relative_to: Path | None = None, _seen: tuple[Path, ...] = ()) -> Document:
    """Read ``ref`` (a bundled name or a path) and resolve its `extends` chain."""
    try:
        path = ref if isinstance(ref, Path) else locate(ref, relative_to)
    except FileNotFoundError as exc:
        raise RulesetError([Problem(str(ref), 0, 0, str(exc), "io")]) from None
    return _resolve(read_source(path), path, _seen)


def document_from_text(text: str, name: str = "<text>", directory: Path | None = None) -> Document:
    """A ruleset written in a string (its `extends` paths are relative to ``directory``)."""
    return _resolve(Source(name, text), (directory or Path.cwd()) / name, ())


def _resolve(source: Source, path: Path, _seen: tuple[Path, ...]) -> Document:
    data, positions = parse_yaml(source)
    if not isinstance(data, dict):
        raise RulesetError([Problem(source.name, 1, 1, "a ruleset must be a mapping of keys to values",
                                    "schema", source.line(1))])
    name = data.get("name")
    own_name = name if isinstance(name, str) else Path(source.name).stem
    here = Document(data, positions, source, [source.name], {source.name: own_name})
    parent_ref = data.get("extends")
    if parent_ref is None:
        return here
    if not isinstance(parent_ref, str) or not parent_ref:
        raise RulesetError([here.problem(("extends",), "'extends' must name a bundled ruleset or a file",
                                         kind="schema")])
    if is_path_ref(parent_ref) and not parent_ref.lower().endswith((".yaml", ".yml")):
        raise RulesetError([here.problem(("extends",), "'extends' names a bundled ruleset or a .yaml/.yml file; "
                                         f"'{parent_ref}' is neither")])
    try:
        parent_path = locate(parent_ref, path.parent).resolve()
    except FileNotFoundError as exc:
        raise RulesetError([here.problem(("extends",), f"cannot extend: {exc}")]) from None
    chain = _seen + (path.resolve(),)
    if parent_path in chain:
        cycle = " -> ".join(display_name(p) for p in chain + (parent_path,))
        raise RulesetError([here.problem(("extends",), f"'extends' makes a cycle: {cycle}")])
    if len(chain) > MAX_EXTENDS:
        raise RulesetError([here.problem(("extends",), f"'extends' chain is longer than {MAX_EXTENDS}")])
    parent = load_document(parent_path, _seen=chain)
    child_data = {k: v for k, v in data.items() if k != "extends"}
    # `name`, `title`, `description` and `source` describe one file; they never inherit.
    parent_data = {k: v for k, v in parent.data.items() if k not in ("name", "title", "description", "source")}
    merged = _merge(parent_data, child_data)
    merged_positions: dict[JsonPath, Pos] = {}
    _merge_positions(merged, (), positions, parent.positions, merged_positions)
    merged_positions[()] = positions[()]
    return Document(merged, merged_positions, source, [source.name] + parent.chain, {**parent.names, **here.names})


# --- schema --------------------------------------------------------------------------
def core_schema() -> dict[str, Any]:
    """The keys every ruleset has (a fresh copy); each family adds its own (see
    :func:`cardrules.interpreter.ruleset.ruleset_schema`)."""
    text = resources.files("cardrules.schema").joinpath("ruleset.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _dotted(path: JsonPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _leaf_errors(error: jsonschema.ValidationError) -> Iterator[jsonschema.ValidationError]:
    """For oneOf/anyOf, descend to the branch that got furthest; else the error itself."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        deepest = max(len(e.absolute_path) for e in error.context)
        if deepest > len(error.absolute_path):
            best = [e for e in error.context if len(e.absolute_path) == deepest]
            for sub in best[:1]:
                yield from _leaf_errors(sub)
            return
        # no branch got further: the one of the value's own kind (a mapping's unknown key
        # rather than "not a string") says what is wrong
        fitting = [e for e in error.context if e.validator not in ("type", "enum", "const")]
        if fitting:
            yield from _leaf_errors(fitting[0])
            return
    yield error


def _schema_at(error: jsonschema.ValidationError) -> dict[str, Any]:
    schema = error.schema
    return schema if isinstance(schema, dict) else {}


def schema_problems(doc: Document, validator: Any) -> list[Problem]:
    """Every violation of ``validator``'s schema, located at the offending key or value."""
    problems: list[Problem] = []
    seen: set[tuple[JsonPath, str]] = set()
    # (at most MAX_SCHEMA_ERRORS: a list of 40,000 bad items needs no more to be told apart)
    found = itertools.islice(validator.iter_errors(doc.data), MAX_SCHEMA_ERRORS)
    for top in sorted(found, key=lambda e: list(map(str, e.absolute_path))):
        for error in _leaf_errors(top):
            path = tuple(error.absolute_path)
            if error.validator == "additionalProperties" and isinstance(error.instance, dict):
                allowed = list(_schema_at(error).get("properties", {}))
                for key in error.instance:
                    if key in allowed or (path + (key,), "extra") in seen:
                        continue
                    seen.add((path + (key,), "extra"))
                    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                    where = f" in '{_dotted(path)}'" if path else ""
                    message = f"unknown key '{key}'{where}"
                    message += f" (did you mean '{close[0]}'?)" if close else (
                        f"; allowed keys: {', '.join(allowed)}" if allowed else "")
                    problems.append(doc.problem(path + (key,), message, kind="schema", at_key=True,
                                                span=len(key)))
                continue
            if error.validator == "required":
                message = f"'{_dotted(path)}': {error.message}" if path else error.message
                problems.append(doc.problem(path, message, kind="schema", at_key=bool(path)))
                continue
            message = error.message
            if error.validator == "enum":
                options = error.validator_value
                close = difflib.get_close_matches(str(error.instance), [str(o) for o in options], n=1)
                message = f"{error.instance!r} is not one of {', '.join(map(str, options))}"
                if close:
                    message += f" (did you mean '{close[0]}'?)"
            elif error.validator in ("anyOf", "oneOf") and error.context:
                # no branch fits and none got further (`priority: clockwise`): say what would
                options = [str(o) for e in error.context if e.validator == "enum" for o in e.validator_value]
                kinds = [e.validator_value for e in error.context if e.validator == "type"]
                shapes = []
                if any(k == "object" or (isinstance(k, list) and "object" in k) for k in kinds):
                    keys = [k for branch in _schema_at(error).get(error.validator, []) if isinstance(branch, dict)
                            for k in branch.get("properties", {})]
                    shapes.append("a mapping" + (f" of {', '.join(keys)}" if keys else ""))
                if options or shapes:
                    message = f"{error.instance!r} is not " + " or ".join(
                        ([f"one of {', '.join(options)}"] if options else []) + shapes)
                    close = difflib.get_close_matches(str(error.instance), options, n=1)
                    if close:
                        message += f" (did you mean '{close[0]}'?)"
            elif error.validator == "pattern" and "description" in _schema_at(error):
                message = f"{error.instance!r}: {_schema_at(error)['description']}"
            elif error.validator == "type" and isinstance(error.instance, str) and ".." in error.instance \
                    and path and isinstance(path[-1], int):
                # `hand_size: [7..1, 2..7]`: YAML read a list of texts; the expression wants quotes
                message += " (a range is an expression: quote the whole list, e.g. \"[7..1, 2..7]\")"
            key = (path, message)
            if key in seen:
                continue
            seen.add(key)
            scalar = error.instance if isinstance(error.instance, (str, int, float, bool)) else None
            span = len(str(scalar)) if scalar is not None else 1
            problems.append(doc.problem(path, f"{_dotted(path)}: {message}", kind="schema", span=span))
    return problems
