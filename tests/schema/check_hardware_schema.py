#!/usr/bin/python3
"""Checks hardware files against resources/schemas/spillway.hardware-1.schema.json.

Usage: check_hardware_schema.py SCHEMA CLI FILE...

Validates every FILE given (the bundled presets) and what `spillway-cli presets ID --json`
writes for each preset, and makes sure the schema rejects an unknown key and a value with an
unknown unit (so the check can fail).
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
    for change, what in ((lambda d: d.__setitem__("gpu_capacity", 1), "an unknown key"),
                         (lambda d: d["ssd_to_gpu"].__setitem__("bytes_per_s", "3.2GB"), "a bandwidth without /s"),
                         (lambda d: d.__setitem__("fault_model", "exact"), "an unknown fault model")):
        broken = copy.deepcopy(sample)
        change(broken)
        if validator.is_valid(broken):
            print(f"FAIL the schema accepted {what}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
