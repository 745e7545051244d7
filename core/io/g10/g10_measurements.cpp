#include "core/io/g10/g10_measurements.h"

#include "core/io/base/file_text.h"
#include "core/io/g10/g10_model.h"
#include "core/io/g10/g10_text.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>

namespace spillway {

namespace fs = std::filesystem;

namespace {

enum class Column { Ideal, AllFaulted, OutputsFaulted, Workspace };
constexpr int kColumnCount = 4;

// "cudnn256PF.txt" -> (256, AllFaulted); anything else -> nothing.
std::optional<std::pair<std::int64_t, Column>> classify(const std::string& name) {
    constexpr std::string_view prefix = "cudnn";
    constexpr std::string_view ext = ".txt";
    std::string_view n = name;
    if (!n.starts_with(prefix) || !n.ends_with(ext)) return std::nullopt;
    n.remove_prefix(prefix.size());
    n.remove_suffix(ext.size());
    std::int64_t batch = 0;
    const auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), batch);
    if (ec != std::errc() || ptr == n.data() || batch <= 0) return std::nullopt;
    const std::string_view suffix(ptr, static_cast<size_t>(n.data() + n.size() - ptr));
    if (suffix.empty()) return std::pair{batch, Column::Ideal};
    if (suffix == "PF") return std::pair{batch, Column::AllFaulted};
    if (suffix == "InputPF") return std::pair{batch, Column::OutputsFaulted};
    if (suffix == "Workspace") return std::pair{batch, Column::Workspace};
    return std::nullopt;
}

std::string fileName(std::int64_t batch, Column c) {
    constexpr const char* suffixes[] = {"", "PF", "InputPF", "Workspace"};
    return fmt::format("cudnn{}{}.txt", batch, suffixes[static_cast<int>(c)]);
}

// One value per kernel line. Times in ms become ns; workspace stays bytes.
std::vector<std::int64_t> readColumn(const fs::path& path, Column column, size_t kernelCount) {
    const std::string text = readFileText(path);
    G10LineCursor cursor(path.string(), text);
    const bool bytes = column == Column::Workspace;
    const std::string_view unit = bytes ? "B" : "ms";
    const std::string shape = fmt::format("'<kernel index> <value> {}'", unit);
    std::vector<std::int64_t> values;
    values.reserve(kernelCount);
    while (values.size() < kernelCount) {
        if (cursor.atEnd())
            cursor.failAtEnd(fmt::format("{} for kernel {} (one line per kernel, {} kernels)",
                                         shape, values.size(), kernelCount));
        const auto line = cursor.next();
        // Blank lines do not count (G10 reads these files token by token).
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        G10LineFields f(cursor, line);
        f.skipSpaces();
        const auto index = f.integer("the kernel index");
        if (index != static_cast<std::int64_t>(values.size()))
            cursor.failHere(fmt::format("expected kernel index {} on this line (lines are in "
                                        "kernel order), found {}",
                                        values.size(), index),
                            1);
        f.skipSpaces();
        const auto valueColumn = f.column();
        std::int64_t value = 0;
        if (bytes) {
            value = f.integer("the workspace size in bytes");
            if (value < 0)
                cursor.failHere(fmt::format("expected a workspace size of 0 or more bytes, found "
                                            "{}",
                                            value),
                                valueColumn);
        } else {
            const double ms = f.number("the kernel time in ms");
            if (!std::isfinite(ms) || ms < 0 || ms > 1e9)
                cursor.failHere(fmt::format("expected a kernel time of 0 ms or more, found {}",
                                            ms),
                                valueColumn);
            value = std::llround(ms * 1e6);
            if (column == Column::Ideal && value <= 0)
                cursor.failHere("expected a positive kernel time (G10 requires one), found " +
                                    fmt::format("{} ms", ms),
                                valueColumn);
        }
        f.skipSpaces();
        f.expect(unit, "the unit");
        f.expectEnd("the unit");
        values.push_back(value);
    }
    if (!cursor.onlyBlankLeft()) {
        cursor.next();
        cursor.failHere(fmt::format("expected the end of the file: it has more lines than the {} "
                                    "kernels of the workload",
                                    kernelCount));
    }
    return values;
}

}  // namespace

