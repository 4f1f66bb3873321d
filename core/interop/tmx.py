"""TMX, Tiled's XML format, to and from the TMJ-shaped data the export and the import work on.

:func:`dumps_tmx` writes what :mod:`level_editor.core.interop.tiled_export` builds (the
subset of TMX it uses). :func:`parse_xml` reads any XML file of Tiled's (a map,
an external tileset ``.tsx``, a template ``.tx``) safely, and :func:`tmx_map`,
:func:`tsx_tileset` and :func:`tx_template` turn the elements into the same
dicts Tiled's JSON format has, so the import reads one shape of data.

Attributes that are absent stay absent (a template instance overrides only the
attributes it has). Numbers that do not parse become NaN, which the import
reports per object.

>>> root = parse_xml(b'<map orientation="orthogonal" tilewidth="16" tileheight="16" width="2" height="1">'
...                  b'<layer name="ground" width="2" height="1"><data encoding="csv">1,0</data></layer></map>',
...                  "demo.tmx")
>>> layer = tmx_map(root)["layers"][0]
>>> layer["type"], layer["encoding"], layer["data"]
('tilelayer', 'csv', '1,0')
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from xml.parsers import expat
from typing import Any, Iterator, Optional

from level_editor.core.interop.map_text import let_go, text_blocks
from level_editor.core.interop.tiled_common import TiledExportError, TiledImportError, number, xml_safe
from level_editor.core.level.number_text import file_number

__all__ = ["dumps_tmx", "tmx_blocks", "parse_xml", "tmx_map", "tsx_tileset", "tx_template", "MAX_XML_DEPTH", "TooDeep"]

#: Group layers and class properties nested deeper than this are refused (Python would run out of stack).
MAX_XML_DEPTH = 64


class TooDeep(ValueError):
    """Group layers or class properties nested deeper than :data:`MAX_XML_DEPTH`."""

    def __init__(self, what: str):
        super().__init__(f"{what} nested more than {MAX_XML_DEPTH} deep; refused")


# ---------------------------------------------------------------------------
# Writing


def _fmt(value) -> str:
    """A number or a bool as TMX writes it: ``64``, ``1.5``, ``true``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value == 0 and math.copysign(1.0, value) < 0:
            return "-0"  # a property's -0.0 stays itself
        return str(file_number(value))
    return str(value)


class _Checker:
    """Finds text that XML cannot carry, naming where it is."""

    def __init__(self):
        self.problems: list[str] = []

    def text(self, where: str, what: str, value) -> None:
        if isinstance(value, str) and not xml_safe(value):
            self.problems.append(f"{where}: the {what} holds characters XML cannot carry (control characters); "
                                 f"export to .tmj instead")


def _write_properties(parent: ET.Element, props: Optional[list], check: _Checker, where: str) -> None:
    if not props:
        return
    holder = ET.SubElement(parent, "properties")
    for p in props:
        check.text(where, f"property name {p['name']!r}", p["name"])
        check.text(where, f"property {p['name']!r}", p["value"])
        el = ET.SubElement(holder, "property", name=p["name"])
        if p["type"] != "string":
            el.set("type", p["type"])
        el.set("value", _fmt(p["value"]))


def _set(el: ET.Element, d: dict, keys, skip_default: Optional[dict] = None) -> None:
    for key in keys:
        if key not in d:
            continue
        value = d[key]
        if skip_default is not None and key in skip_default and value == skip_default[key]:
            continue
        el.set(key, _fmt(value))


def _write_object(parent: ET.Element, obj: dict, check: _Checker) -> None:
    el = ET.SubElement(parent, "object", id=_fmt(obj["id"]))
    where = obj.get("name") or f"object {obj['id']}"
    check.text(where, "name", obj.get("name", ""))
    check.text(where, "type", obj.get("type", ""))
    _set(el, obj, ("name", "type", "gid", "x", "y", "width", "height", "rotation"),
         {"name": "", "type": "", "width": 0, "height": 0, "rotation": 0})
    if obj.get("visible") is False:
        el.set("visible", "0")
    _write_properties(el, obj.get("properties"), check, where)
    if obj.get("ellipse"):
        ET.SubElement(el, "ellipse")
    elif obj.get("point"):
        ET.SubElement(el, "point")
    for kind in ("polygon", "polyline"):
        if kind in obj:
            ET.SubElement(el, kind, points=" ".join(f"{_fmt(p['x'])},{_fmt(p['y'])}" for p in obj[kind]))


