#!/usr/bin/python3
"""Checks exported plans against resources/schemas/spillway.plan-1.schema.json.

Usage: check_plan_schema.py PLAN_SCHEMA HARDWARE_SCHEMA CLI PROFILE

Exports PROFILE with `spillway-cli plan --export` under several policies, orders and placements,
validates each file (and its /hardware against the hardware schema), adds every field the
planners leave out (advise directives with each advice, after_kernel, delay_ns) and checks that
the schema and `spillway-cli verify` both accept the result, and makes sure the schema rejects
broken plans (so the check can fail).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

ADVICE = ["set-read-mostly", "unset-read-mostly", "set-preferred-location",
          "unset-preferred-location", "set-accessed-by", "unset-accessed-by"]


def main() -> int:
    plan_schema_path, hardware_schema_path, cli, profile = sys.argv[1:]
    with open(plan_schema_path, encoding="utf-8") as f:
        plans = jsonschema.Draft202012Validator(json.load(f))
    with open(hardware_schema_path, encoding="utf-8") as f:
        hardware = jsonschema.Draft202012Validator(json.load(f))
    failures = 0

    def check(name, doc, expect_valid=True):
        nonlocal failures
        errors = list(plans.iter_errors(doc)) + list(hardware.iter_errors(doc.get("hardware", {})))
        if expect_valid:
            for e in errors[:5]:
                print(f"FAIL {name}: /{'/'.join(map(str, e.path))}: {e.message}")
            failures += bool(errors)
            if not errors:
                print(f"ok   {name}")
        elif not errors:
            print(f"FAIL the schema accepted {name}")
            failures += 1

    with tempfile.TemporaryDirectory() as tmp:
        variants = [["--policy", "uvm", "--order", "program", "--placement", "none"],
                    ["--policy", "g10+discard", "--order", "roam", "--placement", "best"],
                    ["--policy", "deepum", "--order", "lescea", "--placement", "greedy-by-size"],
                    ["--policy", "most", "--no-faults", "--placement", "llfb"]]
        docs = {}
        for i, args in enumerate(variants):
            out = os.path.join(tmp, f"plan{i}.json")
            run = subprocess.run([cli, "plan", profile, *args, "--export", out], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAIL plan {' '.join(args)}: exit {run.returncode}: {run.stderr.strip()}")
                failures += 1
                continue
            with open(out, encoding="utf-8") as f:
                docs[" ".join(args)] = json.load(f)
        for name, doc in docs.items():
            check(name, doc)
        if not docs:
            return 1

        # Every optional field the planners do not write, on the first plan.
        full = copy.deepcopy(next(iter(docs.values())))
        tensor = full["arena"][0]["tensor"] if full.get("arena") else 0
        for i, advice in enumerate(ADVICE):
            full["directives"].append({"at": i % len(full["order"]), "kind": "advise", "tensor": tensor,
                                       "target": "host" if "accessed" in advice else "gpu", "advice": advice,
                                       "after_kernel": i % 2 == 1, "delay_ns": 1000 * i})
        check("every advice, after_kernel and delay_ns", full)
        path = os.path.join(tmp, "full.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(full, f)
        run = subprocess.run([cli, "verify", path, profile], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL spillway-cli verify refused what the schema accepts: {run.stderr.strip()}")
            failures += 1
        else:
            print("ok   spillway-cli verify reads it")

    sample = next(iter(docs.values()))
    broken = [
        ("an unknown key", lambda d: d.__setitem__("extra", 1)),
        ("a malformed hash", lambda d: d["profile"].__setitem__("hash", "sha256:xyz")),
        ("an advise without advice", lambda d: d["directives"].append(
            {"at": 0, "kind": "advise", "tensor": 0, "target": "gpu"})),
        ("an advice on a prefetch", lambda d: d["directives"].append(
            {"at": 0, "kind": "prefetch", "tensor": 0, "target": "gpu", "advice": "set-read-mostly"})),
        ("a pre-evict to the GPU", lambda d: d["directives"].append(
            {"at": 0, "kind": "pre-evict", "tensor": 0, "target": "gpu"})),
        ("a negative delay", lambda d: d["directives"].append(
            {"at": 0, "kind": "free", "tensor": 0, "target": "gpu", "delay_ns": -1})),
        ("an unknown memory model", lambda d: d.__setitem__("memory_model", "paged")),
        ("a missing allow_faults", lambda d: d.pop("allow_faults")),
    ]
    for what, change in broken:
        doc = copy.deepcopy(sample)
        change(doc)
        check(what, doc, expect_valid=False)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
