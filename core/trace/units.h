#pragma once
// Core units: integer nanoseconds and integer bytes everywhere, so results are repeatable bit
// for bit. Floating point appears only at the edges (importers that read ms, views that draw).
#include <cstdint>

namespace spillway {

using Nanoseconds = std::int64_t;
using Bytes = std::int64_t;
using TensorId = std::int64_t;
using KernelId = std::int64_t;
using JobId = std::int64_t;

constexpr Bytes kKiB = 1024;
constexpr Bytes kMiB = 1024 * kKiB;
constexpr Bytes kGiB = 1024 * kMiB;

}  // namespace spillway
