"""YAML read safely, with the source position of every node.

PyYAML's event parser (safe loader, libyaml when present) feeds a composer of our own that builds
the node tree without recursion and refuses nesting deeper than the ``yaml_depth`` limit (PyYAML's
own composer recurses and dies with RecursionError at a few hundred levels).  Walking the node tree
ourselves lets us keep a ``path -> (line, col)`` map for every value, report duplicate keys (PyYAML
silently keeps the last), bound what aliases expand to (values and characters, counted as if every
alias were written out), refuse text no output can hold (lone surrogates, control characters), and
keep move texts such as ``27:18`` as strings (YAML 1.1 would read them as sexagesimal integers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import CollectionNode, MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from ..limits import limit, raise_hint
from ..terminal import printable

Path = tuple[str | int, ...]
"""Where a value sits in the document: keys and list indexes from the root."""

ALLOWED_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp", "merge")
)
"""Plain YAML only: ``!!python/...`` and every other explicit tag is refused, never constructed."""

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it (six times faster), else the pure-Python one."""

MAX_NODES = 200_000
"""The default of the ``yaml_nodes`` limit: documents that expand (through aliases) to more values
than any lesson needs are refused."""

MAX_NUMBER_CHARS = 18
"""Longest whole number a lesson may write (as YAML: digits, sign, ``0x``, underscores)."""

_UNRENDERABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""What no output can hold: C0 controls but tab and newline, DEL, C1 controls (Typst refuses NUL and
ESC, HTML shows nothing sensible) and lone surrogates (not characters: writing them as UTF-8 fails)."""


@dataclass(frozen=True, order=True)
class SourceError:
    """An error at a place in a file; prints as ``path:line:col: message`` (1-based)."""

    path: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        """One terminal line: control characters, bidi overrides and line breaks from file names
        or lesson text are escaped, so a message can neither restyle the terminal nor fake a
        second ``path:line:col`` line."""
        return printable(f"{self.path}:{self.line}:{self.col}: {self.message}")

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "col": self.col, "message": self.message}


@dataclass
class Document:
    """A loaded YAML document: plain data plus the node of every path (for marks)."""

    path: str
    text: str
    data: Any
    nodes: dict[Path, Node] = field(default_factory=dict)
    keys: dict[Path, Node] = field(default_factory=dict)
    """The key node of each mapping entry, for errors about the key itself."""
    refused: set[Path] = field(default_factory=set)
    """Values already reported as unreadable (a refused tag): later checks stay quiet about them."""

    @cached_property
    def lines(self) -> list[str]:
        """The file's lines, split once (errors in a big file would split it once each)."""
        return self.text.splitlines()

    def mark(self, where: Path, *, key: bool = False) -> tuple[int, int]:
        """(line, col), 1-based, of the value at ``where`` (or of its key), falling back to the
        nearest enclosing node that exists."""
        p = where
        while True:
            node = (self.keys.get(p) if key else None) or self.nodes.get(p)
            if node is not None:
                return node.start_mark.line + 1, node.start_mark.column + 1
            if not p:
                return 1, 1
            p = p[:-1]

    def error(self, where: Path, message: str, *, key: bool = False) -> SourceError:
        line, col = self.mark(where, key=key)
        return SourceError(self.path, line, col, message)

    def raw(self, where: Path) -> str | None:
        """The scalar text as written (before YAML typing), or None for a collection."""
        node = self.nodes.get(where)
        return node.value if isinstance(node, ScalarNode) else None

    def text_line(self, where: Path, k: int) -> tuple[int, int]:
        """Line and column where line ``k`` (0-based) of a text value starts: exact for block
        scalars (``text: |``), the value's own mark otherwise."""
        node = self.nodes.get(where)
        if not isinstance(node, ScalarNode) or node.style not in ("|", ">"):
            return self.mark(where)
        lines = self.lines
        i = node.start_mark.line + 1 + k
        if i >= len(lines):
            return self.mark(where)
        return i + 1, len(lines[i]) - len(lines[i].lstrip()) + 1

    def text_position(self, where: Path, k: int, col: int) -> tuple[int, int]:
        """Line and column of column ``col`` (0-based) on line ``k`` of a text value: exact inside a
        block scalar, the value's own mark otherwise."""
        line, column = self.text_line(where, k)
        node = self.nodes.get(where)
        if isinstance(node, ScalarNode) and node.style in ("|", ">"):
            column += col
        return line, column

    def block_cell(self, where: Path, row: int, col_in_row: int) -> tuple[int, int]:
        """Line and column of a character inside a literal block scalar (``board: |``), given
        its row (0-based line within the block) and 0-based column within that row's text."""
        node = self.nodes.get(where)
        if not isinstance(node, ScalarNode) or node.style not in ("|", ">"):
            return self.mark(where)
        lines = self.lines
        first = node.start_mark.line + 1  # the block starts on the line after the indicator
        content = [i for i in range(first, min(len(lines), node.end_mark.line + 1))]
        nonblank = [i for i in content if lines[i].strip()]
        if row >= len(nonblank):
            return self.mark(where)
        i = nonblank[row]
        indent = len(lines[i]) - len(lines[i].lstrip())
        return i + 1, indent + col_in_row + 1


