"""The catalog for people: each performer's version and one-line summary, and its constructor
parameters with type, default and meaning, read from its signature and docstrings (``arena ls``)."""

from __future__ import annotations

import inspect
import re
import sys

_ROLE_PREFIX = re.compile(r"^``[\w.:-]+``(?:\s+(?:John|Zellig|Claude))?\s*:\s*")
# the end of a sentence: a full stop (not of "e.g." or "i.e.") before a space and a capital, quote or end
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)[.!?](?=\s+[A-Z*`\"(]|\s*$)")


_SIBLINGS = re.compile(r"(?:/``[\w.]+``)*")
# a parenthetical that opens with a value: the parameter's default, not what it means
_DEFAULT_NOTE = re.compile(r"(?:-?\d|'|\"|\[|True\b|False\b|None\b|default \S+$)")


def plain(text: str) -> str:
    """reST markup removed: ````x```` → x, ``:mod:`x``` → x, ``*x*`` → x; whitespace joined."""
    text = re.sub(r":[\w:]+:`~?([^`]+)`", r"\1", text)
    text = re.sub(r"``([^`]+)``", r"\1", text)
    text = re.sub(r"`([^`]+)`", r"\1", text)
    text = re.sub(r"(?<![\w*])\*{1,2}([^*\s][^*]*?)\*{1,2}(?![\w*])", r"\1", text)
    return " ".join(text.split())


def first_sentence(paragraph: str) -> str:
    """The first sentence of a paragraph, whole (never cut mid-sentence)."""
    match = _SENTENCE_END.search(paragraph)
    return paragraph[: match.end()] if match else paragraph


def summary(cls: type) -> str:
    """A performer's one-line summary: the first sentence of its module docstring (its
    class docstring as fallback), without the leading ``name`` Role: and reST markup."""
    doc = inspect.cleandoc(sys.modules[cls.__module__].__doc__ or cls.__doc__ or "")
    paragraph = " ".join(doc.split("\n\n")[0].split())
    text = plain(first_sentence(_ROLE_PREFIX.sub("", paragraph)))
    return text[:1].upper() + text[1:]


def describe(cls: type) -> tuple[str, str]:
    """The version and the one-line summary of a performer."""
    return str(getattr(cls, "version", "?")), summary(cls)


def _docs(cls: type) -> str:
    """Every docstring that may explain a constructor parameter: class, ``__init__``,
    module, and those of the classes it inherits from within the project."""
    parts = []
    for klass in cls.__mro__:
        if klass is object:
            continue
        parts += [klass.__doc__ or "", vars(klass)["__init__"].__doc__ if "__init__" in vars(klass) else ""]
        parts.append(sys.modules[klass.__module__].__doc__ or "")
    return "\n\n".join(inspect.cleandoc(part) for part in parts if part)


def _parenthetical(text: str, start: int) -> str:
    """The text inside the balanced parentheses opening at ``start``."""
    depth = 0
    for index in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return text[start + 1 : index]
    return text[start + 1 :]


def meaning(name: str, docs: str, loose: bool = True, default: str = "") -> str:
    """What a parameter means, from the docstrings: ````name```` (meaning), or
    ````name````: meaning, else (``loose``) the first sentence that names it; ``""`` if
    none does.  A parenthetical that only gives the ``default`` value (``(10)``,
    ``(default 5)``, ``(model.pt)``) is not a meaning."""
    joined = " ".join(docs.split())
    quoted = re.compile(rf"``{re.escape(name)}(?:=[^`]*)?``")
    for match in quoted.finditer(joined):
        siblings = _SIBLINGS.match(joined, match.end())  # ``a``/``b`` (shared meaning); may be empty
        end = siblings.end() if siblings else match.end()
        after = joined[end:]
        if after.startswith(" ("):
            inside = _parenthetical(joined, end + 1)
            if not (_DEFAULT_NOTE.match(inside) or plain(inside) == default.strip("'")):
                return plain(inside)
            continue
        if after.startswith(": ") or after.startswith(" — "):
            return plain(first_sentence(after[2:].lstrip("— ")))
    if not loose:
        return ""
    for paragraph in docs.split("\n\n"):
        text = " ".join(paragraph.split())
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z`*])", text):
            # a sentence that lists several parameters explains none of them
            if quoted.search(sentence) and len(re.findall(r"``\w+(?:=[^`]*)?``", sentence)) <= 2:
                return plain(sentence)
    return ""


def parameters(cls: type, siblings: dict[str, type] | None = None) -> list[tuple[str, str, str, str]]:
    """``(name, type, default, meaning)`` of each constructor parameter (default ``""``
    when required).  A parameter its own docstrings leave unexplained takes the meaning
    of the same-named parameter of a ``siblings`` performer (catalog name → class) that
    explains it, marked "as for NAME"."""
    docs = _docs(cls)
    items = []
    for name, p in inspect.signature(cls).parameters.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        annotation = "" if p.annotation is p.empty else (p.annotation if isinstance(p.annotation, str)
                                                         else inspect.formatannotation(p.annotation))
        default = "" if p.default is p.empty else repr(p.default)
        explained = meaning(name, docs, loose=False, default=default)
        # its own docstring gives only its default: a sibling's same-named parameter may differ
        noted = re.search(rf"``{re.escape(name)}(?:=[^`]*)?`` \(", " ".join(docs.split()))
        for other, other_cls in (siblings or {}).items():
            if explained or noted:
                break
            if other_cls is not cls and name in inspect.signature(other_cls).parameters:
                found = meaning(name, _docs(other_cls), loose=False, default=default)
                explained = f"as for {other}: {found}" if found else ""
        items.append((name, annotation, default, explained or meaning(name, docs, default=default)))
    return items


def listing(classes: dict[str, type], params: bool = False) -> list[str]:
    """The lines ``arena ls`` prints for one role's performers (catalog name → class): name,
    version and summary, and with ``params`` each constructor parameter under it."""
    lines = []
    for name, cls in classes.items():
        version, text = describe(cls)
        lines.append(f"  {name:28s} v{version:4s} {text}")
        if params:
            for param, annotation, default, explained in parameters(cls, classes):
                head = param + (f": {annotation}" if annotation else "") + (f" = {default}" if default else " (required)")
                lines.append(f"      {head}" + (f" — {explained}" if explained else ""))
    return lines
