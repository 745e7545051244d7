#include "core/io/gpu_activity/kernel_iterations.h"

#include "core/io/base/import_error.h"
#include "core/io/gpu_activity/kernel_name_phases.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace spillway::gpu_activity {

namespace {

using Positions = std::vector<std::size_t>;

std::size_t smallestGap(const Positions& occ) {
    std::size_t gap = std::numeric_limits<std::size_t>::max();
    for (std::size_t k = 1; k < occ.size(); ++k) gap = std::min(gap, occ[k] - occ[k - 1]);
    return gap;
}

// Of the names occurring N times, those in lockstep with the most evenly spread one: each
// occurrence k lies between that name's occurrences k-1 and k+1, on the same side of its
// occurrence k every time.
std::vector<const Positions*> lockstep(const std::vector<const Positions*>& candidates) {
    const Positions* reference = nullptr;
    for (const auto* occ : candidates)
        if (!reference || smallestGap(*occ) > smallestGap(*reference) ||
            (smallestGap(*occ) == smallestGap(*reference) && occ->front() < reference->front()))
            reference = occ;
    const Positions& r = *reference;
    std::vector<const Positions*> out;
    for (const auto* occ : candidates) {
        const Positions& x = *occ;
        bool ok = true;
        int side = 0;
        for (std::size_t k = 0; k < x.size() && ok; ++k) {
            const int s = x[k] < r[k] ? -1 : x[k] > r[k] ? 1 : 0;
            ok = (k == 0 || x[k] > r[k - 1]) && (k + 1 == x.size() || x[k] < r[k + 1]) && (k == 0 || s == side);
            side = s;
        }
        if (ok) out.push_back(occ);
    }
    return out;
}

bool isOptimizer(const std::vector<std::optional<KernelPhase>>& phases, std::size_t i) {
    return phases[i] == KernelPhase::Optimizer;
}

// Where iteration k begins, between the previous iteration's last anchor and this one's first:
// after the optimizer's last kernel there, else at the GPU's longest pause.
std::size_t boundaryBetween(std::size_t lastAnchor, std::size_t firstAnchor,
                            const std::vector<std::optional<KernelPhase>>& phases,
                            const std::vector<Nanoseconds>& starts, const std::vector<Nanoseconds>& ends) {
    for (std::size_t i = firstAnchor; i > lastAnchor + 1; --i)
        if (isOptimizer(phases, i - 1)) return i;
    std::size_t best = lastAnchor + 1;
    Nanoseconds longest = std::numeric_limits<Nanoseconds>::min();
    for (std::size_t i = lastAnchor + 1; i <= firstAnchor; ++i)
        if (const auto pause = starts[i] - ends[i - 1]; pause > longest) longest = pause, best = i;
    return best;
}

// Every iteration holds forward (or loss) and backward kernels, when the capture has backward ones.
bool eachIterationHasBothPasses(const std::vector<IterationSpan>& spans,
                                const std::vector<std::optional<KernelPhase>>& phases) {
    if (std::none_of(phases.begin(), phases.end(), [](const auto& p) { return p == KernelPhase::Backward; }))
        return true;
    return std::all_of(spans.begin(), spans.end(), [&](const IterationSpan& s) {
        bool forward = false, backward = false;
        for (std::size_t i = s.begin; i < s.end; ++i) {
            forward = forward || phases[i] == KernelPhase::Forward || phases[i] == KernelPhase::Loss;
            backward = backward || phases[i] == KernelPhase::Backward;
        }
        return forward && backward;
    });
}

// The iterations the anchors give, or none when two of them would overlap.
std::vector<IterationSpan> spansOf(const std::vector<const Positions*>& anchors,
                                   const std::vector<std::optional<KernelPhase>>& phases,
                                   const std::vector<Nanoseconds>& starts, const std::vector<Nanoseconds>& ends) {
    const std::size_t count = anchors.front()->size(), n = phases.size();
    std::vector<std::size_t> first(count, n), last(count, 0);
    for (const auto* occ : anchors)
        for (std::size_t k = 0; k < count; ++k) {
            first[k] = std::min(first[k], (*occ)[k]);
            last[k] = std::max(last[k], (*occ)[k]);
        }
    for (std::size_t k = 1; k < count; ++k)
        if (last[k - 1] >= first[k]) return {};
    std::vector<std::size_t> begin(count + 1);
    for (std::size_t k = 1; k < count; ++k) begin[k] = boundaryBetween(last[k - 1], first[k], phases, starts, ends);
    const std::size_t lead = first[1] - begin[1];  // how far the second iteration starts before its first anchor
    begin[0] = first[0] >= lead ? first[0] - lead : 0;
    begin[count] = std::min(n, last[count - 1] + (begin[count - 1] - last[count - 2]));
    for (std::size_t i = n; i > last[count - 1] + 1; --i)
        if (isOptimizer(phases, i - 1)) {
            begin[count] = i;
            break;
        }
    std::vector<IterationSpan> spans;
    for (std::size_t k = 0; k < count; ++k) spans.push_back({begin[k], begin[k + 1]});
    return spans;
}

}  // namespace

