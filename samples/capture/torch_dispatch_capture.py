#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Capture one training iteration with its real data flow and write spillway.profile/1 directly.

torch_capture.py records allocations and frees with torch.profiler, so a kernel only "sees" the
blocks allocated or freed while it runs: weights are never read, activations only written and
freed. This script instead runs the iteration under a TorchDispatchMode, which is handed every
aten op after autograd with its actual tensor arguments, and records for each op:

  inputs   the tensors it reads (its tensor arguments, lists of tensors included)
  outputs  the tensors it writes: the results, plus arguments its schema marks as written
           (in-place ops such as add_, mul_, the optimizer's updates)

A tensor is a storage, not a view: views share their base's storage and so its tensor, and the
tensor's bytes are the storage's nbytes. A result whose storage is not among the op's arguments
was freshly allocated, so it is a new tensor even when the allocator reused a freed address.
Ops that only make views (view, t, detach, expand, ...) launch no GPU kernel and are not kernels.

Kinds: model parameters are weights, their .grad gradients, SGD's momentum buffers
optimizer_state, the batch and labels inputs, everything else activation (read after the op that
made it) or temporary (never read). Weights and momentum buffers are persistent. Gradients are
not: zero_grad(set_to_none=True) frees them in every iteration.

One warm-up iteration runs first, outside the mode, so the momentum buffers exist and the captured
iteration is a steady-state one (the first SGD step allocates them with clone instead of updating).

Durations: the measured CPU time of each op, and an estimated GPU time from a roofline of a named
device (see GPUS): time = max(flops / peak_flops, bytes / bandwidth) + launch overhead, with the
FLOPs of convolution, convolution_backward, mm, addmm and bmm computed from shapes and, for every
other op, only the bytes it reads and writes. --durations picks which one goes into duration_ns;
the other is kept in the profile's metadata notes (per-phase totals).

--durations cuda runs the iteration (and its warm-up) on the CUDA device instead and measures each
op's GPU time: a pair of torch.cuda.Event(enable_timing=True) recorded on the current stream just
before and just after the op, one synchronisation at the end of the iteration, then every
elapsed_time read. Nothing is added to these times (no launch overhead). An event pair times
everything the stream does between the two records, so when the host launches slower than the GPU
runs, the GPU would sit idle after the start event until the op's kernel arrives and that wait
would be counted. To keep it out, a short GPU sleep (torch.cuda._sleep, --cuda-guard-us, 100 us by
default) is queued before each start event: while it runs, the host queues the start event, the
op's kernels and the end event, so they run back to back. Ops whose host time between the two
records exceeded the guard are counted in the notes (their times may include such waits). The
roofline estimate and the host (CPU) time of each op stay in the notes as per-phase totals.
"""

import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F
import torchvision
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_capture import CLASSES, IMAGE_SIZE, MODELS  # noqa: E402  (same models and input)

# Peak FP32 throughput (FLOP/s) and memory bandwidth (bytes/s) from the vendors' specifications.
GPUS = {
    # NVIDIA Turing whitepaper (GeForce RTX 2080 Ti, reference clocks): 4352 CUDA cores at
    # 1545 MHz boost = 13.4 TFLOPS FP32; 11 GB GDDR6, 352-bit at 14 Gbps = 616 GB/s.
    "rtx2080ti": {"name": "NVIDIA GeForce RTX 2080 Ti (roofline estimate)",
                  "flops": 13.4e12, "bandwidth": 616e9},
    # NVIDIA V100 datasheet (SXM2): 15.7 TFLOPS FP32, HBM2 900 GB/s.
    "v100": {"name": "NVIDIA V100 SXM2 (roofline estimate)", "flops": 15.7e12, "bandwidth": 900e9},
    # NVIDIA A100 datasheet (40 GB SXM): 19.5 TFLOPS FP32 (no TF32), HBM2 1555 GB/s.
    "a100": {"name": "NVIDIA A100 40GB SXM (roofline estimate)", "flops": 19.5e12,
             "bandwidth": 1555e9},
}
# A CUDA kernel launch costs a few microseconds whatever it does (the usual 3-10 us measured for
# an empty kernel plus the framework's dispatch); 5 us is the middle of that range.
LAUNCH_OVERHEAD_NS = 5000

PHASES = ("forward", "loss", "backward", "optimizer")


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Record every aten op of one training iteration (forward, loss, backward, SGD "
                    "momentum step) of a torchvision model with its tensors and write a "
                    "spillway.profile/1 file.",
        epilog="Example: torch_dispatch_capture.py --model vgg16 --batch 2 --gpu rtx2080ti "
               "--output vgg16-b2-2080ti.profile.json")
    parser.add_argument("--model", choices=sorted(MODELS), default="vgg16",
                        help="torchvision model with random weights (default: vgg16)")
    parser.add_argument("--batch", type=int, default=2, help="batch size (default: 2)")
    parser.add_argument("--output", required=True, help="spillway.profile/1 file to write")
    parser.add_argument("--gpu", choices=sorted(GPUS), default="rtx2080ti",
                        help="device of the roofline estimate (default: rtx2080ti)")
    parser.add_argument("--durations", choices=["gpu-estimate", "cpu", "cuda"],
                        default="gpu-estimate",
                        help="what goes into duration_ns: the roofline estimate for --gpu, the "
                             "measured CPU time, or the measured GPU time on the CUDA device "
                             "(default: gpu-estimate)")
    parser.add_argument("--cuda-guard-us", type=float, default=100.0,
                        help="with --durations cuda: GPU sleep queued before each op's start "
                             "event, so host launch gaps are not timed; 0 = none (default: 100)")
    parser.add_argument("--lr", type=float, default=0.01, help="SGD learning rate (default: 0.01)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    args = parser.parse_args(argv)
    if args.batch < 1:
        parser.error("--batch must be at least 1")
    if args.cuda_guard_us < 0:
        parser.error("--cuda-guard-us must not be negative")
    if args.durations == "cuda" and not torch.cuda.is_available():
        # As spillway-replay and spillway-calibrate do without a GPU.
        print("torch_dispatch_capture.py: --durations cuda: no CUDA device found "
              "(torch.cuda.is_available() is False)", file=sys.stderr)
        sys.exit(3)
    return args


# ---- roofline ----------------------------------------------------------------------------------

def _numel(shape):
    n = 1
    for d in shape:
        n *= int(d)
    return n


def _conv_flops(x_shape, w_shape, out_shape, transposed):
    # Each output element of a (grouped) convolution is a dot product over w[1:] = Cin/groups*k*k.
    # A transposed convolution does the same work as the forward one it transposes.
    if transposed:
        return 2 * _numel(x_shape) * _numel(w_shape[1:])
    return 2 * _numel(out_shape) * _numel(w_shape[1:])


def op_flops(func, args, out):
    """Multiply-add work of the compute-bound ops, from shapes; 0 for the others."""
    name = func.overloadpacket.__name__
    if name == "convolution":
        x, w = args[0], args[1]
        return _conv_flops(x.shape, w.shape, out.shape, bool(args[6]))
    if name == "convolution_backward":
        grad_out, x, w = args[0], args[1], args[2]
        mask = args[10]
        one = _conv_flops(x.shape, w.shape, grad_out.shape, bool(args[7]))
        # grad_input and grad_weight each cost one forward convolution; grad_bias is a reduction.
        return one * (int(bool(mask[0])) + int(bool(mask[1])))
    if name == "mm":
        a, b = args[0], args[1]
        return 2 * a.shape[0] * a.shape[1] * b.shape[1]
    if name == "addmm":
        a, b = args[1], args[2]
        return 2 * a.shape[0] * a.shape[1] * b.shape[1] + a.shape[0] * b.shape[1]
    if name == "bmm":
        a, b = args[0], args[1]
        return 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
    return 0


def roofline_ns(flops, traffic_bytes, gpu):
    seconds = max(flops / gpu["flops"], traffic_bytes / gpu["bandwidth"])
    return int(round(seconds * 1e9)) + LAUNCH_OVERHEAD_NS


# ---- recording ---------------------------------------------------------------------------------

def _tensors(obj):
    flat, _ = tree_flatten(obj)
    return [t for t in flat if isinstance(t, torch.Tensor)]


def _storage(t):
    # untyped_storage() where torch has it (2.x; storage() warns there), storage() on 1.13: the
    # same data_ptr and nbytes.
    storage = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
    return storage.data_ptr(), storage.nbytes()


class CudaTimer:
    """GPU time of each op from a pair of CUDA events; read once, after one synchronisation."""

    def __init__(self, guard_us):
        self.pairs = []
        self.guard_us = guard_us
        self.guard_cycles = 0
        self.unguarded = 0   # kernels whose host time between the two records exceeded the guard
        if guard_us > 0:
            self.guard_cycles = max(1, int(round(guard_us * self._cycles_per_us())))

    @staticmethod
    def _cycles_per_us():
        # torch.cuda._sleep spins for a number of GPU clock cycles: time a long one (twice; the
        # first also loads the kernel) to turn microseconds into cycles.
        cycles = 2_000_000
        for _ in range(2):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            torch.cuda._sleep(cycles)
            end.record()
            torch.cuda.synchronize()
        return cycles / (start.elapsed_time(end) * 1000.0)

    def start(self):
        if self.guard_cycles:
            torch.cuda._sleep(self.guard_cycles)
        event = torch.cuda.Event(enable_timing=True)
        event.record()
        return event, time.perf_counter_ns()

    def stop(self, started):
        event = torch.cuda.Event(enable_timing=True)
        event.record()
        start, host_start = started
        self.pairs.append((start, event, time.perf_counter_ns() - host_start))
        return len(self.pairs) - 1

    def elapsed_ns(self, indices):
        """After the iteration: one synchronisation, then the time of each pair in indices (the
        kernels'), in nanoseconds."""
        torch.cuda.synchronize()
        times = []
        for i in indices:
            start, end, host_ns = self.pairs[i]
            times.append(max(1, int(round(start.elapsed_time(end) * 1e6))))
            if self.guard_cycles and host_ns > self.guard_us * 1000.0:
                self.unguarded += 1
        return times


class DataFlowRecorder(TorchDispatchMode):
    """Every aten op as a kernel over storage-identified tensors."""

    def __init__(self, gpu, timer=None):
        super().__init__()
        self.gpu = gpu
        self.timer = timer   # CudaTimer with --durations cuda
        self.phase = "other"
        self.live = {}       # storage data_ptr -> tensor id of the storage living there now
        self.tensors = []    # id -> {"bytes", "first_phase", ...}
        self.kernels = []
        self.names = {}      # storage data_ptr -> (name, kind) of known tensors (params, batch)

    def tensor_id(self, t, fresh):
        ptr, nbytes = _storage(t)
        if nbytes == 0:
            return None
        if not fresh and ptr in self.live:
            return self.live[ptr]
        tid = len(self.tensors)
        self.tensors.append({"bytes": nbytes, "ptr": ptr, "made_in": self.phase if fresh else None,
                             "readers": 0})
        self.live[ptr] = tid
        return tid

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        ins = _tensors((args, kwargs))
        in_ptrs = {_storage(t)[0] for t in ins}
        timed = self.timer.start() if self.timer is not None else None
        start = time.perf_counter_ns()
        out = func(*args, **kwargs)
        cpu_ns = max(1, time.perf_counter_ns() - start)
        # The pair is recorded for every op, views included (they queue nothing, so it costs
        # nothing on the GPU), and only the kernels' pairs are read.
        timing = self.timer.stop(timed) if timed is not None else None
        outs = _tensors(out)

        written = []  # arguments the schema marks as written (in-place and out= ops)
        for i, arg in enumerate(func._schema.arguments):
            info = arg.alias_info
            if info is not None and info.is_write:
                value = args[i] if i < len(args) else kwargs.get(arg.name)
                written.extend(_tensors(value))
        if not written and outs and all(_storage(t)[0] in in_ptrs for t in outs):
            return out  # a view: no kernel runs, the result is its base's tensor

        inputs = []
        for t in ins:
            tid = self.tensor_id(t, fresh=False)
            if tid is not None and tid not in inputs:
                inputs.append(tid)
        outputs = []
        for t in written:
            tid = self.tensor_id(t, fresh=False)
            if tid is not None and tid not in outputs:
                outputs.append(tid)
        for t in outs:
            # A result on an argument's storage is that argument (in-place result or view of
            # it); any other storage was allocated by this op.
            tid = self.tensor_id(t, fresh=_storage(t)[0] not in in_ptrs)
            if tid is not None and tid not in outputs:
                outputs.append(tid)
        for tid in inputs:
            self.tensors[tid]["readers"] += 1

        traffic = sum(t.numel() * t.element_size() for t in ins) + \
            sum(t.numel() * t.element_size() for t in outs)
        first_out = outs[0] if outs else None
        flops = op_flops(func, args, first_out) if first_out is not None or \
            func.overloadpacket.__name__ == "convolution_backward" else 0
        kernel = {"name": str(func), "op": func.overloadpacket.__name__,
                  "phase": self.phase, "inputs": inputs, "outputs": outputs,
                  "cpu_ns": cpu_ns, "gpu_ns": roofline_ns(flops, traffic, self.gpu),
                  "flops": flops}
        if timing is not None:
            kernel["cuda_event"] = timing
        self.kernels.append(kernel)
        return out


class _NoRecordFunction:
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def train_step(model, optimizer, images, labels, recorder=None):
    def phase(name):
        if recorder is not None:
            recorder.phase = name
    phase("forward")
    logits = model(images)
    phase("loss")
    loss = F.cross_entropy(logits, labels)
    phase("backward")
    loss.backward()
    return logits, loss


def capture(args):
    gpu = GPUS[args.gpu]
    torch.manual_seed(args.seed)
    model = MODELS[args.model]()
    cuda = args.durations == "cuda"
    if cuda:
        # Built and drawn on the CPU as in the other modes (same random weights and input), then
        # moved to the GPU before the optimizer sees the parameters.
        model = model.to("cuda")
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    size = IMAGE_SIZE[args.model]
    images = torch.randn(args.batch, 3, size, size)
    labels = torch.randint(0, CLASSES, (args.batch,))
    if cuda:
        images, labels = images.to("cuda"), labels.to("cuda")

    # Warm-up: creates the momentum buffers, so the captured step updates them in place.
    train_step(model, optimizer, images, labels)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)

    # Optimizer.step and zero_grad open torch.profiler record_function spans, whose handles are
    # aten ops (zeros, profiler._record_function_enter) that a GPU would not run: switch them off.
    torch.autograd.profiler.record_function = _NoRecordFunction
    timer = None
    if cuda:
        torch.cuda.synchronize()
        timer = CudaTimer(args.cuda_guard_us)
    recorder = DataFlowRecorder(gpu, timer)
    params = dict(model.named_parameters())
    with recorder:
        # Known tensors first, so reads of them find their names (they live before the mode).
        for name, p in params.items():
            recorder.tensor_id(p, fresh=False)
        recorder.tensor_id(images, fresh=False)
        recorder.tensor_id(labels, fresh=False)
        for name, p in params.items():
            recorder.tensor_id(optimizer.state[p]["momentum_buffer"], fresh=False)
        logits, loss = train_step(model, optimizer, images, labels, recorder)
        grads = {name: recorder.live[_storage(p.grad)[0]] for name, p in params.items()}
        recorder.phase = "optimizer"
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        del logits, loss
    if timer is not None:
        # The iteration's one synchronisation; every op's GPU time is read after it.
        elapsed = timer.elapsed_ns([k.pop("cuda_event") for k in recorder.kernels])
        for k, ns in zip(recorder.kernels, elapsed):
            k["cuda_ns"] = ns
    return model, optimizer, params, images, labels, recorder, grads


def build_profile(args, params, optimizer, images, labels, recorder, grads):
    kinds = {}
    names = {}
    for name, p in params.items():
        tid = recorder.live.get(_storage(p)[0])
        kinds[tid], names[tid] = ("weight", True), name
        buf = optimizer.state[p]["momentum_buffer"]
        tid = recorder.live.get(_storage(buf)[0])
        kinds[tid], names[tid] = ("optimizer_state", True), name + ".momentum_buffer"
    for name, tid in grads.items():
        kinds[tid], names[tid] = ("gradient", False), name + ".grad"
    for t, label in ((images, "images"), (labels, "labels")):
        tid = recorder.live.get(_storage(t)[0])
        kinds[tid], names[tid] = ("input", False), label

    used = set()
    for k in recorder.kernels:
        used.update(k["inputs"])
        used.update(k["outputs"])
    tensors = []
    for tid, info in enumerate(recorder.tensors):
        if tid not in used:
            continue
        kind, persistent = kinds.get(tid, ("activation" if info["readers"] else "temporary",
                                           False))
        name = names.get(tid, f"{info['made_in'] or 'pre'}.{tid}")
        tensors.append({"id": tid, "name": name, "bytes": info["bytes"], "kind": kind, "job": 0,
                        "persistent": persistent})

    use_gpu = args.durations == "gpu-estimate"
    use_cuda = args.durations == "cuda"
    kernels = []
    totals = {p: [0, 0, 0] for p in PHASES}
    for i, k in enumerate(recorder.kernels):
        phase = k["phase"] if k["phase"] in PHASES else "other"
        totals.setdefault(phase, [0, 0, 0])
        totals[phase][0] += k["cpu_ns"]
        totals[phase][1] += k["gpu_ns"]
        totals[phase][2] += k.get("cuda_ns", 0)
        duration = k["cuda_ns"] if use_cuda else k["gpu_ns"] if use_gpu else k["cpu_ns"]
        kernels.append({"id": i, "name": k["name"], "op": k["op"], "phase": phase, "job": 0,
                        "duration_ns": duration,
                        "inputs": k["inputs"], "outputs": k["outputs"]})

    gpu = GPUS[args.gpu]
    per_phase = lambda col: ", ".join(  # noqa: E731
        f"{p} {totals[p][col] / 1e6:.3f} ms" for p in totals if totals[p][col])
    notes = {
        "capture.optimizer": "SGD(momentum=0.9), zero_grad(set_to_none=True); one warm-up "
                             "iteration before the captured one",
        "capture.torch": torch.__version__,
        "capture.torchvision": torchvision.__version__,
        "durations": ("gpu-estimate: roofline of " + gpu["name"] if use_gpu else
                      "cpu: measured CPU time of each aten op"),
        "durations.cpu_total": per_phase(0),
        "durations.gpu_estimate_total": per_phase(1),
        "kernels": "every aten op under TorchDispatchMode except ops that only make views",
        "roofline": (f"time = max(flops / {gpu['flops']:.3g} FLOP/s, bytes / "
                     f"{gpu['bandwidth']:.3g} B/s) + {LAUNCH_OVERHEAD_NS} ns launch; FLOPs of "
                     "convolution, convolution_backward, mm, addmm, bmm from shapes"),
        "tensors": "one per storage (views share it, bytes = storage nbytes); in-place ops "
                   "write their argument; a result on a new storage is a new tensor",
    }
    device = gpu["name"] if use_gpu else "cpu"
    if use_cuda:
        device = torch.cuda.get_device_name()
        timer = recorder.timer
        guard = (f"a {timer.guard_us:g} us GPU sleep (torch.cuda._sleep, "
                 f"{timer.guard_cycles} cycles) queued before each start event keeps host "
                 f"launch gaps out; {timer.unguarded} of the {len(recorder.kernels)} kernels "
                 "took longer than that on the host, so their times may include idle GPU time"
                 if timer.guard_cycles else
                 "no guard (--cuda-guard-us 0): times include any idle GPU time while the "
                 "host launches the op")
        notes.update({
            "capture.cuda": str(torch.version.cuda),
            "capture.cudnn": str(torch.backends.cudnn.version()),
            "capture.device": device,
            "durations": f"cuda: measured CUDA time of each aten op on {device} (a pair of "
                         "torch.cuda.Event(enable_timing=True) recorded around the op on the "
                         "current stream, one synchronisation at the end of the iteration; no "
                         "launch overhead added)",
            "durations.cpu_total": per_phase(0) + " (host time of each op: launches, not "
                                   "kernels)",
            "durations.cuda_guard": guard,
            "durations.cuda_total": per_phase(2),
        })
    return {
        "format": "spillway.profile/1",
        "metadata": {"model": args.model, "batch": args.batch,
                     "device": device,
                     "source": "torch-dispatch",
                     "source_path": "samples/capture/torch_dispatch_capture.py",
                     "notes": dict(sorted(notes.items()))},
        "jobs": [{"id": 0, "name": args.model}],
        "tensors": tensors,
        "kernels": kernels,
    }


def write_profile(profile, path):
    # The layout of Spillway's own writer: one tensor or kernel per line.
    def line(obj):
        return json.dumps(obj, separators=(",", ":"))
    parts = ["{\n", f'  "format": {line(profile["format"])},\n',
             f'  "metadata": {line(profile["metadata"])},\n']
    for key, last in (("jobs", False), ("tensors", False), ("kernels", True)):
        items = profile[key]
        body = ",\n    ".join(line(i) for i in items)
        parts.append(f'  "{key}": [\n    {body}\n  ]' if items else f'  "{key}": []')
        parts.append("\n" if last else ",\n")
    parts.append("}\n")
    tmp = path + ".part"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write("".join(parts))
    os.replace(tmp, path)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    _, optimizer, params, images, labels, recorder, grads = capture(args)
    profile = build_profile(args, params, optimizer, images, labels, recorder, grads)
    write_profile(profile, args.output)
    notes = profile["metadata"]["notes"]
    measured = (f"{notes['durations.cuda_total']} measured on {profile['metadata']['device']}, "
                if "durations.cuda_total" in notes else "")
    print(f"wrote {args.output} ({args.model}, batch {args.batch}: "
          f"{len(profile['kernels'])} kernels, {len(profile['tensors'])} tensors; {measured}"
          f"{notes['durations.gpu_estimate_total']} estimated, "
          f"{notes['durations.cpu_total']} on the CPU)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