def _write_layer(parent: ET.Element, layer: dict, check: _Checker, streamed: list, depth: int) -> None:
    """``layer`` under ``parent`` (at ``depth``: the map's own layers are at 1); an object layer's objects are
    left to :func:`tmx_blocks`, which writes them a slice at a time, and added to ``streamed``."""
    tag = {"tilelayer": "layer", "objectgroup": "objectgroup", "imagelayer": "imagelayer", "group": "group"}
    el = ET.SubElement(parent, tag[layer["type"]], id=_fmt(layer["id"]), name=layer["name"])
    check.text(f"layer {layer['name']!r}", "name", layer["name"])
    if layer["type"] == "tilelayer":
        _set(el, layer, ("width", "height"))
    if layer.get("visible") is False:
        el.set("visible", "0")
    if layer.get("locked"):
        el.set("locked", "1")
    _set(el, layer, ("opacity", "offsetx", "offsety"), {"opacity": 1, "offsetx": 0, "offsety": 0})
    if layer["type"] == "objectgroup" and layer.get("draworder", "topdown") != "topdown":
        el.set("draworder", layer["draworder"])
    _write_properties(el, layer.get("properties"), check, layer["name"])
    if layer["type"] == "tilelayer":
        width = layer["width"]
        data = layer["data"]
        rows = (",".join(str(g) for g in data[i:i + width]) for i in range(0, len(data), width))
        ET.SubElement(el, "data", encoding="csv").text = "\n" + ",\n".join(rows) + "\n"
    elif layer["type"] == "objectgroup":
        if layer["objects"]:
            ET.SubElement(el, _STREAMED_TAG).text = f"\x00{len(streamed)}\x00"
            streamed.append((layer["objects"], depth))
    elif layer["type"] == "imagelayer":
        check.text(layer["name"], "picture's path", layer["image"])
        ET.SubElement(el, "image", source=layer["image"])
    else:
        for child in layer["layers"]:
            _write_layer(el, child, check, streamed, depth + 1)


def _write_tileset(parent: ET.Element, ts: dict, check: _Checker) -> None:
    el = ET.SubElement(parent, "tileset")
    check.text(f"tileset {ts['name']!r}", "name", ts["name"])
    _set(el, ts, ("firstgid", "name", "tilewidth", "tileheight"))
    _set(el, ts, ("spacing", "margin"), {"spacing": 0, "margin": 0})
    _set(el, ts, ("tilecount", "columns"))
    offset = ts.get("tileoffset")
    if offset:
        ET.SubElement(el, "tileoffset", x=_fmt(offset["x"]), y=_fmt(offset["y"]))
    _write_properties(el, ts.get("properties"), check, ts["name"])
    if ts.get("image"):
        _write_image(el, ts["image"], ts["imagewidth"], ts["imageheight"], ts.get("transparentcolor"), check,
                     ts["name"])
    for tile in ts.get("tiles", ()):
        t = ET.SubElement(el, "tile", id=_fmt(tile["id"]))
        if tile.get("type"):
            check.text(ts["name"], f"type of tile {tile['id']}", tile["type"])
            t.set("type", tile["type"])
        _write_properties(t, tile.get("properties"), check, ts["name"])
        if tile.get("image"):
            _write_image(t, tile["image"], tile["imagewidth"], tile["imageheight"], None, check, ts["name"])
        group = tile.get("objectgroup")
        if group:
            g = ET.SubElement(t, "objectgroup", draworder=group.get("draworder", "index"), id=_fmt(group["id"]))
            for obj in group["objects"]:
                _write_object(g, obj, check)


def _write_image(parent: ET.Element, source: str, width, height, transparent: Optional[str], check: _Checker,
                 where: str) -> None:
    check.text(where, "picture's path", source)
    el = ET.SubElement(parent, "image", source=source, width=_fmt(width), height=_fmt(height))
    if transparent:
        el.set("trans", transparent.lstrip("#"))  # TMX writes the colour without its "#"


