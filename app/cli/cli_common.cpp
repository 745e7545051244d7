#include "app/cli/cli_common.h"

#include <fmt/format.h>

#include <cstdlib>

namespace spillway::cli {

ImportOptions ProfileArgs::options() const {
    ImportOptions o;
    o.format = from;
    if (batch > 0) o.batch = batch;
    if (!results.empty()) o.resultsDir = results;
    return o;
}

void addProfileArgs(CLI::App& cmd, ProfileArgs& args) {
    cmd.add_option("PROFILE", args.path,
                   "Profile file or folder: spillway.profile/1 JSON, a G10 workload folder or "
                   "kernels.config, a G10 transformer graph (with --batch), a torch.profiler "
                   "Chrome trace, or a PyTorch memory snapshot")
        ->required();
    cmd.add_option("--from", args.from,
                   "Force the input format: spillway, g10-workload, g10-configs, g10-graph, "
                   "torch-trace, torch-snapshot (default: detect)");
    cmd.add_option("--batch", args.batch, "Batch size for a G10 transformer graph")
        ->check(CLI::PositiveNumber);
    cmd.add_option("--results", args.results,
                   "Folder with G10 cudnn<B>*.txt measurements for a G10 transformer graph");
}

std::string humanBytes(std::int64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (std::llabs(bytes) >= (1LL << 30)) return fmt::format("{:.2f} GiB", b / (1LL << 30));
    if (std::llabs(bytes) >= (1LL << 20)) return fmt::format("{:.2f} MiB", b / (1LL << 20));
    if (std::llabs(bytes) >= (1LL << 10)) return fmt::format("{:.2f} KiB", b / (1LL << 10));
    return fmt::format("{} B", bytes);
}

std::string humanTime(std::int64_t ns) {
    const double t = static_cast<double>(ns);
    if (std::llabs(ns) >= 1'000'000'000) return fmt::format("{:.3f} s", t / 1e9);
    if (std::llabs(ns) >= 1'000'000) return fmt::format("{:.3f} ms", t / 1e6);
    if (std::llabs(ns) >= 1'000) return fmt::format("{:.3f} us", t / 1e3);
    return fmt::format("{} ns", ns);
}

}  // namespace spillway::cli
