#include "core/sim/checked_time.h"

#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <limits>

namespace spillway::sim {

namespace {
__extension__ using Wide = __int128;
constexpr Wide kMaxNanoseconds = std::numeric_limits<Nanoseconds>::max();
}  // namespace

Nanoseconds checkedAllocTime(Bytes bytes, const HardwareConfig& hw) {
    const Wide ns = (static_cast<Wide>(bytes) * hw.allocFemtosecondsPerByte + 999'999) / 1'000'000;
    if (ns > kMaxNanoseconds)
        throw NumberOverflow(fmt::format("zero-filling {} bytes at {} fs per byte takes more than 2^63 ns", bytes,
                                         hw.allocFemtosecondsPerByte));
    return static_cast<Nanoseconds>(ns);
}

Nanoseconds launchedDuration(Nanoseconds duration, const HardwareConfig& hw) {
    return checkedAdd(duration, hw.kernelLaunch, "a kernel's duration with its launch");
}

Nanoseconds idealIterationTime(const Profile& profile, const HardwareConfig& hw) {
    const auto kernels = static_cast<std::int64_t>(profile.kernels.size());
    return checkedAdd(profile.totalDuration(), checkedMul(kernels, hw.kernelLaunch, "the kernels' launch time"),
                      "the ideal iteration time");
}

}  // namespace spillway::sim
