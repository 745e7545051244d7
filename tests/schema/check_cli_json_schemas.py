#!/usr/bin/python3
"""Checks every JSON output of spillway-cli against the schema its format id names.

Usage: check_cli_json_schemas.py SCHEMA_DIR SPILLWAY_CLI SOURCE_DIR

Runs each command that takes --json (on the tiny-MLP fixture, the bundled workload sample and a
made-up minimalloc CSV), once with `--json -` and once with `--json FILE`, and checks that:
- the document's "format" is "spillway.<thing>/<version>" and SCHEMA_DIR has
  spillway.<thing>-<version>.schema.json, which validates it;
- "tool" is {"name": "spillway-cli", "version": what `spillway-cli --version` prints};
- "profile_hash" (where a profile is involved) is the profile's hash, the same for every command;
- stdout and the file hold the same document, and a bare `--json` still means stdout;
- every command whose --help offers --json is covered here (so a new one cannot go unchecked);
- the Chrome trace's otherData carries the same header, and each schema rejects a document
  without its format (so the check can fail).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema


def main() -> int:
    schema_dir, cli, source = sys.argv[1:4]
    tiny = os.path.join(source, "tests/fixtures/profiles/tiny-mlp.profile.json")
    workload = os.path.join(source, "samples/workloads/resnet18-x2.workload.json")
    version = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    failures = []
    hashes = set()

    def check_doc(doc, what, header=None):
        header = doc if header is None else header
        fmt = header.get("format", "")
        m = re.fullmatch(r"spillway\.([a-z0-9-]+)/([0-9]+)", fmt)
        if not m:
            failures.append(f"{what}: format {fmt!r} is not spillway.<thing>/<version>")
            return
        path = os.path.join(schema_dir, f"spillway.{m.group(1)}-{m.group(2)}.schema.json")
        if not os.path.exists(path):
            failures.append(f"{what}: no schema {os.path.basename(path)}")
            return
        with open(path, encoding="utf-8") as f:
            validator = jsonschema.Draft202012Validator(json.load(f))
        for e in list(validator.iter_errors(doc))[:5]:
            failures.append(f"{what}: {fmt}: /{'/'.join(map(str, e.path))}: {e.message}")
        if header.get("tool") != {"name": "spillway-cli", "version": version}:
            failures.append(f"{what}: tool is {header.get('tool')!r}")
        if "profile_hash" in header:
            hashes.add(header["profile_hash"])
        broken = dict(doc)
        broken.pop("format" if header is doc else "traceEvents")
        if validator.is_valid(broken):
            failures.append(f"{what}: {os.path.basename(path)} accepts a document without its format")
        print(f"ok   {what}: {fmt}")

    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "toy.csv")
        with open(csv, "w", encoding="utf-8") as f:
            f.write("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,2\n")
        placed = os.path.join(tmp, "placed.csv")
        runs = {
            "info": (["info", tiny], 0),
            "validate": (["validate", tiny], 0),
            "formats": (["formats"], 0),
            "presets": (["presets"], 0),
            "simulate": (["simulate", tiny, "--policy", "g10"], 0),
            "simulate workload": (["simulate", workload, "--policy", "none"], 0),
            "compare": (["compare", tiny, "--policies", "uvm,g10"], 0),
            "sweep": (["sweep", tiny, "--param", "gpu_capacity", "--values", "1GiB,2GiB", "--policies", "uvm"], 0),
            "layout": (["layout", "--csv", csv, "--solver", "greedy-by-size", "-o", placed], 0),
            "layout check": (["layout", "--csv", placed], 0),
            "plan": (["plan", tiny], 0),
            "bench": (["bench", "--skip-import", "--sim-workload", tiny, "--policies", "uvm", "--sim-repeat", "1"], 0),
            "error": (["simulate", tiny, "--set", "bogus=1"], 2),
        }
        for what, (args, code) in runs.items():
            out = os.path.join(tmp, what.replace(" ", "-") + ".json")
            to_file = subprocess.run([cli, *args, "--json", out], capture_output=True, text=True)
            to_stdout = subprocess.run([cli, *args, "--json", "-"], capture_output=True, text=True)
            if to_file.returncode != code or to_stdout.returncode != code:
                failures.append(f"{what}: exit {to_file.returncode}/{to_stdout.returncode}, expected {code}: "
                                f"{to_stdout.stderr.strip()}")
                continue
            try:
                doc = json.loads(to_stdout.stdout)
                with open(out, encoding="utf-8") as f:
                    from_file = json.load(f)
            except (ValueError, OSError) as e:
                failures.append(f"{what}: {e}")
                continue
            # Timings differ from run to run; everything else must be the same.
            if what not in ("bench", "plan", "layout") and from_file != doc:
                failures.append(f"{what}: --json FILE and --json - wrote different documents")
            check_doc(doc, what)
        # A bare --json, last on the line, is still stdout (it was a flag before issue 20).
        bare = subprocess.run([cli, "info", tiny, "--json"], capture_output=True, text=True)
        if json.loads(bare.stdout or "{}").get("format") != "spillway.info/1":
            failures.append("a bare --json no longer prints the JSON")
        trace = os.path.join(tmp, "run.trace.json")
        subprocess.run([cli, "simulate", tiny, "--policy", "uvm", "--chrome-trace", trace], capture_output=True,
                       check=True)
        with open(trace, encoding="utf-8") as f:
            doc = json.load(f)
        check_doc(doc, "simulate --chrome-trace", header=doc.get("otherData", {}))

    if len(hashes) != 1:
        failures.append(f"profile hashes differ between commands on one profile: {sorted(hashes)}")
    # Every command that offers --json is in the list above.
    listing = subprocess.run([cli, "--help"], capture_output=True, text=True).stdout
    commands = re.findall(r"^  ([a-z]+)\s", listing[listing.find("Subcommands:"):], re.M)
    if len(commands) < 10:
        failures.append(f"found only {commands} in `spillway-cli --help`")
    for command in commands:
        helptext = subprocess.run([cli, command, "--help"], capture_output=True, text=True).stdout
        if "--json" in helptext and not any(args[0] == command for args, _ in runs.values()):
            failures.append(f"`spillway-cli {command}` offers --json, but this check does not run it")
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
