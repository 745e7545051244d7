#pragma once
#include "core/trace/profile.h"

#include <string>
#include <vector>

namespace spillway {

// One thing wrong with a profile, with where it is as a JSON pointer into the native format
// ("/kernels/12/inputs/1"), so the same location works for a file and for an in-memory profile.
struct ValidationProblem {
    std::string pointer;
    std::string message;
    bool operator==(const ValidationProblem&) const = default;
};

// Reports every problem, not only the first: unknown tensor or job ids, duplicate ids, zero or
// negative sizes and durations, sizes, durations and times past the bounds of number_limits.h
// (which the importers enforce too, but a profile built in memory did not pass one), tensors read
// before any kernel produced them, and cycles in the kernel dependency graph derived from the
// tensors. Persistent tensors (weights, optimizer
// state) are exempt from the order rules: they carry over from the previous iteration.
std::vector<ValidationProblem> validateProfile(const Profile& profile);

}  // namespace spillway
