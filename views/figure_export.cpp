#include "views/figure_export.h"

#include "core/io/base/file_text.h"
#include "views/format_units.h"
#include "views/series_colours.h"
#include "views/stacked_bars.h"
#include "views/stall_colours.h"
#include "views/sweep_widget.h"

#include <QBuffer>
#include <QPainter>
#include <QPicture>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace spillway::views {

namespace {

// A stacked series named after a kind of time gets that kind's colour in the stall views.
std::optional<QColor> stallColour(const std::string& series) {
    const QString name = toQString(series).toLower();
    if (name.contains("recompute")) return stall_colours::kRecompute;
    if (name.contains("compute")) return stall_colours::kCompute;
    if (name.contains("fault")) return stall_colours::kFault;
    if (name.contains("oversub") || name.contains("passive")) return stall_colours::kOversub;
    if (name.contains("prefetch") || name.contains("swap")) return stall_colours::kLatePrefetch;
    if (name.contains("nvlink")) return stall_colours::kNvlink;
    return std::nullopt;
}

QColor colourOf(const FigureTable& table, size_t series) {
    if (table.style == FigureStyle::StackedBars)
        if (const auto stall = stallColour(table.series[series])) return *stall;
    return seriesColour(series);
}

// The groups as text ticks at 0, 1, ...; long labels are tilted so that they do not overlap.
void setGroupTicks(QCustomPlot* plot, const FigureTable& table) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    qsizetype characters = 0;
    for (size_t g = 0; g < table.groups.size(); ++g) {
        ticker->addTick(double(g), toQString(table.groups[g]));
        characters += qsizetype(table.groups[g].size()) + 2;
    }
    plot->xAxis->setTicker(ticker);
    // Tilted against the clock, a label ends at its tick and runs down to the left, into the
    // axis margin, instead of past the figure's right edge.
    plot->xAxis->setTickLabelRotation(characters > 90 ? -45 : 0);
    plot->xAxis->setRange(-0.5, double(table.groups.size()) - 0.5);
    plot->xAxis->grid()->setZeroLinePen(Qt::NoPen);  // x = 0 is the first group, not a zero
    plot->xAxis->setLabel(toQString(table.xLabel));
    plot->yAxis->setLabel(toQString(table.yLabel));
}

QVector<double> keysOf(size_t count) {
    QVector<double> keys;
    for (size_t g = 0; g < count; ++g) keys << double(g);
    return keys;
}

// Bars side by side in each group; a NaN cell has no bar.
void drawGroupedBars(QCustomPlot* plot, const FigureTable& table) {
    auto* group = new QCPBarsGroup(plot);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    const double width = 0.8 / double(std::max<size_t>(table.series.size(), 1));
    for (size_t s = 0; s < table.series.size(); ++s) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(toQString(table.series[s]));
        bars->setWidth(width);
        bars->setPen(Qt::NoPen);
        bars->setBrush(colourOf(table, s));
        for (size_t g = 0; g < table.groups.size(); ++g)
            if (!std::isnan(table.at(s, g))) bars->addData(double(g), table.at(s, g));
        bars->setBarsGroup(group);
    }
}

// Layers as the stall views stack them; a NaN cell adds nothing to its stack.
void drawStackedBars(QCustomPlot* plot, const FigureTable& table) {
    QCPBars* below = nullptr;
    for (size_t s = 0; s < table.series.size(); ++s) {
        QVector<double> keys, values;
        for (size_t g = 0; g < table.groups.size(); ++g)
            if (!std::isnan(table.at(s, g))) {
                keys << double(g);
                values << table.at(s, g);
            }
        below = addStackedBars(plot, toQString(table.series[s]), colourOf(table, s), 0.6, keys, values, below);
    }
}

// One line per series; QCustomPlot breaks a line at a NaN value.
void drawLines(QCustomPlot* plot, const FigureTable& table) {
    const QVector<double> keys = keysOf(table.groups.size());
    for (size_t s = 0; s < table.series.size(); ++s) {
        QVector<double> values;
        for (size_t g = 0; g < table.groups.size(); ++g) values << table.at(s, g);
        addSeriesLine(plot, toQString(table.series[s]), colourOf(table, s))->setData(keys, values, true);
    }
}

// From 0 (or the lowest value) to the highest stack or value, with room above it.
void setValueRange(QCustomPlot* plot, const FigureTable& table) {
    double low = 0, high = 0;
    for (size_t g = 0; g < table.groups.size(); ++g) {
        double stack = 0;
        for (size_t s = 0; s < table.series.size(); ++s) {
            const double v = table.at(s, g);
            if (std::isnan(v)) continue;
            stack += v;
            low = std::min(low, v);
            high = std::max(high, table.style == FigureStyle::StackedBars ? stack : v);
        }
    }
    if (high <= low) high = low + 1;
    plot->yAxis->setRange(low < 0 ? low * 1.15 : 0, high * 1.15);
}

