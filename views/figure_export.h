#pragma once
// A paper's figure (core/experiment/figure_table.h) or a finished sweep drawn offscreen in the
// app's style, as SVG and PNG files: what `spillway-cli reproduce` writes beside its report.
// Grouped and stacked bars and lines get the sweep view's series colours (series_colours.h);
// stacked series named after a kind of stall (compute, fault stall, ...) get the stall views'
// colours (stall_colours.h). A sweep is drawn by the real SweepWidget. Every function here needs
// a QApplication (the charts are widgets); the platform may be "offscreen".
#include "core/experiment/figure_table.h"
#include "core/sweep/parameter_sweep.h"

#include <QByteArray>
#include <QSize>
#include <QString>

#include <filesystem>
#include <memory>
#include <vector>

class QCustomPlot;
class QPainter;
class QWidget;

namespace spillway::views {

// The size of every exported figure in pixels: the SVG's view box and the PNG's image.
inline constexpr QSize kFigureSize{800, 500};

struct FigureImages {
    QByteArray svg;
    QByteArray png;
};

// Draws `table` on a new `plot`: title above, legend below, x ticks at the groups, a NaN value
// a gap (no bar, a break in the line). Throws std::invalid_argument when table.shapeError() says
// the table is inconsistent.
void drawFigure(QCustomPlot* plot, const FigureTable& table);

// `table` drawn at `size`, wider where it has many groups (36 px each). Deterministic: the same table gives the same bytes on one machine.
FigureImages renderFigure(const FigureTable& table, QSize size = kFigureSize);

// The sweep as the Sweep tab draws it (speedups above, stalled share below), `title` above both.
FigureImages renderSweep(std::shared_ptr<const SweepResult> result, const QString& title,
                         QSize size = kFigureSize);

// Writes STEM.svg and STEM.png (through core's one write path) and returns both paths. Throws
// std::runtime_error naming the path that could not be written.
std::vector<std::filesystem::path> writeFigureImages(const FigureImages& images, const std::filesystem::path& stem);

// `view` as vectors onto `painter`: every visible chart in it (or `view` itself, if it is one)
// replayed from QCustomPlot's own painter, whose paintEvent would only blit a cached pixmap; the
// rest of the widget rendered around them.
void paintWidgetVectors(QWidget* view, QPainter& painter);

}  // namespace spillway::views
