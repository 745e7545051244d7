#pragma once
// The "transfers" member of a spillway.hardware/1 file: measured transfer curves.
//
//   "transfers": {
//     "host_to_gpu": {"managed_prefetch": {"floor_ns": "20us",
//                                          "points": [["2MiB", "11.03GB/s"], ["128MiB", "48.07GB/s"]]},
//                     "fault_migration": {...}, "pinned_copy": {...}},
//     "gpu_to_host": {"managed_prefetch": {...}, "pinned_copy": {...}},
//     "duplex": {"managed_prefetch": false}
//   }
//
// A size is bytes or a string with a unit, a rate bytes per second or a string with a unit,
// as everywhere in the format. Errors name the file and the JSON pointer.
#include "core/hardware/transfer_curve.h"
#include "core/io/base/json_object_reader.h"

#include <nlohmann/json.hpp>

namespace spillway {

MeasuredTransfers readMeasuredTransfers(const OrderedJsonObjectReader& transfers);
// Only what is measured: empty curves and duplex links are left out.
nlohmann::ordered_json writeMeasuredTransfers(const MeasuredTransfers& measured);

}  // namespace spillway
