"""Number-word arithmetic for M2C's numeral templates (``{$sum(number1,number2)}``).

These reproduce the small functions M2C's demo notebook defines next to its
German, English, Spanish and Chinese numeral templates (the ``value_table`` of each
function in ``../shared/data/m2c`` lists the calls the original made): ``sum`` adds two
number words, ``diff`` subtracts the second from the first.  Capitalisation follows
the originals: German ``sum`` leaves it to the template's ``.TO_CAPITALIZE``; the other
functions capitalise themselves.
"""

from __future__ import annotations

from performers.m2c.features import TemplateError
from performers.m2c.registry import register_function

GERMAN = ("null", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
          "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn", "zwanzig")
ENGLISH = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
           "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
SPANISH = ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce",
           "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte")
CHINESE_DIGITS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")

_VALUES = {
    "de": {**{word: n for n, word in enumerate(GERMAN)}, "eins": 1, "eine": 1, "kein": 0, "keine": 0},
    "en": {word: n for n, word in enumerate(ENGLISH)},
    "es": {**{word: n for n, word in enumerate(SPANISH)}, "un": 1, "una": 1},
}


def chinese_number(n: int) -> str:
    """0–99 as a Chinese numeral; a bare 2 is 两 (the counting form before a classifier)."""
    if not 0 <= n < 100:
        raise TemplateError(f"chinese_number: {n} is outside 0..99")
    if n == 2:
        return "两"
    if n <= 10:
        return CHINESE_DIGITS[n] if n < 10 else "十"
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else CHINESE_DIGITS[tens]) + "十" + (CHINESE_DIGITS[ones] if ones else "")


def chinese_value(word: str) -> int:
    """The value of a Chinese numeral 零…九十九 (两 = 2)."""
    if word == "两":
        return 2
    if word in CHINESE_DIGITS:
        return CHINESE_DIGITS.index(word)
    if "十" in word:
        tens, _, ones = word.partition("十")
        return (CHINESE_DIGITS.index(tens) if tens else 1) * 10 + (CHINESE_DIGITS.index(ones) if ones else 0)
    raise TemplateError(f"not a Chinese numeral: {word!r}")


def value(word: str, language: str) -> int:
    """The value of a number word of ``language`` (case-insensitive)."""
    if language == "zh":
        return chinese_value(word)
    try:
        return _VALUES[language][word.strip().lower()]
    except KeyError:
        raise TemplateError(f"not a {language} number word: {word!r}") from None


def _word(n: int, words: tuple[str, ...], language: str) -> str:
    if not 0 <= n < len(words):
        raise TemplateError(f"{language} number words go up to {len(words) - 1}, got {n}")
    return words[n]


@register_function("sum", language="de")
def german_sum(a: str, b: str) -> str:
    """``acht`` + ``neun`` → ``siebzehn`` (lower case; 1 is ``ein``)."""
    return _word(value(a, "de") + value(b, "de"), GERMAN, "de")


@register_function("diff", language="de")
def german_diff(a: str, b: str, gender: str) -> str:
    """``drei`` − ``zwei`` → ``Eine`` for a feminine noun, ``Ein`` otherwise; 0 → ``Null``."""
    n = value(a, "de") - value(b, "de")
    word = _word(n, GERMAN, "de") + ("e" if n == 1 and gender == "FEM" else "")
    return word.capitalize()


@register_function("sum", language="en")
def english_sum(a: str, b: str) -> str:
    """``two`` + ``three`` → ``Five``."""
    return _word(value(a, "en") + value(b, "en"), ENGLISH, "en").capitalize()


@register_function("sum", language="es")
def spanish_sum(a: str, b: str) -> str:
    """``una`` + ``tres`` → ``Cuatro``."""
    return _word(value(a, "es") + value(b, "es"), SPANISH, "es").capitalize()


@register_function("diff", language="es")
def spanish_diff(a: str, b: str, gender: str) -> str:
    """``tres`` − ``dos`` → ``Una`` for a feminine noun, ``Uno`` otherwise."""
    n = value(a, "es") - value(b, "es")
    if n == 1 and gender == "FEM":
        return "Una"
    return _word(n, SPANISH, "es").capitalize()


@register_function("sum", language="zh")
def chinese_sum(a: str, b: str) -> str:
    """一 + 一 → 两."""
    return chinese_number(chinese_value(a) + chinese_value(b))


@register_function("diff", language="zh")
def chinese_diff(a: str, b: str) -> str:
    """|a − b|: 三 − 两 → 一."""
    return chinese_number(abs(chinese_value(a) - chinese_value(b)))
