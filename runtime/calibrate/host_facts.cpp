#include "runtime/calibrate/host_facts.h"

#include <unistd.h>

#include <ctime>
#include <fstream>
#include <regex>

namespace spillway::calibrate {

std::int64_t hostMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? std::int64_t(pages) * pageSize : 0;
}

std::string nvidiaKernelModuleVersion() {
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (!std::getline(in, line)) return {};
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." or
    // "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ..."
    std::smatch m;
    static const std::regex version(R"(Kernel Module.*?\s([0-9]+(\.[0-9]+)+)\s)");
    return std::regex_search(line, m, version) ? m[1].str() : std::string();
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace spillway::calibrate
