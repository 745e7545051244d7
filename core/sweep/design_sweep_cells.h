#pragma once
// The cells of a design sweep, their ids and their partition into shards (docs/scale.md).
//
// The canonical enumeration is profile-major, then the grid axes in the spec's order (the first
// slowest), then the samples, then the policies (fastest): cell i of a spec is the same cell on
// any machine, computed from i alone (nothing is materialised, so a sweep may have billions).
// A cell's id is its index, zero-padded to the width of the largest index (at least 6 digits),
// a dash and the first 8 hex digits of the SHA-256 of its settings: ids sort in enumeration order
// and say what they are. Shard K of N holds the cells whose index is K modulo N: policies and
// profiles vary fastest, so every shard gets a like share of slow and fast cells.
#include "core/sweep/design_sweep_spec.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spillway {

struct DesignSweepCell {
    std::uint64_t index = 0;
    std::string id;
    std::size_t profile = 0;  // into spec.profiles
    std::size_t policy = 0;   // into spec.policies
    std::vector<std::pair<std::string, nlohmann::json>> hardwareSettings;  // key (with unit) and value
    nlohmann::ordered_json settings;  // "profile", "policy", then every axis key: what results carry
};

// Throws std::invalid_argument past 2^48 cells (ids and partitions use 64-bit arithmetic; no
// sweep of that size could run anyway).
std::uint64_t cellCount(const DesignSweepSpec& spec);
DesignSweepCell cellAt(const DesignSweepSpec& spec, std::uint64_t index);

// K of N, K from 0 (SLURM_ARRAY_TASK_ID with --array=0-(N-1)).
struct ShardSelection {
    std::uint64_t index = 0;
    std::uint64_t count = 1;
    bool holds(std::uint64_t cell) const { return cell % count == index; }
};
// "K/N"; throws std::invalid_argument unless 0 <= K < N.
ShardSelection parseShard(std::string_view text);
// The cells of `shard` in increasing order.
std::vector<std::uint64_t> shardCells(std::uint64_t cells, const ShardSelection& shard);

// "sha256:<hex>" over the spec's canonical text, its base machine as a hardware file writes it,
// and the content hash of each profile (profile_hash.h): shards of an edited spec, of a spec whose
// profiles changed, or of a build whose presets changed, all get another hash.
std::string designSweepHash(const DesignSweepSpec& spec, const std::vector<std::string>& profileHashes);

}  // namespace spillway
