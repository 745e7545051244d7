#include "core/io/profile_loader.h"

#include "core/io/g10/g10_import.h"
#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/io/gpu_activity/nsys_sqlite_import.h"
#include "core/io/gpu_activity/stored_capture.h"
#include "core/io/torch_snapshot/torch_snapshot_import.h"
#include "core/io/torch_trace/torch_trace_import.h"

#include <fmt/format.h>

#include <new>

namespace spillway {

namespace fs = std::filesystem;

namespace {

bool isDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool sniffNative(const fs::path& p, std::string_view head) {
    return !isDir(p) && head.find(kNativeFormatId) != std::string_view::npos;
}

bool sniffG10Workload(const fs::path& p, std::string_view) {
    std::error_code ec;
    return isDir(p) && fs::exists(p / "kernels.config", ec) && fs::exists(p / "tensors.config", ec);
}

bool sniffG10Configs(const fs::path& p, std::string_view head) {
    return !isDir(p) && head.starts_with("Kernel ID:");
}

// A transformer graph block opens with an op id line and an op type word.
bool sniffG10Graph(const fs::path& p, std::string_view head) {
    if (isDir(p)) return false;
    const auto firstEnd = head.find('\n');
    if (firstEnd == std::string_view::npos || firstEnd == 0) return false;
    for (size_t i = 0; i < firstEnd; ++i)
        if (head[i] < '0' || head[i] > '9') return false;
    const auto second = head.substr(firstEnd + 1, head.find('\n', firstEnd + 1) - firstEnd - 1);
    return !second.empty() && std::isalpha(static_cast<unsigned char>(second[0]));
}

// Also the legacy autograd-profiler layout (a bare array of "ph" events), so its import can
// say why it cannot be used instead of "unrecognised format".
bool sniffTorchTrace(const fs::path& p, std::string_view head) {
    if (isDir(p)) return false;
    if (head.find("\"traceEvents\"") != std::string_view::npos) return true;
    const auto first = head.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && head[first] == '[' &&
           head.find("\"ph\"") != std::string_view::npos;
}

bool sniffTorchSnapshot(const fs::path& p, std::string_view head) {
    // Pickle protocol 2+ starts with PROTO (0x80) and the protocol number.
    return !isDir(p) && head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x80 &&
           head[1] >= 2 && head[1] <= 5;
}

// Any SQLite database but a Spillway workspace: the importer says so when it lacks nsys's tables.
bool sniffNsysSqlite(const fs::path& p, std::string_view head) { return !isDir(p) && looksLikeForeignSqlite(head); }

// A spillway-capture file holds the whole run: it is built again for the iteration asked for
// (docs/capture.md, "Reading a capture back"); any other native profile comes back as saved.
Profile loadNative(const fs::path& p, const ImportOptions& o) {
    return gpu_activity::rebuildStoredCapture(readNativeProfile(p), p.string(), o);
}
Profile loadG10Workload(const fs::path& p, const ImportOptions& o) {
    return importG10Workload(p, o.g10WorkspacesAsTensors);
}
Profile loadG10Configs(const fs::path& p, const ImportOptions& o) {
    return importG10Configs(isDir(p) ? p / "kernels.config" : p, o.g10WorkspacesAsTensors);
}
Profile loadG10Graph(const fs::path& p, const ImportOptions& o) {
    if (!o.batch)
        throw ImportError(p.string(), "a G10 transformer graph needs the batch size (--batch B): "
                                        "dimension 99 in the graph stands for it");
    return importG10Graph(p, *o.batch, o.resultsDir);
}
Profile loadTorchTrace(const fs::path& p, const ImportOptions& o) { return importTorchTrace(p, o); }
Profile loadTorchSnapshot(const fs::path& p, const ImportOptions& o) { return importTorchSnapshot(p, o); }
// SQLite reads its file in place, pages at a time: it cannot read through gzip, and inflating a
// multi-GiB export to a temporary file behind the user's back is worse than asking.
Profile loadNsysSqlite(const fs::path& p, const ImportOptions& o) {
    if (isGzipFile(p))
        throw ImportError(SourceLocation{p.string(), 0, 0, 0, {}},
                          "a gzip-compressed SQLite database: SQLite cannot read it compressed; unpack it "
                          "first (gunzip -k FILE) and open the unpacked file");
    return importNsysSqlite(p, o);
}

// The first 4 KiB of the file's text, inflated when it is gzipped, so every format is sniffed
// the same compressed or not.
std::string readHead(const fs::path& p) {
    if (isDir(p)) return {};
    return readFileHead(p, 4096);
}

}  // namespace

const std::vector<ProfileFormat>& profileFormats() {
    static const std::vector<ProfileFormat> formats{
        {"spillway", "Spillway native profile (spillway.profile/1 JSON)", sniffNative, loadNative},
        {"g10-workload", "G10 workload folder (kernels.config, tensors.config, cudnn<B>*.txt)",
         sniffG10Workload, loadG10Workload},
        {"g10-configs", "G10 kernels.config (with tensors.config beside it)", sniffG10Configs,
         loadG10Configs},
        {"g10-graph", "G10 transformer graph (frontend/Nets/*.txt; needs --batch)", sniffG10Graph,
         loadG10Graph},
        {"torch-trace", "PyTorch profiler Chrome trace JSON (profile_memory=True)", sniffTorchTrace,
         loadTorchTrace},
        {"torch-snapshot", "PyTorch CUDA memory snapshot pickle (_dump_snapshot)",
         sniffTorchSnapshot, loadTorchSnapshot},
        {"nsys-sqlite", "Nsight Systems SQLite export (nsys export --type sqlite)", sniffNsysSqlite,
         loadNsysSqlite},
    };
    return formats;
}

const ProfileFormat* findProfileFormat(std::string_view id) {
    for (const auto& f : profileFormats())
        if (f.id == id) return &f;
    return nullptr;
}

std::string detectProfileFormat(const fs::path& path, const ImportOptions& options) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw ImportError(path.string(), "no such file or folder");
    // Before anything opens it (also with --from): a FIFO would hang the open, a device the read.
    if (!isDir(path)) requireRegularFile(path);
    if (!options.format.empty()) {
        if (!findProfileFormat(options.format)) {
            std::string ids;
            for (const auto& f : profileFormats()) ids += (ids.empty() ? "" : ", ") + f.id;
            throw ImportError({path.string()},
                              fmt::format("unknown format \"{}\"; known formats: {}", options.format, ids));
        }
        return options.format;
    }
    const auto head = readHead(path);
    if (!isDir(path) && head.empty())
        throw ImportError(path.string(), "file is empty; expected a profile");
    for (const auto& f : profileFormats())
        if (f.sniff(path, head)) return f.id;
    if (!isDir(path) && looksLikeWorkspace(head))
        throw ImportError(path.string(), "a Spillway workspace, not a profile: open it with File ▸ Open Workspace… "
                                         "(the profiles in it are listed in the Workspace dock)");
    throw ImportError({path.string()},
                      isDir(path) ? "folder holds no profile (expected a G10 workload folder with "
                                    "kernels.config and tensors.config)"
                                  : "unrecognised profile format (expected spillway.profile/1 JSON, "
                                    "a G10 kernels.config or graph, a torch.profiler Chrome trace, "
                                    "a PyTorch memory snapshot pickle or an Nsight Systems SQLite "
                                    "export); use --from to force one");
}

