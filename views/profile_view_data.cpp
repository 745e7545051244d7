#include "views/profile_view_data.h"

#include "core/trace/validate.h"

namespace spillway::views {

namespace {

constexpr size_t kValidationProblemsKept = 5;

// Unknown tensor ids (a profile that fails validation) count as zero bytes rather than failing:
// the tables still show what is there, and the overview reports the validation problems.
Bytes sumBytes(const std::vector<TensorId>& ids, const Profile& profile, const ProfileIndex& index) {
    Bytes total = 0;
    for (auto id : ids)
        if (const auto pos = index.tensorPos(id); pos >= 0) total += profile.tensors[pos].bytes;
    return total;
}

}  // namespace

std::shared_ptr<const ProfileViewData> makeProfileViewData(std::shared_ptr<const Profile> profile) {
    auto data = std::make_shared<ProfileViewData>();
    const Profile& p = *profile;
    const ProfileIndex index(p);
    data->summary = summarizeProfile(p);
    data->liveness = computeLiveness(p);
    data->liveBytesPerKernel = theoreticalPeak(p, data->liveness).liveBytes;
    data->frameTotals = computeFrameTotals(p, &data->liveness);

    data->tensorProducer.assign(p.tensors.size(), -1);
    data->kernelInputBytes.reserve(p.kernels.size());
    data->kernelOutputBytes.reserve(p.kernels.size());
    for (size_t k = 0; k < p.kernels.size(); ++k) {
        const auto& kernel = p.kernels[k];
        data->kernelInputBytes.push_back(sumBytes(kernel.inputs, p, index));
        data->kernelOutputBytes.push_back(sumBytes(kernel.outputs, p, index));
        for (auto id : kernel.outputs) {
            const auto pos = index.tensorPos(id);
            if (pos >= 0 && data->tensorProducer[pos] < 0) data->tensorProducer[pos] = static_cast<std::int64_t>(k);
        }
    }

    const auto problems = validateProfile(p);
    data->validationProblemCount = static_cast<std::int64_t>(problems.size());
    for (size_t i = 0; i < problems.size() && i < kValidationProblemsKept; ++i)
        data->firstValidationProblems.push_back(problems[i].pointer + ": " + problems[i].message);

    data->profile = std::move(profile);
    return data;
}

}  // namespace spillway::views
