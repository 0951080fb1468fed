"""What a sentence may hold, and how text from data is shown on a terminal.

One policy for every entry point that accepts a text from a person or a file (pair
files, test sets, YAML, HTTP bodies, repair fixes, stdin): :func:`text_problem` says
why a text is refused, or ``None``. The caller names where the text came from (file
and line, or the HTTP field) in its own error.

A text is refused when it

- is empty once whitespace and invisible characters (Unicode category ``Cf``: zero-width
  space, bidi marks, …) are removed;
- holds NUL or another C0 control character (tab only where the format allows it),
  DEL, or a C1 control that is no cp1252 character (U+0081, U+008D, U+008F, U+0090,
  U+009D: among them the terminal's string introducers DCS and OSC);
- holds a bidi embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which
  reorders what a reader sees;
- holds half of a surrogate pair, which no UTF-8 file can hold;
- is longer than :data:`MAX_TEXT_CHARS`.

The other C1 controls (U+0080–U+009F but the five above) are accepted because WMT's
published references hold them: they are cp1252 quotation marks and dashes decoded as
Latin-1 (``\\x84`` for „, ``\\x93`` for “), and refusing them would refuse newstest.
A line format (one sentence per line) also refuses every character that
``str.splitlines`` breaks at (:func:`arena.formats.textlines.has_line_break`).

:func:`visible` renders any text for a terminal: control characters, bidi controls
and lone surrogates become visible escapes, so a sentence cannot retitle or clear the
terminal, move the cursor or hide lines.
"""

from __future__ import annotations

import re
import unicodedata

MAX_TEXT_CHARS = 10_000

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# C1 code points that cp1252 leaves undefined: never a decoded quotation mark
C1_UNDEFINED_IN_CP1252 = "\x81\x8d\x8f\x90\x9d"
_DISALLOWED = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f" + C1_UNDEFINED_IN_CP1252 + BIDI_CONTROLS + "\ud800-\udfff]"
)
_DISALLOWED_NO_TAB = re.compile(
    "[\x00-\x1f\x7f" + C1_UNDEFINED_IN_CP1252 + BIDI_CONTROLS + "\ud800-\udfff]"
)
LINE_BREAK = re.compile(f"[{re.escape(LINE_BREAKS)}]")  # any of them (arena.formats.textlines.has_line_break)
_TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f" + BIDI_CONTROLS + "\ud800-\udfff]")
_UNSAFE_BUT_LINE_FEED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + BIDI_CONTROLS + "\ud800-\udfff]")


def text_problem(text: str, *, allow_tab: bool = True, one_line: bool = True) -> str | None:
    """Why ``text`` cannot be a sentence of a test set, or ``None`` when it can.

    ``allow_tab=False`` for formats whose fields are tab-separated without quoting;
    ``one_line=False`` where a line break inside a text is representable (a quoted CSV
    field, a JSON string) and the text is not written to a line format.
    """
    if len(text) > MAX_TEXT_CHARS:
        return f"is {len(text):,} characters long; a sentence may have at most {MAX_TEXT_CHARS:,}"
    pattern = _DISALLOWED if allow_tab else _DISALLOWED_NO_TAB
    for match in pattern.finditer(text):
        character = match.group()
        if character in "\n\r" and not one_line:
            continue
        return _describe(character)
    if one_line and LINE_BREAK.search(text):
        return "holds a line break: a sentence is one line"
    if not (text and _visible(text[0])) and not any(_visible(character) for character in text):  # the first, then all
        return "is empty or holds only invisible characters"
    return None


def _visible(character: str) -> bool:
    return not character.isspace() and unicodedata.category(character) != "Cf"


def _describe(character: str) -> str:
    code = f"U+{ord(character):04X}"
    if "\ud800" <= character <= "\udfff":
        return f"holds an unpaired surrogate {code}, which UTF-8 cannot encode"
    if character in BIDI_CONTROLS:
        return f"holds the bidi control {code}, which reorders what a reader sees"
    if character in "\n\r":
        return "holds a line break: a sentence is one line"
    if character == "\t":
        return "holds a tab, which this format uses to separate fields"
    return f"holds the control character {code}"


def visible(text: str) -> str:
    """``text`` safe to print on a terminal: C0 controls but tab shown as their Unicode
    control pictures (ESC → ␛, NUL → ␀, line feed → ␊), DEL as ␡, C1 and bidi controls and
    lone surrogates as ``<U+XXXX>``. Other text, German and any script, is unchanged."""
    if _TERMINAL_UNSAFE.search(text) is None:
        return text
    return _TERMINAL_UNSAFE.sub(_picture, text)


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return f"<U+{code:04X}>"


def visible_lines(text: str) -> str:
    """Text of several lines for a terminal (a report, a table): each line :func:`visible`,
    the line feeds that end the lines kept (a carriage return inside a line shows as ␍)."""
    if _UNSAFE_BUT_LINE_FEED.search(text) is None:
        return text
    return _UNSAFE_BUT_LINE_FEED.sub(_picture, text)


def json_visible(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``, one document or JSON lines) safe
    for a terminal and still the same JSON: every character :func:`visible` would render
    (inside a string, the only place JSON can hold one) but the line feeds between
    documents written as a ``\\uXXXX`` escape (ESC → ``\\u001b``, U+202E → ``\\u202e``)."""
    if _UNSAFE_BUT_LINE_FEED.search(text) is None:
        return text
    return _UNSAFE_BUT_LINE_FEED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
