#include "core/experiment/discard_workloads.h"

#include "core/trace/darknet_training_graph.h"
#include "core/trace/fir_filter_graph.h"
#include "core/trace/hash_join_graph.h"
#include "core/trace/radix_sort_graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

namespace spillway::discard {

namespace {

// The workloads, by id (the generate subcommand) and by name (the report's).
const std::vector<std::pair<std::string, std::string>> kWorkloads{
    {"fir", "FIR"}, {"radix-sort", "Radix-sort"}, {"hash-join", "Hash-join"},
    {"vgg16", "VGG-16"}, {"resnet53", "ResNet-53"}, {"darknet19", "Darknet-19"}};

}  // namespace

void checkOnly(const std::vector<std::string>& only) {
    for (const std::string& name : only) {
        bool known = false;
        for (const auto& [id, full] : kWorkloads) known |= name == id || name == full;
        if (known) continue;
        std::string list;
        for (const auto& w : kWorkloads) list += (list.empty() ? "" : ", ") + w.first;
        throw std::invalid_argument("UVM Discard has no workload \"" + name + "\"; it has " + list);
    }
}

bool chosen(const std::vector<std::string>& only, const std::string& id) {
    if (only.empty()) return true;
    for (const auto& workload : kWorkloads) {
        if (workload.first != id) continue;
        // Named by its id or its full name ("fir" or "FIR").
        const auto named = [&](const std::string& n) { return n == workload.first || n == workload.second; };
        if (std::find_if(only.begin(), only.end(), named) != only.end()) return true;
    }
    return false;
}

Profile microProfile(const std::string& id, Bytes footprint, const GpuRoofline& gpu) {
    if (id == "fir") return firFilterGraph({footprint, 64 * kMiB, 16, gpu});
    if (id == "radix-sort") return radixSortGraph({footprint, 64 * kMiB, 4, gpu});
    return hashJoinGraph({footprint, 64 * kMiB, gpu});
}

std::vector<Network> networks(const DiscardReproductionScope& scope, const std::vector<std::string>& only) {
    std::vector<Network> chosenNets;
    for (const Network& n : {Network{&darknetVgg16(), scope.vgg16Batches}, Network{&darknet53(), scope.resnet53Batches},
                             Network{&darknet19(), scope.darknet19Batches}})
        if (chosen(only, n.net->id)) chosenNets.push_back(n);
    return chosenNets;
}

std::vector<BatchProfile> darknetProfiles(const DarknetNetwork& net, const std::vector<std::int64_t>& batches,
                                          const GpuRoofline& gpu) {
    std::vector<BatchProfile> profiles;
    for (std::int64_t b : batches) {
        auto p = std::make_shared<Profile>(darknetTrainingGraph(net, {b, gpu}));
        profiles.push_back({fmt::format("spillway-cli generate {} --batch {} --gpu {}", net.id, b, gpu.id), p});
    }
    return profiles;
}

Bytes footprintOf(const Profile& p) {
    Bytes workspace = 0;
    for (const Kernel& k : p.kernels) workspace = std::max(workspace, k.workspaceBytes);
    return p.totalTensorBytes() + workspace;
}

}  // namespace spillway::discard
