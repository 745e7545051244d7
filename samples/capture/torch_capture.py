#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Capture one training iteration of a torchvision model as a torch.profiler Chrome trace.

The trace is what Spillway's torch-trace importer reads (spillway-cli convert TRACE -o OUT).
It records memory events (profile_memory=True) and input shapes (record_shapes=True), and marks
the phases with record_function labels so the importer does not have to guess them:

  spillway.setup      model and optimizer construction: the weights are allocated here, so the
                      trace shows them (the importer makes them persistent weight tensors)
  spillway.data       the random input batch and labels
  spillway.forward    model(images)
  spillway.loss       cross-entropy loss
  spillway.backward   loss.backward()
  spillway.optimizer  optimizer.step() and zero_grad(set_to_none=True), which frees the gradients

The model name and batch size go into the trace as a top-level "spillway" object
(profiler.add_metadata_json), which the importer copies into the profile's metadata.

Torch builds without Kineto (Debian's python3-torch among them) make export_chrome_trace write
the old autograd-profiler layout: a bare JSON array of op spans, no [memory] events. For those
this script writes the Kineto layout itself from the profiler's own event tree (the same ops,
record_function spans and allocator events with address, size and running total), so the file
has the same fields a Kineto build writes. With Kineto, it calls export_chrome_trace.