std::optional<G10MeasurementFiles> findG10MeasurementFiles(const fs::path& folder,
                                                           std::optional<std::int64_t> batch) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw ImportError(folder.string(), "is not a folder; expected the folder with the "
                                           "cudnn<B>*.txt measurement files");
    std::map<std::int64_t, std::array<bool, kColumnCount>> found;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const auto kind = classify(entry.path().filename().string());
        if (!kind || (batch && kind->first != *batch)) continue;
        found[kind->first][static_cast<int>(kind->second)] = true;
    }
    if (ec) throw ImportError(folder.string(), "cannot list the folder: " + ec.message());
    if (found.empty()) return std::nullopt;
    if (found.size() > 1) {
        std::string sizes;
        for (const auto& [b, _] : found) sizes += fmt::format("{}{}", sizes.empty() ? "" : ", ", b);
        throw ImportError(folder.string(),
                          fmt::format("holds G10 measurements for several batch sizes ({}); "
                                      "expected the four cudnn<B>*.txt files of one batch",
                                      sizes));
    }
    const auto& [b, present] = *found.begin();
    std::string missing;
    for (int c = 0; c < kColumnCount; ++c)
        if (!present[c])
            missing += fmt::format("{}{}", missing.empty() ? "" : ", ",
                                   fileName(b, static_cast<Column>(c)));
    if (!missing.empty())
        throw ImportError(folder.string(),
                          fmt::format("has only part of the G10 measurements for batch {}: "
                                      "missing {}; expected all four cudnn{}*.txt files or none",
                                      b, missing, b));
    return G10MeasurementFiles{b, folder / fileName(b, Column::Ideal),
                               folder / fileName(b, Column::AllFaulted),
                               folder / fileName(b, Column::OutputsFaulted),
                               folder / fileName(b, Column::Workspace)};
}

std::vector<fs::path> listG10MeasurementFiles(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (classify(entry.path().filename().string())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

G10Measurements readG10Measurements(const G10MeasurementFiles& files, size_t kernelCount) {
    G10Measurements m;
    m.files = files;
    m.ideal = readColumn(files.ideal, Column::Ideal, kernelCount);
    m.allFaulted = readColumn(files.allFaulted, Column::AllFaulted, kernelCount);
    m.outputsFaulted = readColumn(files.outputsFaulted, Column::OutputsFaulted, kernelCount);
    m.workspace = readColumn(files.workspace, Column::Workspace, kernelCount);
    return m;
}

G10MeasurementReport attachG10Measurements(Profile& profile, const G10Measurements& m,
                                           G10WorkspaceColumn workspace) {
    G10MeasurementReport report;
    for (size_t k = 0; k < profile.kernels.size(); ++k) {
        auto& kernel = profile.kernels[k];
        if (workspace == G10WorkspaceColumn::CheckAndSet && roundUpToG10Page(m.workspace[k]) != kernel.workspaceBytes) {
            SourceLocation loc;
            loc.file = m.files.workspace.string();
            loc.line = static_cast<std::int64_t>(k) + 1;
            throw ImportError(loc, fmt::format("kernel {} ({}) has a workspace of {} B here, but "
                                               "kernels.config gives it {} B of workspace "
                                               "tensor; expected the same size rounded up to "
                                               "4 KiB pages",
                                               kernel.id, kernel.name, m.workspace[k],
                                               kernel.workspaceBytes));
        }
        kernel.duration = m.ideal[k];
        if (workspace != G10WorkspaceColumn::Ignore) kernel.workspaceBytes = m.workspace[k];
        auto outputsFaulted = m.outputsFaulted[k];
        if (outputsFaulted < kernel.duration) {
            outputsFaulted = kernel.duration;
            ++report.outputsFaultedRaised;
        }
        auto allFaulted = m.allFaulted[k];
        if (allFaulted < outputsFaulted) {
            allFaulted = outputsFaulted;
            ++report.allFaultedRaised;
        }
        kernel.timeOutputsFaulted = outputsFaulted;
        kernel.timeAllFaulted = allFaulted;
    }
    return report;
}

}  // namespace spillway
