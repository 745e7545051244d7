// minimalloc CSV problems (core/layout/minimalloc_csv): parsed from memory and round-tripped
// through the CSV writer; the lower bound is computed, a layout given in the file is verified,
// and greedy-by-size must produce a layout the verifier accepts.
#include "core/layout/layout_verifier.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/placement.h"
#include "tests/fuzz/harness_support.h"

namespace {

// Greedy placement is quadratic: fuzzed inputs are small, but a seed may not be.
constexpr std::size_t kMaxBuffersToPlace = 2000;

void checkRoundTrip(const spillway::MinimallocCsv& csv) {
    const spillway::Layout* layout = csv.layout ? &*csv.layout : nullptr;
    const std::string written = spillway::formatMinimallocCsv(csv.problem, layout);
    spillway::MinimallocCsv reread;
    try {
        reread = spillway::parseMinimallocCsv(written, "round-trip.csv");
    } catch (const std::exception& e) {
        spillway::fuzz::finding("the CSV written for a problem does not read back", e.what());
    }
    if (!(reread.problem == csv.problem) || reread.layout != csv.layout)
        spillway::fuzz::finding("CSV round trip", "the problem read back differs from the one written");
}

void checkGreedyLayout(const spillway::AllocationProblem& problem) {
    if (problem.buffers.size() > kMaxBuffersToPlace) return;
    spillway::PlacementOptions options;
    options.threads = 1;
    const auto result = spillway::placeGreedyBySize(problem, options);
    if (!result.fits) return;
    const auto violations = spillway::verifyLayout(problem, result.layout);
    if (!violations.empty())
        spillway::fuzz::finding("greedy-by-size made a layout the verifier refuses", violations.front().message);
    if (result.arena < result.lowerBound)
        spillway::fuzz::finding("greedy-by-size", "the arena is below the lower bound");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return spillway::fuzz::runHarness([&] {
        const auto csv = spillway::parseMinimallocCsv(std::string(spillway::fuzz::asText(data, size)), "fuzz.csv");
        checkRoundTrip(csv);
        (void)spillway::loadLowerBound(csv.problem);
        if (csv.layout) {
            (void)spillway::verifyLayout(csv.problem, *csv.layout);
            (void)spillway::arenaBytes(csv.problem, *csv.layout);
        }
        checkGreedyLayout(csv.problem);
    });
}
