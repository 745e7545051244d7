#pragma once
// How `spillway-cli sweep` prints a finished sweep, for either axis (a hardware value, or the
// batch of one profile per batch size): a table for people, every cell as JSON, or CSV rows.
#include "core/sweep/parameter_sweep.h"

#include <string>

namespace spillway::cli {

// `title` names what was swept ("BERT_Base", a path).
void printSweepTable(const SweepResult& result, const std::string& title);
// `profile`: the one profile of a hardware sweep (batch sweeps list theirs per value).
void printSweepJson(const SweepResult& result, const std::string& profile);
// One row per cell: the swept value, policy, times, traffic, peak, error (and the profile of a
// batch sweep), quoted as RFC 4180 asks where a field needs it.
void printSweepCsv(const SweepResult& result);

}  // namespace spillway::cli
