#pragma once
// What `spillway-cli info` and the app's overview show: counts, footprint, theoretical peak
// and where it is, the largest per-kernel working set, the largest tensors, and time and bytes
// per phase and kind.
#include "core/trace/profile.h"

#include <map>
#include <string>
#include <vector>

namespace spillway {

struct PhaseTotals {
    std::int64_t kernels = 0;
    Nanoseconds time = 0;
};

struct KindTotals {
    std::int64_t tensors = 0;
    Bytes bytes = 0;
};

struct ProfileSummary {
    std::int64_t kernelCount = 0;
    std::int64_t tensorCount = 0;
    std::int64_t jobCount = 0;
    Bytes footprintBytes = 0;         // sum of all tensor sizes
    Bytes persistentBytes = 0;
    Bytes maxWorkspaceBytes = 0;
    Nanoseconds totalTime = 0;        // sum of kernel durations (everything resident)
    Bytes peakBytes = 0;              // theoretical peak
    std::int64_t peakKernelPos = -1;
    Bytes largestWorkingSetBytes = 0; // tensors + workspace of the hungriest kernel
    std::int64_t largestWorkingSetKernelPos = -1;
    std::vector<std::int64_t> largestTensors;  // tensor positions, largest first
    std::map<KernelPhase, PhaseTotals> phases;
    std::map<TensorKind, KindTotals> kinds;
};

ProfileSummary summarizeProfile(const Profile& profile, size_t largestCount = 10);

// What the footprint adds up, so nobody reads it as memory in use at once (the peak is that):
// every tensor of the profile once, however short-lived, and of which iterations (the notes
// "iterations.found" and "iterations.imported"). The CLI's `info` and the app's Overview say it.
std::string footprintMeaning(const std::map<std::string, std::string>& notes, std::int64_t tensorCount);

}  // namespace spillway
