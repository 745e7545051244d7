#pragma once
// minimalloc's CSV format: a header `id,lower,upper,size` (an optional fifth column `offset`),
// then one buffer per line, live on [lower, upper). Read strictly: errors name the file, the
// line and the field. Written back with offsets so any solver's answer can be checked by
// minimalloc's own tools.
#include "core/layout/allocation_problem.h"

#include <optional>
#include <string>

namespace spillway {

struct MinimallocCsv {
    AllocationProblem problem;
    std::optional<Layout> layout;  // present when every line had an offset
};

// Throws ImportError (core/io/base/import_error.h) with the file, line and column.
MinimallocCsv readMinimallocCsv(const std::string& path);
MinimallocCsv parseMinimallocCsv(const std::string& text, const std::string& sourceName);

// With `layout`, writes the offset column. Atomic (temporary file, then rename).
void writeMinimallocCsv(const std::string& path, const AllocationProblem& problem, const Layout* layout);
std::string formatMinimallocCsv(const AllocationProblem& problem, const Layout* layout);

}  // namespace spillway
