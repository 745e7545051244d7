#pragma once
// A spillway-capture profile read back (docs/capture.md, "Reading a capture back"). The capture
// tool writes every kernel and allocation of the run (spillway.profile/1 JSON, source
// "cupti-capture"); reading it back rebuilds the records from the stored kernels (name, start,
// duration) and tensors (kind and address from the name, allocation and free times) and builds
// the profile again, so phases, iterations (ImportOptions::iteration), kinds and the
// caching-allocator warning follow the current rules, also for captures written before them.
// What the stored profile no longer holds is carried: phases decided from NVTX ranges at capture
// time, uses observed from page faults, and the notes on records (copies, unified memory, host
// allocations).
#include "core/io/base/import_options.h"
#include "core/trace/profile.h"

#include <string>

namespace spillway::gpu_activity {

// True for a profile spillway-capture wrote that holds the whole run: source "cupti-capture" and
// no single iteration imported yet ("iterations.imported" absent or "all").
bool isWholeCapture(const Profile& stored);

// The stored capture built again for `options`; `path` names it in errors (a stored kernel without
// captured_start_ns, a tensor without its address). A profile that is not a whole capture comes
// back unchanged, except that asking it for an iteration other than 1 (or all) is an ImportError:
// it holds one.
Profile rebuildStoredCapture(const Profile& stored, const std::string& path, const ImportOptions& options);

}  // namespace spillway::gpu_activity
