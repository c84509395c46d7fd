"""The heatmaps' colour scales: told apart under simulated colour blindness, and every value written
in a cell readable (WCAG contrast 4.5:1) on the colour Vega paints it. tests/browser/test_accessibility.py
checks that ui/draw/colours.py paints what Vega paints."""

from __future__ import annotations

import numpy as np
import pytest

from ui.draw import charts, colours

VISION = ("normal", "deuteranopia", "protanopia")
WHITE, BLACK = np.array([255.0, 255, 255]), np.zeros(3)
STEP = 0.1  # two values a tenth of the scale apart...
NOTICEABLE = 3.0  # ...differ by at least this CIE76 ΔE (2.3 is a just noticeable difference)


def seen(rgb: np.ndarray, vision: str) -> np.ndarray:
    return rgb if vision == "normal" else colours.simulate_cvd(rgb, vision)


def smallest_step(scheme: str, vision: str) -> float:
    """The smallest colour difference between neighbouring positions a tenth apart, as seen."""
    painted = seen(colours.paint(scheme, np.arange(0.0, 1.0 + 1e-9, STEP)), vision)
    return float(colours.delta_e(painted[1:], painted[:-1]).min())


@pytest.mark.parametrize("vision", VISION)
@pytest.mark.parametrize("scheme", sorted(colours.SCHEMES))
def test_neighbouring_values_stay_apart_under_colour_blindness(scheme, vision):
    assert smallest_step(scheme, vision) >= NOTICEABLE


@pytest.mark.parametrize("vision", VISION)
def test_a_positive_and_a_negative_score_never_look_alike(vision):
    """On the diverging scale, +v and -v (the same position either side of white) stay far apart."""
    for v in np.arange(STEP, 1.0 + 1e-9, STEP):
        plus, minus = colours.paint("redblue", 0.5 - v / 2), colours.paint("redblue", 0.5 + v / 2)
        assert colours.delta_e(seen(plus, vision), seen(minus, vision)) >= 8


def test_the_check_rejects_a_scale_that_colour_blind_learners_cannot_read():
    """A red-to-green ramp of equal lightness passes for normal vision and fails under deuteranopia:
    the measure above can fail."""
    colours.SCHEMES["_redgreen"] = "c8503cb65c3ca3673c91733c7f7f3c6c8a3c5a963c"
    try:
        assert smallest_step("_redgreen", "normal") >= NOTICEABLE
        assert smallest_step("_redgreen", "deuteranopia") < NOTICEABLE
    finally:
        del colours.SCHEMES["_redgreen"]


@pytest.mark.parametrize("scheme", sorted(colours.SCHEMES))
def test_the_text_chosen_for_a_cell_reads_at_every_value(scheme):
    painted = colours.paint(scheme, np.linspace(0, 1, 2001))
    white = colours.white_text(painted)
    ratio = np.where(white, colours.contrast(painted, WHITE), colours.contrast(painted, BLACK))
    assert ratio.min() >= 4.5


@pytest.mark.parametrize("kind", ["weights", "scores", "values"])
def test_every_cell_of_a_heatmap_gets_the_text_colour_that_reads_on_it(kind):
    rng = np.random.default_rng(7)
    values = rng.random((12, 12)) if kind == "weights" else 3 * rng.standard_normal((12, 12))
    cells = charts.heatmap(values, [f"q{i}" for i in range(12)], [f"k{j}" for j in range(12)],
                           kind=kind)["datasets"]["cells"]
    scheme, where = colours.scale_position(values, kind == "weights")
    painted = colours.paint(scheme, where).reshape(-1, 3)
    text = np.where(np.array([c["strong"] for c in cells])[:, None], WHITE, BLACK)
    assert colours.contrast(painted, text).min() >= 4.5
    assert 0 < sum(c["strong"] for c in cells) < len(cells)  # both colours are in use


def test_masked_cells_and_their_word_read_too():
    grey = np.array([int(charts.MASKED_COLOUR[k:k + 2], 16) for k in (1, 3, 5)], float)
    assert colours.contrast(grey, BLACK) >= 4.5  # "masked" in black on the grey


@pytest.mark.parametrize("vision", ["deuteranopia", "protanopia"])
def test_a_polls_right_answer_and_its_mistakes_are_told_apart(vision):
    rgb = np.array([[int(c[k:k + 2], 16) for k in (1, 3, 5)] for c in charts.POLL_COLOURS.values()], float)
    as_seen = seen(rgb, vision)
    for a in range(len(rgb)):
        for b in range(a + 1, len(rgb)):
            assert colours.delta_e(as_seen[a], as_seen[b]) >= 20
