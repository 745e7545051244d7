#!/usr/bin/python3
"""Checks hardware files against resources/schemas/spillway.hardware-1.schema.json.

Usage: check_hardware_schema.py SCHEMA CLI FILE...

Validates every FILE given (the bundled presets) and what `spillway-cli presets ID --json`
writes for each preset, and makes sure the schema rejects an unknown key, a value with an
unknown unit and broken measured transfer curves (so the check can fail).
"""
import copy
import json
import subprocess
import sys

import jsonschema


def main() -> int:
    schema_path, cli, *files = sys.argv[1:]
    with open(schema_path, encoding="utf-8") as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    docs = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            docs[path] = json.load(f)
    listing = json.loads(subprocess.run([cli, "presets", "--json"], check=True, capture_output=True).stdout)
    for preset in listing["presets"]:
        out = subprocess.run([cli, "presets", preset["id"], "--json"], check=True, capture_output=True).stdout
        docs[f"presets {preset['id']} --json"] = json.loads(out)

    failures = 0
    for name, doc in docs.items():
        errors = list(validator.iter_errors(doc))
        for e in errors[:5]:
            print(f"FAIL {name}: /{'/'.join(map(str, e.path))}: {e.message}")
        failures += bool(errors)
        if not errors:
            print(f"ok   {name}")

    sample = next(iter(docs.values()))
    # A file with measured transfer curves (h200), to break them too.
    measured = next((d for d in docs.values() if "transfers" in d), None)
    if measured is None:
        print("FAIL no preset has \"transfers\": the curves' schema is not exercised")
        failures += 1
        measured = copy.deepcopy(sample)
        measured["transfers"] = {"host_to_gpu": {"pinned_copy": {"points": [["2MiB", "10GB/s"]]}}}
    to_gpu = lambda d: d["transfers"]["host_to_gpu"]
    first_curve = lambda d: next(iter(to_gpu(d).values()))
    breaks = ((sample, lambda d: d.__setitem__("gpu_capacity", 1), "an unknown key"),
              (sample, lambda d: d["ssd_to_gpu"].__setitem__("bytes_per_s", "3.2GB"), "a bandwidth without /s"),
              (sample, lambda d: d.__setitem__("fault_model", "exact"), "an unknown fault model"),
              (sample, lambda d: d.__setitem__("kernel_launch_ns", "7.7 minutes"), "a launch time without a unit"),
              (measured, lambda d: to_gpu(d).__setitem__("dma_copy", first_curve(d)), "an unknown mechanism"),
              (measured, lambda d: d["transfers"].__setitem__("both_ways", {}), "an unknown direction"),
              (measured, lambda d: first_curve(d)["points"].append(["2MiB"]), "a point that is not a pair"),
              (measured, lambda d: first_curve(d)["points"].append(["2MiB", "1GB"]), "a rate without /s"),
              (measured, lambda d: first_curve(d).__setitem__("points", []), "a curve without points"),
              (measured, lambda d: first_curve(d).__setitem__("slope", 1), "an unknown curve key"),
              (measured, lambda d: d["transfers"].__setitem__("duplex", {"pinned_copy": "no"}), "a duplex that is not true/false"))
    for doc, change, what in breaks:
        broken = copy.deepcopy(doc)
        change(broken)
        if validator.is_valid(broken):
            print(f"FAIL the schema accepted {what}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
