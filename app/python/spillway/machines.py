"""Machines: the presets and ``--set`` keys of ``spillway-cli`` (``presets``, ``--hw``, ``--set``)."""
import os

from spillway import _spillway
from spillway.tables import frame

DEFAULT_PRESET = "g10-a100"  # spillway-cli's --hw default

Hardware = _spillway.Hardware
Hardware.__doc__ = "A machine: .id, .description, .values() (every key as --set spells it), .to_json()."


def presets():
    """The preset ids ``--hw`` takes."""
    return list(_spillway.preset_ids())


def hardware_keys():
    """Every key ``--set`` accepts: name, alias (the name without its unit), type, group, description."""
    return frame(_spillway.hardware_key_table())


def hardware(preset=DEFAULT_PRESET, set=None, **overrides):
    """A preset id or a spillway.hardware/1 file, with overrides applied in order, exactly as
    ``--hw PRESET --set key=value ...``: ``set`` is a dict (or a list of "key=value" strings) for
    any key, dotted ones included (``{"ssd.bandwidth": "6.4GB/s"}``); keyword arguments are keys
    without dots (``gpu_capacity="20GiB"``). Values are strings with units or plain numbers
    (bytes, bytes/s, ns)."""
    assignments = []
    if isinstance(set, dict):
        assignments += [f"{key}={value}" for key, value in set.items()]
    elif set is not None:
        assignments += list(set)
    assignments += [f"{key}={value}" for key, value in overrides.items()]
    return _spillway.hardware(os.fspath(preset), assignments)

