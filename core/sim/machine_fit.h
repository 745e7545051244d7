#pragma once
// What the paged simulator checks before it allocates anything per block (its block table holds
// an entry per 2 MiB): that the profile's numbers are within their bounds and their totals fit
// in 64 bits (checkedProfileTotals), and that the profile can fit the machine at all. Without
// it a 32 TiB tensor cost 2.4 GB of block table before the capacity error came, and one of
// 2^63 - 1 bytes grew until the process was killed.
#include "core/analysis/profile_totals.h"
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <cstdint>

namespace spillway::sim {

// The most blocks the simulator tracks: 16 TiB of tensors at 2 MiB blocks, a block table of
// about 600 MB. The largest profiles we know are under 1 TiB (half a million blocks).
inline constexpr std::int64_t kMaxSimulatedBlocks = std::int64_t{1} << 23;

// Throws, before anything per block exists:
//   std::invalid_argument  a number out of its bounds (checkedProfileTotals), or more blocks than
//                          kMaxSimulatedBlocks (the message says to raise block_size_bytes);
//   NumberOverflow         a total that does not fit in 64 bits;
//   std::runtime_error     "does not fit": a tensor larger than the GPU, host and SSD together
//                          (an SSD capacity of 0 is no limit), or a kernel whose tensors and
//                          workspace are more than the GPU holds and that cannot stream the
//                          excess: under g10-calibrated, with a workspace larger than the GPU,
//                          or needing more than GPU, host and SSD together (docs/simulator.md,
//                          "A kernel larger than the GPU").
// The totals it returns bound every byte count the simulator keeps (what is on each tier, in
// flight, reserved): each is a sum of some of the profile's tensors and workspaces.
ProfileTotals checkProfileFitsMachine(const Profile& profile, const HardwareConfig& hw);

}  // namespace spillway::sim
