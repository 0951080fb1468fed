"""Python registries for what a template spec may name but never contains: computed
placeholders (``{$sum(a,b)}``), computed dimensions (English ``STARTSWITH``),
modifiers (``.TO_CAPITALIZE``) and post-processing steps.

Specs are data; code lives here or in a user's module (load it with
:func:`load_plugins`, or ``arena template --plugin mymodule``)::

    from performers.m2c.registry import register_function

    @register_function("sum", language="de")
    def german_sum(a: str, b: str) -> str: ...

A name is looked up for the template's language first (``de``), then without a
language.  The functions and dimensions M2C's demo notebook defines for its German,
English, Spanish and Chinese templates are registered by the modules in
``BUILTIN_MODULES``, imported on first lookup.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable

from performers.m2c.features import TemplateError

BUILTIN_MODULES = ("performers.m2c.numerals", "performers.m2c.phonology")

_functions: dict[tuple[str | None, str], Callable[..., str]] = {}
_dimensions: dict[tuple[str | None, str], Callable[[str], str | None]] = {}
_modifiers: dict[str, Callable[[str], str]] = {}
_steps: dict[str, Callable[[str], str]] = {}
_builtins_loaded = False


def _register(table: dict, key, fn, kind: str):
    if not callable(fn):
        raise TypeError(f"{kind} {key!r}: expected a callable, got {type(fn).__name__}")
    table[key] = fn
    return fn


def register_function(name: str, language: str | None = None, fn: Callable[..., str] | None = None):
    """Register a computed-placeholder function ``{$name(...)}`` (decorator or call).
    It receives the argument values as strings and returns a string."""
    if fn is None:
        return lambda f: _register(_functions, (language, name), f, "function")
    return _register(_functions, (language, name), fn, "function")


def register_dimension(name: str, language: str | None = None, fn: Callable[[str], str | None] | None = None):
    """Register the function that computes dimension ``name`` from a surface form
    (returns a feature name, or ``None`` for an empty form)."""
    if fn is None:
        return lambda f: _register(_dimensions, (language, name), f, "dimension")
    return _register(_dimensions, (language, name), fn, "dimension")


def register_modifier(name: str, fn: Callable[[str], str] | None = None):
    """Register a modifier ``.NAME`` applied to a filled value."""
    if fn is None:
        return lambda f: _register(_modifiers, name, f, "modifier")
    return _register(_modifiers, name, fn, "modifier")


def register_step(name: str, fn: Callable[[str], str] | None = None):
    """Register a post-processing step applied to every generated string."""
    if fn is None:
        return lambda f: _register(_steps, name, f, "post-processing step")
    return _register(_steps, name, fn, "post-processing step")


def load_plugins(modules: Iterable[str]) -> None:
    """Import user modules that register functions, dimensions or modifiers."""
    for module in modules:
        try:
            importlib.import_module(module)
        except (ImportError, ValueError, TypeError) as error:  # a missing, empty or relative module name
            raise TemplateError(f"cannot import plugin module {module!r}: {error}") from None


def _ensure_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        load_plugins(BUILTIN_MODULES)


def _registered(table: dict, name: str, language: str | None) -> Callable | None:
    """The entry for ``name`` in ``language``, else the language-independent one."""
    _ensure_builtins()
    for key in ((language, name), (None, name)):
        if key in table:
            return table[key]
    return None


def function(name: str, language: str | None, where: str = "") -> Callable[..., str]:
    """The function registered for ``{$name(...)}`` in ``language``."""
    found = _registered(_functions, name, language)
    if found is not None:
        return found
    prefix = f"{where}: " if where else ""
    raise TemplateError(
        f"{prefix}no function {name!r} registered for language {language!r}; register one in Python with "
        f"performers.m2c.registry.register_function({name!r}, language={language!r}) and load its module "
        "(e.g. arena template --plugin MODULE)"
    )


def dimension_function(name: str, language: str | None, where: str = "") -> Callable[[str], str | None]:
    """The function that computes dimension ``name`` in ``language``."""
    found = _registered(_dimensions, name, language)
    if found is not None:
        return found
    prefix = f"{where}: " if where else ""
    raise TemplateError(
        f"{prefix}dimension {name} is computed but no function is registered for language {language!r}; use "
        f"performers.m2c.registry.register_dimension({name!r}, language={language!r})"
    )


def modifier(name: str, where: str = "") -> Callable[[str], str]:
    _ensure_builtins()
    if name not in _modifiers:
        prefix = f"{where}: " if where else ""
        raise TemplateError(f"{prefix}unknown modifier {name!r}; registered: {', '.join(sorted(_modifiers))}")
    return _modifiers[name]


def step(name: str, where: str = "") -> Callable[[str], str]:
    _ensure_builtins()
    if name not in _steps:
        prefix = f"{where}: " if where else ""
        raise TemplateError(f"{prefix}unknown post-processing step {name!r}; registered: {', '.join(sorted(_steps))}")
    return _steps[name]


# --- built-in modifiers and M2C's post-processing (Language.post_processing) ---

register_modifier("TO_CAPITALIZE", str.capitalize)  # M2C: first character upper, the rest lower
register_modifier("TO_UPPER", str.upper)
register_modifier("TO_LOWER", str.lower)

_WHITESPACE = re.compile(r"\s+")
_APOSTROPHE_SPACE = re.compile(r"'\s")
_SENTENCE_START = re.compile(r"(^|[.?!])\s*([^\W\d_])")

register_step("strip_spaces", lambda s: s.strip(" "))
register_step("collapse_whitespace", lambda s: _WHITESPACE.sub(" ", s))
register_step("join_apostrophe", lambda s: _APOSTROPHE_SPACE.sub("'", s))
register_step("capitalize_first", lambda s: s[0].upper() + s[1:] if len(s) > 1 else s)
register_step("capitalize_sentences", lambda s: _SENTENCE_START.sub(lambda m: m.group(0).upper(), s))

M2C_STEPS = ("strip_spaces", "collapse_whitespace", "join_apostrophe", "capitalize_first", "capitalize_sentences")
"""M2C's ``Language.post_processing``, in its order."""
