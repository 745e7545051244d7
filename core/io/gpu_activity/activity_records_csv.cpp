#include "core/io/gpu_activity/activity_records_csv.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace spillway::gpu_activity {
namespace {

struct Line {
    Nanoseconds start = 0;
    std::string text;
};

std::string quoted(const std::string& field) {
    if (field.find_first_of(",\"\n") == std::string::npos) return field;
    std::string q = "\"";
    for (const char c : field) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + '"';
}

std::string line(std::string_view record, Nanoseconds start, Nanoseconds end, std::int64_t device, std::int64_t stream,
                 std::uint64_t address, std::uint64_t value, const std::string& detail) {
    return fmt::format("{},{},{},{},{},{:#x},{},{}\n", record, start, end, device, stream, address, value, quoted(detail));
}

}  // namespace

void writeActivityRecordsCsv(const Capture& capture, std::ostream& out) {
    std::vector<Line> lines;
    lines.reserve(capture.kernels.size() + capture.copies.size() + capture.memory.size() + capture.unifiedMemory.size());
    for (const KernelRecord& k : capture.kernels)
        lines.push_back({k.start, line("kernel", k.start, k.end, k.deviceId, k.streamId, 0,
                                       static_cast<std::uint64_t>(k.correlationId), k.name)});
    for (const CopyRecord& c : capture.copies)
        lines.push_back({c.start, line("copy", c.start, c.end, c.deviceId, -1, 0, static_cast<std::uint64_t>(c.bytes),
                                       c.memset ? "memset" : std::string(toString(c.direction)))});
    for (const MemoryRecord& m : capture.memory)
        lines.push_back({m.time, line("memory", m.time, m.time, m.deviceId, -1, m.address, static_cast<std::uint64_t>(m.bytes),
                                      fmt::format("{} {}", m.allocation ? "alloc" : "free", toString(m.kind)))});
    for (const UnifiedMemoryRecord& u : capture.unifiedMemory)
        lines.push_back({u.start, line("um", u.start, u.end, u.deviceId, -1, u.address, u.value,
                                       fmt::format("{}; {}", toString(u.event), u.cause))});
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.start < b.start; });
    out << "record,start_ns,end_ns,device,stream,address,value,detail\n";
    for (const Line& l : lines) out << l.text;
}

}  // namespace spillway::gpu_activity
