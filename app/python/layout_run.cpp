#include "app/python/layout_run.h"

#include "core/layout/operator_order.h"
#include "core/layout/ordered_layout.h"
#include "core/layout/placement.h"

#include <algorithm>
#include <stdexcept>

namespace spillway::python {

namespace {

// Before the order is searched (seconds on a large profile), as `spillway-cli plan` does.
void checkPlacementName(const std::string& placement) {
    auto known = placementMethodNames();
    known.push_back("model");  // MODeL's whole-problem ILP
    if (std::find(known.begin(), known.end(), placement) != known.end()) return;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    throw std::invalid_argument("unknown placement method '" + placement + "' (expected one of: " + list + ")");
}

Table offsetTable(const AllocationProblem& problem, const Layout& layout) {
    const auto& b = problem.buffers;
    std::vector<std::int64_t> offsets = layout.offsets;
    using I = std::int64_t;
    return {column<std::string>("buffer", b, [](const Buffer& x) { return x.id; }),
            column<I>("tensor", b, [](const Buffer& x) { return x.origin.tensor; }),
            column<I>("workspace_kernel_position", b, [](const Buffer& x) { return x.origin.kernelPos; }),
            column<I>("size_bytes", b, [](const Buffer& x) { return x.size; }),
            {"offset_bytes", offsets},
            column<I>("first_tick", b, [](const Buffer& x) { return x.lower; }),
            column<I>("end_tick", b, [](const Buffer& x) { return x.upper; })};
}

}  // namespace

LayoutRun layoutProfile(const Profile& profile, const std::string& orderMethod, const std::string& placement,
                        double timeLimitSeconds) {
    checkPlacementName(placement);
    OrderOptions orderOptions;
    orderOptions.timeLimitSecondsPerSegment = timeLimitSeconds;
    const OrderResult order = orderOperators(orderMethod, profile, orderOptions);
    LayoutSettings settings;  // as `spillway-cli plan` places a row (MODeL's ILP: its default limit)
    settings.timeLimitSeconds = timeLimitSeconds;
    OrderedLayout row = placeOrdered(profile, order, placement, settings);
    if (!row.error.empty()) throw std::runtime_error(row.error);
    if (!row.fits) throw std::runtime_error("the " + placement + " placement found no layout: " + row.note);
    Record summary{{"order", row.order},
                   {"placement", row.placement},
                   {"buffers", static_cast<std::int64_t>(row.buffers)},
                   {"theoretical_peak_bytes", row.theoreticalPeak},
                   {"actual_peak_bytes", row.arena},
                   {"fragmentation", row.fragmentation},
                   {"order_seconds", row.orderSeconds},
                   {"placement_seconds", row.placementSeconds},
                   {"order_proven_optimal", row.orderProven},
                   {"placement_proven_optimal", row.placementProven},
                   {"note", row.note}};
    return {std::move(summary), offsetTable(row.problem, row.layout), order.order};
}

}  // namespace spillway::python
