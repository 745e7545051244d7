#pragma once
// The stack that asked for a tensor: "file:line:function" strings, innermost call first.
//
// A profile imported from a memory snapshot has a million tensors but only dozens of distinct
// stacks, so a stack is shared, immutable data: copying a FrameStack copies a pointer, and the
// importers hand every tensor with the same stack the same one (FrameStackPool). It still reads
// like the std::vector<std::string> it replaced: iteration yields std::string const&, with
// size(), empty(), operator[], front() and back(); == compares the frames, not the pointers.
//
// Writing (push_back, or iterating a non-const FrameStack by reference to change the strings)
// first gives this FrameStack its own copy when the stack is shared (copy on write, as Qt's
// containers do), so a change never reaches another tensor. Read through a const FrameStack
// (or strings()) to be sure nothing is copied.
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace spillway {

class FrameStack {
public:
    using Strings = std::vector<std::string>;
    using const_iterator = Strings::const_iterator;
    using iterator = Strings::iterator;
    using value_type = std::string;

    FrameStack() = default;
    FrameStack(Strings frames);  // NOLINT(google-explicit-constructor): reads like the vector it was
    FrameStack(std::initializer_list<std::string> frames) : FrameStack(Strings(frames)) {}
    FrameStack(std::shared_ptr<const Strings> shared);  // NOLINT: shares, no copy

    const_iterator begin() const { return strings().begin(); }
    const_iterator end() const { return strings().end(); }
    // Copy on write: see the header comment.
    iterator begin() { return mutableStrings().begin(); }
    iterator end() { return mutableStrings().end(); }
    std::size_t size() const { return frames_ ? frames_->size() : 0; }
    bool empty() const { return size() == 0; }
    const std::string& operator[](std::size_t i) const { return (*frames_)[i]; }
    const std::string& front() const { return frames_->front(); }
    const std::string& back() const { return frames_->back(); }
    void push_back(std::string frame) { mutableStrings().push_back(std::move(frame)); }

    const Strings& strings() const;
    operator const Strings&() const { return strings(); }  // NOLINT: for readers of the vector
    // The shared frames (null when empty); equal pointers mean one stack object.
    const std::shared_ptr<const Strings>& shared() const { return frames_; }

    friend bool operator==(const FrameStack& a, const FrameStack& b);

private:
    Strings& mutableStrings();

    std::shared_ptr<const Strings> frames_;
    // True when frames_ was made here as a non-const vector and so may be written in place
    // while no other FrameStack shares it.
    bool own_ = false;
};

// Hands out one FrameStack per distinct content, so that identical stacks read from a file
// share one object. Not thread-safe; one pool per file read.
class FrameStackPool {
public:
    // The pooled stack equal to `frames`, adding it when it is new.
    FrameStack intern(FrameStack::Strings frames);
    std::size_t distinct() const { return pool_.size(); }

private:
    std::unordered_multimap<std::size_t, FrameStack> pool_;
};

}  // namespace spillway