Profile loadProfile(const fs::path& path, const ImportOptions& options) {
    try {
        const auto id = detectProfileFormat(path, options);
        return findProfileFormat(id)->load(path, options);
    } catch (const std::bad_alloc&) {
        throw outOfMemoryError(path.string());
    }
}

namespace {

// What the importer will read: the file, or the files directly in a workload folder.
std::uint64_t bytesToRead(const fs::path& path) {
    std::error_code ec;
    if (!isDir(path)) {
        const auto size = fs::file_size(path, ec);
        return ec ? 0 : size;
    }
    std::uint64_t total = 0;
    for (const auto& entry : fs::directory_iterator(path, ec))
        if (entry.is_regular_file(ec)) total += entry.file_size(ec);
    return total;
}

// Shares of the bar, from bench_load_progress on a 47 MB native profile (docs/app.md): reading
// the bytes from the page cache is about 1 % of a load, the JSON parse 40-50 %, building the
// Profile from the document the rest. Formats that do not report a stage skip over it.
constexpr double kReadShare = 0.02;
constexpr double kParseEnd = 0.5;

}  // namespace

Profile loadProfile(const fs::path& path, const ImportOptions& options, const LoadProgress& progress) {
    detail::ScopedReadProgress tracker(progress, bytesToRead(path), kReadShare, kParseEnd);
    tracker.reportAtLeast(0.0, "detecting format");
    try {
        const auto id = detectProfileFormat(path, options);
        Profile profile = findProfileFormat(id)->load(path, options);
        tracker.reportAtLeast(1.0, "done");
        return profile;
    } catch (const std::bad_alloc&) {
        throw outOfMemoryError(path.string());
    }
}

}  // namespace spillway
