#pragma once
// Line-by-line reading of G10's text files (kernels.config, tensors.config, cudnn<B>*.txt and
// the transformer graphs) from an in-memory buffer. Every error names the file, the line and
// the column, and says what was expected there, so a broken file is easy to fix by hand.
#include <cstdint>
#include <string>
#include <string_view>

namespace spillway {

// Walks the lines of a text; tracks the line number and the byte offset of the current line.
class G10LineCursor {
public:
    G10LineCursor(std::string file, std::string_view text);

    // True when no line is left. A final newline does not start another line.
    bool atEnd() const { return pos_ >= text_.size(); }
    // The next line without its '\n' (and without a '\r' before it); moves past it.
    std::string_view next();
    // The next line, left where it is.
    std::string_view peek() const;
    // True when only blank lines are left (trailing blank lines are tolerated everywhere).
    bool onlyBlankLeft() const;

    // 1-based number of the line `next()` returned last (0 before the first call).
    std::int64_t line() const { return line_; }
    std::int64_t lineOffset() const { return lineStart_; }
    const std::string& file() const { return file_; }

    // Errors at the line `next()` returned last, or, at the end of the text, at the line where
    // more was expected.
    [[noreturn]] void failHere(const std::string& message, std::int64_t column = 0) const;
    [[noreturn]] void failAtEnd(const std::string& expected) const;

private:
    std::string file_;
    std::string_view text_;
    size_t pos_ = 0;
    std::int64_t line_ = 0;
    std::int64_t lineStart_ = 0;
};

// Reads the fields of one line left to right; a failed expectation throws an ImportError at
// the exact column with what was expected and what was found.
class G10LineFields {
public:
    G10LineFields(const G10LineCursor& cursor, std::string_view line);

    // The literal text, verbatim.
    void expect(std::string_view literal, std::string_view what);
    bool tryExpect(std::string_view literal);
    // A decimal integer (optional leading '-').
    std::int64_t integer(std::string_view what);
    // A decimal floating-point number, as C's strtod reads it ("0.197632", "1e-3").
    double number(std::string_view what);
    // Up to the next space, tab, ',' or ';'.
    std::string_view word(std::string_view what);
    void skipSpaces();
    bool atEnd() const { return pos_ >= line_.size(); }
    // Nothing but spaces may be left.
    void expectEnd(std::string_view what);
    std::int64_t column() const { return static_cast<std::int64_t>(pos_) + 1; }

    [[noreturn]] void fail(const std::string& expected) const;

private:
    std::string_view found() const;

    const G10LineCursor& cursor_;
    std::string_view line_;
    size_t pos_ = 0;
};

// "abc" shown in messages: at most 40 characters, control characters escaped.
std::string quoteForMessage(std::string_view text);

}  // namespace spillway
