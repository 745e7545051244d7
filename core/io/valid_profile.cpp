#include "core/io/valid_profile.h"

#include "core/analysis/profile_totals.h"
#include "core/io/base/import_error.h"
#include "core/trace/number_limits.h"
#include "core/trace/validate.h"

#include <fmt/format.h>

namespace spillway {

namespace {

// The usual cause of every duration being 0, said once instead of in each problem.
constexpr const char* kNoKernelTimesHint =
    "; no kernel has a time: a G10 transformer graph needs its cudnn<B>*.txt measurements (--results)";

bool noKernelTimes(const Profile& profile) {
    if (profile.kernels.empty()) return false;
    for (const Kernel& k : profile.kernels)
        if (k.duration != 0) return false;
    return true;
}

}  // namespace

void requireValidProfile(const Profile& profile, const std::string& label) {
    const auto problems = validateProfile(profile);
    if (problems.empty()) {
        // Each number is within its bound; their totals must fit 64 bits too (a million tensors
        // of a PiB), checked here so the error names the file, not only the analysis.
        try {
            checkedProfileTotals(profile);
        } catch (const NumberOverflow& e) {
            throw ImportError(label, e.what());
        }
        return;
    }
    const ValidationProblem& first = problems.front();
    SourceLocation where;
    where.file = label;
    where.jsonPointer = first.pointer;
    // The first problem says what is wrong; validate lists the rest, so a profile with thousands
    // of problems (a G10 graph without measurements) does not flood the error.
    throw ImportError(where, fmt::format("{} ({} problem{}; `spillway-cli validate {}` lists them all){}",
                                         first.message, problems.size(), problems.size() == 1 ? "" : "s", label,
                                         noKernelTimes(profile) ? kNoKernelTimesHint : ""));
}

Profile loadValidProfile(const std::filesystem::path& path, const ImportOptions& options) {
    Profile profile = loadProfile(path, options);
    requireValidProfile(profile, path.string());
    return profile;
}

Profile loadValidProfile(const std::filesystem::path& path, const ImportOptions& options,
                         const LoadProgress& progress) {
    Profile profile = loadProfile(path, options, progress);
    requireValidProfile(profile, path.string());
    return profile;
}

}  // namespace spillway
