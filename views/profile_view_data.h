#pragma once
// Everything the profile views show about one profile, computed once on a worker thread and never
// changed afterwards: models and widgets only rebind to a new instance (or to none). Sharing it
// between the GUI thread and a finished worker is safe because nobody writes to it.
#include "core/analysis/frame_totals.h"
#include "core/analysis/liveness.h"
#include "core/analysis/peak.h"
#include "core/analysis/profile_summary.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace spillway::views {

struct ProfileViewData {
    std::shared_ptr<const Profile> profile;
    ProfileSummary summary;
    Liveness liveness;                         // parallel to profile->tensors
    std::vector<Bytes> liveBytesPerKernel;     // theoretical live bytes, parallel to kernels
    std::vector<std::int64_t> tensorProducer;  // first kernel position writing it; -1 = none
    std::vector<Bytes> kernelInputBytes;       // parallel to profile->kernels
    std::vector<Bytes> kernelOutputBytes;
    std::int64_t validationProblemCount = 0;
    std::vector<std::string> firstValidationProblems;  // "pointer: message", a few at most
    FrameTotals frameTotals;  // bytes by allocating stack frame; empty when no tensor has a stack
};

// Heavy (linear in the profile, plus the peak analysis): call it off the GUI thread.
std::shared_ptr<const ProfileViewData> makeProfileViewData(std::shared_ptr<const Profile> profile);

}  // namespace spillway::views
