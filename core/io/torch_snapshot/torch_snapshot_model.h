#pragma once
// The content of a PyTorch CUDA memory snapshot, decoded from the pickled Python data and
// normalised across the layouts PyTorch has written:
//   torch 1.13   torch.cuda.memory._snapshot() is a list of segments; a block's allocations are
//                in its "history" ({addr, real_size, frames}); there is no trace.
//   torch 2.0    a dict {"segments", "device_traces"}; blocks still carry "history"; trace
//                entries have no time.
//   torch 2.1+   blocks carry "address", "requested_size" and "frames"; trace entries carry
//                "time_us"; later versions add "allocator_settings" and more keys.
// Keys this importer does not use are ignored, so newer files keep loading.
//
// A big snapshot is millions of trace entries: the decoder reads each one as the pickle reader
// completes it (PickleListObserver), so the file is never held as a tree of values, and it
// makes each distinct stack once: events and blocks with equal stacks share one SnapshotFrames.
#include "core/io/torch_snapshot/pickle_value.h"
#include "core/io/torch_snapshot/snapshot_frame_budget.h"
#include "core/trace/units.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

// "file:line:function" strings, innermost call first (the order PyTorch records them). Never
// null; one object per distinct stack of a file, so equal stacks have equal pointers (and a
// Tensor::frames made from it shares it: core/trace/frame_stack.h).
using SnapshotFrames = std::shared_ptr<const std::vector<std::string>>;

struct SnapshotBlock {
    std::uint64_t address = 0;
    Bytes size = 0;           // what the allocator set aside (rounded up)
    Bytes requestedSize = 0;  // what the program asked for
    std::string state;        // active_allocated, active_pending_free, inactive
    SnapshotFrames frames;
};

struct SnapshotSegment {
    std::int64_t device = 0;
    std::uint64_t address = 0;
    Bytes totalSize = 0;
    std::int64_t stream = 0;
    std::vector<SnapshotBlock> blocks;
};

enum class SnapshotAction {
    Alloc, FreeRequested, FreeCompleted, SegmentAlloc, SegmentFree, SegmentMap, SegmentUnmap,
    Snapshot, Oom, Other
};

struct SnapshotEvent {
    SnapshotAction action = SnapshotAction::Other;
    std::uint64_t address = 0;
    Bytes size = 0;
    std::int64_t stream = 0;
    std::optional<std::int64_t> timeUs;
    SnapshotFrames frames;
    std::int64_t byteOffset = -1;  // where the event's dict starts in the file
};

struct MemorySnapshot {
    std::string layout;  // which of the layouts above, in words
    std::vector<SnapshotSegment> segments;
    std::vector<std::vector<SnapshotEvent>> deviceTraces;  // index = device
    std::map<std::string, std::string> allocatorSettings;
    std::int64_t unknownActions = 0;  // trace entries with actions this importer skips
};

// Reads the pickle `data` (pickle_reader.h) and decodes it. Throws ImportError naming the file,
// the byte offset and, for a structure error, the path of the offending value
// ("/segments/3/blocks/0/size") with what was expected there. Every distinct stack is charged
// to `budget` before its strings are made; FrameBudgetExceeded may name no path (a stack can be
// priced while the file is read, before its place in the snapshot is known).
// `data` is freed once read, before the decoded snapshot is put together.
MemorySnapshot readMemorySnapshot(std::string data, const std::string& file, SnapshotFrameBudget& budget);

// The same from an already read pickle (any PickleDocument, or a value of one).
MemorySnapshot decodeMemorySnapshot(const PickleValue& root, const std::string& file,
                                    SnapshotFrameBudget& budget);

}  // namespace spillway
