#pragma once
// SimulationResult <-> JSON (spillway.result/1), complete and lossless: reading what the writer
// made gives a result operator== equal to the original. The long series (kernel timings,
// residency samples, per-tensor residency intervals) are stored as columns (one array per
// field): 40% of the size of an array of objects, in text and in CBOR (docs/store.md).
// The workspace (core/store) keeps it as CBOR; see docs/store.md for the measured sizes.
#include "core/sim/sim_result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

inline constexpr std::string_view kResultFormatId = "spillway.result/1";

nlohmann::json simulationResultToJson(const SimulationResult& result);
// Throws ImportError naming `label` and the JSON pointer of the first bad field.
SimulationResult simulationResultFromJson(const nlohmann::json& doc, const std::string& label);

// The same document as CBOR (RFC 8949) bytes, and back.
std::vector<std::uint8_t> simulationResultToCbor(const SimulationResult& result);
SimulationResult simulationResultFromCbor(const std::uint8_t* data, std::size_t size, const std::string& label);

}  // namespace spillway
