"""Graphics items, one per level object kind, plus the player's spawn and the tools' handles.

Items hold only an object's id and value; the scene calls ``sync(obj)`` when the
document announces a change. Items never change the document.
"""