Weights are random (no download) and the input is random data: the memory behaviour of a
training step does not depend on the values.
"""

import argparse
import gzip
import json
import os
import sys

import torch
import torch.nn.functional as F
import torchvision
from torch.profiler import ProfilerActivity, profile, record_function

try:  # the event tree API of torch 1.13 and later
    from torch._C._profiler import RecordScope, _EventType
except ImportError:  # pragma: no cover - older torch
    RecordScope = _EventType = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inception_v4 import inception_v4  # noqa: E402  (written from its paper; not in torchvision)

# Every model with random weights (weights=None, or built from modules): nothing is downloaded.
MODELS = {
    "resnet18": lambda: torchvision.models.resnet18(weights=None),
    # TENSILE's five networks (its section 5.1; VGG at batch 2): VGG-16, Inception-v3,
    # Inception-v4, ResNet-50, DenseNet-121.
    "vgg16": lambda: torchvision.models.vgg16(weights=None),
    # torchvision's inception_v3 in train mode returns InceptionOutputs(logits, aux_logits) when
    # it has the auxiliary classifier; it is built without it (aux_logits=False), so the model
    # returns plain logits and the training step is the same as for every other model (the aux
    # head, 3.3 M parameters used only in training, is left out). init_weights=True is
    # torchvision's own truncated-normal initialisation, asked for explicitly (weights=None
    # otherwise warns that the default will change).
    "inception_v3": lambda: torchvision.models.inception_v3(weights=None, aux_logits=False,
                                                            init_weights=True),
    "inception_v4": lambda: inception_v4(num_classes=1000),
    "resnet50": lambda: torchvision.models.resnet50(weights=None),
    "densenet121": lambda: torchvision.models.densenet121(weights=None),
    # ROAM's networks (AlexNet, VGG-16 above, MnasNet, MobileNetV2, EfficientNet-B0, ViT-B/16).
    "alexnet": lambda: torchvision.models.alexnet(weights=None),
    "mnasnet1_0": lambda: torchvision.models.mnasnet1_0(weights=None),
    "mobilenet_v2": lambda: torchvision.models.mobilenet_v2(weights=None),
    "efficientnet_b0": lambda: torchvision.models.efficientnet_b0(weights=None),
    "vit_b_16": lambda: torchvision.models.vit_b_16(weights=None),
}
# Input height and width per model: the Inception networks take 299x299 (their papers and
# torchvision's inception_v3), every other model 224x224.
IMAGE_SIZE = {name: 299 if name.startswith("inception") else 224 for name in MODELS}
CLASSES = 1000


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Trace one training iteration (forward, loss, backward, optimizer step) of a "
                    "torchvision model with torch.profiler and write a Chrome trace for Spillway.",
        epilog="Example: torch_capture.py --model resnet18 --batch 2 "
               "--output resnet18-b2-cpu.trace.json")
    parser.add_argument("--model", choices=sorted(MODELS), default="resnet18",
                        help="torchvision model with random weights (default: resnet18)")
    parser.add_argument("--batch", type=int, default=2, help="batch size (default: 2)")
    parser.add_argument("--output", required=True,
                        help="Chrome trace file to write (.json; .json.gz is compressed)")
    parser.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                        help="where to train; auto = cuda when available (default: auto)")
    parser.add_argument("--lr", type=float, default=0.01, help="SGD learning rate (default: 0.01)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    args = parser.parse_args(argv)
    if args.batch < 1:
        parser.error("--batch must be at least 1")
    if args.device == "cuda" and not torch.cuda.is_available():
        parser.error("--device cuda: torch.cuda.is_available() is False")
    return args


def pick_device(choice):
    if choice == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(choice)


def capture(args):
    device = pick_device(args.device)
    torch.manual_seed(args.seed)
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)

    # Stacks and FLOP counts are left out: they multiply the trace size and the importer does
    # not read them.
    with profile(activities=activities, profile_memory=True, record_shapes=True) as prof:
        with record_function("spillway.setup"):
            model = MODELS[args.model]().to(device)
            model.train()
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
        with record_function("spillway.data"):
            size = IMAGE_SIZE[args.model]
            images = torch.randn(args.batch, 3, size, size, device=device)
            labels = torch.randint(0, CLASSES, (args.batch,), device=device)
        with record_function("spillway.forward"):
            logits = model(images)
        with record_function("spillway.loss"):
            loss = F.cross_entropy(logits, labels)
        with record_function("spillway.backward"):
            loss.backward()
        with record_function("spillway.optimizer"):
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        # Drop the iteration's last references inside the trace, so their frees are recorded.
        del images, labels, logits, loss
        if device.type == "cuda":
            torch.cuda.synchronize()
        metadata = {
            "model": args.model,
            "batch": args.batch,
            "device": str(device) if device.type == "cpu" else torch.cuda.get_device_name(device),
            "torch": torch.__version__,
            "torchvision": torchvision.__version__,
            "optimizer": "SGD(momentum=0.9)",
        }
        if torch.autograd.kineto_available():
            prof.add_metadata_json("spillway", json.dumps(metadata))
    if torch.autograd.kineto_available():
        prof.export_chrome_trace(args.output)
    else:
        write_kineto_layout(prof, metadata, args.output)
    return device


# ---- Kineto layout for builds without Kineto ----------------------------------------------------

DEVICE_TYPE_IDS = {"cpu": 0, "cuda": 1}


def _us(ns, base_ns):
    """Kineto writes microseconds; three decimals keep the nanoseconds."""
    return round((ns - base_ns) / 1000.0, 3)


def _tree_events(roots):
    stack = list(reversed(roots))
    while stack:
        event = stack.pop()
        yield event
        stack.extend(reversed(event.children))


def _op_event(event, base_ns, pid, index):
    fields = event.extra_fields
    user = fields.scope == RecordScope.USER_SCOPE
    args = {"External id": event.correlation_id, "Ev Idx": index}
    if not user:
        args["Sequence number"] = fields.sequence_number
        args["Input Dims"] = fields.inputs.shapes
        args["Input type"] = fields.inputs.dtypes
    return {"ph": "X", "cat": "user_annotation" if user else "cpu_op", "name": event.name,
            "pid": pid, "tid": event.start_tid, "ts": _us(event.start_time_ns, base_ns),
            "dur": round(event.duration_time_ns / 1000.0, 3), "args": args}


def _memory_event(event, base_ns, pid, index):
    fields = event.extra_fields
    device = fields.device
    return {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": pid,
            "tid": event.start_tid, "ts": _us(event.start_time_ns, base_ns),
            "args": {"Total Reserved": fields.total_reserved,
                     "Total Allocated": fields.total_allocated,
                     "Bytes": fields.alloc_size, "Addr": fields.ptr,
                     "Device Id": -1 if device.index is None else device.index,
                     "Device Type": DEVICE_TYPE_IDS.get(device.type, -1), "Ev Idx": index}}


def write_kineto_layout(prof, metadata, path):
    if _EventType is None:
        sys.exit("this torch has neither Kineto nor the profiler event tree; cannot record "
                 "[memory] events")
    roots = prof.profiler.kineto_results.experimental_event_tree()
    events = list(_tree_events(roots))
    base_ns = min((e.start_time_ns for e in events), default=0)
    pid = os.getpid()
    trace_events = []
    for event in events:
        index = len(trace_events)
        if event.tag == _EventType.TorchOp:
            trace_events.append(_op_event(event, base_ns, pid, index))
        elif event.tag == _EventType.Allocation:
            trace_events.append(_memory_event(event, base_ns, pid, index))
    trace_events.sort(key=lambda e: (e["ts"], e["ph"] != "X"))
    end_us = max((e["ts"] + e.get("dur", 0) for e in trace_events), default=0)
    trace_events.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "",
                         "ts": end_us})
    document = {"schemaVersion": 1, "record_shapes": 1, "profile_memory": 1, "with_stack": 0,
                "spillway": metadata, "baseTimeNanoseconds": base_ns,
                "displayTimeUnit": "ms", "traceEvents": trace_events,
                "traceName": os.path.basename(path)}
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wt", encoding="utf-8") as out:
        json.dump(document, out, separators=(",", ":"))
        out.write("\n")


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    device = capture(args)
    print(f"wrote {args.output} ({args.model}, batch {args.batch}, {device})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
