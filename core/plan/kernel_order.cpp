#include "core/plan/kernel_order.h"

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>

namespace spillway {

std::vector<std::int64_t> runOrder(const Plan& plan, std::size_t kernelCount, std::string_view context) {
    if (plan.order.empty()) {
        std::vector<std::int64_t> programOrder(kernelCount);
        std::iota(programOrder.begin(), programOrder.end(), 0);
        return programOrder;
    }
    if (plan.order.size() != kernelCount)
        throw std::invalid_argument(fmt::format("{}the plan's order has {} entries; expected one per kernel ({})",
                                                context, plan.order.size(), kernelCount));
    std::vector<char> seen(kernelCount, 0);
    const auto n = static_cast<std::int64_t>(kernelCount);
    for (std::size_t entry = 0; entry < kernelCount; ++entry) {
        const std::int64_t k = plan.order[entry];
        if (k < 0 || k >= n || seen[static_cast<std::size_t>(k)])
            throw std::invalid_argument(fmt::format(
                "{}the plan's order is not a permutation of the {} kernel positions (entry {} is {})", context,
                kernelCount, entry, k));
        seen[static_cast<std::size_t>(k)] = 1;
    }
    return plan.order;
}

}  // namespace spillway
