"""Comparing two pictures as a person would: the share of pixels that differ visibly.

Used by the tests that hold our ``render`` and our Tiled export against Tiled's own ``tmxrasterizer``. Two
pixels differ when any channel (alpha included, colours un-premultiplied and weighted by alpha) differs by more
than ``tolerance`` out of 255: smoothing and rounding at the edges of scaled pictures stay under it.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage


def picture_array(path_or_image) -> np.ndarray:
    """The picture as an (h, w, 4) array of RGBA bytes, not premultiplied."""
    image = path_or_image if isinstance(path_or_image, QImage) else QImage(str(path_or_image))
    if image.isNull():
        raise AssertionError(f"cannot read the picture {path_or_image}")
    image = image.convertToFormat(QImage.Format_RGBA8888)
    width, height = image.width(), image.height()
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return data.reshape(height, image.bytesPerLine())[:, :width * 4].reshape(height, width, 4).copy()


def differing_share(a, b, tolerance: int = 48) -> float:
    """The share of pixels (0 to 1) that differ visibly between pictures ``a`` and ``b`` of the same size.

    Each colour channel is weighted by its pixel's alpha first, so the colour of a fully transparent pixel
    does not count.
    """
    x, y = picture_array(a).astype(np.int32), picture_array(b).astype(np.int32)
    if x.shape != y.shape:
        raise AssertionError(f"the pictures differ in size: {x.shape[1]} x {x.shape[0]} and {y.shape[1]} x {y.shape[0]}")
    wx = x[..., :3] * x[..., 3:4] // 255
    wy = y[..., :3] * y[..., 3:4] // 255
    colour = np.abs(wx - wy).max(axis=2)
    alpha = np.abs(x[..., 3] - y[..., 3])
    differ = (colour > tolerance) | (alpha > tolerance)
    return float(differ.mean()) if differ.size else 0.0
