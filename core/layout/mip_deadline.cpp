#include "core/layout/mip_deadline.h"

#include <fmt/format.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

// The result on the wire: a fixed header, the values, the note.
struct Header {
    int status = 0;
    double objective = 0, bound = 0, seconds = 0;
    std::uint64_t values = 0, noteBytes = 0;
};

bool writeAll(int fd, const void* data, size_t bytes) {
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        bytes -= size_t(n);
    }
    return true;
}

[[noreturn]] void runChild(int fd, const std::function<MipResult()>& solve) {
    int code = 0;
    try {
        const MipResult r = solve();
        Header h{int(r.status), r.objective, r.bound, r.seconds, r.values.size(), r.note.size()};
        code = writeAll(fd, &h, sizeof h) && writeAll(fd, r.values.data(), r.values.size() * sizeof(double)) &&
                       writeAll(fd, r.note.data(), r.note.size())
                   ? 0
                   : 2;
    } catch (...) {
        code = 3;
    }
    ::close(fd);
    ::_exit(code);  // no destructors, no atexit handlers: they belong to the parent
}

// Reads the child's answer until end of file or the deadline; false at the deadline.
bool readUntil(int fd, std::string& bytes, Clock::time_point deadline) {
    char buffer[1 << 16];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left, 1000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true;
        bytes.append(buffer, size_t(n));
    }
}

MipResult decode(const std::string& bytes) {
    MipResult r;
    Header h;
    if (bytes.size() < sizeof h) {
        r.status = MipStatus::NoSolution;
        r.note = "the solver's process ended without an answer";
        return r;
    }
    std::memcpy(&h, bytes.data(), sizeof h);
    if (bytes.size() != sizeof h + h.values * sizeof(double) + h.noteBytes) {
        r.status = MipStatus::NoSolution;
        r.note = "the solver's process sent an incomplete answer";
        return r;
    }
    r.status = MipStatus(h.status);
    r.objective = h.objective;
    r.bound = h.bound;
    r.seconds = h.seconds;
    r.values.resize(h.values);
    std::memcpy(r.values.data(), bytes.data() + sizeof h, h.values * sizeof(double));
    r.note.assign(bytes.data() + sizeof h + h.values * sizeof(double), h.noteBytes);
    return r;
}

}  // namespace

MipResult runWithDeadline(const std::function<MipResult()>& solve, double deadlineSeconds) {
    const auto started = Clock::now();
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error(fmt::format("cannot run the MIP solver: pipe: {}", std::strerror(errno)));
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw std::runtime_error(fmt::format("cannot run the MIP solver: fork: {}", std::strerror(errno)));
    }
    if (child == 0) {
        ::close(fds[0]);
        runChild(fds[1], solve);
    }
    ::close(fds[1]);
    std::string bytes;
    const auto deadline = started + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(std::min(std::max(deadlineSeconds, 0.0), 1e7)));
    const bool finished = readUntil(fds[0], bytes, deadline);
    ::close(fds[0]);
    if (!finished) ::kill(child, SIGKILL);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    MipResult r;
    if (finished) {
        r = decode(bytes);
    } else {
        r.status = MipStatus::NoSolution;
        r.note = fmt::format("CBC did not stop at its time limit (it does not interrupt its root LP); stopped after {:.1f} s",
                             deadlineSeconds);
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    return r;
}

}  // namespace spillway
