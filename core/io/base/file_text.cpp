#include "core/io/base/file_text.h"

#include "core/io/base/gzip_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/load_progress.h"

#include <fmt/format.h>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <system_error>

namespace spillway {

namespace {

std::string_view fileTypeWords(std::filesystem::file_type type) {
    using T = std::filesystem::file_type;
    switch (type) {
    case T::fifo: return "a FIFO";
    case T::character: return "a character device";
    case T::block: return "a block device";
    case T::socket: return "a socket";
    default: return "a special file";
    }
}

}  // namespace

void requireRegularFile(const std::filesystem::path& path) {
    using T = std::filesystem::file_type;
    std::error_code ec;
    const auto type = std::filesystem::status(path, ec).type();  // follows links
    if (type == T::not_found) throw ImportError(path.string(), "no such file");
    if (ec) throw ImportError(path.string(), "cannot read: " + ec.message());
    if (type == T::directory) throw ImportError(path.string(), "is a folder; expected a file");
    if (type != T::regular)
        throw ImportError(path.string(), fmt::format("not a regular file ({}); Spillway reads only regular files",
                                                     fileTypeWords(type)));
}

namespace {

// The gzip trailer's last four bytes: the inflated size modulo 2^32 (little-endian). Only a hint
// for reserving memory; the limit is what bounds the output.
std::uint64_t gzipSizeHint(std::ifstream& in, std::streamoff size) {
    if (size < 18) return 0;
    unsigned char b[4] = {};
    in.seekg(size - 4);
    in.read(reinterpret_cast<char*>(b), 4);
    in.clear();
    in.seekg(0);
    return std::uint64_t{b[0]} | std::uint64_t{b[1]} << 8 | std::uint64_t{b[2]} << 16 | std::uint64_t{b[3]} << 24;
}

// Compressed chunks of 1 MiB: at most 64 MiB of output between two progress reports (which
// are also where a cancelled load stops).
std::string readGzipText(std::ifstream& in, const std::filesystem::path& path, std::streamoff size) {
    GzipInflater inflater(path.string(), gzipInflateLimit(static_cast<std::uint64_t>(size)));
    inflater.reserve(gzipSizeHint(in, size));
    constexpr std::streamoff kChunk = 1 << 20;
    std::string chunk(static_cast<std::size_t>(std::min(kChunk, size)), '\0');
    for (std::streamoff done = 0; done < size && in;) {
        in.read(chunk.data(), std::min<std::streamoff>(kChunk, size - done));
        const auto got = in.gcount();
        if (got <= 0) break;
        inflater.feed(std::string_view(chunk.data(), static_cast<std::size_t>(got)));
        done += got;
        detail::noteBytesRead(static_cast<std::uint64_t>(got));
    }
    if (in.bad()) throw ImportError(path.string(), "read error");
    return inflater.finish();
}

bool startsWithGzipMagic(std::ifstream& in) {
    char magic[2] = {};
    in.read(magic, 2);
    const bool gzipped = in.gcount() == 2 && isGzipped(std::string_view(magic, 2));
    in.clear();
    in.seekg(0);
    return gzipped;
}

}  // namespace

std::string readFileText(const std::filesystem::path& path) {
    requireRegularFile(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ImportError(path.string(), std::string("cannot open: ") + std::strerror(errno));
    std::string text;
    in.seekg(0, std::ios::end);
    const auto size = in.tellg();
    in.seekg(0);
    if (size > 0 && startsWithGzipMagic(in)) {
        try {
            text = readGzipText(in, path, size);
        } catch (const std::bad_alloc&) {
            throw outOfMemoryError(path.string());
        }
        detail::noteFileRead();
        return text;
    }
    if (size > 0) {
        try {
            text.resize(static_cast<size_t>(size));
        } catch (const std::bad_alloc&) {
            throw outOfMemoryError(path.string());
        }
        // In chunks, so a load in progress can report the bytes read and be cancelled.
        constexpr std::streamoff kChunk = 8 << 20;
        for (std::streamoff done = 0; done < size && in;) {
            const std::streamoff n = std::min<std::streamoff>(kChunk, size - done);
            in.read(text.data() + done, n);
            done += in.gcount();
            detail::noteBytesRead(static_cast<std::uint64_t>(in.gcount()));
        }
    }
    if (in.bad()) throw ImportError(path.string(), "read error");
    detail::noteFileRead();
    return text;
}

bool isGzipFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return in && startsWithGzipMagic(in);
}

std::string readFileHead(const std::filesystem::path& path, std::size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    // A deflate stream needs about as many compressed bytes as it gives out at worst (stored
    // blocks), plus headers: 16 times the head is plenty.
    const bool gzipped = startsWithGzipMagic(in);
    std::string head(gzipped ? bytes * 16 : bytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    return gzipped ? gunzipHead(head, bytes) : head;
}

}  // namespace spillway
