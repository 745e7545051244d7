#include "runtime/replay/discard_selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace spillway::replay {

namespace {

struct Reader {
    std::string_view text;
    std::size_t at = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument(fmt::format("--discards \"{}\": {} at character {}", text, what, at + 1));
    }

    std::int64_t number() {
        if (at >= text.size() || text[at] < '0' || text[at] > '9') fail("expected a directive index");
        std::int64_t v = 0;
        const char* begin = text.data() + at;
        const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
        if (ec == std::errc::result_out_of_range) fail("a directive index too large");
        if (ec != std::errc() || end == begin) fail("expected a directive index");
        at += static_cast<std::size_t>(end - begin);
        return v;
    }
};

// Sorted, overlapping and touching ranges joined.
std::vector<std::pair<std::int64_t, std::int64_t>> merged(std::vector<std::pair<std::int64_t, std::int64_t>> ranges) {
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const auto& r : ranges) {
        if (!out.empty() && r.first <= out.back().second + 1) out.back().second = std::max(out.back().second, r.second);
        else out.push_back(r);
    }
    return out;
}

}  // namespace

DiscardSelection DiscardSelection::none() {
    DiscardSelection s;
    s.except_ = false;
    return s;
}

DiscardSelection DiscardSelection::parse(std::string_view text) {
    if (text == "all") return {};
    if (text == "none") return none();
    DiscardSelection s;
    s.except_ = false;
    Reader in{text};
    constexpr std::string_view kExcept = "except:";
    if (text.substr(0, kExcept.size()) == kExcept) {
        s.except_ = true;
        in.at = kExcept.size();
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    while (true) {
        const std::int64_t first = in.number();
        std::int64_t last = first;
        if (in.at < text.size() && text[in.at] == '-') {
            ++in.at;
            last = in.number();
            if (last < first) in.fail(fmt::format("a range ending before it starts ({}-{})", first, last));
        } else {
            s.singles_.push_back(first);
        }
        ranges.emplace_back(first, last);
        if (in.at == text.size()) break;
        if (text[in.at] != ',') in.fail("expected ',' between directive indices");
        ++in.at;
    }
    s.ranges_ = merged(std::move(ranges));
    std::sort(s.singles_.begin(), s.singles_.end());
    s.singles_.erase(std::unique(s.singles_.begin(), s.singles_.end()), s.singles_.end());
    return s;
}

bool DiscardSelection::issues(std::int64_t planIndex) const {
    const bool listed = std::any_of(ranges_.begin(), ranges_.end(),
                                    [&](const auto& r) { return r.first <= planIndex && planIndex <= r.second; });
    return except_ ? !listed : listed;
}

std::int64_t DiscardSelection::largestIndex() const { return ranges_.empty() ? -1 : ranges_.back().second; }

std::string DiscardSelection::text() const {
    if (issuesAll()) return "all";
    if (issuesNone()) return "none";
    std::string out = except_ ? "except:" : "";
    for (std::size_t i = 0; i < ranges_.size(); ++i) {
        if (i > 0) out += ',';
        const auto& [first, last] = ranges_[i];
        out += first == last ? fmt::format("{}", first) : fmt::format("{}-{}", first, last);
    }
    return out;
}

}  // namespace spillway::replay
