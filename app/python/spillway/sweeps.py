"""Design sweeps (``spillway.sweep/1`` specs, docs/scale.md): ``spillway-cli sweep SPEC.json
[--shard K/N] [--out FILE]`` and ``sweep merge --csv`` from Python."""
import io
import json
import os
import tempfile

import pandas

from spillway import _spillway


class SweepSpec:
    """A spec as the core reads it: .path, .profiles, .policies, .hardware (the base machine's
    id), .axes ({key with unit: values in the base unit}), .samples (or None), .cell_count, and
    .cells(): the settings of each cell (profile, policy, every axis key), in enumeration order."""

    def __init__(self, path, document):
        self.path = path
        self.label = document["label"]
        self.profiles = document["profiles"]
        self.policies = document["policies"]
        self.hardware = document["hardware"]
        self.axes = {axis["key"]: axis["values"] for axis in document["axes"]}
        self.samples = document["samples"]
        self.cell_count = document["cell_count"]

    def cells(self, limit=None):
        """One row per cell (the first `limit`; all by default): cell id and settings."""
        count = self.cell_count if limit is None else min(limit, self.cell_count)
        document = json.loads(_spillway.sweep_spec_json(self.path, count))
        return pandas.DataFrame(document["cells"])

    def __repr__(self):
        return f"<spillway.SweepSpec {self.label}: {self.cell_count} cells>"


def read_sweep(path):
    """Reads and checks a spec (the profiles are not opened); errors as ``spillway-cli sweep``'s."""
    path = os.fspath(path)
    return SweepSpec(path, json.loads(_spillway.sweep_spec_json(path, 0)))


def _shard_text(shard):
    if shard is None:
        return ""
    if isinstance(shard, str):
        return shard
    index, count = shard
    return f"{index}/{count}"


def run_sweep(spec, shard=None, results=None, threads=0):
    """Runs a spec's cells (shard "K/N" or (K, N): those whose index is K modulo N) on all cores
    (or `threads`) and returns them as ``spillway-cli sweep merge --csv`` tables them: one row per
    cell, sorted by id; cell, settings, ok, the result numbers (units in the names), error.
    `results`: a results file to write (and resume, if it exists) as ``--out``; by default a
    temporary one."""
    path = spec.path if isinstance(spec, SweepSpec) else os.fspath(spec)
    if results is not None:
        _spillway.run_sweep_shard(path, os.fspath(results), _shard_text(shard), threads)
        return merge_sweep_results([results])
    with tempfile.TemporaryDirectory(prefix="spillway-sweep-") as folder:
        out = os.path.join(folder, "cells.jsonl")
        _spillway.run_sweep_shard(path, out, _shard_text(shard), threads)
        return merge_sweep_results([out])


def merge_sweep_results(files):
    """Results files of a sweep's shards as one table (``spillway-cli sweep merge --csv``)."""
    table = _spillway.merged_sweep_table([os.fspath(f) for f in files])
    return pandas.read_csv(io.StringIO(table))
