"""Profiles: any format ``spillway-cli`` reads, with its kernels and tensors as DataFrames."""
import functools
import os

from spillway import _spillway
from spillway.tables import frame, record


class Profile:
    """One training iteration: kernels in program order and the tensors they read and write.

    Tables are made on first use and kept (the profile never changes)."""

    def __init__(self, core, path):
        self._core = core
        self.path = path

    @property
    def kernel_count(self):
        return self._core.kernel_count

    @property
    def tensor_count(self):
        return self._core.tensor_count

    @functools.cached_property
    def kernels(self):
        """One row per kernel: position, id, name, op, phase, job, duration_ns, workspace_bytes,
        inputs and outputs (tensor ids)."""
        return frame(self._core.kernel_table())

    @functools.cached_property
    def tensors(self):
        """One row per tensor: position, id, name, size_bytes, kind, job, persistent."""
        return frame(self._core.tensor_table())

    @functools.cached_property
    def _overview(self):
        summary, phases, kinds = self._core.overview()
        return record(summary), frame(phases), frame(kinds)

    def summary(self):
        """What ``spillway-cli info --json`` says, flat: counts, footprint, peak and its kernel..."""
        return dict(self._overview[0])

    @property
    def phases(self):
        """Kernels and time (time_ns) per phase."""
        return self._overview[1]

    @property
    def kinds(self):
        """Tensors and bytes (size_bytes) per kind."""
        return self._overview[2]

    @functools.cached_property
    def notes(self):
        """The importer's notes (iterations found, kind rules, warnings)."""
        return record(self._core.notes())

    @functools.cached_property
    def hash(self):
        """"sha256:..." of the canonical native JSON: the same profile has it from any format."""
        return self._core.hash()

    def __repr__(self):
        name = self._core.model or self.path
        return f"<spillway.Profile {name}: {self.kernel_count} kernels, {self.tensor_count} tensors>"


def _iteration_code(iteration):
    """--iteration's words: "steady" (0), "all" (-1) or K >= 1."""
    if iteration == "steady":
        return 0
    if iteration == "all":
        return -1
    if isinstance(iteration, int) and not isinstance(iteration, bool) and iteration >= 1:
        return iteration
    raise _spillway.InvalidArgument(
        f"expected a positive iteration number, 'all' or 'steady', got '{iteration}'")


def load_profile(path, format=None, batch=None, results=None, g10_workspace="fold", iteration="steady"):
    """Loads a profile as ``spillway-cli`` does (same options as its PROFILE arguments: --from,
    --batch, --results, --g10-workspace, --iteration) and checks it (a profile with problems is
    refused with the message ``spillway-cli`` prints; ``spillway.InputError``)."""
    if g10_workspace not in ("fold", "tensors"):
        raise _spillway.InvalidArgument(f"g10_workspace must be 'fold' or 'tensors', got '{g10_workspace}'")
    core = _spillway.load_profile(os.fspath(path), format=format or "", batch=batch,
                                  results=None if results is None else os.fspath(results),
                                  g10_workspaces_as_tensors=g10_workspace == "tensors",
                                  iteration=_iteration_code(iteration))
    return Profile(core, os.fspath(path))
