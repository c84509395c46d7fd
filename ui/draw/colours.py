"""The heatmaps' colours as the browser paints them, and the text colour that reads on each.

Vega draws a continuous scheme as a piecewise-linear blend, in sRGB, of the scheme's listed colours
(vega-scale's ``interpolateColors``, d3's ``piecewise(interpolateRgb)``), each channel rounded to a
whole number. Computing the same thing here lets the server pick, cell by cell, the text colour
(black or white) with the higher WCAG contrast against the cell, so a value written in a cell
always reads at 4.5:1 or better, and lets the tests check the scales under simulated colour
blindness. A browser test checks that the colours computed here are the ones Vega paints.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SCHEMES", "paint", "scale_position", "luminance", "contrast", "white_text", "simulate_cvd",
           "delta_e"]

# vega-scale's continuous schemes (from d3-scale-chromatic), as the palette strings Vega ships.
SCHEMES = {
    "blues": "cfe1f2bed8eca8cee58fc1de74b2d75ba3cf4592c63181bd206fb2125ca40a4a90",
    "redblue": "8c0d25bf363adf745ef4ae91fbdbc9f2efeed2e5ef9dcae15da2cb2f78b3134b85",
}


def _stops(scheme: str) -> np.ndarray:
    hexes = SCHEMES[scheme]
    return np.array([[int(hexes[k + c:k + c + 2], 16) for c in (0, 2, 4)] for k in range(0, len(hexes), 6)], float)


def paint(scheme: str, t: np.ndarray | float) -> np.ndarray:
    """The colours (..., 3), 0-255 integers, Vega paints at positions ``t`` in [0, 1] of ``scheme``."""
    stops = _stops(scheme)
    n = len(stops) - 1
    t = np.clip(np.asarray(t, dtype=float), 0.0, 1.0) * n
    i = np.clip(np.floor(t), 0, n - 1).astype(int)
    frac = (t - i)[..., None]
    return np.round(stops[i] + (stops[i + 1] - stops[i]) * frac)


def scale_position(values: np.ndarray, zero_to_one: bool, bound: float | None = None) -> tuple[str, np.ndarray]:
    """The scheme and the position in it of each value, as ``ui.draw.charts`` sets up its scales:
    [0, bound] clamped on "blues" for weights, or "redblue" reversed over [-bound, bound] (white at 0).
    ``bound`` defaults to the data's own: the largest value (weights), the largest magnitude (scores)."""
    values = np.nan_to_num(np.asarray(values, dtype=float), nan=0.0)
    if zero_to_one:
        top = max(1e-9, float(values.max(initial=0.0)) if bound is None else bound)
        return "blues", np.clip(values / top, 0.0, 1.0)
    if bound is None:
        bound = max(1e-9, float(np.abs(values).max(initial=0.0)))
    return "redblue", 1.0 - np.clip((values + bound) / (2 * bound), 0.0, 1.0)


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB colours (..., 3) given as 0-255."""
    c = np.asarray(rgb, dtype=float) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """WCAG 2 contrast ratio between colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def white_text(rgb: np.ndarray) -> np.ndarray:
    """True where white text reads better than black on these colours (the higher WCAG contrast).

    One of the two always reaches 4.5:1: black does down to a luminance of 0.175, white up to 0.183.
    """
    lum = luminance(rgb)
    return 1.05 / (lum + 0.05) > (lum + 0.05) / 0.05


# Machado, Oliveira and Fernandes (2009), severity 1.0: simulated dichromacy in linear RGB.
_CVD = {
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}


def _to_linear(rgb: np.ndarray) -> np.ndarray:
    c = np.asarray(rgb, dtype=float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0.0, 1.0)
    return 255.0 * np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate_cvd(rgb: np.ndarray, kind: str) -> np.ndarray:
    """The colours (..., 3) as a viewer with ``kind`` ("deuteranopia", "protanopia") sees them."""
    return _to_srgb(_to_linear(rgb) @ _CVD[kind].T)


def _lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours."""
    xyz = _to_linear(rgb) @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                                      [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def delta_e(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """CIE76 colour difference (Euclidean in CIELAB): about 2.3 is just noticeable."""
    return np.linalg.norm(_lab(a) - _lab(b), axis=-1)
