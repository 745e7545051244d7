#include "core/io/base/load_progress.h"

#include <algorithm>

namespace spillway::detail {

namespace {
thread_local ScopedReadProgress* current = nullptr;
}

ScopedReadProgress::ScopedReadProgress(const LoadProgress& progress, std::uint64_t expectedBytes, double readShare,
                                       double parseEnd)
    : progress_(progress), expectedBytes_(std::max<std::uint64_t>(expectedBytes, 1)), readShare_(readShare),
      parseEnd_(parseEnd), previous_(current) {
    current = this;
}

ScopedReadProgress::~ScopedReadProgress() { current = previous_; }

void ScopedReadProgress::reportAtLeast(double fraction, std::string_view stage) {
    if (progress_.cancelled()) throw LoadCancelled();
    fraction = std::clamp(fraction, 0.0, 1.0);
    if (fraction < reported_) return;  // a folder's files may add up to more than expected
    reported_ = fraction;
    if (progress_.report) progress_.report(fraction, stage);
}

void noteBytesRead(std::uint64_t bytes) {
    if (!current) return;
    current->readBytes_ += bytes;
    const double read = double(std::min(current->readBytes_, current->expectedBytes_)) / double(current->expectedBytes_);
    current->reportAtLeast(read * current->readShare_, "reading");
}

void noteFileRead() {
    if (!current) return;
    // Parsing has no byte count of its own: the file's share of the read stage is what shows.
    const double read = double(std::min(current->readBytes_, current->expectedBytes_)) / double(current->expectedBytes_);
    current->reportAtLeast(read * current->readShare_, "parsing");
}

void noteParsed(std::size_t position, std::size_t size) {
    if (!current || size == 0) return;
    const double parsed = double(position) / double(size);
    current->reportAtLeast(current->readShare_ + parsed * (current->parseEnd_ - current->readShare_),
                           position >= size ? "building" : "parsing");
}

void noteBuilding(std::size_t done, std::size_t total) {
    if (!current || total == 0) return;
    // Below 1: "done" is reported by the loader once the importer has returned.
    const double built = 0.99 * double(std::min(done, total)) / double(total);
    current->reportAtLeast(current->parseEnd_ + built * (1.0 - current->parseEnd_), "building");
}

}  // namespace spillway::detail
