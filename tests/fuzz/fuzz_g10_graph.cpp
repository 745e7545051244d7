// G10's transformer graphs (frontend/Nets/*.txt, core/io/g10): parsed from memory and expanded
// into kernels and tensors at batch 4, as importG10Graph does. The weight threshold is one the
// importer knows (BERT_Base, VIT, NeRF), or, as for a graph G10 did not ship, the smallest op id,
// or one above the smallest input id: the first that expands is used, so the real graphs and
// the test fixtures get past expansion. Each kernel gets 1 us (the measurements' part), then the
// profile is validated and round-tripped.
#include "core/io/base/import_error.h"
#include "core/io/g10/g10_graph_expand.h"
#include "core/io/g10/g10_graph_parser.h"
#include "core/io/g10/g10_profile_build.h"
#include "tests/fuzz/harness_support.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <vector>

namespace {

std::vector<std::int64_t> thresholdsToTry(const spillway::G10Graph& graph) {
    std::vector<std::int64_t> thresholds;
    for (const char* model : {"BERT_Base", "VIT", "NeRF"})
        if (const auto known = spillway::knownG10WeightThreshold(model)) thresholds.push_back(*known);
    std::int64_t smallest = graph.ops.front().id;
    std::int64_t smallestInput = smallest;
    for (const auto& op : graph.ops) {
        smallest = std::min(smallest, op.id);
        for (const auto& input : op.inputs) smallestInput = std::min(smallestInput, input.id);
    }
    thresholds.push_back(smallest);
    // Only the smallest input a weight (a threshold a user may give, as the tests do).
    if (smallestInput < std::numeric_limits<std::int64_t>::max()) thresholds.push_back(smallestInput + 1);
    return thresholds;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return spillway::fuzz::runHarness([&] {
        const auto graph = spillway::parseG10Graph("fuzz.txt", spillway::fuzz::asText(data, size));
        // importG10Graph reads ops.front(): the parser must refuse a graph without ops.
        if (graph.ops.empty()) spillway::fuzz::finding("parseG10Graph", "accepted a graph with no ops");
        std::exception_ptr lastRefusal;
        for (const auto threshold : thresholdsToTry(graph)) {
            spillway::G10RawWorkload raw;
            try {
                raw = spillway::expandG10Graph(graph, 4, threshold);
            } catch (const spillway::ImportError&) {
                lastRefusal = std::current_exception();
                continue;
            }
            spillway::ProfileMetadata metadata;
            metadata.model = "fuzz";
            metadata.batch = 4;
            metadata.source = "g10-graph";
            auto profile = spillway::buildG10Profile(std::move(raw), std::move(metadata));
            // Durations come from the cudnn<B>*.txt measurements (--results), without which the
            // profile is refused as invalid: 1 us a kernel stands in for them.
            for (auto& kernel : profile.kernels) kernel.duration = 1000;
            spillway::fuzz::checkProfile(profile);
            return;
        }
        std::rethrow_exception(lastRefusal);
    });
}
