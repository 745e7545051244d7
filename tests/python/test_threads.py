"""The core releases the GIL: simulations from several Python threads run at once and give
exactly what the same simulations give one after the other."""
import concurrent.futures

import spillway
from conftest import SMALL_GPT

SETTINGS = [("g10", "160MiB"), ("uvm", "160MiB"), ("most", "200MiB"), ("deepum", "192MiB"),
            ("g10+discard", "256MiB"), ("uvm", "96MiB")]


def run(profile, policy, capacity):
    result = spillway.simulate(profile, policy, spillway.hardware(gpu_capacity=capacity))
    return result.summary, result.kernels


def test_threads_give_the_single_threaded_results():
    profile = spillway.load_profile(SMALL_GPT)
    alone = [run(profile, *s) for s in SETTINGS]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda s: run(profile, *s), SETTINGS * 2))
    for i, (summary, kernels) in enumerate(together):
        expected_summary, expected_kernels = alone[i % len(SETTINGS)]
        assert summary == expected_summary, SETTINGS[i % len(SETTINGS)]
        assert kernels.equals(expected_kernels)


def test_profiles_load_in_parallel_too():
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        profiles = list(pool.map(spillway.load_profile, [SMALL_GPT] * 3))
    assert len({p.hash for p in profiles}) == 1
