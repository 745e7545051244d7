#!/usr/bin/env python3
"""Builds the starting corpus of one fuzz harness from the real files: the repository's samples/
and tests/fixtures/, and the shared reference data (../shared/data). Seeds are kept small
(libFuzzer mutates small inputs much faster, and its -max_len follows the largest seed): big
JSON traces keep their first events, big pickles their first segments and trace entries, G10
folders their first kernels. Nothing is written into the repository.

  make_seeds.py HARNESS OUT_DIR --source ROOT --shared DATA

Every harness also starts from its committed inputs in tests/fuzz/regressions/HARNESS/ (the
caller, scripts/fuzz, passes that folder to libFuzzer as a second corpus).
"""
import argparse
import glob
import gzip
import json
import os
import pickle
import sqlite3
import sys
import tempfile

MAX_SEED_BYTES = 64 * 1024


def emit(out_dir, name, data):
    if isinstance(data, str):
        data = data.encode()
    base = os.path.basename(name)
    with open(os.path.join(out_dir, f"seed-{base}"), "wb") as f:
        f.write(data)


def files(pattern, max_bytes=MAX_SEED_BYTES):
    return [p for p in sorted(glob.glob(pattern, recursive=True)) if os.path.getsize(p) <= max_bytes]


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def seeds_native_json(src, shared, out):
    for p in files(f"{src}/samples/**/*.profile.json") + files(f"{src}/tests/fixtures/profiles/*.json") \
            + files(f"{shared}/h200/captures/*.profile.json"):
        emit(out, p, read(p))


def trim_trace(doc, limit=MAX_SEED_BYTES):
    """Keeps every spillway.* mark and the first events inside each mark's span (and before the
    first mark), as many per span as fit in `limit` bytes: a trimmed trace still has an
    iteration, its weights and some of each phase."""
    events = doc["traceEvents"]
    marks = [e for e in events if isinstance(e, dict) and str(e.get("name", "")).startswith("spillway.")
             and isinstance(e.get("ts"), (int, float)) and isinstance(e.get("dur"), (int, float))]

    def window(e):
        ts = e.get("ts") if isinstance(e, dict) else None
        if not isinstance(ts, (int, float)):
            return None
        for i, m in enumerate(marks):
            if m["ts"] <= ts <= m["ts"] + m["dur"]:
                return i
        return None

    windows = [window(e) for e in events]

    def keep(per_window):
        counts = {}
        kept = []
        for e, w in zip(events, windows):
            if e in marks or counts.get(w, 0) < per_window:
                kept.append(e)
                counts[w] = counts.get(w, 0) + (0 if e in marks else 1)
        return dict(doc, traceEvents=kept)

    lo, hi = 0, len(events)
    while lo < hi:  # the most events per span that fit
        mid = (lo + hi + 1) // 2
        if len(json.dumps(keep(mid), separators=(",", ":"))) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return json.dumps(keep(lo), separators=(",", ":"))


def seeds_torch_trace(src, shared, out):
    for p in files(f"{src}/tests/fixtures/torch/*.json"):
        emit(out, p, read(p))
    big = sorted(glob.glob(f"{src}/samples/torch/*.trace.json")) + \
        sorted(glob.glob(f"{shared}/h200/captures/*.trace.json")) + \
        sorted(glob.glob(f"{shared}/h200/models/*/*.trace.json.gz"))[:6]
    for p in big:
        doc = json.loads(read(p))
        if isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
            emit(out, p.removesuffix(".gz"), trim_trace(doc))


def trim_lists(value, keep=4):
    """The same data with every list cut to its first `keep` items, at every depth: a snapshot's
    segments, blocks, frames and events, a measured timeline's iterations and kernels."""
    if isinstance(value, dict):
        return {k: trim_lists(v, keep) for k, v in value.items()}
    if isinstance(value, list):
        return [trim_lists(v, keep) for v in value[:keep]]
    return value


def seeds_torch_snapshot(src, shared, out):
    for p in files(f"{src}/tests/fixtures/snapshots/*.pickle"):
        emit(out, p, read(p))
    for p in sorted(glob.glob(f"{shared}/h200/captures/*.snapshot.pickle")):
        # Plain data only (the importer's safe reader accepts nothing else), so pickle can load it.
        small = trim_lists(pickle.loads(read(p)))
        for protocol in (2, 4):
            emit(out, f"{os.path.basename(p)}.p{protocol}", pickle.dumps(small, protocol=protocol))


