#!/usr/bin/env python3
"""Tests scripts/check-floors: on small made-up trees it must refuse an include that runs back up,
a loop of files, a loop of units (header + .cpp) and a folder on no floor, and accept a clean
tree; then it must accept the real tree (argument: the source root)."""
import os
import subprocess
import sys
import tempfile

ROOT = sys.argv[1]
CHECK = os.path.join(ROOT, "scripts", "check-floors")


def tree(files):
    d = tempfile.mkdtemp()
    for path, text in files.items():
        os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as f:
            f.write(text)
    return d


def check(files):
    r = subprocess.run([sys.executable, CHECK, tree(files)], capture_output=True, text=True)
    return r.returncode, r.stdout


failures = []


def expect(name, files, code, words):
    got, out = check(files)
    if got != code or words not in out:
        failures.append(f"{name}: exit {got}, wanted {code} with '{words}'; output:\n{out}")


clean = {"core/trace/profile.h": "", "core/sim/simulator.h": '#include "core/trace/profile.h"\n'}
expect("clean tree", clean, 0, "every include goes down")
expect("include back up", {**clean, "core/trace/profile.cpp": '#include "core/sim/simulator.h"\n'}, 1,
       "core/trace/profile.cpp: includes core/sim/simulator.h")
expect("same-floor include", {**clean, "core/sqlite/db.h": '#include "core/trace/profile.h"\n'}, 1,
       "not below core/sqlite")
expect("file loop", {"core/sim/a.h": '#include "core/sim/b.h"\n', "core/sim/b.h": '#include "core/sim/a.h"\n'}, 1,
       "files include each other in a loop: core/sim/a.h -> core/sim/b.h")
expect("unit loop", {"core/sim/a.h": "", "core/sim/b.h": "", "core/sim/a.cpp": '#include "core/sim/b.h"\n',
                     "core/sim/b.cpp": '#include "core/sim/a.h"\n'}, 1,
       "units (header + .cpp) include each other in a loop: core/sim/a -> core/sim/b")
expect("unknown folder", {"core/attic/old.h": ""}, 1, "core/attic/old.h: its folder core/attic is on no floor")

real = subprocess.run([sys.executable, CHECK, ROOT], capture_output=True, text=True)
if real.returncode != 0:
    failures.append("the real tree:\n" + real.stdout)
checks = 7
for f in failures:
    print("FAIL", f)
print(f"{checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
