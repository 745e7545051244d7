#!/usr/bin/env python3
"""Makes a big PyTorch memory snapshot out of a real one, for the snapshot import benchmark.

    python3 tests/bench/make_repeated_snapshot.py SOURCE.pickle REPEATS OUT.pickle

Loads SOURCE (a torch.cuda.memory._dump_snapshot pickle) with Python's pickle and repeats the
trace of every device REPEATS times, each copy shifted in time by the span of the original
trace (plus 1 us), so the result reads like a longer recording of the same iterations.

It keeps the sharing PyTorch's file has, because the importer's cost depends on it:
  - frame dicts stay the same Python objects in every copy (the pickle memo writes each once
    and refers to it by BINGET afterwards, as in the real file);
  - each copy gets its own frame lists and its own event dicts (new objects, as a longer
    recording would have), but two events that shared one list in the original share one list
    in the copy too (PyTorch gives a free the list of its alloc).
Segments, allocator settings and other keys are kept as they are. The protocol is the one of
SOURCE (PyTorch writes pickle.DEFAULT_PROTOCOL). Write the output under /tmp, never in the repo.
"""
import pickle
import pickletools
import sys


def source_protocol(data):
    for op, arg, _ in pickletools.genops(data):
        if op.name == "PROTO":
            return arg
        break
    return pickle.DEFAULT_PROTOCOL


def repeat_trace(trace, repeats):
    times = [e["time_us"] for e in trace if isinstance(e.get("time_us"), int)]
    span = (max(times) - min(times) + 1) if times else 0
    out = []
    for r in range(repeats):
        lists = {}  # id(original frame list) -> its copy for this repeat
        for e in trace:
            c = dict(e)
            if r and "time_us" in c:
                c["time_us"] = e["time_us"] + r * span
            frames = e.get("frames")
            if isinstance(frames, list) and r:
                key = id(frames)
                if key not in lists:
                    lists[key] = list(frames)  # same frame dict objects, a new list
                c["frames"] = lists[key]
            out.append(c)
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, repeats, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(source, "rb") as f:
        data = f.read()
    snapshot = pickle.loads(data)
    snapshot["device_traces"] = [repeat_trace(t, repeats) for t in snapshot["device_traces"]]
    with open(target, "wb") as f:
        pickle.dump(snapshot, f, protocol=source_protocol(data))


if __name__ == "__main__":
    main()
