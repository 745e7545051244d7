#!/usr/bin/python3
"""Checks workload files against resources/schemas/spillway.workload-1.schema.json.

Usage: check_workload_schema.py SCHEMA FILE...

Validates every FILE (the bundled sample workloads) and makes sure the schema rejects an
unknown key, an unknown link mode and a job without iterations (so the check can fail).
"""
import copy
import json
import sys

import jsonschema


def main() -> int:
    schema_path, *files = sys.argv[1:]
    with open(schema_path, encoding="utf-8") as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    failures = 0
    docs = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        docs.append(doc)
        errors = list(validator.iter_errors(doc))
        for e in errors[:5]:
            print(f"FAIL {path}: /{'/'.join(map(str, e.path))}: {e.message}")
        failures += bool(errors)
        if not errors:
            print(f"ok   {path}")
    if not docs:
        print("FAIL no workload files given")
        return 1
    for change, what in ((lambda d: d.__setitem__("gpu", 1), "an unknown key"),
                         (lambda d: d.__setitem__("link_mode", "both"), "an unknown link mode"),
                         (lambda d: d["jobs"][0].pop("iterations"), "a job without iterations")):
        broken = copy.deepcopy(docs[0])
        change(broken)
        if validator.is_valid(broken):
            print(f"FAIL the schema accepted {what}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
