"""Spillway from Python: load profiles, simulate, plan and lay out with Spillway's C++ core.

Every table is a pandas DataFrame and every summary a dict, with the unit in each name
(``duration_ns``, ``size_bytes``, ``iteration_time_s``). The numbers are the ones ``spillway-cli``
prints for the same settings, and so are the error messages (``spillway.Error`` and its
subclasses). The core releases the GIL while it works, so Python threads simulate in parallel.

    import spillway
    profile = spillway.load_profile("samples/lessons/small-gpt.profile.json")
    hw = spillway.hardware("g10-a100", set={"gpu_capacity": "2GiB"})
    result = spillway.simulate(profile, policy="g10", hardware=hw)
    result.summary["iteration_time_s"], result.kernels.head()
"""
from spillway._spillway import Error, InputError, InvalidArgument, __version__
from spillway.machines import Hardware, hardware, hardware_keys, presets
from spillway.profile import Profile, load_profile
from spillway.runs import Layout, Plan, Result, layout, plan, policies, simulate
from spillway.sweeps import SweepSpec, merge_sweep_results, read_sweep, run_sweep

__all__ = [
    "__version__",
    "Error", "InputError", "InvalidArgument",
    "Hardware", "hardware", "hardware_keys", "presets",
    "Profile", "load_profile",
    "Layout", "Plan", "Result", "layout", "plan", "policies", "simulate",
    "SweepSpec", "merge_sweep_results", "read_sweep", "run_sweep",
]
