#pragma once
// `spillway-cli plan --order O --placement P` for Python: the same row (theoretical and actual
// peak, fragmentation, times, what was proven) plus what the CLI does not print: the run order
// and every buffer's offset in the arena.
#include "app/python/tables.h"

#include "core/trace/profile.h"

#include <string>
#include <vector>

namespace spillway::python {

struct LayoutRun {
    Record summary;
    Table offsets;  // one row per buffer (tensor or kernel workspace)
    std::vector<std::int64_t> order;
};

// Throws std::invalid_argument for an unknown order or placement, std::runtime_error with the
// placement's own message when it finds no layout.
LayoutRun layoutProfile(const Profile& profile, const std::string& order, const std::string& placement,
                        double timeLimitSeconds);

}  // namespace spillway::python