class _Walker:
    def __init__(self, doc: Document, errors: list[SourceError]) -> None:
        self.doc = doc
        self.errors = errors
        self.count = 0
        self.chars = 0
        self.max_nodes = limit("yaml_nodes")
        self.max_chars = limit("yaml_expanded_chars")
        self.max_depth = limit("yaml_depth")
        self.constructor = SafeConstructor()
        self.seen_text: set[int] = set()
        """Scalar nodes already checked for unrenderable characters (an alias repeats them)."""

    def walk(self, node: Node, path: Path, active: set[int]) -> Any:
        self.count += 1
        if self.count > self.max_nodes:
            raise _TooBig(node, f"the document expands to more than {self.max_nodes} values {raise_hint('yaml_nodes')}")
        if len(path) > self.max_depth:
            raise _TooBig(
                node,
                f"values nested more than {self.max_depth} levels deep (through aliases) {raise_hint('yaml_depth')}",
            )
        self.doc.nodes[path] = node
        if node.tag not in ALLOWED_TAGS:
            tag = node.tag.removeprefix("tag:yaml.org,2002:")
            self.errors.append(self.at(node, f"YAML tags such as '!!{tag}' are not allowed in lessons"))
            self.doc.refused.add(path)
            return None
        if id(node) in active:
            raise _Recursive(node)
        if isinstance(node, ScalarNode):
            self.chars += len(node.value)
            if self.chars > self.max_chars:
                raise _TooBig(
                    node,
                    f"the document expands (through aliases) to more than {self.max_chars} characters of text "
                    f"{raise_hint('yaml_expanded_chars')}",
                )
            self.check_text(node)
            if node.tag == "tag:yaml.org,2002:int" and len(node.value) > MAX_NUMBER_CHARS and ":" not in node.value:
                # int() refuses more than 4,300 digits with a ValueError; no lesson needs 19.
                self.errors.append(
                    self.at(node, f"the number has {len(node.value)} characters; at most {MAX_NUMBER_CHARS}")
                )
                self.doc.refused.add(path)
                return None
            return self.scalar(node)
        active = active | {id(node)}
        if isinstance(node, SequenceNode):
            return [self.walk(child, (*path, i), active) for i, child in enumerate(node.value)]
        assert isinstance(node, MappingNode)
        out: dict[str, Any] = {}
        seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.errors.append(self.at(key_node, "merge keys (<<) are not supported in lessons"))
                continue
            if not isinstance(key_node, ScalarNode):
                self.errors.append(self.at(key_node, "a key must be a plain word, not a list or mapping"))
                continue
            key = str(key_node.value)
            self.check_text(key_node)
            if key in seen:
                first = seen[key].start_mark.line + 1
                self.errors.append(self.at(key_node, f"duplicate key '{key}' (first given on line {first})"))
                continue
            seen[key] = key_node
            self.doc.keys[(*path, key)] = key_node
            out[key] = self.walk(value_node, (*path, key), active)
        return out

    def scalar(self, node: ScalarNode) -> Any:
        if node.tag == "tag:yaml.org,2002:int" and ":" in node.value:
            return node.value  # "27:18" is a move, not 27*60+18
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value
        try:
            return self.constructor.construct_object(node)
        except ConstructorError:
            return node.value

    def check_text(self, node: ScalarNode) -> None:
        """Refuse characters that no output can hold, once per scalar, at the scalar's position."""
        if id(node) in self.seen_text:  # an alias repeats the node: check it once
            return
        self.seen_text.add(id(node))
        m = _UNRENDERABLE.search(node.value)
        if m is None:
            return
        ch = m.group()
        if "\ud800" <= ch <= "\udfff":
            what = f"a lone surrogate ({ch!r}), which is not a character; write the character itself"
        else:
            what = f"the control character {ch!r} (U+{ord(ch):04X}); only tab and newline are allowed"
        line, col = _position_in(node, m.start())
        self.errors.append(SourceError(self.doc.path, line, col, f"text holds {what}"))

    def at(self, node: Node, message: str) -> SourceError:
        return SourceError(self.doc.path, node.start_mark.line + 1, node.start_mark.column + 1, message)


