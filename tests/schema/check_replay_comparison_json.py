#!/usr/bin/python3
"""spillway-replay --json (spillway.replay-comparison/1) against its schema, on a recorded H200
replay (tests/fixtures/replays/h200-fixed-runtime): `--json FILE` beside the text and `--json -`
alone on stdout hold the same document; the schema validates it and rejects it without its
format; the numbers hold together (the kernels' errors are the breakdown's, every kernel is in
one part); kernel 88 is the one the model misses for its refilled 4 MiB output; and --json
without a comparison with the model is refused.

Usage: check_replay_comparison_json.py SCHEMA_DIR SPILLWAY_REPLAY SOURCE_DIR SHARED_DATA
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def main() -> int:
    schema_dir, replay, source, shared = sys.argv[1:5]
    plan = os.path.join(shared, "h200/replays/gpt-g10.plan.json")
    if not os.path.exists(plan):
        print("SKIP: ../shared/data/h200/replays is not beside the checkout")
        return 0
    fixtures = os.path.join(source, "tests/fixtures/replays/h200-fixed-runtime")
    profile = os.path.join(source, "samples/lessons/small-gpt.profile.json")
    base = [replay, plan, profile, "--resimulate", os.path.join(fixtures, "g10-managed-1.measured.json.gz"),
            "--machine", os.path.join(fixtures, "machine.hardware.json")]
    with open(os.path.join(schema_dir, "spillway.replay-comparison-1.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "comparison.json")
        text = subprocess.run(base + ["--json", path], capture_output=True, text=True, check=True).stdout
        if "where the difference is" not in text:
            failures.append("--json FILE dropped the text report")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        alone = json.loads(subprocess.run(base + ["--json", "-"], capture_output=True, text=True, check=True).stdout)
        if alone != doc:
            failures.append("--json - and --json FILE differ")
        refused = subprocess.run([replay, plan, profile, "--backend", "host", "-o", os.path.join(tmp, "m.json"),
                                  "--json", path], capture_output=True, text=True)
        if refused.returncode != 2 or "--json needs a comparison" not in refused.stderr:
            failures.append(f"--json without the model accepted: {refused.returncode} {refused.stderr!r}")
    jsonschema.validate(doc, schema)
    try:
        jsonschema.validate({k: v for k, v in doc.items() if k != "format"}, schema)
        failures.append("the schema accepts a document without its format")
    except jsonschema.ValidationError:
        pass
    parts = doc["breakdown"]
    if sum(p["kernels"] for p in parts) != len(doc["kernels"]):
        failures.append("a kernel is in no part of the breakdown, or in two")
    kernel_sum = sum(k["error_ns"] for k in doc["kernels"])
    part_sum = sum(p["run_error_ns"] + p["wait_error_ns"] for p in parts)
    if kernel_sum != part_sum:
        failures.append(f"the kernels' errors ({kernel_sum}) are not the breakdown's ({part_sum})")
    k88 = doc["kernels"][88]
    if not (k88["refilled_bytes"] == 4 << 20 and k88["run_error_ns"] > 6_000_000 and "does not predict" in k88["why"]):
        failures.append(f"kernel 88: {k88}")
    if doc["arena"] != "managed" or doc["plan"]["policy"] != "g10" or doc["iteration"] != 2:
        failures.append("plan, arena or iteration wrong")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
