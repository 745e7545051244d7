#!/usr/bin/python3
"""Checks native profiles against resources/schemas/spillway.profile-1.schema.json.

Usage: check_profile_schema.py SCHEMA CLI SHARED_DATA FILE...

Validates every FILE given, plus a fresh `spillway-cli convert` of G10's BERT workload, and
makes sure the schema rejects a profile with a wrong kind (so the check can fail).
"""
import copy
import json
import subprocess
import sys
import tempfile

import jsonschema


def main() -> int:
    schema_path, cli, shared, *files = sys.argv[1:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0

    with tempfile.TemporaryDirectory() as tmp:
        converted = f"{tmp}/bert.json"
        subprocess.run([cli, "convert", f"{shared}/g10/derived/BERT_Base_256", "-o", converted],
                       check=True, capture_output=True)
        files.append(converted)
        checked = None
        for path in files:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
            for e in errors[:5]:
                print(f"FAIL {path}: /{'/'.join(map(str, e.path))}: {e.message}")
            failures += bool(errors)
            if not errors:
                print(f"ok   {path}")
                checked = doc

    if checked is None or not checked["tensors"]:
        print("FAIL no valid profile with tensors to mutate")
        return 1
    broken = copy.deepcopy(checked)
    broken["tensors"][0]["kind"] = "not-a-kind"
    if validator.is_valid(broken):
        print("FAIL the schema accepted a tensor kind outside the enum")
        failures += 1
    broken = copy.deepcopy(checked)
    broken["kernels"][0]["surprise"] = 1
    if validator.is_valid(broken):
        print("FAIL the schema accepted an unknown kernel field")
        failures += 1
    print(f"{len(files) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
