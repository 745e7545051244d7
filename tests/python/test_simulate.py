"""Simulations from Python give spillway-cli simulate's numbers on the same settings."""
import pytest

import spillway
from conftest import SMALL_GPT

# A GPU too small for the profile's peak, so faults, evictions and prefetches all show.
TIGHT = {"gpu_capacity": "160MiB", "ssd.bandwidth": "6.4GB/s"}


def cli_sets(settings):
    return [arg for key, value in settings.items() for arg in ("--set", f"{key}={value}")]


@pytest.mark.parametrize("policy", ["uvm", "g10", "most+discard"])
def test_iteration_time_and_totals_match_the_cli(policy, cli_json):
    cli = cli_json("simulate", SMALL_GPT, "--hw", "g10-a100", "--policy", policy, *cli_sets(TIGHT), "--json", "-")
    profile = spillway.load_profile(SMALL_GPT)
    result = spillway.simulate(profile, policy=policy, hardware=spillway.hardware("g10-a100", set=TIGHT))
    s = result.summary
    assert s["iteration_time_ns"] == cli["iteration_time_ns"]
    assert s["iteration_time_s"] == pytest.approx(cli["iteration_time_ns"] / 1e9)
    for name, ns in cli["stall_split_ns"].items():
        assert s[f"{name}_ns"] == ns, name
    for link, bytes_moved in cli["traffic_bytes"].items():
        assert s[f"traffic_{link}_bytes"] == bytes_moved, link
    assert s["peak_gpu_bytes"] == cli["peak_gpu_bytes"]
    assert result.plan.summary["directives"] == cli["directives"]


def test_kernel_table_matches_the_cli_and_splits_each_window(cli_json):
    cli = cli_json("simulate", SMALL_GPT, "--policy", "g10", *cli_sets(TIGHT), "--kernels", "--json", "-")
    hw = spillway.hardware(gpu_capacity="160MiB", set={"ssd.bandwidth": "6.4GB/s"})  # TIGHT, keyword style
    kernels = spillway.simulate(spillway.load_profile(SMALL_GPT), "g10", hw).kernels
    assert len(kernels) == len(cli["kernel_timings"])
    assert list(kernels["end_ns"]) == [k["end_ns"] for k in cli["kernel_timings"]]
    assert list(kernels["fault_stall_ns"]) == [k["fault_stall_ns"] for k in cli["kernel_timings"]]
    parts = kernels[["compute_ns", "fault_stall_ns", "oversub_stall_ns", "late_prefetch_stall_ns", "nvlink_stall_ns"]]
    assert (parts.sum(axis=1) == kernels["end_ns"] - kernels["start_ns"]).all()
    assert kernels["fault_stall_ns"].sum() > 0


def test_a_plan_can_be_inspected_then_simulated():
    profile = spillway.load_profile(SMALL_GPT)
    hw = spillway.hardware(set=TIGHT)
    plan = spillway.plan(profile, "g10", hw)
    directives = plan.directives
    assert len(directives) == plan.summary["directives"] > 0
    assert set(directives["kind"]) <= {"prefetch", "pre-evict", "discard", "discard-lazy", "free", "recompute", "advise"}
    assert directives["kernel_position"].between(0, profile.kernel_count - 1).all()
    by_plan = spillway.simulate(profile, plan, hw).summary
    by_name = spillway.simulate(profile, "g10", hw).summary
    assert by_plan == by_name


def test_residency_is_recorded_when_asked():
    profile = spillway.load_profile(SMALL_GPT)
    result = spillway.simulate(profile, "uvm", spillway.hardware(set=TIGHT), record_residency=True)
    residency = result.residency
    assert {"time_ns", "gpu_bytes", "host_bytes", "ssd_bytes", "in_flight_bytes"} <= set(residency.columns)
    assert residency["gpu_bytes"].max() <= 160 * 2**20
    assert result.traffic["bytes"].sum() == sum(v for k, v in result.summary.items() if k.startswith("traffic_"))


def test_hardware_values_read_back_as_the_cli_spells_them(cli_json):
    hw = spillway.hardware("most-rtx4090", set={"ssd.bandwidth": "12.8GB/s"}, fault_latency="30us")
    values = hw.values()
    assert values["ssd_to_gpu.bytes_per_s"] == "12.8GB/s"
    assert values["fault_latency_ns"] == "30us"
    assert "g10-a100" in spillway.presets()
    keys = spillway.hardware_keys()
    assert "gpu_capacity_bytes" in set(keys["name"])


def test_several_gpus_report_each_gpu(cli_json):
    settings = {"gpu_count": "2", "nvlink.bandwidth": "300GB/s", **TIGHT}
    cli = cli_json("simulate", SMALL_GPT, "--policy", "g10", *cli_sets(settings), "--json", "-")
    result = spillway.simulate(spillway.load_profile(SMALL_GPT), "g10", spillway.hardware(set=settings))
    assert result.summary["gpu_count"] == 2 == len(result.gpus)
    assert result.summary["iteration_time_ns"] == cli["iteration_time_ns"]
    assert list(result.gpus["pcie_bytes"]) == [g["pcie_bytes"] for g in cli["gpus"]]
    assert spillway.simulate(spillway.load_profile(SMALL_GPT), "g10").gpus.empty
