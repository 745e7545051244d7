#pragma once
// G10's own tensor analysis as its simulator printed it (interval.config), and the same facts
// derived from our liveness and inactive intervals under G10's conventions, so the two can be
// compared record by record. Conventions and the mapping: docs/analysis.md.
#include "core/analysis/inactive_intervals.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct G10Interval {
    std::int64_t start = -1;       // first idle kernel (G10: use + 1, or 0 after the last kernel)
    std::int64_t end = -1;         // the kernel of the next use
    double estimatedTimeUs = 0;    // G10's "Estimated Time": kernel times start..end-1, in us

    bool operator==(const G10Interval&) const = default;
};

struct G10TensorIntervals {
    std::int64_t tensor = -1;      // the N of "tensorN"
    bool global = false;           // G10's "Is weight (global)": our persistent tensors
    Bytes bytes = 0;               // "Size in byte" (page-rounded by G10)
    // Non-global only: Birth = first kernel that reads or writes it; Death = one past the last
    // kernel that reads it, or -1 when nothing reads it.
    std::int64_t birth = -1;
    std::int64_t death = -1;
    std::vector<G10Interval> intervals;  // in G10's order

    bool operator==(const G10TensorIntervals&) const = default;
};

// Throws ImportError (file:line) on anything that is not G10's layout, including a tensor with
// two liveness lines or an "Estimated Time" without an interval before it.
std::vector<G10TensorIntervals> parseG10IntervalConfig(std::string_view text, const std::string& fileLabel);
std::vector<G10TensorIntervals> readG10IntervalConfig(const std::filesystem::path& path);

// Our analysis expressed in G10's conventions, one record per profile tensor (profile order).
// `tensor` is the tensor id and `bytes` its size as in the profile.
std::vector<G10TensorIntervals> toG10Conventions(const Profile& profile, const Liveness& liveness,
                                                 const InactiveIntervals& intervals);

}  // namespace spillway
