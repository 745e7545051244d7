#include "core/analysis/g10_interval_config.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <charconv>
#include <unordered_map>

namespace spillway {

namespace {

// Reads one line left to right; on a mismatch, reports the column where it stopped.
class LineCursor {
public:
    explicit LineCursor(std::string_view line) : line_(line), rest_(line) {}

    bool literal(std::string_view text) {
        if (!rest_.starts_with(text)) return false;
        rest_.remove_prefix(text.size());
        return true;
    }
    bool integer(std::int64_t& value) { return parse(value); }
    bool number(double& value) { return parse(value); }
    bool atEnd() const { return rest_.empty(); }
    std::int64_t column() const { return static_cast<std::int64_t>(line_.size() - rest_.size()) + 1; }

private:
    template <typename T>
    bool parse(T& value) {
        const auto [ptr, ec] = std::from_chars(rest_.data(), rest_.data() + rest_.size(), value);
        if (ec != std::errc()) return false;
        rest_.remove_prefix(static_cast<size_t>(ptr - rest_.data()));
        return true;
    }

    std::string_view line_;
    std::string_view rest_;
};

class IntervalConfigParser {
public:
    explicit IntervalConfigParser(const std::string& file) : file_(file) {}

    std::vector<G10TensorIntervals> parse(std::string_view text) {
        std::int64_t lineNo = 0;
        size_t offset = 0;
        while (offset < text.size()) {
            auto end = text.find('\n', offset);
            if (end == std::string_view::npos) end = text.size();
            auto line = text.substr(offset, end - offset);
            if (line.ends_with('\r')) line.remove_suffix(1);
            offset = end + 1;
            ++lineNo;
            parseLine(line, lineNo);
        }
        if (pendingTime_)
            fail(lineNo + 1, 1, "file ends after an interval line; expected \"Estimated Time:<us>\"");
        return std::move(records_);
    }

private:
    [[noreturn]] void fail(std::int64_t line, std::int64_t column, const std::string& message) const {
        SourceLocation loc;
        loc.file = file_;
        loc.line = line;
        loc.column = column;
        throw ImportError(loc, message);
    }

    void parseLine(std::string_view line, std::int64_t lineNo) {
        if (line.empty() || line.find_first_not_of('_') == std::string_view::npos) return;
        LineCursor c(line);
        if (pendingTime_ && !line.starts_with("Estimated Time:"))
            fail(lineNo, 1, "expected \"Estimated Time:<us>\" after an interval line");
        if (c.literal("tensor")) return header(c, lineNo);
        if (c.literal("Liveness: Birth: ")) return liveness(c, lineNo);
        if (c.literal("Global!")) return global(c, lineNo);
        if (c.literal("Hidding Intervals:")) return expectEnd(c, lineNo);
        if (c.literal("interval ")) return interval(c, lineNo);
        if (c.literal("Estimated Time:")) return estimatedTime(c, lineNo);
        fail(lineNo, 1, fmt::format("unexpected line \"{}\"; expected a tensor header, \"Liveness: "
                                    "Birth: ...\", \"Global!\", \"Hidding Intervals:\", \"interval "
                                    "i: a--------b\" or \"Estimated Time:...\"",
                                    line.substr(0, 60)));
    }

    void expectEnd(const LineCursor& c, std::int64_t lineNo) const {
        if (!c.atEnd()) fail(lineNo, c.column(), "unexpected text at the end of the line");
    }

    G10TensorIntervals& current(std::int64_t lineNo) {
        if (current_ < 0) fail(lineNo, 1, "expected a \"tensorN Is weight (global)?: ...\" header first");
        return records_[static_cast<size_t>(current_)];
    }

    // tensorN Is weight (global)?: G, Size in byte: S, Range:A--B
    void header(LineCursor& c, std::int64_t lineNo) {
        std::int64_t id = 0, global = 0, bytes = 0, from = 0, to = 0;
        if (!c.integer(id)) fail(lineNo, c.column(), "expected the tensor number after \"tensor\"");
        if (!c.literal(" Is weight (global)?: ") || !c.integer(global) || (global != 0 && global != 1))
            fail(lineNo, c.column(), "expected \" Is weight (global)?: 0\" or \"... 1\"");
        if (!c.literal(", Size in byte: ") || !c.integer(bytes) || bytes < 0)
            fail(lineNo, c.column(), "expected \", Size in byte: <bytes>\"");
        if (!c.literal(", Range:") || !c.integer(from) || !c.literal("--") || !c.integer(to))
            fail(lineNo, c.column(), "expected \", Range:<from>--<to>\"");
        expectEnd(c, lineNo);
        auto [it, fresh] = byTensor_.emplace(id, static_cast<std::int64_t>(records_.size()));
        if (fresh) {
            G10TensorIntervals r;
            r.tensor = id;
            r.global = global == 1;
            r.bytes = bytes;
            records_.push_back(std::move(r));
        } else {
            const auto& r = records_[static_cast<size_t>(it->second)];
            if (r.global != (global == 1) || r.bytes != bytes)
                fail(lineNo, 1, fmt::format("tensor{} is described differently than before", id));
        }
        current_ = it->second;
    }

