#pragma once
// What a replay backend does: run a ReplayProgram for some iterations and say when every kernel
// and directive ran. The CUDA backend (cuda_backend.cu) runs it on a GPU with streams and
// events; the host backend (host_backend.cpp) runs it on the CPU with threads and timers, so
// the ordering, the dependencies and the timeline are tested without a GPU.
//
// Both follow the same rules: kernels run one after another on a compute stream in run order;
// directives run one after another on two side streams (in: prefetches, out: the rest; see
// replay_program.h), each no earlier than its anchor (the end of the kernel before, or of its
// kernel when it is "after") plus its delay; a kernel waits
// for the prefetches in its ReplayKernel::waitsFor; a recompute re-runs producers inside the
// consuming kernel's window. Times are nanoseconds from the start of the replay.
#include "runtime/replay/replay_program.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace spillway::replay {

struct KernelTimes {
    Nanoseconds ready = 0;  // the compute stream reached it
    Nanoseconds start = 0;  // its waits were over
    Nanoseconds end = 0;
    Nanoseconds recompute = 0;  // profiled time of the producers re-run inside [start, end)
};

struct DirectiveTimes {
    Nanoseconds issue = 0;  // anchor + delay
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    std::string call;       // what the backend did for it
};

struct BackendNote {
    std::int64_t iteration = -1;  // -1: the whole replay
    std::int64_t planDirective = -1;
    std::string message;
};

struct IterationTimes {
    std::vector<KernelTimes> kernels;        // parallel to ReplayProgram::kernels
    std::vector<DirectiveTimes> directives;  // parallel to ReplayProgram::directives
};

struct BackendRun {
    std::vector<IterationTimes> iterations;
    std::vector<BackendNote> fallbacks;  // done differently from the plan, and how
    std::vector<BackendNote> failures;   // could not be done
};

// A backend that cannot start (no device) or fails for good throws this; the message is for
// the user as is.
struct ReplayError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class ReplayBackend {
public:
    virtual ~ReplayBackend() = default;
    virtual std::string name() const = 0;    // "cuda", "host"
    virtual std::string device() const = 0;  // the device's name, for the timeline
    virtual BackendRun run(const ReplayProgram& program, int iterations) = 0;
};

}  // namespace spillway::replay