def dumps_tmx(data: dict) -> str:
    """TMX text of a map built by :func:`level_editor.core.interop.tiled_export.level_to_tiled`.

    Raises
    ------
    TiledExportError
        When a name, type, path or property holds characters XML cannot carry.
    """
    return "".join(tmx_blocks(data))


#: Stands for an object layer's objects in the map's text until they are written, as <s>\x00N\x00</s>
#: (the layer's Nth in ``streamed``; no XML text holds a NUL).
_STREAMED_TAG = "s"
_STREAMED = re.compile("<s>\x00([0-9]+)\x00</s>")
#: Objects made into XML elements, written and let go of per step.
OBJECTS_PER_STEP = 1000


def tmx_blocks(data: dict) -> Iterator[str]:
    """:func:`dumps_tmx` as blocks of text made in short steps (:mod:`level_editor.core.interop.map_text`).

    The map without its objects is one small XML tree; each object layer's objects are made into elements,
    written and let go of :data:`OBJECTS_PER_STEP` at a time, so that the whole map is never a tree in memory
    (100,000 objects' elements took 115 MB). Every block is made before the first is handed out: a map XML
    cannot carry raises first.
    """
    check = _Checker()
    streamed: list[tuple[list, int]] = []
    root = _tmx_tree(data, check, streamed)
    pieces: list[str] = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    for i, text in enumerate(_STREAMED.split(_serialized(root))):
        if i % 2 == 0:
            pieces.append(text)
            continue
        # in the layer's place of the stand-in, which the whole tree's indentation already surrounds
        objects, depth = streamed[int(text)]
        for start in range(0, len(objects), OBJECTS_PER_STEP):
            holder = ET.Element("g")
            for obj in objects[start:start + OBJECTS_PER_STEP]:
                _write_object(holder, obj, check)
            ET.indent(holder, " ", depth)
            holder.text = None
            more = start + OBJECTS_PER_STEP < len(objects)
            holder[-1].tail = "\n" + " " * (depth + 1) if more else None
            pieces.append(_serialized(holder)[len("<g>"):-len("</g>")])
            let_go(holder)
    pieces.append("\n")
    if check.problems:
        raise TiledExportError(check.problems)
    return iter(list(text_blocks(pieces)))


def _serialized(element: ET.Element) -> str:
    """``element``'s XML text, as ElementTree writes it, empty elements ending in "/>" (as Tiled writes them).

    " />" only ever ends an empty element here: attribute values carry ">" as "&gt;".
    """
    return ET.tostring(element, encoding="unicode").replace(" />", "/>")


def _tmx_tree(data: dict, check: _Checker, streamed: list) -> ET.Element:
    """The map's XML tree, indented, its object layers' objects left out (in ``streamed``: see tmx_blocks)."""
    root = ET.Element("map")
    _set(root, data, ("version", "orientation", "renderorder", "width", "height", "tilewidth", "tileheight"))
    root.set("infinite", "1" if data.get("infinite") else "0")
    if data.get("backgroundcolor"):
        root.set("backgroundcolor", data["backgroundcolor"])
    _set(root, data, ("nextlayerid", "nextobjectid"))
    _write_properties(root, data.get("properties"), check, "-")
    for ts in data.get("tilesets", ()):
        _write_tileset(root, ts, check)
    for layer in data.get("layers", ()):
        _write_layer(root, layer, check, streamed, 1)
    ET.indent(root, " ")
    return root


# ---------------------------------------------------------------------------
# Reading

_DOCTYPE = re.compile(r"<!DOCTYPE[^>\[]*(\[)?", re.IGNORECASE)


def _prolog_text(data: bytes) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8", errors="replace")


def parse_xml(data: bytes, source: str) -> ET.Element:
    """The root element of an XML file of Tiled's, refusing what could make a parser expand without bound.

    Entity declarations are refused (no "billion laughs"), and so is a DOCTYPE
    with an internal subset; a plain ``<!DOCTYPE map SYSTEM "...">`` (old Tiled
    maps have one) is read, and its DTD is never fetched.

    Raises
    ------
    TiledImportError
        When the file is not well-formed XML or declares entities.
    """
    text = _prolog_text(data)
    declares = _declarations(data)
    if "<!ENTITY" in text or declares == "entities":
        raise TiledImportError(f"{source}: declares XML entities; such files are refused (they can expand "
                               f"without bound)")
    m = _DOCTYPE.search(text)
    if (m and m.group(1)) or declares == "subset":
        raise TiledImportError(f"{source}: has a DOCTYPE with its own declarations; such files are refused")
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        line, column = e.position
        reason = str(e).split(":")[0]
        raise TiledImportError(f"{source}: is not valid XML: {reason} at line {line}, column {column + 1}") from None