class _TooBig(Exception):
    def __init__(self, node: Node, message: str) -> None:
        self.node = node
        self.message = message


def _position_in(node: ScalarNode, offset: int) -> tuple[int, int]:
    """1-based line and column of character ``offset`` of a scalar's value: exact for a plain
    one-line scalar, the scalar's start otherwise (escapes and folding change the offsets)."""
    start = node.start_mark
    if node.style is None and start.line == node.end_mark.line:
        return start.line + 1, start.column + 1 + offset
    return start.line + 1, start.column + 1


class _Composer:
    """PyYAML's composer without recursion: events in, node tree out, nesting bounded."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth
        self.resolver = Resolver()
        self.anchors: dict[str, Node] = {}

    def compose(self, events: Any) -> Node | None:
        root: Node | None = None
        stack: list[CollectionNode] = []
        pending_key: list[Node | None] = []
        documents = 0
        for event in events:
            # the C and the pure parsers' marks are different classes (the type stubs keep them apart)
            start: Any = event.start_mark
            end: Any = event.end_mark
            if isinstance(event, DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise yaml.composer.ComposerError(
                        "expected a single document in the file", None, "but found another document", start
                    )
                continue
            if isinstance(event, (SequenceEndEvent, MappingEndEvent)):
                done = stack.pop()
                pending_key.pop()
                done.end_mark = end
                continue
            node = self._node(event, len(stack))
            if node is None:
                continue  # stream and document ends
            if not stack:
                root = node
            elif isinstance(stack[-1], SequenceNode):
                stack[-1].value.append(node)
            elif pending_key[-1] is None:
                pending_key[-1] = node
            else:
                stack[-1].value.append((pending_key[-1], node))
                pending_key[-1] = None
            if isinstance(event, CollectionStartEvent):
                stack.append(node)  # type: ignore[arg-type]  # a collection start made a collection node
                pending_key.append(None)
        return root

    def _node(self, event: Any, depth: int) -> Node | None:
        """The node an alias, scalar or collection start stands for (None for any other event), its
        anchor remembered; ``depth``: the collections it is inside."""
        # the C and the pure parsers' marks are different classes (the type stubs keep them apart)
        start: Any = event.start_mark
        end: Any = event.end_mark
        if isinstance(event, AliasEvent):
            if event.anchor not in self.anchors:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}", start)
            return self.anchors[event.anchor]
        if isinstance(event, ScalarEvent):
            tag = event.tag
            if tag is None or tag == "!":
                tag = self.resolver.resolve(ScalarNode, event.value, event.implicit)
            node: Node = ScalarNode(tag, event.value, start, end, style=event.style)
        elif isinstance(event, CollectionStartEvent):
            if depth >= self.max_depth:
                raise _TooBig(
                    ScalarNode("", "", start, end),
                    f"nested more than {self.max_depth} levels deep {raise_hint('yaml_depth')}",
                )
            kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
            tag = event.tag
            if tag is None or tag == "!":
                tag = self.resolver.resolve(kind, None, event.implicit)
            node = kind(tag, [], start, None, flow_style=event.flow_style)
        else:
            return None
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            if anchor in self.anchors:  # as PyYAML's own composer
                raise yaml.composer.ComposerError(
                    f"found duplicate anchor {anchor!r}; first occurrence",
                    self.anchors[anchor].start_mark,
                    "second occurrence",
                    start,
                )
            self.anchors[anchor] = node
        return node


class _Sizes:
    """What each distinct node stands for once every alias is written out: values (as the walker
    counts them: mapping values, not keys) and characters of scalars.  Computed over distinct nodes
    only, each once and without recursion, so an alias bomb is measured in microseconds instead of
    being walked value by value."""

    def __init__(self, root: Node) -> None:
        self.values: dict[int, int] = {}
        self.chars: dict[int, int] = {}
        stack: list[tuple[Node, bool]] = [(root, False)]
        on_path: set[int] = set()
        while stack:
            node, children_done = stack.pop()
            key = id(node)
            if children_done:
                on_path.discard(key)
                kids = self.children(node)
                self.values[key] = 1 + sum(self.values.get(id(k), 1) for k in kids)
                self.chars[key] = sum(self.chars.get(id(k), 0) for k in kids)
                continue
            if key in self.values or key in on_path:
                continue  # done already, or a recursive alias (the walker reports it)
            if isinstance(node, ScalarNode) or node.tag not in ALLOWED_TAGS:
                self.values[key], self.chars[key] = 1, len(node.value) if isinstance(node, ScalarNode) else 0
                continue
            on_path.add(key)
            stack.append((node, True))
            stack.extend((k, False) for k in self.children(node))

    @staticmethod
    def children(node: Node) -> list[Node]:
        if node.tag not in ALLOWED_TAGS:
            return []
        if isinstance(node, SequenceNode):
            return list(node.value)
        if isinstance(node, MappingNode):
            return [v for k, v in node.value if isinstance(k, ScalarNode) and k.tag != "tag:yaml.org,2002:merge"]
        return []

    def nth_value(self, root: Node, n: int) -> Node:
        """The ``n``-th value (1-based) in the walker's order: where it would cross a value limit."""
        node = root
        while n > 1:
            n -= 1
            for child in self.children(node):
                size = self.values.get(id(child), 1)
                if n <= size:
                    node = child
                    break
                n -= size
            else:
                return node
        return node

    def scalar_at_char(self, root: Node, n: int) -> Node:
        """The scalar holding character ``n`` (1-based) of all text in the walker's order."""
        node = root
        while not isinstance(node, ScalarNode):
            for child in self.children(node):
                size = self.chars.get(id(child), 0)
                if n <= size:
                    node = child
                    break
                n -= size
            else:
                return node
        return node


