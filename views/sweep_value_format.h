#pragma once
// A merged sweep table's numbers as people read them: the unit is in the column's name
// (`gpu_capacity_bytes`, `pcie.bytes_per_s`, `fault_latency_ns`, `iteration_time_s`), so the
// name picks the formatting: "1.50 MiB", "16 GB/s", "45.0 us", "2.345 ms".
#include <QString>

#include <string_view>

namespace spillway::views {

QString formatSweepValue(std::string_view column, double value);

}  // namespace spillway::views
