"""Tables of a config schema's keys, written from its dataclasses' field docstrings.

A schema is a dataclass whose fields each carry a docstring (the string literal after the
field); a field whose default is another dataclass is a section. :func:`key_tables` gives one
Markdown table per section: the key, its default and its docstring. The docstrings are read from
the source with :mod:`ast` (nothing is run).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import textwrap
from typing import Any

ROLE = re.compile(r":(?:mod|class|func|meth|data):`~?([^`]+)`")
"""A Sphinx cross-reference, shown as its target's code name."""


def field_docs(schema: type) -> dict[str, str]:
    """Each field's docstring, for ``schema`` and the dataclasses it inherits from (nearest wins)."""
    docs: dict[str, str] = {}
    for cls in reversed(schema.__mro__):
        if not dataclasses.is_dataclass(cls):
            continue
        body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body
        for node, after in zip(body, [*body[1:], None], strict=True):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and isinstance(after, ast.Expr) \
                    and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
                docs[node.target.id] = after.value.value
    return docs


def _default(field: dataclasses.Field) -> Any:
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return field.default


def _shown(value: Any) -> str:
    """A default as the YAML a user would write."""
    if value is None:
        return "`null`"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, (list, tuple)):
        return "`[" + ", ".join(str(item) for item in value) + "]`"
    return f"`{value}`"


def _meaning(doc: str) -> str:
    """A docstring as one Markdown table cell."""
    text = " ".join(inspect.cleandoc(doc).split())
    text = ROLE.sub(lambda match: f"``{match.group(1)}``", text)
    return text.replace("``", "`").replace("|", "\\|")


def sections(schema: type, prefix: str = "") -> list[tuple[str, type]]:
    """``(key prefix, dataclass)`` of the schema and of each section in it, depth first."""
    found = [(prefix, schema)]
    for field in dataclasses.fields(schema):
        default = _default(field)
        if dataclasses.is_dataclass(default):
            found += sections(type(default), f"{prefix}{field.name}.")
    return found


def key_table(schema: type, prefix: str = "") -> str:
    """The Markdown table of ``schema``'s own keys (not its sections'), each named with ``prefix``."""
    docs = field_docs(schema)
    rows = ["| key | default | meaning |", "| --- | --- | --- |"]
    for field in dataclasses.fields(schema):
        default = _default(field)
        if dataclasses.is_dataclass(default):
            continue
        if field.name not in docs:
            raise ValueError(f"{schema.__name__}.{field.name} has no docstring")
        rows.append(f"| `{prefix}{field.name}` | {_shown(default)} | {_meaning(docs[field.name])} |")
    return "\n".join(rows)


def key_tables(schema: type, level: int = 3) -> str:
    """A heading, the class docstring's first paragraph and the key table of each section of ``schema``."""
    parts = []
    for prefix, section in sections(schema):
        title = f"`{prefix.rstrip('.')}`" if prefix else "Common keys"
        summary = _meaning(inspect.getdoc(section).split("\n\n")[0])
        parts.append(f"{'#' * level} {title}\n\n{summary}\n\n{key_table(section, prefix)}")
    return "\n\n".join(parts)
