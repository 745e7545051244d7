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
}  // namespace

MeasuredComparison compareMeasured(const MeasuredTimeline& measured, const SimulationResult& simulated,
                                   std::int64_t iteration, std::size_t worstCount) {
    if (!simulated.cannotRun.empty())
        throw std::invalid_argument("the simulated run could not run: " + simulated.cannotRun);
    if (measured.iterations.empty()) throw std::invalid_argument("the measured timeline has no iterations");
    const auto count = static_cast<std::int64_t>(measured.iterations.size());
    if (iteration < 0) iteration = count - 1;
    if (iteration >= count)
        throw std::invalid_argument("the measured timeline has " + std::to_string(count) + " iterations; iteration " +
                                    std::to_string(iteration) + " asked for");
    const MeasuredIteration& it = measured.iterations[static_cast<std::size_t>(iteration)];
    if (it.kernels.size() != simulated.kernels.size())
        throw std::invalid_argument("the measured iteration has " + std::to_string(it.kernels.size()) +
                                    " kernels, the simulated run " + std::to_string(simulated.kernels.size()) +
                                    ": not the same plan and profile");

    MeasuredComparison c;
    c.iteration = iteration;
    c.simulatedTotal = simulated.iterationTime;
    const Nanoseconds simOrigin = simulated.kernels.empty() ? 0 : simulated.kernels.front().start;
    const Nanoseconds measuredOrigin = it.kernels.empty() ? it.startNs : it.kernels.front().readyNs;
    c.measuredTotal = it.kernels.empty() ? 0 : checkedDifference(it.kernels.back().endNs, measuredOrigin);
    c.totalError = checkedDifference(c.measuredTotal, c.simulatedTotal);
    c.totalRelativeError = c.simulatedTotal > 0 ? double(c.totalError) / double(c.simulatedTotal) : 0.0;

    Nanoseconds absSum = 0;
    c.kernels.reserve(it.kernels.size());
    for (std::size_t i = 0; i < it.kernels.size(); ++i) {
        const MeasuredKernel& m = it.kernels[i];
        const KernelTiming& s = simulated.kernels[i];
        KernelError e;
        e.runIndex = m.runIndex;
        e.position = m.position;
        e.name = m.name;
        e.simulatedStart = s.start - simOrigin;  // a run's times: 0 <= origin <= start <= end
        e.simulatedDuration = s.end - s.start;
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

}  // namespace spillway
