#pragma once
// The prose of UVM Discard's report: the setup (machines, policies, how each workload was
// generated) and the discussion of where ours and the paper's agree and why they differ.
#include "core/experiment/discard_runs.h"

#include <string>
#include <vector>

namespace spillway::discard {

// Markdown; names each micro-benchmark that ran with its footprint.
std::string setupText(const std::vector<MicroRun>& micro);
// Markdown.
std::string discussion();

}  // namespace spillway::discard
