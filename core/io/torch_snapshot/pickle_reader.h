#pragma once
// A safe reader for Python pickles, protocols 2 to 5, limited to plain data.
//
// Python's own unpickler imports and calls whatever the file names (GLOBAL + REDUCE is how a
// pickle runs os.system). This reader implements only the opcodes that build None, bool, int,
// float, str, bytes, list, tuple and dict, plus the memo and framing opcodes, and refuses
// every other opcode with an ImportError naming the file, the byte offset, the opcode and what
// was expected. It never executes anything and never crashes on bad input: lengths are checked
// against the bytes that remain before anything is allocated, the stack and memo are checked
// on every access, and nesting depth and the expanded size of shared references are bounded.
//
// It reports its byte position to the load progress (core/io/base/load_progress.h) every MiB,
// which also checks the cancel flag.
#include "core/io/torch_snapshot/pickle_value.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace spillway {

struct PickleLimits {
    // Deepest nesting of containers accepted. Memory snapshots nest about 6 deep.
    std::int64_t maxDepth = 200;
    // Most values the result may hold when shared references are counted at every place they
    // appear (a "billion laughs" pickle is tiny on disk and huge when walked). 0 = derive from
    // the input: 256 values per input byte, at least 16 Mi values.
    std::int64_t maxExpandedSize = 0;
};

// Sees every dict the moment it becomes an item of a list, complete: from then on it may no
// longer change. A memory snapshot is mostly such dicts (one per trace entry, millions in a big
// file); an importer that knows what they mean decodes each one there and returns a tag >= 0,
// and the reader drops the dict's entries, keeping only the tag (PickleValue::tag), so the
// whole file is never held as a tree. Return -1 to keep the dict as it is. Errors thrown here
// abort the read.
class PickleListObserver {
public:
    virtual ~PickleListObserver() = default;
    virtual std::int64_t dictAppended(const PickleValue& dict, const PickleValue& list) = 0;
};

// `fileLabel` names the input in errors. Throws ImportError with the byte offset of the
// offending opcode.
PickleDocument readPickle(std::string_view data, const std::string& fileLabel, const PickleLimits& limits = {},
                          PickleListObserver* observer = nullptr);

PickleDocument readPickleFile(const std::filesystem::path& path, const PickleLimits& limits = {});

}  // namespace spillway
