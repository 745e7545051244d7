#pragma once
// One order placed by one method, as `spillway-cli plan` and `reproduce roam` report it: the
// order's theoretical peak (LOAD of its allocation problem), the arena, fragmentation, the time
// each step took and what each solver proved. The layout is verified before it is reported.
#include "core/layout/allocation_problem.h"
#include "core/layout/leaf_report.h"
#include "core/layout/operator_order.h"
#include "core/trace/profile.h"

#include <string>
#include <vector>

namespace spillway {

// What the placement takes besides the method: the search time limit, ROAM's leaf ILP and
// MODeL's limit.
struct LayoutSettings {
    double timeLimitSeconds = 10.0;  // each exact or best layout search
    bool leafIlp = false;
    double leafIlpSeconds = 1.0;
    double modelTimeLimitSeconds = 3600.0;  // --placement model: CBC on the whole problem
    unsigned threads = 0;                   // 0 = all cores
};

struct OrderedLayout {
    std::string order;
    std::string placement;
    Bytes theoreticalPeak = 0;  // LOAD of the order's allocation problem
    Bytes arena = 0;            // actual peak
    double fragmentation = 0;   // (arena - theoretical) / arena
    double orderSeconds = 0;
    double placementSeconds = 0;
    bool orderProven = false;
    bool placementProven = false;
    bool fits = false;
    std::size_t buffers = 0;
    std::int64_t timesteps = 0;  // multi-streaming: timesteps of the schedule (0: single stream)
    std::string note;
    std::string error;  // why it has no layout (the rest is then empty)
    std::vector<LeafReport> orderLeaves, layoutLeaves;  // roam: per leaf; model: the one solve
    std::string orderStatus, placementStatus;           // model: CBC's status
    // What was laid out (its ticks are timesteps when multi-streaming) and the verified layout.
    AllocationProblem problem;
    Layout layout;
};

// Places `order` with `placement` (placementMethodNames() or "model"); a failure is kept in
// `error`, never thrown, so a comparison goes on to the next row.
OrderedLayout placeOrdered(const Profile& profile, const OrderResult& order, const std::string& placement,
                           const LayoutSettings& settings);

}  // namespace spillway
