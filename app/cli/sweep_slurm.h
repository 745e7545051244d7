#pragma once
// `spillway-cli sweep SPEC.json --slurm DIR --shards N [--partition P] [--time T]
// [--cpus-per-task C] [--submit]`: the spec checked, DIR/shards.sbatch and DIR/merge.sbatch
// written (core/sweep/slurm_scripts.h) and, with --submit, both submitted with sbatch, the merge
// depending on the shards (afterok). Prints "shards <id>" and "merge <id>" when submitted.
#include "app/cli/sweep_spec_args.h"

#include <string>

namespace spillway::cli {

int writeSlurmSweep(const std::string& specPath, const SweepSpecArgs& args);

}  // namespace spillway::cli