    // Liveness: Birth: b, Death: d.
    void liveness(LineCursor& c, std::int64_t lineNo) {
        auto& r = current(lineNo);
        std::int64_t birth = 0, death = 0;
        if (!c.integer(birth)) fail(lineNo, c.column(), "expected the birth kernel");
        if (!c.literal(", Death: ") || !c.integer(death) || !c.literal("."))
            fail(lineNo, c.column(), "expected \", Death: <kernel>.\"");
        expectEnd(c, lineNo);
        if (r.global) fail(lineNo, 1, fmt::format("tensor{} is global but has a liveness line", r.tensor));
        if (r.birth != -1 || r.death != -1)
            fail(lineNo, 1, fmt::format("tensor{} has a second liveness line", r.tensor));
        r.birth = birth;
        r.death = death;
    }

    void global(const LineCursor& c, std::int64_t lineNo) {
        const auto& r = current(lineNo);
        expectEnd(c, lineNo);
        if (!r.global) fail(lineNo, 1, fmt::format("tensor{} is marked Global! but its header says 0", r.tensor));
    }

    // interval i: a--------b
    void interval(LineCursor& c, std::int64_t lineNo) {
        auto& r = current(lineNo);
        std::int64_t index = 0, start = 0, end = 0;
        if (!c.integer(index) || index != static_cast<std::int64_t>(r.intervals.size()))
            fail(lineNo, c.column(), fmt::format("expected interval number {}", r.intervals.size()));
        if (!c.literal(": ") || !c.integer(start) || !c.literal("--------") || !c.integer(end))
            fail(lineNo, c.column(), "expected \": <start>--------<end>\"");
        expectEnd(c, lineNo);
        r.intervals.push_back({start, end, 0.0});
        pendingTime_ = true;
    }

    void estimatedTime(LineCursor& c, std::int64_t lineNo) {
        if (!pendingTime_) fail(lineNo, 1, "\"Estimated Time\" without an interval line before it");
        double us = 0;
        if (!c.number(us) || us < 0) fail(lineNo, c.column(), "expected a non-negative time in us");
        expectEnd(c, lineNo);
        current(lineNo).intervals.back().estimatedTimeUs = us;
        pendingTime_ = false;
    }

    std::string file_;
    std::vector<G10TensorIntervals> records_;
    std::unordered_map<std::int64_t, std::int64_t> byTensor_;
    std::int64_t current_ = -1;
    bool pendingTime_ = false;
};

}  // namespace

std::vector<G10TensorIntervals> parseG10IntervalConfig(std::string_view text, const std::string& fileLabel) {
    return IntervalConfigParser(fileLabel).parse(text);
}

std::vector<G10TensorIntervals> readG10IntervalConfig(const std::filesystem::path& path) {
    const auto text = readFileText(path);
    if (text.empty()) throw ImportError(path.string(), "file is empty; expected G10's interval.config");
    return parseG10IntervalConfig(text, path.string());
}

std::vector<G10TensorIntervals> toG10Conventions(const Profile& profile, const Liveness& liveness,
                                                 const InactiveIntervals& intervals) {
    std::vector<G10TensorIntervals> out;
    out.reserve(profile.tensors.size());
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const auto& l = liveness.tensors[t];
        G10TensorIntervals r;
        r.tensor = profile.tensors[t].id;
        r.bytes = profile.tensors[t].bytes;
        r.global = l.persistent;
        if (!r.global) {
            r.birth = l.firstUse;
            r.death = l.lastRead >= 0 ? l.lastRead + 1 : -1;
        }
        for (const auto& iv : intervals.ofTensor(t)) {
            // G10 ends a non-global tensor's life at its last read: later writes and the gaps
            // before them are not its intervals, and a tensor nothing reads has none.
            if (!r.global && iv.nextUse > l.lastRead) continue;
            r.intervals.push_back({iv.firstIdle, iv.nextUse, static_cast<double>(iv.time) / 1000.0});
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace spillway
