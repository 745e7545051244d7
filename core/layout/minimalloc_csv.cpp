#include "core/layout/minimalloc_csv.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <charconv>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace spillway {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

struct Field {
    std::string_view text;
    std::int64_t column = 1;  // 1-based column of its first character
};

std::vector<Field> splitFields(std::string_view line) {
    std::vector<Field> fields;
    size_t start = 0;
    while (true) {
        const size_t comma = line.find(',', start);
        const size_t end = comma == std::string_view::npos ? line.size() : comma;
        fields.push_back({trim(line.substr(start, end - start)), static_cast<std::int64_t>(start) + 1});
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return fields;
}

}  // namespace

MinimallocCsv parseMinimallocCsv(const std::string& text, const std::string& sourceName) {
    MinimallocCsv out;
    std::int64_t lineNo = 0;
    size_t pos = 0;
    bool headerSeen = false, hasOffsetColumn = false;
    std::vector<Bytes> offsets;
    Bytes totalSize = 0;
    std::unordered_set<std::string> ids;
    auto fail = [&](std::int64_t column, const std::string& message) -> void {
        SourceLocation where;
        where.file = sourceName;
        where.line = lineNo;
        where.column = column;
        throw ImportError(where, message);
    };
    while (pos <= text.size()) {
        const size_t nl = text.find('\n', pos);
        const std::string_view line =
            std::string_view(text).substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? text.size() + 1 : nl + 1;
        ++lineNo;
        if (trim(line).empty()) continue;
        const std::vector<Field> fields = splitFields(line);
        if (!headerSeen) {
            headerSeen = true;
            const bool four = fields.size() == 4, five = fields.size() == 5;
            if ((!four && !five) || fields[0].text != "id" || fields[1].text != "lower" || fields[2].text != "upper" ||
                fields[3].text != "size" || (five && fields[4].text != "offset"))
                fail(1, "expected the header 'id,lower,upper,size' or 'id,lower,upper,size,offset', got '" +
                            std::string(trim(line)) + "'");
            hasOffsetColumn = five;
            continue;
        }
        const size_t expected = hasOffsetColumn ? 5 : 4;
        if (fields.size() != expected)
            fail(1, fmt::format("expected {} comma-separated fields, got {}", expected, fields.size()));
        Buffer b;
        b.id = std::string(fields[0].text);
        if (b.id.empty()) fail(fields[0].column, "empty buffer id");
        if (!ids.insert(b.id).second) fail(fields[0].column, "duplicate buffer id '" + b.id + "'");
        auto number = [&](const Field& f, const char* name) {
            std::int64_t value = 0;
            const char* first = f.text.data();
            const char* last = first + f.text.size();
            auto [ptr, ec] = std::from_chars(first, last, value);
            if (f.text.empty() || ec != std::errc() || ptr != last)
                fail(f.column, fmt::format("field '{}' must be an integer, got '{}'", name, f.text));
            return value;
        };
        b.lower = number(fields[1], "lower");
        b.upper = number(fields[2], "upper");
        b.size = number(fields[3], "size");
        if (b.lower < 0) fail(fields[1].column, "field 'lower' must not be negative");
        if (b.upper <= b.lower)
            fail(fields[2].column, fmt::format("field 'upper' ({}) must be greater than 'lower' ({}): "
                                               "buffers live on [lower, upper)", b.upper, b.lower));
        if (b.size <= 0) fail(fields[3].column, "field 'size' must be positive");
        // Bounded here (docs/formats.md "Number bounds"), an offset plus a size never wraps; the
        // running total keeps every sum a placement method forms in 64 bits (totalBufferBytes).
        if (const std::string why = outOfBytesRange(b.size); !why.empty())
            fail(fields[3].column, "field 'size': " + why);
        if (__builtin_add_overflow(totalSize, b.size, &totalSize))
            fail(fields[3].column, "the sizes of the buffers up to this line add up to more than 2^63 - 1 bytes");
        if (hasOffsetColumn) {
            const Bytes offset = number(fields[4], "offset");
            if (offset < 0) fail(fields[4].column, "field 'offset' must not be negative");
            if (const std::string why = outOfBytesRange(offset); !why.empty())
                fail(fields[4].column, "field 'offset': " + why);
            offsets.push_back(offset);
        }
        out.problem.buffers.push_back(std::move(b));
    }
    if (!headerSeen) throw ImportError(sourceName, "empty file: expected the header 'id,lower,upper,size'");
    if (hasOffsetColumn) out.layout = Layout{std::move(offsets)};
    return out;
}

MinimallocCsv readMinimallocCsv(const std::string& path) { return parseMinimallocCsv(readFileText(path), path); }

std::string formatMinimallocCsv(const AllocationProblem& problem, const Layout* layout) {
    std::string out = layout ? "id,lower,upper,size,offset\n" : "id,lower,upper,size\n";
    for (size_t i = 0; i < problem.buffers.size(); ++i) {
        const Buffer& b = problem.buffers[i];
        out += fmt::format("{},{},{},{}", b.id, b.lower, b.upper, b.size);
        if (layout) out += fmt::format(",{}", layout->offsets.at(i));
        out += '\n';
    }
    return out;
}

void writeMinimallocCsv(const std::string& path, const AllocationProblem& problem, const Layout* layout) {
    writeFileAtomically(path, formatMinimallocCsv(problem, layout));
}

}  // namespace spillway
