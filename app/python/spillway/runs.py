"""Planning, simulating and laying out a profile: ``spillway-cli simulate`` and ``plan`` from Python."""
import functools

from spillway import _spillway
from spillway.machines import DEFAULT_PRESET, hardware as make_hardware
from spillway.tables import frame, record


def _machine(hardware):
    """A Hardware as given, or a preset id / hardware file; None is spillway-cli's default."""
    if hardware is None:
        return make_hardware(DEFAULT_PRESET)
    if isinstance(hardware, _spillway.Hardware):
        return hardware
    return make_hardware(hardware)


def policies():
    """Planner ids and the modifiers that follow them with + ("g10+discard")."""
    return {"policies": list(_spillway.policy_names()), "modifiers": list(_spillway.modifier_names())}


class Plan:
    """A planner's plan: .summary, .directives (one row per directive), .order, .notes."""

    def __init__(self, core, profile):
        self._core = core
        self._profile = profile

    @property
    def policy(self):
        return self._core.policy

    @functools.cached_property
    def summary(self):
        return record(self._core.summary())

    @functools.cached_property
    def directives(self):
        """kernel_position (issued before that kernel), kind, tensor (id), tensor_name, target,
        keep_until, after_kernel, delay_ns, advice."""
        return frame(self._core.directive_table(self._profile._core))

    @property
    def order(self):
        """Kernel positions in run order; empty = program order."""
        return list(self._core.order)

    @property
    def notes(self):
        return dict(self._core.notes)

    def __repr__(self):
        return f"<spillway.Plan {self.policy}: {self.summary['directives']} directives>"


def plan(profile, policy="g10", hardware=None, allow_faults=True):
    """The plan ``policy`` ("g10", "most+discard", ...) makes for the profile on the machine.
    allow_faults=False asks for a plan that never faults (``plan --export --no-faults``)."""
    core = _spillway.make_plan(policy, profile._core, _machine(hardware), allow_faults)
    return Plan(core, profile)


class Result:
    """A simulation: .summary (dict), .kernels (one row per kernel in run order), .traffic (bytes
    per link), .gpus (per GPU, several GPUs only), .residency (bytes per tier over time; with
    record_residency=True), .plan."""

    def __init__(self, core, plan):
        self._core = core
        self.plan = plan

    @functools.cached_property
    def summary(self):
        """iteration_time_s/_ns, ideal_time, the stall split (compute, fault_stall, oversub_stall,
        late_prefetch_stall, nvlink_stall; overlap is hidden transfer time), traffic_<link>_bytes,
        peak_gpu_bytes, ...; cannot_run says why a run was impossible (None when it ran)."""
        return record(self._core.summary())

    @functools.cached_property
    def kernels(self):
        return frame(self._core.kernel_table())

    @functools.cached_property
    def traffic(self):
        return frame(self._core.traffic_table())

    @functools.cached_property
    def gpus(self):
        """Several GPUs: per GPU its iteration, PCIe, SSD and NVLink bytes and peak; empty on one."""
        return frame(self._core.gpu_table())

    @functools.cached_property
    def residency(self):
        return frame(self._core.residency_table())

    @property
    def iteration_times_ns(self):
        """Every simulated iteration, warm-up first; the last is the reported one."""
        return list(self._core.iteration_times_ns)

    def __repr__(self):
        s = self.summary
        return f"<spillway.Result {s['policy']} on {s['hardware']}: {s['iteration_time_s']:.6f} s>"


def simulate(profile, policy="g10", hardware=None, record_residency=False):
    """Plans with ``policy`` (a name, or a Plan made by spillway.plan) and replays the profile on
    the machine, as ``spillway-cli simulate PROFILE --policy P --hw H --set ...`` does."""
    machine = _machine(hardware)
    chosen = policy if isinstance(policy, Plan) else plan(profile, policy, machine)
    core = _spillway.simulate(profile._core, chosen._core, machine, record_residency)
    return Result(core, chosen)


class Layout:
    """An order and an arena: .summary (as a row of ``spillway-cli plan``), .offsets (one row per
    buffer: tensor id or workspace_kernel_position, size_bytes, offset_bytes, live ticks), .order."""

    def __init__(self, summary, offsets, order):
        self.summary = record(summary)
        self.offsets = frame(offsets)
        self.order = list(order)

    def __repr__(self):
        s = self.summary
        return (f"<spillway.Layout {s['order']} + {s['placement']}: arena {s['actual_peak_bytes']} bytes, "
                f"fragmentation {s['fragmentation']:.4f}>")


def layout(profile, order="roam", placement="best", time_limit_s=10.0):
    """Orders the kernels and places every tensor in one arena, as ``spillway-cli plan --order O
    --placement P --time-limit S`` (same defaults); the layout is verified before it is returned."""
    return Layout(*_spillway.layout(profile._core, order, placement, float(time_limit_s)))
