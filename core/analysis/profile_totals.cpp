#include "core/analysis/profile_totals.h"

#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

namespace {

// The bound checks run on every analysis and simulation: the names are formatted only for an
// error.
bool inBytes(Bytes value) { return value >= 0 && value <= kMaxBytes; }
bool inDuration(Nanoseconds value) { return value >= 0 && value <= kMaxDurationNs; }

[[noreturn]] void refuseTensor(const Tensor& t) {
    throw std::invalid_argument(fmt::format("tensor {} '{}': {}", t.id, t.name, outOfBytesRange(t.bytes)));
}

[[noreturn]] void refuseKernel(const Kernel& k, const char* what, const std::string& why) {
    throw std::invalid_argument(fmt::format("kernel {} '{}' {}: {}", k.id, k.name, what, why));
}

void checkKernelNumbers(const Kernel& k) {
    if (!inBytes(k.workspaceBytes)) refuseKernel(k, "workspace", outOfBytesRange(k.workspaceBytes));
    if (!inDuration(k.duration)) refuseKernel(k, "duration", outOfDurationRange(k.duration));
    for (const auto& faulted : {k.timeAllFaulted, k.timeOutputsFaulted})
        if (faulted && !inDuration(*faulted)) refuseKernel(k, "fault time", outOfDurationRange(*faulted));
}

}  // namespace

ProfileTotals checkedProfileTotals(const Profile& profile) {
    // Which profile is named once, on the way out: the loops stay free of formatting.
    try {
        ProfileTotals totals;
        for (const Tensor& t : profile.tensors) {
            if (!inBytes(t.bytes)) refuseTensor(t);
            totals.tensorBytes = checkedAdd(totals.tensorBytes, t.bytes, "the total size of its tensors");
        }
        for (const Kernel& k : profile.kernels) {
            checkKernelNumbers(k);
            totals.workspaceBytes = checkedAdd(totals.workspaceBytes, k.workspaceBytes, "the total size of its workspaces");
            totals.duration = checkedAdd(totals.duration, k.duration, "the total duration of its kernels");
        }
        totals.allBytes = checkedAdd(totals.tensorBytes, totals.workspaceBytes,
                                     "the total size of its tensors and workspaces");
        return totals;
    } catch (const NumberOverflow& e) {
        throw NumberOverflow(fmt::format("profile '{}': {}", profile.metadata.model, e.what()));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("profile '{}': {}", profile.metadata.model, e.what()));
    }
}

}  // namespace spillway
