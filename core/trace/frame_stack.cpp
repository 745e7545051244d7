#include "core/trace/frame_stack.h"

#include <functional>
#include <string_view>

namespace spillway {

namespace {
const FrameStack::Strings kNoFrames;
}

FrameStack::FrameStack(Strings frames) {
    if (frames.empty()) return;
    frames_ = std::make_shared<Strings>(std::move(frames));
    own_ = true;
}

FrameStack::FrameStack(std::shared_ptr<const Strings> shared) {
    if (shared && !shared->empty()) frames_ = std::move(shared);
}

const FrameStack::Strings& FrameStack::strings() const { return frames_ ? *frames_ : kNoFrames; }

FrameStack::Strings& FrameStack::mutableStrings() {
    if (!frames_ || !own_ || frames_.use_count() != 1) {
        frames_ = std::make_shared<Strings>(strings());
        own_ = true;
    }
    // Made here as a non-const vector (own_) and not shared: writing it is writing our own copy.
    return const_cast<Strings&>(*frames_);
}

bool operator==(const FrameStack& a, const FrameStack& b) {
    return a.frames_ == b.frames_ || a.strings() == b.strings();
}

FrameStack FrameStackPool::intern(FrameStack::Strings frames) {
    std::size_t hash = frames.size();
    for (const auto& f : frames) hash = hash * 1000003u ^ std::hash<std::string_view>{}(f);
    auto [first, last] = pool_.equal_range(hash);
    for (auto it = first; it != last; ++it)
        if (it->second.strings() == frames) return it->second;
    return pool_.emplace(hash, FrameStack(std::move(frames)))->second;
}

}  // namespace spillway
