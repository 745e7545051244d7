#include "core/io/g10/g10_text.h"

#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace spillway {

std::string quoteForMessage(std::string_view text) {
    constexpr size_t kMax = 40;
    std::string out = "'";
    for (size_t i = 0; i < text.size() && i < kMax; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out += static_cast<char>(c);
    }
    if (text.size() > kMax) out += "...";
    out += "'";
    return out;
}

G10LineCursor::G10LineCursor(std::string file, std::string_view text)
    : file_(std::move(file)), text_(text) {}

std::string_view G10LineCursor::next() {
    lineStart_ = static_cast<std::int64_t>(pos_);
    ++line_;
    if (pos_ >= text_.size()) return {};
    const auto end = text_.find('\n', pos_);
    const auto stop = end == std::string_view::npos ? text_.size() : end;
    auto line = text_.substr(pos_, stop - pos_);
    pos_ = end == std::string_view::npos ? text_.size() : end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

std::string_view G10LineCursor::peek() const {
    if (pos_ >= text_.size()) return {};
    const auto end = text_.find('\n', pos_);
    auto line = text_.substr(pos_, (end == std::string_view::npos ? text_.size() : end) - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

bool G10LineCursor::onlyBlankLeft() const {
    return text_.find_first_not_of(" \t\r\n", pos_) == std::string_view::npos;
}

void G10LineCursor::failHere(const std::string& message, std::int64_t column) const {
    SourceLocation loc;
    loc.file = file_;
    loc.line = line_ > 0 ? line_ : 1;
    loc.column = column;
    loc.byteOffset = lineStart_ + (column > 0 ? column - 1 : 0);
    throw ImportError(loc, message);
}

void G10LineCursor::failAtEnd(const std::string& expected) const {
    SourceLocation loc;
    loc.file = file_;
    // The line where the missing text should have been: the one after the last line read.
    loc.line = line_ + 1;
    loc.byteOffset = static_cast<std::int64_t>(text_.size());
    const bool empty = text_.find_first_not_of(" \t\r\n") == std::string_view::npos;
    throw ImportError(loc, fmt::format("{}; expected {}",
                                       empty ? "the file is empty" : "unexpected end of file",
                                       expected));
}

G10LineFields::G10LineFields(const G10LineCursor& cursor, std::string_view line)
    : cursor_(cursor), line_(line) {}

std::string_view G10LineFields::found() const {
    if (pos_ >= line_.size()) return {};
    return line_.substr(pos_);
}

void G10LineFields::fail(const std::string& expected) const {
    const auto rest = found();
    cursor_.failHere(fmt::format("expected {}, found {}", expected,
                                 rest.empty() ? std::string("the end of the line")
                                              : quoteForMessage(rest)),
                     column());
}

void G10LineFields::expect(std::string_view literal, std::string_view what) {
    if (!tryExpect(literal)) fail(fmt::format("'{}' ({})", literal, what));
}

bool G10LineFields::tryExpect(std::string_view literal) {
    if (line_.substr(pos_).starts_with(literal)) {
        pos_ += literal.size();
        return true;
    }
    return false;
}

std::int64_t G10LineFields::integer(std::string_view what) {
    std::int64_t value = 0;
    const char* first = line_.data() + pos_;
    const char* last = line_.data() + line_.size();
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc::result_out_of_range)
        fail(fmt::format("{} (an integer that fits in 64 bits)", what));
    if (ec != std::errc() || ptr == first) fail(fmt::format("{} (an integer)", what));
    pos_ = static_cast<size_t>(ptr - line_.data());
    return value;
}

double G10LineFields::number(std::string_view what) {
    double value = 0;
    const char* first = line_.data() + pos_;
    const char* last = line_.data() + line_.size();
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc::result_out_of_range)
        fail(fmt::format("{} (a number within the range of a double)", what));
    if (ec != std::errc() || ptr == first) fail(fmt::format("{} (a number)", what));
    // from_chars reads "inf" and "nan" too: never a time or a size.
    if (!std::isfinite(value)) fail(fmt::format("{} (a finite number)", what));
    pos_ = static_cast<size_t>(ptr - line_.data());
    return value;
}

std::string_view G10LineFields::word(std::string_view what) {
    const auto start = pos_;
    while (pos_ < line_.size() && line_[pos_] != ' ' && line_[pos_] != '\t' &&
           line_[pos_] != ',' && line_[pos_] != ';')
        ++pos_;
    if (pos_ == start) fail(std::string(what));
    return line_.substr(start, pos_ - start);
}

void G10LineFields::skipSpaces() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t')) ++pos_;
}

void G10LineFields::expectEnd(std::string_view what) {
    skipSpaces();
    if (pos_ < line_.size()) fail(fmt::format("the end of the line after {}", what));
}

}  // namespace spillway
