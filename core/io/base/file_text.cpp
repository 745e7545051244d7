#include "core/io/base/file_text.h"

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

std::string readFileText(const std::filesystem::path& path) {
    requireRegularFile(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ImportError(path.string(), std::string("cannot open: ") + std::strerror(errno));
    std::string text;
    in.seekg(0, std::ios::end);
    const auto size = in.tellg();
    if (size > 0) {
        try {
            text.resize(static_cast<size_t>(size));
        } catch (const std::bad_alloc&) {
            throw outOfMemoryError(path.string());
        }
        in.seekg(0);
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

}  // namespace spillway