def _compose(text: str, loader: Any) -> Node | None:
    return _Composer(limit("yaml_depth")).compose(yaml.parse(text, Loader=loader))


class _Recursive(Exception):
    def __init__(self, node: Node) -> None:
        self.node = node


def load_document(text: str, path: str) -> tuple[Document | None, list[SourceError]]:
    """Parse YAML text.  Returns the document (None if it cannot be read at all) and the errors."""
    errors: list[SourceError] = []
    doc = Document(path, text, None)
    try:
        try:
            root = _compose(text, _LOADER)
        except yaml.YAMLError:
            # Re-read with the pure-Python parser: its messages are the same on every machine.
            root = _compose(text, yaml.SafeLoader)
    except _TooBig as exc:
        line, col = exc.node.start_mark.line + 1, exc.node.start_mark.column + 1
        return None, [SourceError(path, line, col, exc.message)]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "unreadable YAML"
        context = f" ({exc.context})" if exc.context and exc.problem else ""
        if exc.context_mark is not None and mark is not None and mark.index >= len(text.rstrip()):
            # The file ended inside something left open: point at where it was opened.
            mark = exc.context_mark
            context = f" ({exc.context}, opened here and never closed)" if exc.context else " (never closed)"
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return None, [SourceError(path, line, col, f"YAML syntax error: {problem}{context}")]
    except yaml.YAMLError as exc:
        return None, [SourceError(path, 1, 1, f"YAML syntax error: {exc}")]
    if root is None:
        return None, [SourceError(path, 1, 1, "the file is empty")]
    walker = _Walker(doc, errors)
    sizes = _Sizes(root)
    if sizes.values[id(root)] > walker.max_nodes:
        node = sizes.nth_value(root, walker.max_nodes + 1)
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        message = f"the document expands to more than {walker.max_nodes} values {raise_hint('yaml_nodes')}"
        return None, [SourceError(path, line, col, message)]
    if sizes.chars[id(root)] > walker.max_chars:
        node = sizes.scalar_at_char(root, walker.max_chars + 1)
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        message = (
            f"the document expands (through aliases) to more than {walker.max_chars} characters of text "
            f"{raise_hint('yaml_expanded_chars')}"
        )
        return None, [SourceError(path, line, col, message)]
    try:
        doc.data = walker.walk(root, (), set())
    except _TooBig as exc:
        line, col = exc.node.start_mark.line + 1, exc.node.start_mark.column + 1
        return None, [SourceError(path, line, col, exc.message)]
    except _Recursive as exc:
        line, col = exc.node.start_mark.line + 1, exc.node.start_mark.column + 1
        return None, [SourceError(path, line, col, "a recursive alias (an anchor used inside itself)")]
    return doc, errors
