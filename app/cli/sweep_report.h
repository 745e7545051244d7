#pragma once
// How `spillway-cli sweep` prints a finished sweep, for either axis (a hardware value, or the
// batch of one profile per batch size): a table for people, every cell as JSON, or CSV rows.
#include "core/sweep/parameter_sweep.h"

#include <nlohmann/json.hpp>

#include <string>

namespace spillway::cli {

// `title` names what was swept ("BERT_Base", a path).
void printSweepTable(const SweepResult& result, const std::string& title);
// Every cell (the body of spillway.sweep-report/1); `profile`: the one profile of a hardware
// sweep (batch sweeps list theirs per value).
nlohmann::ordered_json sweepReportJson(const SweepResult& result, const std::string& profile);
// The CSV's first column: the swept key's full name with its unit (core/sweep/sweep_keys.h:
// "ssd.bandwidth" -> "ssd.bytes_per_s"), or "batch".
std::string sweepCsvValueHeader(const SweepSpec& spec);
// One row per cell: the swept value as a number in that unit (an enumeration's name), policy,
// times, traffic, peak, error (and the profile of a batch sweep), quoted as RFC 4180 asks where
// a field needs it.
void printSweepCsv(const SweepResult& result);

}  // namespace spillway::cli
