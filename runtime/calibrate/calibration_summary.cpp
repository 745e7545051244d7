#include "runtime/calibrate/calibration_summary.h"

#include "core/hardware/hardware_units.h"

#include <fmt/format.h>

namespace spillway::calibrate {

std::string calibrationSummary(const HardwareConfig& hw) {
    std::string out;
    for (TransferDirection d : {TransferDirection::ToGpu, TransferDirection::ToHost})
        for (TransferMechanism m : kTransferMechanisms) {
            const TransferCurve& c = hw.measured.curve(d, m);
            if (c.empty()) continue;
            out += fmt::format("  {:<11} {:<16} floor {:>8.1f} us;", toString(d), toString(m), double(c.floor) / 1e3);
            for (const CurvePoint& p : c.points)
                out += fmt::format(" {} {:.2f}", formatByteSize(p.bytes), double(p.bytesPerSecond) / 1e9);
            out += " GB/s\n";
        }
    for (TransferMechanism m : kTransferMechanisms)
        if (!hw.measured.isDuplex(m)) out += fmt::format("  {}: opposite directions do not overlap\n", toString(m));
    out +=
        fmt::format("  kernel launch {:.2f} us, directive {:.2f} us, discard {:.2f} us per 2 MiB block, population {} "
                    "fs/byte\n",
                    double(hw.kernelLaunch) / 1e3, double(hw.directiveOverhead) / 1e3, double(hw.discardUnmapPerBlock) / 1e3,
                    hw.allocFemtosecondsPerByte);
    return out;
}

}  // namespace spillway::calibrate
