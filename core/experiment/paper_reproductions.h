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
    Reproduction (*run)(const ReproductionOptions& options);
};

std::span<const PaperReproduction> paperReproductions();

}  // namespace spillway