# The Nsight Systems tables the importer reads (the documented columns; tests/core/io/
# tst_nsys_sqlite_import.cpp has the full set), with a few rows.
NSYS_SQL = """
PRAGMA page_size = 512;
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_UNIF_MEM_MIGRATION (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_UNIF_MEM_ACCESS_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,
  launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,
  gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL,
  blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL,
  sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
  eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
  returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER,
  srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER,
  dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER, virtualAddress INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE CUDA_UM_GPU_PAGE_FAULT_EVENTS (start INTEGER NOT NULL, end INTEGER NOT NULL,
  globalPid INTEGER NOT NULL, deviceId INTEGER NOT NULL, address INTEGER NOT NULL,
  numberOfPageFaults INTEGER NOT NULL, faultAccessType INTEGER NOT NULL);
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
  bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL, name TEXT,
  correlationId INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
  domainId INTEGER);
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),
  (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'), (8, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'),
  (11, 'CUDA_MEMCPY_KIND_UVM_HTOD', 'Unified Host-to-Device'),
  (12, 'CUDA_MEMCPY_KIND_UVM_DTOH', 'Unified Device-to-Host');
INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
  (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'), (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'),
  (4, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed');
INSERT INTO ENUM_CUDA_DEV_MEM_EVENT_OPER VALUES (0, 'CUDA_DEV_MEM_EVENT_OPR_ALLOCATION', 'Allocation'),
  (1, 'CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION', 'Deallocation');
INSERT INTO ENUM_CUDA_UNIF_MEM_MIGRATION VALUES (1, 'CUDA_UNIF_MEM_MIGRATION_COHERENCE', 'Coherence'),
  (3, 'CUDA_UNIF_MEM_MIGRATION_EVICTION', 'Eviction');
INSERT INTO ENUM_CUDA_UNIF_MEM_ACCESS_TYPE VALUES (2, 'CUDA_UNIF_MEM_ACCESS_TYPE_WRITE', 'Write');
INSERT INTO StringIds VALUES (10, 'void gemm<float>(float*, int)'), (11, 'gemm'),
  (12, 'relu_kernel(float*)'), (13, 'relu_kernel'), (14, 'cudaLaunchKernel'), (20, 'spillway.backward');
INSERT INTO TARGET_INFO_GPU (vmId, id, name, totalMemory) VALUES (0, 0, 'NVIDIA Test GPU', 85899345920);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid,
  demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,
  staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES
  (2000, 2300, 0, 1, 7, 2, 1, 12, 13, 16, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 2),
  (1000, 1500, 0, 1, 7, 1, 1, 10, 11, 32, 8, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue)
  VALUES (950, 960, 0, 1, 1, 14, 0), (1900, 1910, 0, 1, 2, 14, 0);
INSERT INTO NVTX_EVENTS (start, end, eventType, text, textId) VALUES
  (900, 990, 59, 'spillway.forward', NULL), (1800, 1950, 59, NULL, 20), (1990, NULL, 34, 'a mark', NULL);
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, address, pc, bytes, memKind,
  memoryOperationType) VALUES (100, 1, 0, 1, 268435456, 0, 1048576, 4, 0), (150, 1, 0, 1, 4096, 0, 65536, 1, 0),
  (900, 1, 0, 1, 536870912, 0, 4096, 2, 0), (2500, 1, 0, 1, 536870912, 0, 4096, 2, 1);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, bytes, copyKind, srcDeviceId,
  dstDeviceId, migrationCause, virtualAddress) VALUES (600, 700, 0, 1, 7, 4096, 1, NULL, 0, NULL, NULL),
  (1100, 1150, 0, 1, 7, 65536, 11, NULL, 0, 1, 268439552);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, value, bytes) VALUES
  (800, 810, 0, 1, 7, 0, 256);
INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES (2100, 2150, 1, 0, 268443648, 3, 2);
"""


def sqlite_bytes(script):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "seed.sqlite")
        db = sqlite3.connect(path)
        db.executescript(script)
        db.commit()
        db.execute("VACUUM")
        db.close()
        return read(path)


