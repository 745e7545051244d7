#!/usr/bin/python3
"""Checks design sweeps against resources/schemas/spillway.sweep-1.schema.json and
spillway.sweep-cell-1.schema.json.

Usage: check_sweep_schema.py SWEEP_SCHEMA CELL_SCHEMA SPILLWAY_CLI SPEC [FINISHED_SWEEP...]

Validates SPEC (a sample spec) and every FINISHED_SWEEP (the one-parameter sweeps that share
the format id), runs `spillway-cli sweep SPEC` and validates every line it writes (a failed cell
among them), and makes sure the schemas reject an unknown key, an axis with two forms and a cell
line without its spec hash (so the check can fail).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def validator(path):
    with open(path, encoding="utf-8") as f:
        return jsonschema.Draft202012Validator(json.load(f))


def report(errors, what):
    for e in errors[:5]:
        print(f"FAIL {what}: /{'/'.join(map(str, e.path))}: {e.message}")
    if not errors:
        print(f"ok   {what}")
    return bool(errors)


def main() -> int:
    sweep_schema, cell_schema, cli, spec_path, *finished = sys.argv[1:]
    sweeps, cells = validator(sweep_schema), validator(cell_schema)
    failures = 0
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    failures += report(list(sweeps.iter_errors(spec)), spec_path)
    for path in finished:
        with open(path, encoding="utf-8") as f:
            failures += report(list(sweeps.iter_errors(json.load(f))), path)
    with tempfile.TemporaryDirectory() as tmp:
        # The sample spec with a GPU too small for any kernel added, so a failed cell is written too.
        bigger = copy.deepcopy(spec)
        bigger["axes"][0]["values"].append("1MiB")
        # Written elsewhere, so its profiles' paths become absolute (they are relative to the spec).
        here = os.path.dirname(os.path.abspath(spec_path))
        bigger["profiles"] = [os.path.join(here, p) for p in spec["profiles"]]
        run_spec = os.path.join(tmp, "check.sweep.json")
        with open(run_spec, "w", encoding="utf-8") as f:
            json.dump(bigger, f)
        out = os.path.join(tmp, "cells.jsonl")
        run = subprocess.run([cli, "sweep", run_spec, "--out", out], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL spillway-cli sweep: {run.stderr}")
            return 1
        with open(out, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f]
        failed = sum(1 for line in lines if not line["result"]["ok"])
        for line in lines:
            failures += report(list(cells.iter_errors(line)), f"cell {line.get('cell')}")
        if not failed:
            print("FAIL no failed cell was written to check")
            failures += 1
    checks = ((sweeps, spec, lambda d: d.__setitem__("axis", []), "an unknown key"),
              (sweeps, spec, lambda d: d["axes"][0].__setitem__("range", {"from": 1, "to": 2, "step": 1}),
               "an axis with two forms"),
              (cells, lines[0], lambda d: d.pop("spec_hash"), "a cell line without its spec hash"))
    for schema, doc, change, what in checks:
        broken = copy.deepcopy(doc)
        change(broken)
        if schema.is_valid(broken):
            print(f"FAIL the schema accepted {what}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
