#include "core/experiment/reproduction.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

namespace {

// The reasons a figure's cells did not run, each once, in the order they first appear.
std::string missingCells(const FigureTable& figure) {
    std::string out;
    for (size_t s = 0; s < figure.why.size(); ++s)
        for (size_t g = 0; g < figure.why[s].size(); ++g)
            if (!figure.why[s][g].empty())
                out += fmt::format("- {} / {}: {}\n", figure.series[s], figure.groups[g], figure.why[s][g]);
    return out;
}

std::string figureSection(const FigureTable& figure) {
    std::string out = fmt::format("## {}\n\n![{}]({}.svg)\n\n", figure.title, figure.id, figure.id);
    out += figureMarkdown(figure);
    if (!figure.caption.empty()) out += "\n" + figure.caption + "\n";
    const std::string missing = missingCells(figure);
    if (!missing.empty()) out += "\nDid not run:\n\n" + missing;
    out += fmt::format("\nData: [{}.csv]({}.csv)\n\n", figure.id, figure.id);
    return out;
}

}  // namespace

const FigureTable& Reproduction::figure(const std::string& id) const {
    for (const auto& f : figures)
        if (f.id == id) return f;
    throw std::out_of_range(fmt::format("the reproduction of {} has no figure '{}'", paper, id));
}

std::string reproductionMarkdown(const Reproduction& r) {
    std::string out = fmt::format("# {}\n\n", r.paper);
    if (!r.setup.empty()) out += r.setup + "\n\n";
    for (const auto& figure : r.figures) out += figureSection(figure);
    if (!r.comparisons.empty()) {
        out += "## The paper's numbers beside ours\n\n| claim | paper | ours | why they differ |\n|---|---|---|---|\n";
        for (const auto& c : r.comparisons)
            out += fmt::format("| {} | {} | {} | {} |\n", c.claim, c.paper, c.ours, c.why.empty() ? "-" : c.why);
        out += "\n";
    }
    if (!r.sweeps.empty()) {
        out += "## Sweeps the app opens (Sweep tab, Open results)\n\n";
        for (const auto& s : r.sweeps) out += fmt::format("- [{}]({}.sweep.json): {}\n", s.stem, s.stem, s.title);
        out += "\n";
    }
    if (!r.discussion.empty()) out += "## Discussion\n\n" + r.discussion + "\n";
    return out;
}

}  // namespace spillway
