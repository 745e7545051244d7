#pragma once
// The seed papers whose evaluations `spillway-cli reproduce` runs: one entry per paper, so the
// CLI (and anything else) lists and runs them without knowing each one.
#include "core/experiment/reproduction.h"

#include <span>
#include <string_view>

namespace spillway {

struct PaperReproduction {
    std::string_view id;       // the subcommand: "most", "discard"
    std::string_view summary;  // one line for --help
    // `--quick`: the workloads of a first look (comma-separated, as --only takes them), chosen to
    // run in well under 2 minutes on 2 cores and to touch every kind of figure the report has.
    std::string_view quick;
    Reproduction (*run)(const ReproductionOptions& options);
};

std::span<const PaperReproduction> paperReproductions();

}  // namespace spillway
