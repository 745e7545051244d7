#pragma once
// Which of a plan's drops (discard, discard-lazy, free, recompute) a managed-arena replay
// issues: all of them (the default), none (`--no-discards`, an ablation), or a chosen set
// (`--discards`). A chosen set is how a GPU session finds which drops make which kernels fault
// (scripts/gpu/drop-groups, replay-selections and attribute-drops; docs/validation.md "Real GPU").
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spillway::replay {

class DiscardSelection {
public:
    // Every drop (the default).
    DiscardSelection() = default;
    static DiscardSelection none();

    // "all", "none", "LIST" (only these) or "except:LIST" (all but these); LIST is comma-separated
    // plan directive indices and inclusive ranges ("12,40-60"). Throws std::invalid_argument
    // naming the character offset of what it cannot read.
    static DiscardSelection parse(std::string_view text);

    bool issues(std::int64_t planIndex) const;
    bool issuesAll() const { return except_ && ranges_.empty(); }
    bool issuesNone() const { return !except_ && ranges_.empty(); }
    // The indices named on their own (not in a range): the builder checks each is a drop.
    const std::vector<std::int64_t>& singles() const { return singles_; }
    std::int64_t largestIndex() const;
    // The canonical text ("all", "none", "3,7-9", "except:3"), parse(text()) == *this.
    std::string text() const;

    // The same drops (however they were written).
    bool operator==(const DiscardSelection& o) const { return except_ == o.except_ && ranges_ == o.ranges_; }

private:
    bool except_ = true;                                     // true: all but ranges_
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges_;  // inclusive, sorted, merged
    std::vector<std::int64_t> singles_;
};

}  // namespace spillway::replay
