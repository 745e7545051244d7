#pragma once
// The events of a torch.profiler Chrome trace (Kineto layout) that the torch-trace importer
// reads, lifted out of the JSON with their positions in it, so every later step can point back
// to the event it is complaining about ("/traceEvents/812").
#include "core/trace/units.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway::torch_trace {

// A tensor argument of an op, from "Input Dims" and "Input type" (record_shapes=True). Only
// kept for the ops of torch_trace_ops.h; arguments that are not tensors of a known element type
// (scalars, lists, None) have bytes 0.
struct ArgShape {
    std::vector<std::int64_t> dims;
    std::string type;
    Bytes bytes = 0;  // elements x element size
};

// An "X" (complete) event of a category the importer uses: cpu_op, user_annotation, kernel,
// cuda_runtime, cuda_driver. Times are nanoseconds from the earliest event read.
struct Span {
    std::string name;
    std::string category;
    std::string thread;  // "pid/tid": nesting is decided per thread
    Nanoseconds start = 0;
    Nanoseconds duration = 0;
    std::optional<std::int64_t> correlation;  // links a GPU kernel to its launch call
    std::size_t eventIndex = 0;               // position in traceEvents
    std::vector<ArgShape> args;               // only for needsArgShapes(name)

    Nanoseconds end() const { return start + duration; }
};

// A "[memory]" instant event: the allocator handed out (bytes > 0) or took back (bytes < 0)
// the block at `address`.
struct MemoryEvent {
    Nanoseconds time = 0;
    std::uint64_t address = 0;
    Bytes bytes = 0;
    std::int64_t deviceType = 0;  // c10::DeviceType: 0 = CPU, 1 = CUDA
    std::int64_t deviceId = -1;
    std::size_t eventIndex = 0;
    std::string thread;                        // "pid/tid" of the thread that allocated or freed
    std::optional<Bytes> totalAllocated;       // "Total Allocated" on the device after this event
};

// What the capture script (samples/capture/torch_capture.py) writes in the top-level
// "spillway" object, and the first entry of "deviceProperties".
struct CaptureInfo {
    std::string model;
    std::int64_t batch = 0;
    std::string device;
    std::string gpuName;
    std::map<std::string, std::string> extra;  // other string/number fields, kept as notes
};

struct TraceEvents {
    std::string file;
    std::vector<Span> spans;
    std::vector<MemoryEvent> memory;
    CaptureInfo capture;
    // Events of categories that are not read (python_function, gpu_memcpy, ...), by category,
    // so the importer can say what it left out.
    std::map<std::string, std::int64_t> skippedCategories;
};

// Throws ImportError: syntax errors with line:column and byte offset, field errors with a JSON
// pointer, wrong formats (legacy array layout, no traceEvents) naming what was expected.
TraceEvents parseTraceEvents(std::string_view text, const std::string& fileLabel);

// A copy of `text` without commas that directly precede a closing bracket or brace (outside
// strings). Some torch/Kineto versions end the event list with "},\n]"; strict JSON rejects it.
std::string withoutTrailingCommas(std::string_view text);

}  // namespace spillway::torch_trace
