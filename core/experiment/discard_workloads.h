#pragma once
// UVM Discard's workloads, generated (docs/uvm-discard-reproduction.md): the micro-benchmarks FIR,
// Radix-sort and Hash-join sized for the 3080 Ti (core/trace: fir_filter_graph, radix_sort_graph,
// hash_join_graph), and VGG-16, ResNet-53 (Darknet-53) and Darknet-19 training steps over batch
// sizes (darknet_training_graph), all with roofline kernel times; and which of them a run wants.
#include "core/experiment/discard_scope.h"
#include "core/sweep/batch_profiles.h"
#include "core/trace/darknet_networks.h"
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway::discard {

// options.only: empty runs everything; a name neither id ("fir", the generate subcommand's) nor
// name ("FIR", the report's) of a workload is an std::invalid_argument listing the ids.
void checkOnly(const std::vector<std::string>& only);
// Whether the workload with this id is to run.
bool chosen(const std::vector<std::string>& only, const std::string& id);

// A micro-benchmark ("fir", "radix-sort", "hash-join") of about `footprint` bytes.
Profile microProfile(const std::string& id, Bytes footprint, const GpuRoofline& gpu);

// A network and the batch sizes it runs at.
struct Network {
    const DarknetNetwork* net;
    std::vector<std::int64_t> batches;
};
// VGG-16, ResNet-53, Darknet-19 at the scope's batches, those chosen only.
std::vector<Network> networks(const DiscardReproductionScope& scope, const std::vector<std::string>& only);

// One training step per batch, each named by the command that makes it.
std::vector<BatchProfile> darknetProfiles(const DarknetNetwork& net, const std::vector<std::int64_t>& batches,
                                          const GpuRoofline& gpu);
// What a step allocates: every tensor and the largest workspace.
Bytes footprintOf(const Profile& p);

}  // namespace spillway::discard
