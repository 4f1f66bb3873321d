"""Reading Tiled's files (maps, external tilesets, templates) safely: size limits, gzip, XML or JSON by content.

:func:`load_document` gives any of them as TMJ-shaped data (:mod:`level_editor.core.interop.tmx`
reads the XML ones); :class:`Files` reads the external files a map names, once
each, and turns a missing or broken one into a note rather than a failure.
"""
from __future__ import annotations

import json
import os
import zlib
from typing import Optional

from level_editor.core.interop.tiled_common import TiledImportError
from level_editor.core.level.reading import LevelFileError, read_file_bytes
from level_editor.core.interop.tmx import TooDeep, parse_xml, tmx_map, tsx_tileset, tx_template

__all__ = ["MAX_FILE_BYTES", "MAX_UNPACKED_BYTES", "load_document", "Files"]

#: Larger files are refused (a map, a tileset, a template), and so is gzip that unpacks to more.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_UNPACKED_BYTES = 256 * 1024 * 1024


def _unpack_gzip(data: bytes, source: str) -> bytes:
    unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = unpacker.decompress(data, MAX_UNPACKED_BYTES + 1)
    except zlib.error as e:
        raise TiledImportError(f"{source}: is gzip-packed but does not unpack: {e}") from None
    if len(out) > MAX_UNPACKED_BYTES or unpacker.unconsumed_tail:
        raise TiledImportError(f"{source}: unpacks to more than {MAX_UNPACKED_BYTES // 2**20} MiB; refused")
    if not unpacker.eof:
        raise TiledImportError(f"{source}: is gzip-packed but does not unpack: the packed data ends early")
    return out


def _read_bytes(path: str, source: str) -> bytes:
    """The file's bytes (a regular file only, never more than MAX_FILE_BYTES, never blocking), gzip unpacked."""
    try:
        data = read_file_bytes(path, "map", MAX_FILE_BYTES)
    except LevelFileError as e:
        raise TiledImportError(f"{source}: {e.reason}") from None
    if data[:2] == b"\x1f\x8b":  # a .tmx.gz (Debian ships Tiled's examples so)
        data = _unpack_gzip(data, source)
    return data


def _parse_int(literal: str):
    # Python refuses to turn more than 4300 digits into an int, with an error that names no place.
    return int(literal) if len(literal) <= 4000 else float(literal)


def _xml_document(root, source: str) -> dict:
    if root.tag == "tileset":
        d = tsx_tileset(root)
        d["type"] = "tileset"
        return d
    if root.tag == "template":
        return tx_template(root)
    if root.tag != "map":
        raise TiledImportError(f"{source}: is XML but not a Tiled map (its root element is <{root.tag}>)")
    return tmx_map(root)


def load_document(path: str, source: str) -> dict:
    """A Tiled file (XML or JSON, by its content) as TMJ-shaped data."""
    data = _read_bytes(path, source)
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"<" or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        root = parse_xml(data, source)
        try:
            return _xml_document(root, source)
        except TooDeep as e:
            raise TiledImportError(f"{source}: {e}") from None
    if head in (b"{", b"["):
        try:
            text = data.decode("utf-8-sig")
            value = json.loads(text, parse_int=_parse_int)
        except UnicodeDecodeError as e:
            raise TiledImportError(f"{source}: is not UTF-8 text (bad byte at offset {e.start})") from None
        except json.JSONDecodeError as e:
            raise TiledImportError(f"{source}: is not valid JSON: {e.msg} at line {e.lineno}, "
                                   f"column {e.colno}") from None
        except (RecursionError, ValueError):
            raise TiledImportError(f"{source}: is not valid JSON: nested too deeply or a number too long") from None
        if not isinstance(value, dict):
            raise TiledImportError(f"{source}: is JSON but not a Tiled map (not an object)")
        return value
    raise TiledImportError(f"{source}: is neither XML nor JSON, so not a Tiled map")


class Files:
    """External tilesets and templates, read once each; a missing one is a note, not a failure."""

    def __init__(self, notes: list[str]):
        self.notes = notes
        self.cache: dict[str, Optional[dict]] = {}

    def load(self, path: str, what: str, shown: str) -> Optional[dict]:
        path = os.path.normpath(path)
        if path in self.cache:
            return self.cache[path]
        found = path
        if not os.path.exists(path) and os.path.exists(path + ".gz"):
            found = path + ".gz"  # Debian packs the examples' tilesets so; the reference is to the plain name
        doc: Optional[dict] = None
        try:
            doc = load_document(found, os.path.basename(path))
        except TiledImportError as e:
            reason = str(e).split(": ", 1)[-1]
            shown = shown if shown.strip() else repr(shown)  # an empty path is named as such
            if not os.path.exists(found):
                self.notes.append(f"{what} {shown} is missing" + (": its tiles count as not solid"
                                                                  if what == "tileset" else ""))
            else:
                reason = reason[len("cannot be read: "):] if reason.startswith("cannot be read: ") else reason
                self.notes.append(f"{what} {shown} cannot be read: {reason}")
        self.cache[path] = doc
        return doc


