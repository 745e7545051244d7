#include "runtime/calibrate/calibrated_hardware.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace spillway::calibrate {

namespace {

constexpr double kShortestTime = 1e-9;  // an event pair never reads less; keeps rates finite

std::int64_t nanosecondsOf(double seconds) { return std::llround(std::max(seconds, 0.0) * 1e9); }

std::int64_t rateOf(std::int64_t bytes, double seconds) {
    return std::max<std::int64_t>(1, std::llround(double(bytes) / std::max(seconds, kShortestTime)));
}

TransferMechanism mechanismAt(int m) { return kTransferMechanisms[static_cast<std::size_t>(m)]; }
TransferDirection directionAt(int d) { return d == kToGpu ? TransferDirection::ToGpu : TransferDirection::ToHost; }

// The rate of the largest size measured of one curve; 0 when it is empty.
std::int64_t largestRate(const TransferCurve& curve) { return curve.empty() ? 0 : curve.points.back().bytesPerSecond; }

std::string describe(const RawMeasurements& raw, const HardwareConfig& hw) {
    const std::string date = raw.measuredAt.substr(0, 10);
    const bool discarded = !hw.measured.curve(TransferDirection::ToGpu, TransferMechanism::DiscardedFault).empty();
    return fmt::format(
        "{} ({:.1f} GiB), as spillway-calibrate measured it{}: transfer times by size for "
        "managed prefetch, fault-driven migration{} and pinned copies; {:.2f} us per kernel "
        "as a replay times it",
        raw.deviceName, double(raw.gpuTotalBytes) / double(kGiB), date.empty() ? "" : " on " + date,
        discarded ? ", faults on discarded pages" : "", double(hw.kernelLaunch) / 1e3);
}

}  // namespace

double medianOf(std::vector<double> samples) {
    if (samples.empty()) throw std::invalid_argument("the median of no samples");
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

TransferCurve curveOf(const std::vector<SizeSamples>& sizes) {
    std::vector<SizeSamples> measured;
    for (const SizeSamples& s : sizes)
        if (!s.seconds.empty() && s.bytes > 0) measured.push_back(s);
    std::sort(measured.begin(), measured.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    TransferCurve curve;
    for (const SizeSamples& s : measured) {
        if (!curve.points.empty() && curve.points.back().bytes == s.bytes)
            throw std::invalid_argument(fmt::format("the size {} was measured twice", s.bytes));
        curve.points.push_back({s.bytes, rateOf(s.bytes, medianOf(s.seconds))});
    }
    if (!measured.empty()) curve.floor = nanosecondsOf(medianOf(measured.front().seconds));
    return curve;
}

bool isDuplex(const DuplexSamples& duplex) {
    if (!duplex.measured || duplex.aloneToGpu.empty() || duplex.aloneToHost.empty() || duplex.together.empty())
        return true;
    const double alone = medianOf(duplex.aloneToGpu) + medianOf(duplex.aloneToHost);
    return medianOf(duplex.together) < kDuplexFraction * alone;
}

std::string defaultCalibrationId(const std::string& deviceName) {
    std::string id;
    for (const char c : deviceName) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            id += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!id.empty() && id.back() != '-')
            id += '-';
    }
    while (!id.empty() && id.back() == '-') id.pop_back();
    return id.empty() ? "calibrated-gpu" : id;
}

HardwareConfig calibratedHardware(const RawMeasurements& raw, const std::string& id) {
    HardwareConfig hw;
    hw.id = id;
    hw.gpuCapacity = raw.gpuTotalBytes;
    hw.hostCapacity = std::max<std::int64_t>(raw.hostMemoryBytes, 0);
    hw.ssdCapacity = 0;
    for (int d : {kToGpu, kToHost})
        for (int m = 0; m < kMechanisms; ++m)
            hw.measured.curve(directionAt(d), mechanismAt(m)) = curveOf(raw.samples(d, m));
    for (int m = 0; m < kMechanisms; ++m) hw.measured.duplex[static_cast<std::size_t>(m)] = isDuplex(raw.duplex[m]);

    // The links' one bandwidth, for what has no curve and for the planners.
    for (TransferDirection d : {TransferDirection::ToGpu, TransferDirection::ToHost}) {
        LinkSpec& link = d == TransferDirection::ToGpu ? hw.hostToGpu : hw.gpuToHost;
        link.latency = 0;
        link.bytesPerSecond = largestRate(hw.measured.curve(d, TransferMechanism::ManagedPrefetch));
        if (link.bytesPerSecond == 0)
            link.bytesPerSecond = largestRate(hw.measured.curve(d, TransferMechanism::PinnedCopy));
    }
    hw.ssdToGpu = hw.gpuToSsd = hw.ssdToHost = hw.hostToSsd = hw.nvlink = LinkSpec{};
    hw.gpuCount = 1;

    hw.pageSize = 4 * kKiB;
    hw.blockSize = 2 * kMiB;
    hw.faultLatency = 0;  // the fault_migration curve is end to end
    hw.faultModel = FaultModel::Analytic;
    hw.weightsStartOn = Tier::Host;
    if (!raw.launchWithEventsSeconds.empty()) hw.kernelLaunch = nanosecondsOf(medianOf(raw.launchWithEventsSeconds));
    if (!raw.directiveSeconds.empty()) hw.directiveOverhead = nanosecondsOf(medianOf(raw.directiveSeconds));
    if (raw.discard.refused.empty() && !raw.discard.seconds.empty() && raw.discardBytes > 0) {
        const double blocks = double(raw.discardBytes) / double(hw.blockSize);
        hw.discardUnmapPerBlock = nanosecondsOf(medianOf(raw.discard.seconds) / std::max(blocks, 1.0));
    }
    if (raw.discardAndPrefetch.refused.empty() && !raw.discardAndPrefetch.seconds.empty() && raw.populateBytes > 0)
        hw.allocFemtosecondsPerByte =
            std::llround(medianOf(raw.discardAndPrefetch.seconds) * 1e15 / double(raw.populateBytes));
    hw.description = describe(raw, hw);
    return hw;
}

}  // namespace spillway::calibrate
