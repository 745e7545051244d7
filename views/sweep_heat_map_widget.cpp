#include "views/sweep_heat_map_widget.h"

#include "views/format_units.h"
#include "views/sweep_value_format.h"

#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace spillway::views {

namespace {

// Viridis (matplotlib's, sampled at nine stops): perceptually even, readable in grey and by the
// common colour-vision deficiencies. QCustomPlot 2.1 has no preset for it.
QCPColorGradient viridis() {
    QCPColorGradient gradient;
    gradient.clearColorStops();
    const char* stops[] = {"#440154", "#482878", "#3e4989", "#31688e", "#26828e",
                           "#1f9e89", "#35b779", "#6ece58", "#fde725"};
    for (int i = 0; i < 9; ++i) gradient.setColorStopAt(i / 8.0, QColor(stops[i]));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(0xdd, 0xdd, 0xdd));  // light grey: no cell ran there
    return gradient;
}

}  // namespace

QString SweepHeatMapWidget::defaultEmptyText() {
    return tr("No sweep table open. Press “Open sweep table…” and choose a merged table "
              "(spillway-cli sweep merge … --sqlite OUT.sqlite or --csv OUT.csv) to see any two of its "
              "settings as a heat map.");
}

SweepHeatMapWidget::SweepHeatMapWidget(QWidget* parent) : QWidget(parent) {
    stack_ = new QStackedWidget(this);
    empty_ = new QLabel(defaultEmptyText(), this);
    empty_->setObjectName("sweepHeatMapEmpty");
    empty_->setWordWrap(true);
    empty_->setAlignment(Qt::AlignCenter);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("sweepHeatMapPlot");
    plot_->setMinimumHeight(240);
    plot_->setMouseTracking(true);
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    map_->setColorScale(scale_);
    map_->setGradient(viridis());
    map_->setInterpolate(false);  // one flat rectangle per cell: they are separate runs
    // The colour scale's height follows the plot's.
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    readout_ = new QLabel(this);
    readout_->setObjectName("sweepHeatMapReadout");
    readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* page = new QWidget(this);
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(plot_, 1);
    pageLayout->addWidget(readout_);
    stack_->addWidget(empty_);
    stack_->addWidget(page);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
    connect(plot_, &QCustomPlot::mouseMove, this, &SweepHeatMapWidget::hover);
}

void SweepHeatMapWidget::clear(const QString& message) {
    data_ = {};
    shown_ = false;
    map_->data()->clear();
    plot_->xAxis->setLabel({});
    plot_->yAxis->setLabel({});
    scale_->axis()->setLabel({});
    readout_->clear();
    empty_->setText(message.isEmpty() ? defaultEmptyText() : message);
    stack_->setCurrentWidget(empty_);
}

QString SweepHeatMapWidget::axisLabel(std::size_t index, bool xAxis) const {
    const auto& values = xAxis ? data_.xValues : data_.yValues;
    const auto& labels = xAxis ? data_.xLabels : data_.yLabels;
    const std::string& name = xAxis ? data_.xName : data_.yName;
    if (index < values.size()) return formatSweepValue(name, values[index]);
    return index < labels.size() ? toQString(labels[index]) : QString();
}

// Cells sit at 0..n-1; a label at about every tenth, so 50 values stay readable.
void SweepHeatMapWidget::setTicks(bool xAxis) {
    const std::size_t count = xAxis ? data_.grid.width : data_.grid.height;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const std::size_t step = std::max<std::size_t>(1, (count + 9) / 10);
    for (std::size_t i = 0; i < count; i += step) ticker->addTick(double(i), axisLabel(i, xAxis));
    QCPAxis* axis = xAxis ? plot_->xAxis : plot_->yAxis;
    axis->setTicker(ticker);
    axis->setRange(-0.5, double(count) - 0.5);
    if (xAxis) axis->setTickLabelRotation(count > 6 ? 30 : 0);
}

void SweepHeatMapWidget::setData(SweepHeatMapData data) {
    data_ = std::move(data);
    const SweepGrid& grid = data_.grid;
    if (grid.width == 0 || grid.height == 0) {
        clear();
        return;
    }
    map_->data()->setSize(int(grid.width), int(grid.height));
    map_->data()->setRange(QCPRange(0, double(grid.width) - 1), QCPRange(0, double(grid.height) - 1));
    for (std::size_t y = 0; y < grid.height; ++y)
        for (std::size_t x = 0; x < grid.width; ++x) map_->data()->setCell(int(x), int(y), grid.at(x, y));
    map_->rescaleDataRange(true);
    plot_->xAxis->setLabel(toQString(data_.xName));
    plot_->yAxis->setLabel(toQString(data_.yName));
    scale_->axis()->setLabel(data_.valueCaption.isEmpty() ? toQString(data_.valueName) : data_.valueCaption);
    setTicks(true);
    setTicks(false);
    shown_ = true;
    readout_->setText(tr("Hover a cell to read it."));
    stack_->setCurrentIndex(1);
    plot_->replot();
}

QString SweepHeatMapWidget::describeCell(int x, int y) const {
    if (!shown_ || x < 0 || y < 0 || std::size_t(x) >= data_.grid.width || std::size_t(y) >= data_.grid.height)
        return {};
    const double value = data_.grid.at(std::size_t(x), std::size_t(y));
    const std::uint32_t cells = data_.grid.cellsAt(std::size_t(x), std::size_t(y));
    const QString shown = std::isnan(value) ? tr("no cell ran") : formatSweepValue(data_.valueName, value);
    return tr("%1 = %2, %3 = %4: %5 = %6 (%n cell(s))", nullptr, int(cells))
        .arg(toQString(data_.xName), axisLabel(std::size_t(x), true), toQString(data_.yName),
             axisLabel(std::size_t(y), false), toQString(data_.valueName), shown);
}

void SweepHeatMapWidget::hover(QMouseEvent* event) {
    if (!shown_) return;
    const QPointF at = event->position();
    const int x = int(std::lround(plot_->xAxis->pixelToCoord(at.x())));
    const int y = int(std::lround(plot_->yAxis->pixelToCoord(at.y())));
    const QString text = describeCell(x, y);
    if (!text.isEmpty()) readout_->setText(text);
}

}  // namespace spillway::views
