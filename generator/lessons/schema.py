"""The lesson JSON Schema (shipped in the package) and its errors as ``path:line:col`` messages.

The schema is the one description of a lesson's structure: editors use it through
yaml-language-server (``# yaml-language-server: $schema=...``), ``damas schema`` prints it, and the
loader validates every file with it before the engine looks at any claim.  jsonschema's messages
are rewritten here into sentences an author can act on.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from .source import Document, Path, SourceError

_SINGULAR = {
    "sections": "section",
    "diagrams": "diagram",
    "claims": "claim",
    "puzzles": "puzzle",
    "solution": "solution move",
    "illegal": "illegal move",
    "moves": "move",
    "legal": "move",
    "line": "move",
    "arrows": "arrow",
    "highlight": "square",
    "themes": "theme",
    "others": "move",
    "forced": "move",
    "variants": "variant",
}

_HINTS = {
    "slug": "lower-case words and digits joined by hyphens, like 'regras-basicas'",
    "id": "lower-case words and digits joined by hyphens, like 'golpe-1'",
    "language": "a language tag such as pt-BR or en",
    "stipulation": "win, promote, draw, or gain:N (N pieces won)",
}

_TYPE_NAMES = {
    "string": "text",
    "integer": "a whole number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping of keys to values",
    "number": "a number",
    "null": "empty",
}


@cache
def lesson_schema() -> dict[str, Any]:
    """The JSON Schema of a lesson file (a fresh parse is cached; do not mutate it)."""
    text = resources.files("generator.lessons").joinpath("lesson.schema.json").read_text("utf-8")
    return json.loads(text)


def schema_text() -> str:
    return resources.files("generator.lessons").joinpath("lesson.schema.json").read_text("utf-8")


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(lesson_schema())


def describe(path: Path) -> str:
    """A reader's name for the thing at ``path`` ("section 2", "claim 1 of diagram 3")."""
    if not path:
        return "the lesson"
    parts: list[str] = []
    i = 0
    while i < len(path):
        key = path[i]
        if isinstance(key, str) and i + 1 < len(path) and isinstance(path[i + 1], int):
            parts.append(f"{_SINGULAR.get(key, key)} {int(path[i + 1]) + 1}")
            i += 2
        else:
            parts.append(f"'{key}'")
            i += 1
    return " of ".join(reversed(parts))


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "empty"


def _message(err: ValidationError) -> tuple[Path, str, bool]:
    """(where, message, points-at-key) for one jsonschema error."""
    path: Path = tuple(err.absolute_path)
    # types-jsonschema types these as possibly unset; jsonschema always sets them on a reported error
    schema: Any = err.schema
    instance: Any = err.instance
    value: Any = err.validator_value
    name = path[-1] if path else None
    what = describe(path)
    v = err.validator
    if v == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(set(instance) - set(allowed))
        key = extra[0]
        where = (*path, key)
        more = f" (and {', '.join(extra[1:])})" if len(extra) > 1 else ""
        return where, f"unknown key '{key}'{more} in {what}; expected one of: {', '.join(allowed)}", True
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else str(value)
        return path, f"{what} is missing '{missing}'", False
    if v == "type":
        wanted = value if isinstance(value, list) else [value]
        names = " or ".join(str(_TYPE_NAMES.get(t, t)) for t in wanted)
        return path, f"{what} must be {names}, not {_type_of(instance)}", False
    if v == "enum":
        options = ", ".join(str(o) for o in value)
        if name == "variant":
            return path, f"unknown variant '{instance}' (known: {options})", False
        return path, f"{what} must be one of: {options}; got '{instance}'", False
    if v == "pattern":
        hint = _HINTS.get(str(name), f"text matching {value}")
        return path, f"{what} '{instance}' is not valid: expected {hint}", False
    if v == "minItems":
        return path, f"{what} needs at least {value} item(s)", False
    if v == "minLength":
        return path, f"{what} must not be empty", False
    if v == "maxLength":
        return path, f"{what} has {len(instance)} characters; at most {value} are allowed", False
    if v in ("minimum", "maximum"):
        bound = "at least" if v == "minimum" else "at most"
        return path, f"{what} must be {bound} {value}; got {instance}", False
    if v == "minProperties":
        return path, f"{what} is empty", False
    if v == "dependentRequired":
        for key, needs in value.items():
            if key in instance:
                lacking = [n for n in needs if n not in instance]
                if lacking:
                    return (*path, key), f"'{key}' needs '{lacking[0]}' in the same claim", True
    if v == "oneOf":
        if isinstance(instance, dict):
            inner = [e for e in err.context or () if e.validator != "type"]
            if inner:
                best = min(inner, key=lambda e: len(e.relative_path))
                sub_where, sub_msg, sub_key = _message(best)
                return sub_where, sub_msg, sub_key
        return path, f"{what} must be a move, or a mapping with 'move' and its details", False
    return path, f"{what}: {err.message}", False


def validate(doc: Document) -> list[tuple[Path, SourceError]]:
    """Every schema error of the document: the path of the offending value, and the located error."""
    errors = []
    for err in _validator().iter_errors(doc.data):
        where, message, key = _message(err)
        errors.append((where, doc.error(where, message, key=key)))
    return errors


def located_errors(validator: Draft202012Validator, doc: Document, whole: str) -> list[SourceError]:
    """Errors of ``doc`` against another schema (course.yaml), worded and located like a lesson's;
    ``whole`` names the document ("the course")."""
    out = []
    for err in validator.iter_errors(doc.data):
        where, message, key = _message(err)
        out.append(doc.error(where, message.replace(describe(()), whole), key=key))
    return sorted(set(out))
