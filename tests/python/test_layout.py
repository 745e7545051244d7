"""Layouts from Python: spillway-cli plan's row, and every buffer's offset besides."""
import json

import pytest

import spillway
from conftest import SMALL_GPT


@pytest.mark.parametrize("order,placement", [("program", "greedy-by-size"), ("lescea", "llfb")])
def test_the_row_matches_spillway_cli_plan(order, placement, tmp_path, cli):
    out = tmp_path / "plan.json"
    cli("plan", SMALL_GPT, "--order", order, "--placement", placement, "--json", out)
    row = json.loads(out.read_text())["rows"][0]
    layout = spillway.layout(spillway.load_profile(SMALL_GPT), order=order, placement=placement)
    for key in ("buffers", "theoretical_peak_bytes", "actual_peak_bytes"):
        assert layout.summary[key] == row[key], key
    assert layout.summary["fragmentation"] == pytest.approx(row["fragmentation"])


def test_offsets_fill_the_arena_without_overlap():
    profile = spillway.load_profile(SMALL_GPT)
    layout = spillway.layout(profile, order="program", placement="greedy-by-size")
    offsets = layout.offsets
    assert len(offsets) == layout.summary["buffers"]
    assert (offsets["offset_bytes"] + offsets["size_bytes"]).max() == layout.summary["actual_peak_bytes"]
    assert (offsets["offset_bytes"] % 512 == 0).all()
    assert sorted(layout.order) == list(range(profile.kernel_count))
    rows = offsets.to_dict("records")
    for i, a in enumerate(rows):  # live at once -> apart in memory
        for b in rows[i + 1:]:
            live_together = a["first_tick"] < b["end_tick"] and b["first_tick"] < a["end_tick"]
            if live_together:
                assert (a["offset_bytes"] + a["size_bytes"] <= b["offset_bytes"]
                        or b["offset_bytes"] + b["size_bytes"] <= a["offset_bytes"])
