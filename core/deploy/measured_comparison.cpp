#include "core/deploy/measured_comparison.h"

#include "core/trace/number_limits.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace spillway {

namespace {
// a - b. The measured times come from a file and the simulated ones from a run: each is in
// range, their difference need not be.
Nanoseconds checkedDifference(Nanoseconds a, Nanoseconds b) {
    Nanoseconds d = 0;
    if (__builtin_sub_overflow(a, b, &d) || d == std::numeric_limits<Nanoseconds>::min())
        throw NumberOverflow("a measured time minus a simulated one overflows 64 bits (" + std::to_string(a) + " - " +
                             std::to_string(b) + ")");
    return d;
}
struct Window {
    Nanoseconds start = 0;
    Nanoseconds end = 0;
};

const MeasuredIteration& measuredIteration(const MeasuredTimeline& measured, std::int64_t& iteration) {
    if (measured.iterations.empty()) throw std::invalid_argument("the measured timeline has no iterations");
    const auto count = static_cast<std::int64_t>(measured.iterations.size());
    if (iteration < 0) iteration = count - 1;
    if (iteration >= count)
        throw std::invalid_argument("the measured timeline has " + std::to_string(count) + " iterations; iteration " +
                                    std::to_string(iteration) + " asked for");
    return measured.iterations[static_cast<std::size_t>(iteration)];
}

// One measured iteration against the predicted kernel windows (run order, on the prediction's
// clock) and the predicted iteration time.
MeasuredComparison compareWindows(const MeasuredIteration& it, std::int64_t iteration, const std::vector<Window>& predicted,
                                  Nanoseconds predictedTotal, std::size_t worstCount) {
    if (it.kernels.size() != predicted.size())
        throw std::invalid_argument("the measured iteration has " + std::to_string(it.kernels.size()) +
                                    " kernels, the simulated run " + std::to_string(predicted.size()) +
                                    ": not the same plan and profile");
    MeasuredComparison c;
    c.iteration = iteration;
    c.simulatedTotal = predictedTotal;
    const Nanoseconds simOrigin = predicted.empty() ? 0 : predicted.front().start;
    const Nanoseconds measuredOrigin = it.kernels.empty() ? it.startNs : it.kernels.front().readyNs;
    c.measuredTotal = it.kernels.empty() ? 0 : checkedDifference(it.kernels.back().endNs, measuredOrigin);
    c.totalError = checkedDifference(c.measuredTotal, c.simulatedTotal);
    c.totalRelativeError = c.simulatedTotal > 0 ? double(c.totalError) / double(c.simulatedTotal) : 0.0;

    Nanoseconds absSum = 0;
    c.kernels.reserve(it.kernels.size());
    for (std::size_t i = 0; i < it.kernels.size(); ++i) {
        const MeasuredKernel& m = it.kernels[i];
        KernelError e;
        e.runIndex = m.runIndex;
        e.position = m.position;
        e.name = m.name;
        e.simulatedStart = predicted[i].start - simOrigin;  // a run's times: 0 <= origin <= start <= end
        e.simulatedDuration = predicted[i].end - predicted[i].start;
        e.measuredStart = checkedDifference(m.readyNs, measuredOrigin);
        e.measuredDuration = checkedDifference(m.endNs, m.readyNs);
        e.startError = checkedDifference(e.measuredStart, e.simulatedStart);
        e.durationError = checkedDifference(e.measuredDuration, e.simulatedDuration);
        absSum = checkedAdd(absSum, std::llabs(e.durationError), "the sum of the kernels' duration errors");
        c.kernels.push_back(std::move(e));
    }
    c.meanAbsDurationError = c.kernels.empty() ? 0 : absSum / static_cast<Nanoseconds>(c.kernels.size());

    c.worst.resize(c.kernels.size());
    std::iota(c.worst.begin(), c.worst.end(), 0);
    // Ties keep run order, so the list is the same on every machine.
    std::stable_sort(c.worst.begin(), c.worst.end(), [&](std::int64_t a, std::int64_t b) {
        return std::llabs(c.kernels[a].durationError) > std::llabs(c.kernels[b].durationError);
    });
    if (c.worst.size() > worstCount) c.worst.resize(worstCount);
    return c;
}

}  // namespace

MeasuredComparison compareMeasured(const MeasuredTimeline& measured, const SimulationResult& simulated,
                                   std::int64_t iteration, std::size_t worstCount) {
    if (!simulated.cannotRun.empty())
        throw std::invalid_argument("the simulated run could not run: " + simulated.cannotRun);
    const MeasuredIteration& it = measuredIteration(measured, iteration);
    std::vector<Window> windows;
    windows.reserve(simulated.kernels.size());
    for (const KernelTiming& k : simulated.kernels) windows.push_back({k.start, k.end});
    return compareWindows(it, iteration, windows, simulated.iterationTime, worstCount);
}

MeasuredComparison compareWithModel(const MeasuredTimeline& measured, const MeasuredTimeline& model,
                                    std::int64_t iteration, std::size_t worstCount) {
    const MeasuredIteration& it = measuredIteration(measured, iteration);
    std::int64_t same = iteration;
    const MeasuredIteration& predicted = measuredIteration(model, same);
    if (same != iteration)
        throw std::invalid_argument("the model has " + std::to_string(model.iterations.size()) +
                                    " iterations, the measured timeline " + std::to_string(measured.iterations.size()));
    // The measured window of a kernel is [ready, end): it holds the wait for prefetches, and so
    // does the model's.
    std::vector<Window> windows;
    windows.reserve(predicted.kernels.size());
    for (const MeasuredKernel& k : predicted.kernels) windows.push_back({k.readyNs, k.endNs});
    const Nanoseconds total = predicted.kernels.empty() ? 0 : predicted.kernels.back().endNs - predicted.kernels.front().readyNs;
    return compareWindows(it, iteration, windows, total, worstCount);
}

}  // namespace spillway
