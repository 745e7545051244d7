"""What the Python tests share: the built spillway-cli to compare with (SPILLWAY_CLI, set by CTest)
and the repository's samples. CTest puts the built package on PYTHONPATH (tests/CMakeLists.txt)."""
import json
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
SMALL_GPT = SOURCE_DIR / "samples" / "lessons" / "small-gpt.profile.json"
VGG_TRACE = SOURCE_DIR / "samples" / "torch" / "vgg16-b2-cpu.trace.json"


@pytest.fixture(scope="session")
def cli():
    """Runs spillway-cli with the arguments; returns the completed process (text)."""
    path = os.environ.get("SPILLWAY_CLI")
    if not path:
        pytest.skip("SPILLWAY_CLI is not set (CTest sets it to the built spillway-cli)")

    def run(*args, check=True):
        done = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"spillway-cli {' '.join(map(str, args))} failed: {done.stderr}")
        return done

    run.path = path
    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """spillway-cli's JSON on stdout, parsed."""
    return lambda *args: json.loads(cli(*args).stdout)
