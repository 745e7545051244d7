#pragma once
// Rebuilds the kernel and tensor lists G10's simulator makes from a transformer graph:
// forward kernels in file order, one loss kernel, then backward and weight-update kernels in
// reverse op order, with the tensors numbered in the order G10 creates them (so tensor ids
// match its kernels.config / tensors.config). docs/g10-import.md lists the rules.
#include "core/io/g10/g10_graph_parser.h"
#include "core/io/g10/g10_model.h"

#include <optional>
#include <string_view>

namespace spillway {

// G10's "trans_borden": input ids below it are weights ("global"). Known for the graphs G10
// ships (BERT_Base 210, VIT 184, NeRF 7); nothing for other names.
std::optional<std::int64_t> knownG10WeightThreshold(std::string_view modelName);

// Throws ImportError at the op's line where G10 itself would fail (an op whose output nothing
// uses, a Dot without a weight input, ...).
G10RawWorkload expandG10Graph(const G10Graph& graph, std::int64_t batch,
                              std::int64_t weightThreshold);

}  // namespace spillway