FoundIterations findIterations(const std::vector<std::string>& names,
                               const std::vector<std::optional<KernelPhase>>& phases,
                               const std::vector<Nanoseconds>& starts, const std::vector<Nanoseconds>& ends) {
    FoundIterations out;
    out.spans = {{0, names.size()}};
    std::unordered_map<std::string_view, Positions> occurrences;
    for (std::size_t i = 0; i < names.size(); ++i) occurrences[names[i]].push_back(i);
    std::map<std::size_t, std::vector<const Positions*>, std::greater<>> byCount;
    std::map<const Positions*, std::string_view> nameOf;
    for (const auto& [name, occ] : occurrences)
        if (occ.size() >= 2) {
            byCount[occ.size()].push_back(&occ);
            nameOf[&occ] = name;
        }
    for (auto& [count, candidates] : byCount) {
        if (candidates.size() < 2) continue;
        // A fixed order, whatever the hash map's: by first occurrence.
        std::sort(candidates.begin(), candidates.end(), [](const Positions* a, const Positions* b) { return a->front() < b->front(); });
        const auto anchors = lockstep(candidates);
        if (anchors.size() < 2) continue;
        auto spans = spansOf(anchors, phases, starts, ends);
        if (spans.empty() || !eachIterationHasBothPasses(spans, phases)) continue;
        out.spans = std::move(spans);
        out.anchors = anchors.size();
        // The shortest name, for the note.
        for (const auto* a : anchors)
            if (const auto f = kernelFunctionName(nameOf.at(a)); out.anchorExample.empty() || f.size() < out.anchorExample.size())
                out.anchorExample = f;
        break;
    }
    return out;
}

ChosenIteration chooseIteration(const FoundIterations& found, const std::vector<std::string>& names,
                                std::int64_t iteration, const std::string& file) {
    const auto count = static_cast<std::int64_t>(found.spans.size());
    if (iteration == ImportOptions::kAllIterations)
        return {0, names.size(), "all", "every kernel of the capture (--iteration all)"};
    if (iteration < ImportOptions::kAllIterations || iteration > count)
        throw ImportError(file, fmt::format("iteration {} was asked for, but the capture holds {} iteration{} "
                                            "(give 1 to {}, or all)",
                                            iteration, count, count == 1 ? "" : "s", count));
    auto sameNames = [&](const IterationSpan& a, const IterationSpan& b) {
        return a.end - a.begin == b.end - b.begin &&
               std::equal(names.begin() + static_cast<std::ptrdiff_t>(a.begin),
                          names.begin() + static_cast<std::ptrdiff_t>(a.end),
                          names.begin() + static_cast<std::ptrdiff_t>(b.begin));
    };
    std::int64_t k = iteration;
    std::string why = "asked for";
    if (iteration == ImportOptions::kSteadyIteration) {
        k = count;
        why = count > 1 ? "the last (no iteration repeats the kernels of the one before)" : "the only one";
        for (std::int64_t i = 1; i < count; ++i)
            if (sameNames(found.spans[static_cast<std::size_t>(i - 1)], found.spans[static_cast<std::size_t>(i)])) {
                k = i + 1;
                why = "the first that runs the same kernels as the one before: warm-up is over, cuDNN has chosen its "
                      "algorithms and the optimizer has its state";
                break;
            }
    }
    const auto& span = found.spans[static_cast<std::size_t>(k - 1)];
    return {span.begin, span.end, std::to_string(k), why};
}

void noteIterations(const FoundIterations& found, const ChosenIteration& chosen, std::size_t kernels,
                    std::map<std::string, std::string>& notes) {
    const auto& spans = found.spans;
    notes["iterations.found"] = std::to_string(spans.size());
    notes["iterations.imported"] = chosen.imported;
    std::string sizes;
    for (const auto& s : spans) sizes += fmt::format("{}{}", sizes.empty() ? "" : ", ", s.end - s.begin);
    const std::string how =
        found.anchors
            ? fmt::format("{} kernel names occur once in each of {} iterations, in the same order (one is {}); an "
                          "iteration ends after the optimizer's kernels (else at the GPU's longest pause between "
                          "two iterations' kernels); kernels per iteration: {}; {} kernels before the first and {} "
                          "after the last are not part of any",
                          found.anchors, spans.size(), found.anchorExample, sizes, spans.front().begin,
                          kernels - spans.back().end)
            : std::string("no kernel names repeat once per iteration in lockstep: the capture is one iteration");
    notes["iterations.rule"] = fmt::format("{}; imported: {} ({}), the capture's kernels {} to {}", how,
                                           chosen.imported == "all" ? "all" : "iteration " + chosen.imported,
                                           chosen.why, chosen.begin, chosen.end - 1);
}

}  // namespace spillway::gpu_activity
