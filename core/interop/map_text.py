"""A Tiled map's text made and written in short steps, and its data let go of the same way.

The editor writes a map on a worker thread while its window keeps answering, and Python runs one thread at
a time: a single call that joins, searches or encodes a whole map's text (30 MB at 100,000 objects), or that
drops a whole map's data at once, holds the interpreter, and so the window, for 0.1 to 0.35 s. Each step
here works on about :data:`BLOCK_CHARS` characters or :data:`RELEASE_SLICE` items.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Callable, Iterable, Iterator, Optional

__all__ = ["BLOCK_CHARS", "RELEASE_SLICE", "text_blocks", "let_go"]

#: Characters of a map's text per block.
BLOCK_CHARS = 1 << 16
#: Items of a long list (or children of an XML element) let go of per step.
RELEASE_SLICE = 1000


def text_blocks(pieces: Iterable[str], fix: Optional[Callable[[str], str]] = None) -> Iterator[str]:
    """The text made of ``pieces`` as blocks of :data:`BLOCK_CHARS` characters (the last one shorter), each
    passed through ``fix`` (which must change no text that a block's edge could cut: single characters).

    >>> list(text_blocks(["ab", "c", "d"], str.upper))
    ['ABCD']
    >>> [len(b) for b in text_blocks(["x" * (BLOCK_CHARS * 2 + 5), "y"])] == [BLOCK_CHARS, BLOCK_CHARS, 6]
    True
    """
    block: list[str] = []
    size = 0
    for piece in pieces:
        block.append(piece)
        size += len(piece)
        if size >= BLOCK_CHARS:
            text = "".join(block)
            whole = size - size % BLOCK_CHARS
            for start in range(0, whole, BLOCK_CHARS):
                part = text[start:start + BLOCK_CHARS]
                yield fix(part) if fix is not None else part
            rest = text[whole:]
            block, size = [rest], len(rest)
    text = "".join(block)
    if text:
        yield fix(text) if fix is not None else text


def let_go(data) -> None:
    """Drop the contents of ``data`` (dicts, lists and XML elements, nested) a slice at a time.

    A dict's values and a short list's items are let go of in turn; a long list, or an element's long run of
    children, is emptied :data:`RELEASE_SLICE` items at a time, each slice with all it holds.

    >>> data = {"layers": [{"objects": [{"id": i} for i in range(2500)]}]}
    >>> let_go(data)
    >>> data
    {'layers': []}
    """
    if isinstance(data, dict):
        for value in data.values():
            let_go(value)
    elif isinstance(data, (list, ET.Element)):
        if len(data) <= RELEASE_SLICE:
            for item in data:
                let_go(item)
        while len(data) > RELEASE_SLICE:
            del data[-RELEASE_SLICE:]
        del data[:]
