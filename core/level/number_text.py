"""How numbers are written: in files (a level, a Tiled map) and in what a designer reads (messages, labels).

A file writes every number exactly, a whole one without ``.0`` (:func:`file_number`); a message rounds it
to a few decimals and drops the zeros left at the end (:func:`rounded_text`). The hulls' millions of
numbers are written by NumPy the same way as :func:`file_number` writes one
(:mod:`level_editor.core.level.json_numbers`); this module stays pure Python, so that reading and
writing a level never loads NumPy.

>>> file_number(64.0), file_number(0.1), rounded_text(478.7075), rounded_text(-0.04)
(64, 0.1, '478.7', '0')
"""
from __future__ import annotations

__all__ = ["EXACT_INTS", "is_number", "file_number", "rounded_text"]

#: Floats from -2**53 to 2**53 are whole numbers exactly when they look it; beyond, a float has no
#: fraction left, and writing it as an int would claim digits it does not hold.
EXACT_INTS = 2.0**53


def is_number(value) -> bool:
    """Whether a value read from JSON is a number (``True`` is not, though Python counts it as 1).

    >>> is_number(3), is_number(2.5), is_number(True), is_number("3")
    (True, True, False, False)
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def file_number(v: float):
    """``v`` as a level file or a Tiled map writes it: a whole number as an int (``64``, not ``64.0``),
    any other as it is (Python writes the shortest decimal that reads back as the same float).

    >>> [file_number(64.0), file_number(0.1), file_number(1e300), file_number(-2.5), file_number(-0.0)]
    [64, 0.1, 1e+300, -2.5, 0]
    """
    if v.__class__ is float:  # nearly every number of a level: the quick way first
        return int(v) if v.is_integer() and -EXACT_INTS < v < EXACT_INTS else v
    if v == int(v) and abs(v) < EXACT_INTS:
        return int(v)
    return v


def rounded_text(v: float, decimals: int = 1) -> str:
    """``v`` rounded to at most ``decimals`` decimals, as a message or a label shows it: no zeros at the
    end, no point when nothing follows it, and never ``-0``.

    >>> rounded_text(2577.0572), rounded_text(32.0), rounded_text(12.3456, 3), rounded_text(-0.0004, 3)
    ('2577.1', '32', '12.346', '0')
    >>> rounded_text(1742.5, 0), rounded_text(0.000001, 10)
    ('1742', '0.000001')
    """
    text = f"{float(v):.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
