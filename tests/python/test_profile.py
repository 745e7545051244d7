"""Profiles from Python hold what spillway-cli info says about the same files."""
import pandas
import pytest

import spillway
from conftest import SMALL_GPT, VGG_TRACE


@pytest.mark.parametrize("path", [SMALL_GPT, VGG_TRACE], ids=["native", "torch-trace"])
def test_counts_and_summary_match_info(path, cli_json):
    info = cli_json("info", path, "--json")
    profile = spillway.load_profile(path)
    assert len(profile.kernels) == info["kernels"] == profile.kernel_count
    assert len(profile.tensors) == info["tensors"]
    summary = profile.summary()
    for key in ("footprint_bytes", "persistent_bytes", "peak_bytes", "total_time_ns", "model", "source"):
        assert summary[key] == info[key], key
    assert summary["peak_kernel_position"] == info["peak_kernel"]["position"]


def test_tables_carry_units_and_add_up():
    profile = spillway.load_profile(SMALL_GPT)
    kernels, tensors = profile.kernels, profile.tensors
    assert isinstance(kernels, pandas.DataFrame)
    assert {"duration_ns", "workspace_bytes", "phase", "inputs", "outputs"} <= set(kernels.columns)
    assert {"size_bytes", "kind", "persistent"} <= set(tensors.columns)
    summary = profile.summary()
    assert kernels["duration_ns"].sum() == summary["total_time_ns"]
    assert tensors["size_bytes"].sum() == summary["footprint_bytes"]
    assert profile.phases["time_ns"].sum() == summary["total_time_ns"]
    assert profile.kinds["size_bytes"].sum() == summary["footprint_bytes"]
    # Every tensor a kernel names is one of the profile's.
    ids = set(tensors["id"])
    assert all(set(k) <= ids for k in kernels["inputs"]) and all(set(k) <= ids for k in kernels["outputs"])


def test_hash_names_the_content_not_the_file(tmp_path, cli):
    copy = tmp_path / "copy.profile.json"
    cli("convert", SMALL_GPT, "-o", copy)
    first, second = spillway.load_profile(SMALL_GPT), spillway.load_profile(copy)
    assert first.hash.startswith("sha256:") and len(first.hash) == len("sha256:") + 64
    assert first.hash == second.hash


def test_iteration_words_are_checked():
    with pytest.raises(spillway.InvalidArgument, match="iteration"):
        spillway.load_profile(SMALL_GPT, iteration="first")
