#pragma once
// Every record of a capture, one CSV line each, in time order: what a profile does not keep
// (which page faulted when, on which address; each migration's address and cause), for analyses
// beside it (docs/capture.md, "Raw records"). spillway-capture writes it when
// SPILLWAY_CAPTURE_RECORDS (--records FILE) names a file.
#include <ostream>

#include "core/io/gpu_activity/gpu_activity.h"

namespace spillway::gpu_activity {

// Header: record,start_ns,end_ns,device,stream,address,value,detail
//   kernel:    stream id, value = correlation id, detail = the kernel's name
//   copy:      value = bytes, detail = direction (or "memset")
//   memory:    address, value = bytes, detail = "alloc <kind>" or "free <kind>"
//   um:        address, value = the record's value (fault groups, bytes migrated), detail =
//              "<event>; <cause or access type>"
// Times are the capture's own (CUPTI: GPU nanoseconds); fields with commas or quotes are quoted.
void writeActivityRecordsCsv(const Capture& capture, std::ostream& out);

}  // namespace spillway::gpu_activity
