#include "core/hardware/hardware.h"

#include <limits>

namespace spillway {

std::string_view toString(Tier tier) {
    switch (tier) {
        case Tier::Gpu: return "gpu";
        case Tier::Host: return "host";
        case Tier::Ssd: return "ssd";
    }
    return "?";
}

std::string_view toString(FaultModel model) {
    switch (model) {
        case FaultModel::Analytic: return "analytic";
        case FaultModel::G10Calibrated: return "g10-calibrated";
    }
    return "?";
}

Nanoseconds transferTime(const LinkSpec& link, Bytes bytes) {
    if (bytes <= 0) return 0;
    if (link.bytesPerSecond <= 0) return std::numeric_limits<Nanoseconds>::max() / 4;
    const __int128 num = static_cast<__int128>(bytes) * 1'000'000'000;
    return static_cast<Nanoseconds>((num + link.bytesPerSecond - 1) / link.bytesPerSecond);
}

}  // namespace spillway
