#include "core/io/g10/g10_kernel_count.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/g10/g10_measurements.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace spillway {

namespace fs = std::filesystem;

namespace {

// Lines holding more than blanks: G10 reads the measurement files token by token, so blank
// lines do not count (as in readG10Measurements).
size_t kernelLines(std::string_view text) {
    size_t count = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        if (text.substr(pos, end - pos).find_first_not_of(" \t\r") != std::string_view::npos) ++count;
        pos = end + 1;
    }
    return count;
}

// The 1-based number of the last line that is not blank (1 for a blank text).
std::int64_t lastLine(std::string_view text) {
    const auto last = text.find_last_not_of(" \t\r\n");
    if (last == std::string_view::npos) return 1;
    return static_cast<std::int64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(last), '\n')) + 1;
}

std::string listNames(const std::vector<fs::path>& files) {
    std::string out;
    for (size_t i = 0; i < files.size(); ++i) {
        if (i > 0) out += i + 1 == files.size() ? " and " : ", ";
        out += files[i].filename().string();
    }
    return out;
}

}  // namespace

void checkG10KernelCountBeside(const fs::path& kernelsConfig, std::string_view kernelsText, size_t kernelCount) {
    auto folder = kernelsConfig.parent_path();
    if (folder.empty()) folder = ".";
    const auto files = listG10MeasurementFiles(folder);
    if (files.empty()) return;
    std::vector<std::string> texts;
    for (const auto& f : files) texts.push_back(readFileText(f));
    const auto measured = kernelLines(texts.front());
    for (const auto& t : texts)
        if (kernelLines(t) != measured) return;
    if (measured == kernelCount) return;
    if (measured > kernelCount)
        throw ImportError(
            SourceLocation{kernelsConfig.string(), lastLine(kernelsText), 0, -1, {}},
            fmt::format("the file ends here after {} kernels, but {} beside it measure{} {} kernels "
                        "(one line each); expected a block for every measured kernel: this "
                        "kernels.config is cut short",
                        kernelCount, listNames(files), files.size() == 1 ? "s" : "", measured));
    throw ImportError(
        SourceLocation{files.front().string(), lastLine(texts.front()), 0, -1, {}},
        fmt::format("the file ends here after {} kernel lines, but {} beside it has {} kernels; "
                    "expected one line per kernel: the measurements are cut short or belong to "
                    "another workload",
                    measured, kernelsConfig.filename().string(), kernelCount));
}

}  // namespace spillway
