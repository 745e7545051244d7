#pragma once
// What the Chrome trace says about a transfer and a stall beyond the simulator's transfer log.
// The log (TransferRecord) holds link, start, end and bytes only; which tensor moved and why is
// read back here from the per-tensor residency intervals (a tensor in flight over the
// transfer's span, landing on the tier the link leads to) and the plan's directives (a
// prefetch or pre-evict of that tensor issued by then), so the engines stay as they are.
// docs/formats.md ("Chrome trace export") states the rules and their limits.
#include "core/plan/plan.h"
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

#include <string>
#include <vector>

namespace spillway {

// Why a transfer ran: a planned prefetch or pre-eviction, a demand fetch (UVM fault, or a
// tensor-level replay's synchronous read), an eviction to make room, or unknown (no tensor's
// residency explains it: NVLink shards, staging hops, runs recorded without tensor residency).
enum class TransferCause { Prefetch, PreEvict, Fault, Eviction, Unknown };
std::string_view toString(TransferCause cause);

struct TransferAttribution {
    std::vector<std::size_t> tensorPositions;  // into Profile::tensors; the best match first
    TransferCause cause = TransferCause::Unknown;
};

// One per result.transfers entry, in the same order. Needs result.tensorResidency (empty
// attributions without it).
std::vector<TransferAttribution> attributeTransfers(const Profile& profile, const Plan& plan,
                                                    const SimulationResult& result);

// For each kernel (run index) that stalled on data (fault or late-prefetch stall), the index in
// result.transfers of the inbound transfer it waited for: the one towards the GPU that ended
// last inside the kernel's stalls (fault, late prefetch, and the eviction before them), preferring transfers of tensors the kernel uses; -1 when none.
std::vector<std::int64_t> stallWaits(const Profile& profile, const Plan& plan, const SimulationResult& result,
                                     const std::vector<TransferAttribution>& attributions);

}  // namespace spillway