class _Declared(Exception):
    pass


def _refuse_declaration(*_args) -> None:
    raise _Declared


def _declarations(data: bytes) -> str:
    """``"entities"`` when the XML declares an entity, ``"subset"`` when its DOCTYPE has declarations of its own,
    else ``""``, as the parser itself reads the file (in any encoding: UTF-16 without a byte order mark hides
    ``<!ENTITY`` from a search of the text). Malformed XML is left to the real parse to report."""
    scan = expat.ParserCreate()
    scan.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    scan.EntityDeclHandler = _refuse_declaration
    scan.UnparsedEntityDeclHandler = _refuse_declaration
    subset = []
    scan.StartDoctypeDeclHandler = lambda _name, _system, _public, internal: subset.append(bool(internal))
    try:
        scan.Parse(data, True)
    except _Declared:
        return "entities"
    except (expat.ExpatError, ValueError, LookupError):
        pass
    return "subset" if any(subset) else ""


_FLOAT_KEYS = {"x", "y", "width", "height", "rotation", "offsetx", "offsety", "opacity", "parallaxx", "parallaxy",
               "imagewidth", "imageheight", "tilewidth", "tileheight", "pixelsize"}
_INT_KEYS = {"id", "gid", "firstgid", "tilecount", "columns", "margin", "spacing", "nextlayerid", "nextobjectid",
             "hexsidelength", "compressionlevel"}
_BOOL_KEYS = {"visible", "locked", "infinite", "wrap", "bold", "italic", "underline", "strikeout", "kerning"}


