#include "core/io/base/file_text.h"

#include "core/io/base/import_error.h"
#include "core/io/base/load_progress.h"

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace spillway {

std::string readFileText(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw ImportError(path.string(), "no such file");
    if (std::filesystem::is_directory(path, ec))
        throw ImportError(path.string(), "is a folder; expected a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ImportError(path.string(), std::string("cannot open: ") + std::strerror(errno));
    std::string text;
    in.seekg(0, std::ios::end);
    const auto size = in.tellg();
    if (size > 0) {
        text.resize(static_cast<size_t>(size));
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

void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes) {
    auto tmp = path;
    tmp += ".part";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(errno));
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(tmp, ignored);
            throw std::runtime_error(path.string() + ": write failed (disk full?)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error(path.string() + ": cannot replace: " + ec.message());
    }
}

}  // namespace spillway
