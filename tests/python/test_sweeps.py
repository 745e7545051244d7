"""Design sweeps from Python: the spec the CLI reads, and the table `spillway-cli sweep` and
`sweep merge --csv` make of it."""
import io

import pandas
import pytest

import spillway
from conftest import SOURCE_DIR

SPEC = SOURCE_DIR / "samples" / "sweeps" / "small-gpt.sweep.json"


def test_the_spec_reads_as_the_core_enumerates_it():
    spec = spillway.read_sweep(SPEC)
    assert spec.policies == ["uvm", "g10", "most"]
    assert spec.axes["gpu_capacity_bytes"] == [128 * 2**20, 256 * 2**20, 512 * 2**20]
    assert spec.cell_count == 3 * 3 * 2 * 3  # gpu memory x pcie x samples x policies
    cells = spec.cells()
    assert len(cells) == spec.cell_count and cells["cell"].is_unique
    assert list(cells["policy"][:3]) == spec.policies  # policies vary fastest
    assert len(spec.cells(limit=4)) == 4


def test_the_table_equals_the_cli_merge(tmp_path, cli):
    out, csv = tmp_path / "cells.jsonl", tmp_path / "cells.csv"
    cli("sweep", SPEC, "--out", out)
    cli("sweep", "merge", out, "--csv", csv)
    expected = pandas.read_csv(csv)
    table = spillway.run_sweep(SPEC)
    pandas.testing.assert_frame_equal(table, expected)
    assert table["ok"].all() and (table["iteration_time_s"] > 0).all()


def test_shards_add_up_to_the_whole(tmp_path):
    whole = spillway.run_sweep(spillway.read_sweep(SPEC))
    halves = [tmp_path / "0.jsonl", tmp_path / "1.jsonl"]
    spillway.run_sweep(SPEC, shard=(0, 2), results=halves[0])
    part = spillway.run_sweep(SPEC, shard="1/2", results=halves[1])
    assert 0 < len(part) < len(whole)
    pandas.testing.assert_frame_equal(spillway.merge_sweep_results(halves), whole)


def test_a_bad_spec_names_the_file(tmp_path):
    bad = tmp_path / "bad.sweep.json"
    bad.write_text('{"format": "spillway.sweep/1", "profiles": [], "policies": ["g10"], "axes": []}')
    with pytest.raises(spillway.InputError) as caught:
        spillway.read_sweep(bad)
    assert str(bad) in str(caught.value)