def _integer(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        v = number(text)
        return int(v) if math.isfinite(v) and v == int(v) else text


def _attrs(el: ET.Element) -> dict:
    d: dict[str, Any] = {}
    for key, value in el.attrib.items():
        if key in _INT_KEYS:
            d[key] = _integer(value)
        elif key in _FLOAT_KEYS:
            d[key] = number(value)
        elif key in _BOOL_KEYS:
            d[key] = value.strip() not in ("0", "false", "")
        else:
            d[key] = value
    return d


def _props(el: ET.Element, depth: int = 0) -> list:
    """``<properties>`` as TMJ's list of ``{"name", "type", "value"}`` (values still text; a class: a list)."""
    if depth > MAX_XML_DEPTH:
        raise TooDeep("class properties")
    out = []
    for holder in el.findall("properties"):
        for p in holder.findall("property"):
            kind = p.get("type", "string")
            entry: dict[str, Any] = {"name": p.get("name", ""), "type": kind}
            if p.get("propertytype") is not None:
                entry["propertytype"] = p.get("propertytype")
            if kind == "class":
                entry["value"] = _props(p, depth + 1)
            else:
                entry["value"] = p.get("value") if p.get("value") is not None else (p.text or "")
            out.append(entry)
    return out


def _points(text: str) -> list:
    pts = []
    for pair in (text or "").split():
        x, _, y = pair.partition(",")
        pts.append({"x": number(x), "y": number(y)})
    return pts


def _object(el: ET.Element) -> dict:
    d = _attrs(el)
    props = _props(el)
    if props:
        d["properties"] = props
    if el.find("ellipse") is not None:
        d["ellipse"] = True
    if el.find("point") is not None:
        d["point"] = True
    for kind in ("polygon", "polyline"):
        shape = el.find(kind)
        if shape is not None:
            d[kind] = _points(shape.get("points", ""))
    text = el.find("text")
    if text is not None:
        d["text"] = {**text.attrib, "text": text.text or ""}
    return d


def _objects(el: ET.Element) -> list:
    return [_object(o) for o in el.findall("object")]


def _data(el: ET.Element, layer: dict) -> None:
    data = el.find("data")
    if data is None:
        layer["data"] = []
        return
    encoding = data.get("encoding")
    layer["encoding"] = encoding or "xml"
    if data.get("compression"):
        layer["compression"] = data.get("compression")

    def payload(node):
        if encoding:
            return node.text or ""
        return [_integer(t.get("gid", "0")) for t in node.findall("tile")]

    chunks = data.findall("chunk")
    if chunks:
        layer["chunks"] = [{**_attrs_int(c), "data": payload(c)} for c in chunks]
    else:
        layer["data"] = payload(data)


def _attrs_int(el: ET.Element) -> dict:
    return {k: _integer(v) for k, v in el.attrib.items()}


_LAYER_TAGS = {"layer": "tilelayer", "objectgroup": "objectgroup", "imagelayer": "imagelayer", "group": "group"}


def _layers(el: ET.Element, depth: int = 0) -> list:
    if depth > MAX_XML_DEPTH:
        raise TooDeep("group layers")
    out = []
    for child in el:
        kind = _LAYER_TAGS.get(child.tag)
        if kind is None:
            continue
        layer = _attrs(child)
        layer["type"] = kind
        props = _props(child)
        if props:
            layer["properties"] = props
        if kind == "tilelayer":
            _data(child, layer)
        elif kind == "objectgroup":
            layer["objects"] = _objects(child)
        elif kind == "imagelayer":
            image = child.find("image")
            layer["image"] = image.get("source", "") if image is not None else ""
            if image is not None and image.get("trans"):
                layer["transparentcolor"] = "#" + image.get("trans").lstrip("#")
        else:
            layer["layers"] = _layers(child, depth + 1)
        out.append(layer)
    return out


def tsx_tileset(el: ET.Element) -> dict:
    """A ``<tileset>`` element (in a map or a ``.tsx`` file) as TMJ's tileset dict."""
    ts = _attrs(el)
    props = _props(el)
    if props:
        ts["properties"] = props
    offset = el.find("tileoffset")
    if offset is not None:
        ts["tileoffset"] = {"x": number(offset.get("x", "0")), "y": number(offset.get("y", "0"))}
    image = el.find("image")
    if image is not None:
        ts["image"] = image.get("source", "")
        for key in ("width", "height"):
            if image.get(key):
                ts[f"image{key}"] = _integer(image.get(key))
        if image.get("trans"):
            ts["transparentcolor"] = "#" + image.get("trans").lstrip("#")
    tiles = []
    for t in el.findall("tile"):
        tile = _attrs(t)
        if "class" in tile and "type" not in tile:
            tile["type"] = tile.pop("class")
        tprops = _props(t)
        if tprops:
            tile["properties"] = tprops
        group = t.find("objectgroup")
        if group is not None:
            tile["objectgroup"] = {"objects": _objects(group)}
        timage = t.find("image")
        if timage is not None:
            tile["image"] = timage.get("source", "")
            if timage.get("width"):
                tile["imagewidth"] = number(timage.get("width"))
            if timage.get("height"):
                tile["imageheight"] = number(timage.get("height"))
        tiles.append(tile)
    if tiles:
        ts["tiles"] = tiles
    return ts


def tmx_map(el: ET.Element) -> dict:
    """A ``<map>`` element as TMJ's map dict (``type`` is ``"map"`` only when the element is a map)."""
    m = _attrs(el)
    m["type"] = "map" if el.tag == "map" else el.tag
    for key in ("width", "height", "tilewidth", "tileheight"):
        if isinstance(m.get(key), float) and math.isfinite(m[key]) and m[key] == int(m[key]):
            m[key] = int(m[key])
    props = _props(el)
    if props:
        m["properties"] = props
    m["tilesets"] = [tsx_tileset(t) for t in el.findall("tileset")]
    m["layers"] = _layers(el)
    return m


def tx_template(el: ET.Element) -> dict:
    """A ``<template>`` element (a ``.tx`` file) as TMJ's template dict."""
    d: dict[str, Any] = {"type": "template" if el.tag == "template" else el.tag}
    ts = el.find("tileset")
    if ts is not None:
        d["tileset"] = _attrs(ts)
    obj = el.find("object")
    if obj is not None:
        d["object"] = _object(obj)
    return d