// The title in a row above the axis rect, the legend in a row below it (never over the data).
void addTitleAndLegend(QCustomPlot* plot, const QString& title, int legendColumns) {
    if (!title.isEmpty()) {
        plot->plotLayout()->insertRow(0);
        auto* text = new QCPTextElement(plot, title, QFont(plot->font().family(), 11, QFont::Bold));
        plot->plotLayout()->addElement(0, 0, text);
    }
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));  // as the sweep and stall views
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(legendColumns);
    plot->legend->setBorderPen(Qt::NoPen);  // a full-width row: a frame would only box the page
    const int row = plot->plotLayout()->rowCount();
    plot->plotLayout()->addElement(row, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
}

// Vectors: the plot's own painter in vector mode without its pixmap caches, so text stays text.
void paintPlotVectors(QCustomPlot* plot, QPainter& painter, QPoint at) {
    QPicture picture;
    {
        QCPPainter recorder(&picture);
        recorder.setMode(QCPPainter::pmVectorized);
        recorder.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&recorder, plot->width(), plot->height());
    }
    painter.save();
    painter.setClipRect(QRect(at, plot->size()));
    painter.drawPicture(at, picture);
    painter.restore();
}

QByteArray svgOf(QWidget* view, const QString& title) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(view->logicalDpiX());  // fonts in points become the pixels the PNG has
    svg.setSize(view->size());
    svg.setViewBox(QRect(QPoint(0, 0), view->size()));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("Drawn by Spillway"));
    QPainter painter(&svg);
    paintWidgetVectors(view, painter);
    painter.end();
    return buffer.data();
}

// Pixels: each chart's own rendering at scale 1 on white, so the size is `view`'s whatever the
// screen's device pixel ratio.
QByteArray pngOf(QWidget* view) {
    QImage image(view->size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        QList<QCustomPlot*> plots = view->findChildren<QCustomPlot*>();
        if (auto* self = qobject_cast<QCustomPlot*>(view)) plots = {self};
        for (QCustomPlot* plot : plots)
            painter.drawPixmap(plot->mapTo(view, QPoint(0, 0)), plot->toPixmap(plot->width(), plot->height(), 1.0));
    }
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return buffer.data();
}

// Lays `view` out at `size` without showing it on any screen.
void layOut(QWidget* view, QSize size) {
    view->setAttribute(Qt::WA_DontShowOnScreen);
    view->resize(size);
    view->show();
    for (QCustomPlot* plot : view->findChildren<QCustomPlot*>()) plot->replot();
    if (auto* self = qobject_cast<QCustomPlot*>(view)) self->replot();
}

}  // namespace

void drawFigure(QCustomPlot* plot, const FigureTable& table) {
    if (const std::string problem = table.shapeError(); !problem.empty())
        throw std::invalid_argument("cannot draw figure: " + problem);
    plot->clearPlottables();
    plot->clearItems();
    setGroupTicks(plot, table);
    switch (table.style) {
    case FigureStyle::GroupedBars: drawGroupedBars(plot, table); break;
    case FigureStyle::StackedBars: drawStackedBars(plot, table); break;
    case FigureStyle::Lines: drawLines(plot, table); break;
    }
    setValueRange(plot, table);
    addTitleAndLegend(plot, toQString(table.title), std::min<int>(int(table.series.size()), 5));
}

FigureImages renderFigure(const FigureTable& table, QSize size) {
    QCustomPlot plot;
    drawFigure(&plot, table);
    // Many groups get more width (36 px each past the default) rather than thinner bars.
    size.setWidth(std::max(size.width(), 36 * int(table.groups.size()) + 120));
    layOut(&plot, size);
    return {svgOf(&plot, toQString(table.title)), pngOf(&plot)};
}

FigureImages renderSweep(std::shared_ptr<const SweepResult> result, const QString& title, QSize size) {
    SweepWidget widget;
    widget.setResult(std::move(result));
    if (!title.isEmpty()) {
        QCustomPlot* plot = widget.plot();
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), 11, QFont::Bold)));
    }
    layOut(&widget, size);
    return {svgOf(&widget, title), pngOf(&widget)};
}

std::vector<std::filesystem::path> writeFigureImages(const FigureImages& images, const std::filesystem::path& stem) {
    std::filesystem::path svg = stem, png = stem;
    svg += ".svg";
    png += ".png";
    writeFileAtomically(svg, images.svg.toStdString());
    writeFileAtomically(png, images.png.toStdString());
    return {svg, png};
}

void paintWidgetVectors(QWidget* view, QPainter& painter) {
    if (auto* self = qobject_cast<QCustomPlot*>(view)) {
        paintPlotVectors(self, painter, QPoint(0, 0));
        return;
    }
    QRegion rest(view->rect());
    QList<QCustomPlot*> plots;
    for (QCustomPlot* plot : view->findChildren<QCustomPlot*>())
        if (plot->isVisibleTo(view) && plot->width() > 0 && plot->height() > 0) {
            plots << plot;
            rest -= QRect(plot->mapTo(view, QPoint(0, 0)), plot->size());
        }
    if (!rest.isEmpty())
        view->render(&painter, QPoint(), rest, QWidget::DrawWindowBackground | QWidget::DrawChildren);
    for (QCustomPlot* plot : plots) paintPlotVectors(plot, painter, plot->mapTo(view, QPoint(0, 0)));
}

}  // namespace spillway::views
