#pragma once
// Gzip-compressed input, read transparently by readFileText and the format sniffing of the
// loader: torch.profiler's tensorboard_trace_handler and export_chrome_trace("x.json.gz") write
// gzipped traces, and any other input may arrive compressed. Detected by the gzip magic bytes
// (1f 8b), never by the file name. Inflated with zlib.
//
// A zip bomb must not take the machine's memory: the inflated text may be at most
// gzipInflateLimit(compressed size) bytes, 64 times the compressed size or 256 MiB, whichever is
// larger (JSON traces compress 10-20 times; 256 MiB lets small, very repetitive files through).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace spillway {

inline constexpr std::uint64_t kGzipMaxRatio = 64;
inline constexpr std::uint64_t kGzipMinLimit = std::uint64_t{256} << 20;

// True when `head` starts with the gzip magic bytes 1f 8b.
bool isGzipped(std::string_view head);

// How many bytes a gzip file of `compressedSize` bytes may inflate to.
std::uint64_t gzipInflateLimit(std::uint64_t compressedSize);

// Inflates a gzip stream fed in chunks (one or more concatenated members, as `cat a.gz b.gz`
// makes; NUL padding after the last member is ignored). Errors are ImportErrors naming `file`
// and the byte offset in the compressed file where zlib stopped: corrupt data, a truncated
// stream, data after the end that is not another member, or more output than `limit`.
class GzipInflater {
public:
    GzipInflater(std::string file, std::uint64_t limit);
    ~GzipInflater();
    GzipInflater(const GzipInflater&) = delete;
    GzipInflater& operator=(const GzipInflater&) = delete;

    // Reserves room for the output (a hint such as the gzip trailer's size; capped by the limit).
    void reserve(std::uint64_t bytes);
    // `chunk` is at most 4 GiB (zlib counts its input in 32 bits); readFileText feeds 1 MiB.
    void feed(std::string_view chunk);
    // Checks that the last member is complete; returns the inflated text.
    std::string finish();

private:
    struct Stream;  // zlib's state, kept out of this header
    std::unique_ptr<Stream> stream_;
};

// Up to `maxBytes` of the inflated start of a gzip stream, for format sniffing: a stream that is
// cut short or corrupt past what was inflated gives what could be inflated (the import reports
// the error later, with its offset). Never more than `maxBytes` of output is produced.
std::string gunzipHead(std::string_view compressedHead, std::size_t maxBytes);

}  // namespace spillway
