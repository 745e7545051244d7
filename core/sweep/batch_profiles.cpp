#include "core/sweep/batch_profiles.h"

#include "core/io/base/import_error.h"
#include "core/io/valid_profile.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <map>

namespace spillway {

namespace {

// Runs load(i) for every i in parallel and keeps the order; when several fail, the first one's
// error is thrown so the message does not depend on which thread finished first.
std::vector<BatchProfile> loadAll(size_t count, const std::function<BatchProfile(size_t)>& load) {
    std::vector<BatchProfile> out(count);
    std::vector<std::exception_ptr> errors(count);
    tbb::parallel_for(size_t(0), count, [&](size_t i) {
        try {
            out[i] = load(i);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    });
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    return out;
}

std::string modelName(const Profile& p) { return p.metadata.model.empty() ? "(no model name)" : p.metadata.model; }

}  // namespace

std::vector<BatchProfile> orderByBatch(std::vector<BatchProfile> profiles) {
    if (profiles.empty()) throw ImportError("batch sweep", "no profiles given; a batch sweep needs one per batch size");
    for (const BatchProfile& b : profiles) {
        if (!b.profile) throw ImportError(b.source, "no profile");
        if (b.profile->metadata.batch <= 0)
            throw ImportError(b.source, "its batch size is unknown (metadata.batch is 0); a batch sweep needs each "
                                        "profile's batch (set it in the file, or import a G10 graph with --batch)");
        if (b.profile->totalDuration() <= 0)
            throw ImportError(b.source, "has no kernel times (every duration is 0), so no speedup can be computed; "
                                        "a G10 graph needs its cudnn<B>*.txt measurements (--results)");
    }
    const BatchProfile& first = profiles.front();
    for (const BatchProfile& b : profiles)
        if (b.profile->metadata.model != first.profile->metadata.model)
            throw ImportError(b.source, fmt::format("is model '{}' but {} is model '{}'; a batch sweep compares one "
                                                    "model at several batch sizes",
                                                    modelName(*b.profile), first.source, modelName(*first.profile)));
    std::map<std::int64_t, const BatchProfile*> byBatch;
    for (const BatchProfile& b : profiles) {
        const auto [it, added] = byBatch.emplace(b.profile->metadata.batch, &b);
        if (added) continue;
        if (it->second->source == b.source)
            throw ImportError(b.source, "is given twice; a batch sweep takes each profile once");
        throw ImportError(b.source, fmt::format("has batch {} like {}; each batch size can be swept once",
                                                b.profile->metadata.batch, it->second->source));
    }
    std::stable_sort(profiles.begin(), profiles.end(), [](const BatchProfile& a, const BatchProfile& b) {
        return a.profile->metadata.batch < b.profile->metadata.batch;
    });
    return profiles;
}

std::vector<BatchProfile> loadBatchProfiles(const std::vector<std::filesystem::path>& paths,
                                            const ImportOptions& options) {
    return loadAll(paths.size(), [&](size_t i) {
        return BatchProfile{paths[i].string(), std::make_shared<const Profile>(loadValidProfile(paths[i], options))};
    });
}

std::vector<BatchProfile> importAtBatches(const std::filesystem::path& path, const std::vector<std::int64_t>& batches,
                                          ImportOptions options) {
    for (std::int64_t b : batches)
        if (b <= 0) throw ImportError(path.string(), fmt::format("batch sizes must be positive, got {}", b));
    return loadAll(batches.size(), [&](size_t i) {
        ImportOptions o = options;
        o.batch = batches[i];
        auto profile = std::make_shared<const Profile>(loadValidProfile(path, o));
        if (profile->metadata.batch != batches[i])
            throw ImportError(path.string(),
                              fmt::format("was read with batch {} when batch {} was asked for: only a G10 transformer "
                                          "graph can be re-imported at another batch size; give one profile file per "
                                          "batch instead",
                                          profile->metadata.batch, batches[i]));
        return BatchProfile{fmt::format("{} at batch {}", path.string(), batches[i]), std::move(profile)};
    });
}

}  // namespace spillway