def seeds_nsys_sqlite(src, shared, out):
    emit(out, "export.sqlite", sqlite_bytes(NSYS_SQL))
    # Only the required tables: every optional one is missing.
    required = ";\n".join(s for s in NSYS_SQL.split(";\n")
                         if "StringIds" in s or "KERNEL" in s or "page_size" in s) + ";"
    emit(out, "kernels-only.sqlite", sqlite_bytes(required))


def g10_prefix(folder, kernels):
    """The first `kernels` kernels of a G10 folder, the tensors they name and their measurements,
    in the harness's "==> NAME <==" layout."""
    text = read(f"{folder}/kernels.config").decode()
    blocks = text.split("_" * 68 + "\n")
    kept = "".join(b + "_" * 68 + "\n" for b in blocks[:kernels])
    names = {line.split()[0] for line in kept.splitlines() if line.startswith("tensor")}
    tensors = "".join(line + "\n" for line in read(f"{folder}/tensors.config").decode().splitlines()
                      if line.split() and line.split()[0] in names)
    parts = {"kernels.config": kept, "tensors.config": tensors}
    for path in sorted(glob.glob(f"{folder}/cudnn*.txt")):
        lines = read(path).decode().splitlines(keepends=True)
        parts[os.path.basename(path)] = "".join(lines[:kernels])
    return parts


def layout(parts):
    return "".join(f"==> {name} <==\n{content}" for name, content in parts.items())


def seeds_g10_folder(src, shared, out):
    for folder in sorted(glob.glob(f"{shared}/g10/derived/*/")):
        name = os.path.basename(folder.rstrip("/"))
        # A cut can leave a kernel's output read by nobody, which the importer then takes for a
        # workspace that the measured column contradicts: several cuts, so some pass.
        for kernels in (6, 12, 24):
            emit(out, f"{name}-{kernels}.g10", layout(g10_prefix(folder.rstrip("/"), kernels)))
        parts = g10_prefix(folder.rstrip("/"), 24)
        emit(out, f"{name}-as-tensors.g10", layout(parts) + "==> workspaces_as_tensors <==\n")
        configs_only = {k: v for k, v in parts.items() if k.endswith(".config")}
        emit(out, f"{name}-configs.g10", layout(configs_only))
    for p in files(f"{src}/tests/fixtures/g10/kernels*"):
        emit(out, p, read(p))


def seeds_g10_graph(src, shared, out):
    # The other graphs in frontend/Nets are PyTorch module listings G10 never reads.
    nets = [f"{shared}/g10/frontend/Nets/{n}.txt" for n in ("BERT_Base", "VIT", "NeRF")]
    for p in [n for n in nets if os.path.exists(n)] + files(f"{src}/tests/fixtures/g10/*graph*.txt"):
        emit(out, p, read(p))


def seeds_workload(src, shared, out):
    for p in files(f"{src}/samples/workloads/*.json"):
        emit(out, p, read(p))


def seeds_plan(src, shared, out):
    for p in files(f"{shared}/h200/replays/*.plan.json", max_bytes=128 * 1024):
        emit(out, p, read(p))


def seeds_hardware_json(src, shared, out):
    for p in files(f"{src}/resources/hardware/*.json"):
        emit(out, p, read(p))


def seeds_measured_timeline(src, shared, out):
    for p in sorted(glob.glob(f"{shared}/h200/replays/*.measured.json")):
        emit(out, p, json.dumps(trim_lists(json.loads(read(p)), keep=12), indent=1))


def seeds_minimalloc_csv(src, shared, out):
    for p in files(f"{shared}/minimalloc/*.csv") + files(f"{shared}/minimalloc/examples/*.csv"):
        emit(out, p, read(p))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("harness")
    parser.add_argument("out_dir")
    parser.add_argument("--source", required=True)
    parser.add_argument("--shared", required=True)
    args = parser.parse_args()
    make = globals().get(f"seeds_{args.harness}")
    if make is None:
        sys.exit(f"make_seeds.py: no seeds known for harness '{args.harness}'")
    os.makedirs(args.out_dir, exist_ok=True)
    if not os.path.isdir(args.shared):
        print(f"make_seeds.py: {args.shared} not found; seeding {args.harness} from the repository only",
              file=sys.stderr)
    make(args.source, args.shared, args.out_dir)


if __name__ == "__main__":
    main()
