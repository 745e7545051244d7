#pragma once
// The profiles of a sweep over batch sizes: one profile per batch of the same model, checked and
// put in batch order. They come from a list of files (any format the loader reads, each with its
// own metadata.batch), from one input re-imported at several batch sizes (a G10 transformer
// graph: dimension 99 is the batch), or from anywhere else the caller read them (the app's
// workspace). Every problem is an ImportError naming the source (file) and what was expected.
#include "core/io/base/import_options.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace spillway {

struct BatchProfile {
    std::string source;  // where it came from, for messages: a path, "BERT_Base.txt at batch 512"...
    std::shared_ptr<const Profile> profile;
};

// Sorted by metadata.batch. Throws ImportError naming the source when: the list is empty; a
// batch is unknown (0); two profiles have the same batch (both named); the models differ (both
// sources and both models named); a profile has no kernel time at all (every duration 0, e.g. a
// G10 graph imported without its measurements), which would make every speedup meaningless.
std::vector<BatchProfile> orderByBatch(std::vector<BatchProfile> profiles);

// Loads each path with `options` (in parallel); the loader's ImportError names a bad file.
std::vector<BatchProfile> loadBatchProfiles(const std::vector<std::filesystem::path>& paths,
                                            const ImportOptions& options = {});

// Imports `path` once per batch with options.batch set to it. Only formats whose shapes depend on
// the batch take one (G10 transformer graphs; their measurements come from options.resultsDir,
// which needs cudnn<B>*.txt for every B); any other input read back with another batch than the
// one asked for is refused, naming the file.
std::vector<BatchProfile> importAtBatches(const std::filesystem::path& path, const std::vector<std::int64_t>& batches,
                                          ImportOptions options = {});

}  // namespace spillway
