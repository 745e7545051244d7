// `spillway-cli reproduce most|discard|tensile|roam [--out DIR] [--threads N] [--only W1,W2]`
// (roam also [--model-seconds S]): a seed paper's evaluation (core/experiment/paper_reproductions.h)
// run on all cores, written as a Markdown report with the paper's numbers beside ours, each
// figure's CSV, SVG and PNG, and the sweeps the app's Sweep tab opens (app/cli/reproduction_files.h).
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/reproduction_files.h"

#include "core/experiment/paper_reproductions.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace spillway::cli {

namespace {

struct ReproduceState {
    const PaperReproduction* paper = nullptr;
    std::string out;
    unsigned threads = 0;
    std::vector<std::string> only;
    std::optional<double> modelSeconds;
    bool quick = false;
};

// --quick: the paper's own first-look subset, as if named with --only.
std::vector<std::string> quickWorkloads(std::string_view list) {
    std::vector<std::string> names;
    for (size_t start = 0; start <= list.size();) {
        const size_t comma = std::min(list.find(',', start), list.size());
        names.emplace_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return names;
}

int runReproduction(const ReproduceState& state) {
    // Refused before minutes of simulation rather than after (the writer checks again).
    if (std::filesystem::exists(state.out) && !std::filesystem::is_directory(state.out))
        throw std::runtime_error(fmt::format("{}: not a folder (--out names the folder to write into)", state.out));
    ReproductionOptions options;
    options.threads = state.threads;
    if (state.quick && !state.only.empty()) throw std::invalid_argument("--quick and --only each choose the workloads; give one");
    options.only = state.quick ? quickWorkloads(state.paper->quick) : state.only;
    options.modelSeconds = state.modelSeconds;
    // Progress only for a person watching a terminal.
    if (isatty(STDERR_FILENO))
        options.progress = [](size_t done, size_t total) { fmt::print(stderr, "\rsimulated {}/{}", done, total); };
    const Reproduction reproduction = state.paper->run(options);
    if (options.progress) fmt::print(stderr, "\n");
    const auto files = writeReproduction(reproduction, state.out);
    fmt::print("{}: {} files in {}, the report is {}\n", state.paper->id, files.size(), state.out,
               files.empty() ? std::string("-") : files.front().string());
    return 0;
}

}  // namespace

CommandAction addReproduceCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("reproduce", "Run a seed paper's evaluation and write its figures, tables and a "
                                                "report with the paper's numbers beside ours");
    cmd->require_subcommand(1);
    std::vector<std::pair<CLI::App*, std::shared_ptr<ReproduceState>>> papers;
    for (const PaperReproduction& paper : paperReproductions()) {
        auto state = std::make_shared<ReproduceState>();
        state->paper = &paper;
        state->out = fmt::format("reproduce-{}", paper.id);
        auto* sub = cmd->add_subcommand(std::string(paper.id), std::string(paper.summary));
        sub->add_option("--out", state->out, "Folder for report.md, the figures (CSV, SVG, PNG) and the sweeps")
            ->capture_default_str();
        sub->add_option("--threads", state->threads, "Worker threads (default: all cores)");
        sub->add_option("--only", state->only, "Comma-separated workloads to run, by their names in the report "
                                               "(default: all; an unknown name lists the known ones)")
            ->delimiter(',');
        sub->add_flag("--quick", state->quick,
                      fmt::format("A first look in well under 2 minutes: only {}", paper.quick));
        if (paper.id == "roam")
            sub->add_option("--model-seconds", state->modelSeconds,
                            "CBC's time limit for each of MODeL's whole-graph ILPs (default 10; the paper gives it "
                            "3600; 0 leaves MODeL out); a longer limit also lets larger models be built "
                            "(docs/layout-order.md)")
                ->check(CLI::NonNegativeNumber);
        papers.emplace_back(sub, state);
    }
    return [papers]() {
        for (const auto& [sub, state] : papers)
            if (sub->parsed()) return runReportingErrors(false, [&]() { return runReproduction(*state); });
        return 2;
    };
}

}  // namespace spillway::cli
