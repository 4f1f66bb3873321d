"""Property names that Tiled's loaders keep for themselves, and the names the Tiled export writes instead.

pytmx, the Python loader of Tiled maps, makes every map element (the map, a
layer, an object) a Python object whose custom properties sit beside its own
attributes, and refuses the whole map when a property has the name of one of
them ("Reserved names and duplicate names are not allowed"): a property
``name``, ``type``, ``x`` or ``visible`` on an object, ``opacity`` on a layer,
``width`` or ``version`` on the map. The lists below are the names pytmx 3.32
refuses on each element (its attributes and methods, found by ``hasattr``,
and the XML attributes the export writes there, such as an image layer's
``offsetx``), plus every ``__dunder__`` name.

The export keeps such a property under the name with an underscore added
(``name`` -> ``name_``, as Python's own style avoids a keyword), more when that
is taken too, and records the rename in its bookkeeping, so the import brings
the property back under its own name; ``check`` warns before. Here, in the
level's room, so that the check and the Tiled export say the same.

>>> tiled_names("box", ["name", "health", "name_"])
{'name': 'name__'}
>>> tiled_names("level", ["music", "width"])
{'width': 'width_'}
"""
from __future__ import annotations

import re
from typing import Iterable

__all__ = ["PYTMX_RESERVED", "ELEMENTS", "loader_reserved", "tiled_names"]

_EVERY = ("_cast_and_set_attributes_from_node_items", "_contains_invalid_property_name",
          "_log_property_error_message", "_set_properties", "allow_duplicate_names", "from_xml_string", "parse_xml",
          "properties")
_ELEMENT = _EVERY + ("parent", "name", "id", "visible")

#: What pytmx 3.32 refuses as a property name, by the Tiled element that carries the property.
PYTMX_RESERVED = {
    "object": frozenset(_ELEMENT + (
        "apply_transformations", "as_points", "closed", "custom_types", "gid", "height", "image", "rotation",
        "template", "type", "width", "x", "y")),
    "objectgroup": frozenset(_ELEMENT + (
        "append", "clear", "color", "copy", "count", "custom_types", "draworder", "extend", "index", "insert",
        "offsetx", "offsety", "opacity", "pop", "remove", "reverse", "sort")),
    "tilelayer": frozenset(_ELEMENT + (
        "data", "height", "iter_data", "offsetx", "offsety", "opacity", "tiles", "width")),
    "imagelayer": frozenset(_ELEMENT + ("gid", "image", "offsetx", "offsety", "opacity", "source", "trans")),
    "map": frozenset(_EVERY + (
        "add_layer", "add_tileset", "background_color", "custom_property_filename", "custom_types", "filename",
        "get_layer_by_name", "get_object_by_id", "get_object_by_name", "get_tile_colliders", "get_tile_gid",
        "get_tile_image", "get_tile_image_by_gid", "get_tile_locations_by_gid", "get_tile_properties",
        "get_tile_properties_by_gid", "get_tile_properties_by_layer", "get_tileset_from_gid", "gidmap", "height",
        "hexsidelength", "image_loader", "imagemap", "images", "infinite", "invert_y", "layernames", "layers",
        "load_all_tiles", "map_gid", "map_gid2", "maxgid", "nextlayerid", "nextobjectid", "objectgroups", "objects",
        "objects_by_id", "objects_by_name", "optional_gids", "orientation", "parse_json", "register_gid",
        "register_gid_check_flags", "reload_images", "renderorder", "set_tile_properties", "staggeraxis",
        "staggerindex", "tile_properties", "tiledgidmap", "tiledversion", "tileheight", "tilesets", "tilewidth",
        "version", "visible_layers", "visible_object_groups", "visible_tile_layers", "width")),
}

#: The Tiled elements that carry the properties of each kind of object ("level": the level's own, on the map).
#: A tile grid is a tile layer, or an object layer of tile objects when its cells are not the map's tiles.
ELEMENTS = {
    "wall": ("object",), "box": ("object",), "oriented_box": ("object",), "circle": ("object",),
    "point": ("object",), "tiles": ("tilelayer", "objectgroup"), "image": ("imagelayer",), "level": ("map",),
}

#: Python's own names (``__init__``): every pytmx element has most of them. ``__init___`` is not one.
_DUNDER = re.compile(r"__\w*[^\W_]__")


def loader_reserved(kind: str, name: str) -> bool:
    """Whether pytmx refuses a map with a property ``name`` on an object of ``kind`` (``"level"``: the map).

    >>> loader_reserved("point", "type"), loader_reserved("point", "count"), loader_reserved("tiles", "count")
    (True, False, True)
    """
    if _DUNDER.fullmatch(name):
        return True
    return any(name in PYTMX_RESERVED[e] for e in ELEMENTS.get(kind, ("object",)))


def tiled_names(kind: str, names: Iterable[str]) -> dict[str, str]:
    """The properties among ``names`` (all of one object's) that the Tiled export writes under another name:
    each reserved name, and the name it gets (underscores added until it is neither reserved nor taken).

    >>> tiled_names("point", ["type", "type_", "hp"])
    {'type': 'type__'}
    """
    names = list(names)
    taken = set(names)
    renamed = {}
    for name in names:
        if loader_reserved(kind, name):
            new = name + "_"
            while new in taken or loader_reserved(kind, new):
                new += "_"
            taken.add(new)
            renamed[name] = new
    return renamed
