// The merged CSV (`sweep merge --csv`): RFC 4180 fields, one header line, one line per cell.
#include "core/sweep/sweep_table.h"
#include "core/sweep/sweep_table_builder.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace spillway {

namespace {

// Splits one record starting at `pos` into `fields` (views into `text`, or into `unescaped_` for a
// quoted field with doubled quotes) and moves `pos` past its line end.
class CsvRecords {
public:
    CsvRecords(const std::string& file, std::string_view text) : file_(file), text_(text) {}
    bool done() const { return pos_ >= text_.size(); }
    std::size_t position() const { return pos_; }
    std::int64_t line() const { return line_; }

    void next(std::vector<std::string_view>& fields) {
        fields.clear();
        unescaped_.clear();
        ++line_;
        for (;;) {
            fields.push_back(field());
            if (pos_ >= text_.size()) return;
            const char c = text_[pos_++];
            if (c == ',') continue;
            if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
            return;  // '\n' or '\r\n' ends the record
        }
    }

private:
    std::string_view field() {
        if (pos_ < text_.size() && text_[pos_] == '"') return quoted();
        const std::size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r') ++pos_;
        return text_.substr(start, pos_ - start);
    }
    std::string_view quoted() {
        const std::size_t open = pos_++;
        std::string_view plain;  // without doubled quotes a view into the text will do
        std::string own;
        bool doubled = false;
        for (std::size_t start = pos_;;) {
            const std::size_t close = text_.find('"', pos_);
            if (close == std::string_view::npos)
                throw ImportError(locateOffset(file_, text_, std::int64_t(open)), "a quoted field is never closed");
            own.append(text_.substr(start, close - start));
            pos_ = close + 1;
            if (pos_ < text_.size() && text_[pos_] == '"') {
                own.push_back('"');
                start = ++pos_;
                doubled = true;
                continue;
            }
            if (!doubled) plain = text_.substr(open + 1, close - open - 1);
            break;
        }
        if (!doubled) return plain;
        // Kept alive until the next record: the views of one record stay valid together.
        unescaped_.push_back(std::move(own));
        return unescaped_.back();
    }

    const std::string& file_;
    std::string_view text_;
    std::size_t pos_ = 0;
    std::int64_t line_ = 0;
    std::deque<std::string> unescaped_;  // a deque: growing it never moves the strings views see
};

}  // namespace

SweepTable loadSweepTableCsv(const std::filesystem::path& path, const LoadProgress& progress) {
    const std::string file = path.string();
    const std::string text = readFileText(path);
    if (text.empty()) throw ImportError(file, "empty file: not a merged sweep table");
    CsvRecords records(file, text);
    std::vector<std::string_view> fields;
    records.next(fields);
    detail::SweepTableBuilder builder(file, std::vector<std::string>(fields.begin(), fields.end()));
    builder.reserve(std::size_t(std::count(text.begin(), text.end(), '\n')));
    while (!records.done()) {
        records.next(fields);
        const std::int64_t line = records.line();
        if (fields.size() == 1 && fields[0].empty()) continue;  // a blank line (the last newline)
        if (fields.size() != builder.columnCount())
            throw ImportError(SourceLocation{file, line, 0, -1, {}},
                              fmt::format("{} fields where the header has {} columns", fields.size(),
                                          builder.columnCount()));
        for (std::size_t c = 0; c < fields.size(); ++c) {
            if (fields[c].empty()) builder.none(c, line);
            else if (const auto number = detail::parseSweepNumber(fields[c])) builder.number(c, *number);
            else builder.text(c, fields[c], line);
        }
        if ((line & 4095) == 0) {
            if (progress.cancelled()) throw LoadCancelled();
            if (progress.report) progress.report(double(records.position()) / double(text.size()), "reading");
        }
    }
    if (progress.report) progress.report(1.0, "done");
    return builder.finish();
}

}  // namespace spillway
