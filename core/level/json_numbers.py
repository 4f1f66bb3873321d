"""Numbers on a grid of thousandths written as JSON text by NumPy, millions at a time, without a Python loop.

The hulls of a large level hold millions of numbers already rounded to three
decimals. Each is written the way the rest of the file writes numbers
(:func:`level_editor.core.level.number_text.file_number`): the shortest decimal
that reads back as the same float (Python's ``repr``), whole numbers without
``.0``. For a float that is the nearest one to ``k / 1000``,
that is ``k / 1000`` written with its trailing zeros dropped: a shorter decimal
would differ by at least a thousandth, far more than the float's own spacing
for every coordinate the limits allow (:mod:`level_editor.core.level.limits`).

>>> import numpy as np
>>> text, ends = decimal_text(thousandths(np.array([276.0, -0.789, 0.5, 12.25])), np.array([0, 0, 0, 1]), (b",", b"]"))
>>> text, ends.tolist()
(b'276,-0.789,0.5,12.25]', [4, 11, 15, 21])
"""
from __future__ import annotations

import numpy as np

__all__ = ["thousandths", "decimal_text"]

_ZERO, _MINUS, _POINT = ord("0"), ord("-"), ord(".")
_POW10 = 10 ** np.arange(19, dtype=np.int64)


def thousandths(values: np.ndarray) -> np.ndarray:
    """Values already rounded to three decimals, as whole numbers of thousandths (int64)."""
    return np.rint(np.asarray(values, dtype=float) * 1000.0).astype(np.int64)


def decimal_text(k: np.ndarray, separators: np.ndarray, table: tuple) -> tuple[bytes, np.ndarray]:
    """The numbers ``k / 1000`` as text, each followed by ``table[separators[i]]``, and where each one ends.

    Parameters
    ----------
    k : ndarray of int64
        The numbers, in thousandths (:func:`thousandths`).
    separators : ndarray of int
        For each number, the index in ``table`` of the text that follows it.
    table : tuple of bytes
        The separators (``b","``, ``b"],["``...).

    Returns
    -------
    (bytes, ndarray)
        All the text, and the offset just past each number's separator.
    """
    k = np.asarray(k, dtype=np.int64)
    n = len(k)
    if not n:
        return b"", np.zeros(0, dtype=np.int64)
    # Separators longer than a few bytes are written as one placeholder byte (numbers hold only digits,
    # '-' and '.'), replaced in the finished text.
    short = [t if len(t) <= _SHORT else bytes([1 + i]) for i, t in enumerate(table)]
    negative = k < 0
    whole, fraction = np.divmod(np.abs(k), 1000)
    groups = max(1, -(-len(str(int(whole.max()))) // 3))  # digits of the whole part, in threes
    digits = 1 + np.searchsorted(_POW10[1:3 * groups], whole, side="right")
    decimals = _DECIMALS[fraction]
    separators = np.asarray(separators, dtype=np.int64)
    sep_chars = np.zeros((len(table), _SHORT), dtype=np.uint8)
    sep_len = np.zeros(len(table), dtype=np.int64)
    for i, t in enumerate(short):
        sep_chars[i, : len(t)] = np.frombuffer(t, dtype=np.uint8)
        sep_len[i] = len(t)
    # each number as a row: sign, whole part in groups of three digits, point, three decimals, separator
    width = 1 + 3 * groups + 4 + _SHORT
    chars = np.empty((n, width), dtype=np.uint8)
    chars[:, 0] = _MINUS
    rest = whole
    for g in range(groups - 1, -1, -1):
        rest, three = np.divmod(rest, 1000) if g else (rest, rest)
        chars[:, 1 + 3 * g: 4 + 3 * g] = _THOUSANDTHS[three]
    chars[:, 1 + 3 * groups] = _POINT
    chars[:, 2 + 3 * groups: 5 + 3 * groups] = _THOUSANDTHS[fraction]
    chars[:, 5 + 3 * groups:] = sep_chars[separators]
    # which characters of a row are kept depends on the sign, the digits, the decimals and the separator
    shape = (2, 3 * groups + 1, 4, len(table))
    kind = np.ravel_multi_index((negative.astype(np.int64), digits, decimals, separators), shape)
    keep = _keep_table(groups, sep_len)[kind]
    text = chars[keep].tobytes()
    for i, t in enumerate(table):
        if len(t) > _SHORT:
            text = text.replace(bytes([1 + i]), t)
    full_len = np.array([len(t) for t in table], dtype=np.int64)
    return text, np.cumsum(negative + digits + (decimals > 0) + decimals + full_len[separators])


#: Separators up to this long are written in place; longer ones through a placeholder.
_SHORT = 3


def _keep_table(groups: int, sep_len: np.ndarray) -> np.ndarray:
    """For each (sign, digits, decimals, separator), which characters of a row are written."""
    width = 1 + 3 * groups + 4 + _SHORT
    d = 3 * groups
    sign = np.arange(2)[:, None, None, None, None]
    digits = np.arange(d + 1)[None, :, None, None, None]
    decimals = np.arange(4)[None, None, :, None, None]
    seps = sep_len[None, None, None, :, None]
    col = np.arange(width)[None, None, None, None, :]
    keep = ((col == 0) & (sign == 1)) \
        | ((col >= 1) & (col <= d) & (col > d - digits)) \
        | ((col == d + 1) & (decimals > 0)) \
        | ((col >= d + 2) & (col <= d + 4) & (col - d - 1 <= decimals)) \
        | ((col >= d + 5) & (col - d - 5 < seps))
    return keep.reshape(-1, width)


#: The decimals of each thousandth (0 to 999) as three characters, and how many of them are kept.
_THOUSANDTHS = np.frombuffer("".join(f"{i:03d}" for i in range(1000)).encode("ascii"), dtype=np.uint8).reshape(1000, 3)
_DECIMALS = np.array([0 if i == 0 else 1 if i % 100 == 0 else 2 if i % 10 == 0 else 3 for i in range(1000)])
