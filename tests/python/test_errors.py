"""Errors from Python are exceptions carrying the message spillway-cli prints after "error: "."""
import pytest

import spillway
from conftest import SMALL_GPT


def cli_error(cli, *args):
    done = cli(*args, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ")
    return done.stderr[len("error: "):].strip()


def test_a_broken_file_names_the_file(tmp_path, cli):
    broken = tmp_path / "broken.profile.json"
    broken.write_text('{"format": "spillway.profile/1", "kernels": [')
    with pytest.raises(spillway.InputError) as caught:
        spillway.load_profile(broken)
    assert str(broken) in str(caught.value)
    assert caught.value.file == str(broken)
    assert isinstance(caught.value, spillway.Error) and isinstance(caught.value, RuntimeError)
    assert str(caught.value) == cli_error(cli, "info", broken)


def test_a_missing_file_is_an_input_error(tmp_path, cli):
    missing = tmp_path / "nowhere.json"
    with pytest.raises(spillway.InputError) as caught:
        spillway.load_profile(missing)
    assert str(caught.value) == cli_error(cli, "info", missing)


def test_unknown_names_and_bad_values_are_value_errors(cli):
    with pytest.raises(ValueError) as preset:
        spillway.hardware("a100-typo")
    assert str(preset.value) == cli_error(cli, "presets", "a100-typo")
    with pytest.raises(spillway.InvalidArgument) as key:
        spillway.hardware(set={"gpu_capacityy": "1GiB"})
    assert str(key.value) == cli_error(cli, "presets", "g10-a100", "--set", "gpu_capacityy=1GiB")
    with pytest.raises(spillway.InvalidArgument, match="gpu_capacity"):
        spillway.hardware(gpu_capacity="lots")
    profile = spillway.load_profile(SMALL_GPT)
    with pytest.raises(spillway.InvalidArgument, match="unknown policy"):
        spillway.simulate(profile, policy="g11")
    with pytest.raises(spillway.InvalidArgument, match="placement"):
        spillway.layout(profile, order="program", placement="tetris")


def test_wrong_argument_types_stay_type_errors():
    # pybind11's own errors are not turned into spillway.Error.
    with pytest.raises(TypeError):
        spillway.hardware(set={"gpu_capacity": "1GiB"}).values(42)
