#include "core/io/base/gzip_text.h"

#include "core/io/base/import_error.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <limits>

namespace spillway {

namespace {

constexpr unsigned char kMagic0 = 0x1f;
constexpr unsigned char kMagic1 = 0x8b;
// zlib's window bits: 15 (the largest window) + 16 = a gzip header and trailer, nothing else.
constexpr int kGzipWindowBits = 15 + 16;
constexpr std::size_t kMinGrowth = 64 << 10;

std::string mebibytes(std::uint64_t bytes) { return fmt::format("{:.1f} MiB", double(bytes) / double(1 << 20)); }

}  // namespace

bool isGzipped(std::string_view head) {
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == kMagic0 &&
           static_cast<unsigned char>(head[1]) == kMagic1;
}

std::uint64_t gzipInflateLimit(std::uint64_t compressedSize) {
    const auto cap = std::numeric_limits<std::uint64_t>::max() / kGzipMaxRatio;
    return std::max(kGzipMinLimit, std::min(compressedSize, cap) * kGzipMaxRatio);
}

struct GzipInflater::Stream {
    std::string file;
    std::uint64_t limit = 0;
    z_stream zs{};
    bool initialised = false;
    std::string out;               // output buffer; `produced` bytes of it are inflated text
    std::uint64_t produced = 0;
    std::uint64_t consumed = 0;    // compressed bytes fed before the current chunk
    std::uint64_t members = 0;     // members inflated to their end
    bool inMember = false;
    bool padding = false;          // NUL bytes after a member: nothing but NULs may follow

    [[noreturn]] void fail(std::uint64_t offset, const std::string& message) const {
        throw ImportError(SourceLocation{file, 0, 0, static_cast<std::int64_t>(offset), {}}, message);
    }

    void startMember(std::uint64_t offset) {
        const int rc = initialised ? inflateReset(&zs) : inflateInit2(&zs, kGzipWindowBits);
        if (rc != Z_OK) fail(offset, fmt::format("zlib could not start inflating (error {})", rc));
        initialised = true;
        inMember = true;
    }

    // Room for more output, never past limit + 1 bytes (one byte past the limit proves it is
    // exceeded without inflating the rest): first what reserve() set aside (the gzip trailer's
    // size: one allocation for an honest file), then doubling.
    void grow() {
        const std::uint64_t cap = limit + 1;
        const std::uint64_t doubled = std::max<std::uint64_t>(out.size() * 2, out.size() + kMinGrowth);
        const std::uint64_t want = out.capacity() > out.size() ? out.capacity() : doubled;
        out.resize(static_cast<std::size_t>(std::min(cap, want)));
    }

    // Inflates from chunk[pos...] until the chunk is used up or the member ends; returns the
    // position after what was consumed.
    std::size_t inflateFrom(std::string_view chunk, std::size_t pos) {
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data() + pos));
        zs.avail_in = static_cast<uInt>(chunk.size() - pos);
        for (;;) {
            if (produced == out.size()) grow();
            const std::uint64_t room = std::min<std::uint64_t>(out.size() - produced, std::numeric_limits<uInt>::max());
            zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
            zs.avail_out = static_cast<uInt>(room);
            const int rc = inflate(&zs, Z_NO_FLUSH);
            produced += room - zs.avail_out;
            const std::uint64_t at = consumed + (chunk.size() - zs.avail_in);
            if (produced > limit)
                fail(at, fmt::format("gzip data inflates to more than {}, the limit for this file ({} times its "
                                     "compressed size, at least {}); refused as a likely zip bomb",
                                     mebibytes(limit), kGzipMaxRatio, mebibytes(kGzipMinLimit)));
            if (rc == Z_STREAM_END) {
                inMember = false;
                ++members;
                return chunk.size() - zs.avail_in;
            }
            const bool stuck = zs.avail_in > 0 && zs.avail_out > 0;  // no progress possible
            if ((rc == Z_OK || rc == Z_BUF_ERROR) && !stuck) {
                if (zs.avail_in == 0 && zs.avail_out > 0) return chunk.size();  // needs more input
                continue;                                                      // needs more room
            }
            fail(at, fmt::format("corrupt gzip data ({}); the file is damaged or not really gzip",
                                 zs.msg ? zs.msg : fmt::format("zlib error {}", rc)));
        }
    }
};

GzipInflater::GzipInflater(std::string file, std::uint64_t limit) : stream_(std::make_unique<Stream>()) {
    stream_->file = std::move(file);
    stream_->limit = limit;
}

GzipInflater::~GzipInflater() {
    if (stream_->initialised) inflateEnd(&stream_->zs);
}

void GzipInflater::reserve(std::uint64_t bytes) {
    auto& s = *stream_;
    s.out.reserve(static_cast<std::size_t>(std::min(bytes, s.limit + 1)));
}

void GzipInflater::feed(std::string_view chunk) {
    auto& s = *stream_;
    for (std::size_t pos = 0; pos < chunk.size();) {
        if (!s.inMember) {
            const auto byte = static_cast<unsigned char>(chunk[pos]);
            if (s.members > 0 && byte == 0) {
                s.padding = true;
                ++pos;
                continue;
            }
            if (s.padding || (s.members > 0 && byte != kMagic0))
                s.fail(s.consumed + pos, fmt::format("data after the end of the gzip stream (byte {:#04x}) that is "
                                                     "neither another gzip member nor NUL padding",
                                                     byte));
            s.startMember(s.consumed + pos);
        }
        pos = s.inflateFrom(chunk, pos);
    }
    s.consumed += chunk.size();
}

std::string GzipInflater::finish() {
    auto& s = *stream_;
    if (s.inMember || s.members == 0)
        s.fail(s.consumed, "gzip stream is truncated: the file ends before the compressed data does (an "
                           "interrupted download or copy?)");
    s.out.resize(static_cast<std::size_t>(s.produced));
    return std::move(s.out);
}

std::string gunzipHead(std::string_view compressedHead, std::size_t maxBytes) {
    std::string out(maxBytes, '\0');
    z_stream zs{};
    if (inflateInit2(&zs, kGzipWindowBits) != Z_OK) return {};
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressedHead.data()));
    zs.avail_in = static_cast<uInt>(std::min<std::size_t>(compressedHead.size(), std::numeric_limits<uInt>::max()));
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(maxBytes);
    // One call inflates as much as the input and the room allow; any error just ends the head.
    inflate(&zs, Z_SYNC_FLUSH);
    out.resize(maxBytes - zs.avail_out);
    inflateEnd(&zs);
    return out;
}

}  // namespace spillway
