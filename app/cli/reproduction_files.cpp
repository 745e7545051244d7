#include "app/cli/reproduction_files.h"

#include "core/io/base/file_text.h"
#include "core/sweep/sweep_result_json.h"

#ifdef SPILLWAY_CLI_PLOTS
#include "views/figure_export.h"

#include <QApplication>
#endif

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace spillway::cli {

namespace {

bool isFileStem(const std::string& stem) {
    if (stem.empty()) return false;
    for (char c : stem)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
    return true;
}

// Everything is checked before the first file is written, so a bad reproduction leaves no half
// of its files behind.
void checkNames(const Reproduction& r) {
    for (const FigureTable& f : r.figures)
        if (const std::string problem = f.shapeError(); !problem.empty())
            throw std::runtime_error("cannot write the reproduction: " + problem);
    for (const NamedSweep& s : r.sweeps) {
        if (!isFileStem(s.stem)) throw std::runtime_error(fmt::format("sweep stem '{}' is not a file stem", s.stem));
        if (!s.result) throw std::runtime_error(fmt::format("sweep '{}' has no result", s.stem));
    }
}

void makeFolder(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        throw std::runtime_error(fmt::format("{}: cannot create the folder: {}", dir.string(),
                                             ec ? ec.message() : std::string("a file is in the way")));
}

#ifdef SPILLWAY_CLI_PLOTS
// The charts are widgets: they need a QApplication. spillway-cli has none, and may run over ssh
// without a display, so it makes one on the offscreen platform unless QT_QPA_PLATFORM says
// otherwise; inside the app (or a test) the running one is used.
std::unique_ptr<QApplication> plotApplication() {
    if (QCoreApplication::instance()) {
        if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
            throw std::runtime_error("drawing the figures needs a QApplication, and another kind is running");
        return nullptr;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "spillway-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

void writePlots(const Reproduction& r, const std::filesystem::path& dir, std::vector<std::filesystem::path>& written) {
    if (r.figures.empty()) return;
    const auto app = plotApplication();
    for (const FigureTable& f : r.figures)
        for (auto& path : views::writeFigureImages(views::renderFigure(f), dir / f.id)) written.push_back(path);
}
#else
void writePlots(const Reproduction& r, const std::filesystem::path&, std::vector<std::filesystem::path>&) {
    if (!r.figures.empty())
        fmt::print(stderr, "spillway-cli: wrote the figures as CSV only; their SVG and PNG plots need the GUI "
                           "build (SPILLWAY_BUILD_GUI=ON)\n");
}
#endif

}  // namespace

std::vector<std::filesystem::path> writeReproduction(const Reproduction& reproduction,
                                                     const std::filesystem::path& dir) {
    checkNames(reproduction);
    makeFolder(dir);
    std::vector<std::filesystem::path> written{dir / "report.md"};
    writeFileAtomically(written.front(), reproductionMarkdown(reproduction));
    for (const FigureTable& f : reproduction.figures) {
        written.push_back(dir / (f.id + ".csv"));
        writeFileAtomically(written.back(), figureCsv(f));
    }
    for (const NamedSweep& s : reproduction.sweeps) {
        written.push_back(dir / (s.stem + ".sweep.json"));
        writeSweepResult(*s.result, written.back());
    }
    writePlots(reproduction, dir, written);
    return written;
}

}  // namespace spillway::cli
