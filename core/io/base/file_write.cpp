// writeFileAtomically (file_text.h): the one way Spillway writes an output file.
#include "core/io/base/file_text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace spillway {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& what, int error) {
    throw std::runtime_error(path.string() + ": " + what + ": " + std::strerror(error));
}

// The path a write to `path` lands on: through every symbolic link (a relative one is relative
// to its own folder), also one that names a file not there yet, as a shell's > does.
fs::path followLinks(const fs::path& path) {
    fs::path at = path;
    for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit (ELOOP)
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(at, ec))) return at;
        const fs::path target = fs::read_symlink(at, ec);
        if (ec) throw std::runtime_error(path.string() + ": cannot read the symbolic link: " + ec.message());
        at = target.is_absolute() ? target : at.parent_path() / target;
    }
    throw std::runtime_error(path.string() + ": too many levels of symbolic links");
}

// All of `bytes`, or an error naming `path` (a full disk, /dev/full, a reader that went away).
void writeAll(int fd, const std::string& bytes, const fs::path& path) {
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            fail(path, "write failed", error);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) fail(path, "write failed", errno);
}

// A device, a FIFO or a socket: written as it is, never created or truncated. A FIFO waits here
// for its reader, as it would for any other writer.
void writeInto(const fs::path& path, const std::string& bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail(path, "cannot write", errno);
    writeAll(fd, bytes, path);
}

// A regular file or a new one: NAME.part beside it, renamed over it once complete. The .part is
// made fresh (O_EXCL), so a leftover one, or a link planted in its place, is never written through.
void replaceWith(const fs::path& target, const std::string& bytes, const fs::path& path) {
    fs::path tmp = target;
    tmp += ".part";
    std::error_code ec;
    fs::remove(tmp, ec);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail(path, "cannot write", errno);
    // Replacing a file keeps its permissions; a new one gets the umask's.
    struct stat old {};
    if (::stat(target.c_str(), &old) == 0) ::fchmod(fd, old.st_mode & 07777);
    try {
        writeAll(fd, bytes, path);
    } catch (...) {
        fs::remove(tmp, ec);
        throw;
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw std::runtime_error(path.string() + ": cannot replace: " + ec.message());
    }
}

}  // namespace

void writeFileAtomically(const fs::path& path, const std::string& bytes) {
    std::error_code ec;
    switch (fs::status(path, ec).type()) {  // through every link, as open() goes
    case fs::file_type::directory:
        throw std::runtime_error(path.string() + ": is a folder; expected a file to write");
    case fs::file_type::character:
    case fs::file_type::block:
    case fs::file_type::fifo:
    case fs::file_type::socket:
        // open() resolves the links itself, also /proc's (/dev/stdout when it is a pipe).
        writeInto(path, bytes);
        return;
    case fs::file_type::regular: {
        const fs::path real = fs::canonical(path, ec);
        replaceWith(ec ? followLinks(path) : real, bytes, path);
        return;
    }
    default:  // not there yet (maybe where a link points), or unknown: the open says why
        replaceWith(followLinks(path), bytes, path);
    }
}

}  // namespace spillway
