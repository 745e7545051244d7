// exact placement on the eleven minimalloc benchmarks (../shared/data/minimalloc): per instance
// the time to a layout within capacity 1048576, its arena, LOAD and arena/LOAD, the total against
// minimalloc's published 26.5 s; then the arena minimised without a capacity for C, D and J
// (minimalloc stays ~6% above LOAD on D and J). Every layout is checked by verifyLayout.
// Usage: bench_layout_exact [time limit per instance, s (default 30)] [minimise limit, s (default 20)]
#include "core/layout/layout_verifier.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/placement.h"

#include <fmt/format.h>

#include <sys/resource.h>

#include <cstdlib>
#include <string>

using namespace spillway;

namespace {

// CPU seconds of this process (all threads): on a shared machine wall time depends on the load.
double cpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

bool verified(const AllocationProblem& problem, const PlacementResult& r) {
    if (r.layout.offsets.empty()) return false;
    const auto violations = verifyLayout(problem, r.layout);
    for (const auto& v : violations) fmt::print("  VIOLATION: {}\n", v.message);
    return violations.empty();
}

}  // namespace

int main(int argc, char** argv) {
    const double limit = argc > 1 ? std::atof(argv[1]) : 30.0;
    const double minimiseLimit = argc > 2 ? std::atof(argv[2]) : 20.0;
    const std::string dir = std::string(SPILLWAY_SHARED_DATA) + "/minimalloc/";
    PlacementOptions options;
    options.timeLimitSeconds = limit;
    fmt::print("exact placement, capacity 1048576, time limit {} s per instance\n", limit);
    fmt::print("{:<9}{:>8}{:>10}{:>9}{:>10}{:>10}{:>11}{:>6}  {}\n", "instance", "buffers", "seconds", "cpu s",
               "arena", "LOAD", "arena/LOAD", "fits", "note");
    double total = 0, totalCpu = 0;
    int fitting = 0;
    for (const char name : std::string("ABCDEFGHIJK")) {
        MinimallocCsv csv = readMinimallocCsv(dir + name + ".1048576.csv");
        csv.problem.capacity = 1048576;
        const double cpuBefore = cpuSeconds();
        const PlacementResult r = placeExact(csv.problem, options);
        const double cpu = cpuSeconds() - cpuBefore;
        const bool ok = r.fits && verified(csv.problem, r);
        fitting += ok;
        total += r.seconds;
        totalCpu += cpu;
        fmt::print("{:<9}{:>8}{:>10.3f}{:>9.3f}{:>10}{:>10}{:>11.4f}{:>6}  {}\n", name, csv.problem.buffers.size(),
                   r.seconds, cpu, r.arena, r.lowerBound, r.lowerBound ? double(r.arena) / double(r.lowerBound) : 0.0,
                   ok ? "yes" : "NO", r.note);
    }
    fmt::print("total {:.3f} s wall, {:.3f} s cpu for {}/11 within capacity; minimalloc (published, 2 cores): "
               "26.5 s, ratio wall/26.5 = {:.3f}\n",
               total, totalCpu, fitting, total / 26.5);

    fmt::print("\narena minimised without a capacity, time limit {} s (minimalloc: ~1.06 x LOAD on D and J)\n",
               minimiseLimit);
    fmt::print("{:<9}{:>10}{:>10}{:>10}{:>11}{:>8}  {}\n", "instance", "seconds", "arena", "LOAD", "arena/LOAD",
               "proven", "note");
    options.timeLimitSeconds = minimiseLimit;
    for (const char name : std::string("CDJ")) {
        MinimallocCsv csv = readMinimallocCsv(dir + name + ".1048576.csv");
        csv.problem.capacity.reset();
        const PlacementResult r = placeExact(csv.problem, options);
        const bool ok = verified(csv.problem, r);
        fmt::print("{:<9}{:>10.3f}{:>10}{:>10}{:>11.4f}{:>8}  {}{}\n", name, r.seconds, r.arena, r.lowerBound,
                   double(r.arena) / double(r.lowerBound), r.provenOptimal ? "yes" : "no", ok ? "" : "INVALID ",
                   r.note);
    }
    return 0;
}
