#include "views/traffic_widget.h"

#include "views/format_units.h"
#include "views/plot_empty_state.h"
#include "views/plot_tooltips.h"
#include "views/time_band.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QSplitter>
#include <QTableWidget>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace spillway::views {

namespace {

constexpr double kNsPerMs = 1e6;
constexpr int kMinBins = 50;
constexpr int kMaxBins = 4000;

QString linkLabel(LinkId link) {
    switch (link) {
    case LinkId::HostToGpu: return QObject::tr("host → GPU");
    case LinkId::GpuToHost: return QObject::tr("GPU → host");
    case LinkId::SsdToGpu: return QObject::tr("SSD → GPU");
    case LinkId::GpuToSsd: return QObject::tr("GPU → SSD");
    case LinkId::SsdToHost: return QObject::tr("SSD → host");
    case LinkId::HostToSsd: return QObject::tr("host → SSD");
    case LinkId::NvLink: return QObject::tr("NVLink");
    }
    return {};
}

QColor linkColour(LinkId link) {
    switch (link) {
    case LinkId::HostToGpu: return QColor(31, 119, 180);
    case LinkId::GpuToHost: return QColor(174, 199, 232);
    case LinkId::SsdToGpu: return QColor(214, 39, 40);
    case LinkId::GpuToSsd: return QColor(255, 152, 150);
    case LinkId::SsdToHost: return QColor(148, 103, 189);
    case LinkId::HostToSsd: return QColor(197, 176, 213);
    case LinkId::NvLink: return QColor(44, 160, 44);
    }
    return Qt::gray;
}

// Bytes of a transfer [start, end) moved by time t, at a constant rate; exact integers, so the
// pieces of one transfer over consecutive bins add up to its bytes.
Bytes movedBy(const TransferRecord& x, Nanoseconds t) {
    if (t <= x.start) return 0;
    if (t >= x.end) return x.bytes;
    const auto done = static_cast<__int128>(x.bytes) * (t - x.start) / (x.end - x.start);
    return static_cast<Bytes>(done);
}

Nanoseconds runEnd(const RunViewData& run) {
    Nanoseconds end = run.result.iterationTime;
    for (const TransferRecord& x : run.result.transfers) end = std::max(end, x.end - run.iterationStart);
    return std::max<Nanoseconds>(end, 1);
}

}  // namespace

TrafficWidget::TrafficWidget(ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("trafficPlot");
    plot_->setMinimumHeight(220);
    plot_->xAxis->setLabel(tr("time (ms)"));
    plot_->yAxis->setLabel(tr("bandwidth (GB/s, mean per bin)"));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot_->setSelectionRectMode(QCP::srmCustom);
    connect(plot_->selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& rect, QMouseEvent*) { selectFromPixels(rect.left(), rect.right()); });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { link_->clearTimeRange(); });
    // Hovering a bar: the link, the bin's time span and its mean bandwidth and bytes.
    installDataToolTips(plot_, [this](const QCPAbstractPlottable& bars, int index) {
        const auto [keyMs, gbps] = dataPointOf(bars, index);
        const double half = double(binWidth_) / kNsPerMs / 2;
        const auto from = std::llround((keyMs - half) * kNsPerMs), to = std::llround((keyMs + half) * kNsPerMs);
        return tr("%1\n%2 – %3\n%4 GB/s, %5").arg(bars.name(), formatDuration(from), formatDuration(to))
            .arg(gbps, 0, 'f', 2)
            .arg(formatBytes(std::llround(gbps * double(binWidth_))));
    });

    table_ = new QTableWidget(this);
    table_->setObjectName("trafficTotals");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(plot_);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    connect(link_, &ViewLink::timeRangeChanged, this, &TrafficWidget::showRange);
    redraw();
}

void TrafficWidget::setRuns(std::vector<std::shared_ptr<const RunViewData>> runs) {
    runs_.clear();
    for (auto& r : runs)
        if (r) runs_.push_back(std::move(r));
    redraw();
}

void TrafficWidget::setRun(std::shared_ptr<const RunViewData> run) {
    std::vector<std::shared_ptr<const RunViewData>> runs;
    if (run) runs.push_back(std::move(run));
    setRuns(std::move(runs));
}

Bytes TrafficWidget::binnedBytes(LinkId link, int bin) const {
    const auto& b = bins_[static_cast<size_t>(link)];
    return bin >= 0 && bin < static_cast<int>(b.size()) ? b[static_cast<size_t>(bin)] : 0;
}

Bytes TrafficWidget::bytesWithin(const RunViewData& run, LinkId link, Nanoseconds from, Nanoseconds to) {
    Bytes sum = 0;
    for (const TransferRecord& x : run.result.transfers) {
        if (x.link != link) continue;
        sum += movedBy(x, to + run.iterationStart) - movedBy(x, from + run.iterationStart);
    }
    return sum;
}

int TrafficWidget::wantedBinCount() const {
    // About one bin per pixel of the chart. The chart's width, not its axis rect's: the axis
    // rect shrinks or grows with the tick labels of the data drawn, and the bins must not.
    const int width = plot_->width();
    return std::clamp(width > 10 ? width : 400, kMinBins, kMaxBins);
}

void TrafficWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Re-bin only when the pixel width changed enough to matter.
    if (!runs_.empty() && std::abs(wantedBinCount() - binCount_) * 10 > binCount_) redraw();
}

void TrafficWidget::rebin() {
    for (auto& b : bins_) b.clear();
    binCount_ = 0;
    if (runs_.empty()) return;
    const RunViewData& run = *runs_.front();
    binCount_ = wantedBinCount();
    const Nanoseconds end = runEnd(run);
    binWidth_ = std::max<Nanoseconds>(1, (end + binCount_ - 1) / binCount_);
    for (auto& b : bins_) b.assign(static_cast<size_t>(binCount_), 0);
    for (const TransferRecord& x : run.result.transfers) {
        auto& b = bins_[static_cast<size_t>(x.link)];
        const Nanoseconds s = x.start - run.iterationStart;
        const Nanoseconds e = x.end - run.iterationStart;
        const auto first = std::clamp<Nanoseconds>(s / binWidth_, 0, binCount_ - 1);
        const auto last = std::clamp<Nanoseconds>((std::max(e, s + 1) - 1) / binWidth_, 0, binCount_ - 1);
        for (auto k = first; k <= last; ++k) {
            const Nanoseconds lo = k * binWidth_ + run.iterationStart;
            // The first and last bins take whatever lies outside the bins' span (none in practice).
            const Bytes before = k == first ? 0 : movedBy(x, lo);
            const Bytes after = k == last ? x.bytes : movedBy(x, lo + binWidth_);
            b[static_cast<size_t>(k)] += after - before;
        }
    }
}

void TrafficWidget::redraw() {
    plot_->clearPlottables();
    plot_->clearItems();
    rangeBand_ = nullptr;
    rebin();
    bool moved = false;
    for (const auto& b : bins_)
        moved = moved || std::any_of(b.begin(), b.end(), [](Bytes v) { return v != 0; });
    if (runs_.empty() || !moved) {
        showPlotEmptyState(plot_, runs_.empty() ? tr("No run yet: open a profile (File ▸ Open).")
                                                : tr("Nothing moved between GPU, host and SSD in this run: it fits on "
                                                     "the GPU. Lower the GPU memory in What if to see the traffic."));
    } else {
        clearPlotEmptyState(plot_, true);
        plot_->xAxis->setLabel(tr("time (ms)"));
        plot_->yAxis->setLabel(tr("bandwidth (GB/s, mean per bin)"));
    }
    if (!runs_.empty() && moved) {
        QCPBars* below = nullptr;
        double top = 0;
        std::vector<double> stack(static_cast<size_t>(binCount_), 0.0);
        for (int l = 0; l < kLinkCount; ++l) {
            const auto link = static_cast<LinkId>(l);
            const auto& b = bins_[static_cast<size_t>(l)];
            if (std::all_of(b.begin(), b.end(), [](Bytes v) { return v == 0; })) continue;
            QVector<double> keys, values;
            for (int k = 0; k < binCount_; ++k) {
                if (b[static_cast<size_t>(k)] == 0) continue;  // idle bins draw nothing: skip them
                const double gbps = double(b[static_cast<size_t>(k)]) / double(binWidth_);  // bytes/ns = GB/s
                keys << (double(k) + 0.5) * double(binWidth_) / kNsPerMs;
                values << gbps;
                stack[static_cast<size_t>(k)] += gbps;
            }
            auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
            bars->setObjectName(QString::fromLatin1(toString(link).data()));
            bars->setName(linkLabel(link));
            bars->setWidth(double(binWidth_) / kNsPerMs);
            bars->setPen(Qt::NoPen);
            bars->setBrush(linkColour(link));
            bars->setData(keys, values, true);
            if (below) bars->moveAbove(below);
            below = bars;
        }
        for (double v : stack) top = std::max(top, v);
        plot_->xAxis->setRange(0, double(binCount_) * double(binWidth_) / kNsPerMs);
        plot_->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
        rangeBand_ = addTimeBand(plot_, QStringLiteral("timeRangeBand"), 40);
    }
    showRange(link_->timeRange());
}

void TrafficWidget::fillTable() {
    table_->clear();
    const bool range = !runs_.empty() && !link_->timeRange().isEmpty();
    QStringList headers{tr("link")};
    for (const auto& r : runs_) headers << r->name;
    if (range) headers << tr("selected range");
    table_->setColumnCount(static_cast<int>(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    std::vector<LinkId> shown;
    for (int l = 0; l < kLinkCount; ++l)
        for (const auto& r : runs_)
            if (r->result.traffic[l] > 0) {
                shown.push_back(static_cast<LinkId>(l));
                break;
            }
    table_->setRowCount(static_cast<int>(shown.size()) + 1);
    auto cell = [&](int row, int column, Bytes bytes) {
        auto* item = new QTableWidgetItem(formatBytes(bytes));
        item->setData(Qt::UserRole, QVariant::fromValue<qint64>(bytes));
        item->setToolTip(tr("%1 bytes").arg(bytes));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(row, column, item);
    };
    std::vector<Bytes> sums(runs_.size() + 1, 0);
    for (size_t i = 0; i < shown.size(); ++i) {
        const int row = static_cast<int>(i);
        auto* name = new QTableWidgetItem(linkLabel(shown[i]));
        name->setData(Qt::UserRole, static_cast<int>(shown[i]));
        name->setForeground(linkColour(shown[i]).darker(130));
        table_->setItem(row, 0, name);
        for (size_t r = 0; r < runs_.size(); ++r) {
            const Bytes bytes = runs_[r]->result.traffic[static_cast<int>(shown[i])];
            cell(row, static_cast<int>(r) + 1, bytes);
            sums[r] += bytes;
        }
        if (range) {
            const TimeRange t = link_->timeRange();
            const Bytes bytes = bytesWithin(*runs_.front(), shown[i], t.start, t.end);
            cell(row, static_cast<int>(runs_.size()) + 1, bytes);
            sums.back() += bytes;
        }
    }
    const int totalRow = static_cast<int>(shown.size());
    auto* total = new QTableWidgetItem(tr("all links"));
    QFont bold = total->font();
    bold.setBold(true);
    total->setFont(bold);
    table_->setItem(totalRow, 0, total);
    for (size_t r = 0; r < runs_.size(); ++r) cell(totalRow, static_cast<int>(r) + 1, sums[r]);
    if (range) cell(totalRow, static_cast<int>(runs_.size()) + 1, sums.back());
}

Bytes TrafficWidget::tableBytes(int run, LinkId link) const {
    for (int row = 0; row + 1 < table_->rowCount(); ++row) {
        const auto* name = table_->item(row, 0);
        if (!name || name->data(Qt::UserRole).toInt() != static_cast<int>(link)) continue;
        const auto* item = table_->item(row, run + 1);
        return item && run >= 0 && run < static_cast<int>(runs_.size()) ? item->data(Qt::UserRole).toLongLong() : -1;
    }
    return -1;
}

Bytes TrafficWidget::tableRangeBytes(LinkId link) const {
    if (runs_.empty() || link_->timeRange().isEmpty()) return -1;
    const int column = static_cast<int>(runs_.size()) + 1;
    for (int row = 0; row + 1 < table_->rowCount(); ++row) {
        const auto* name = table_->item(row, 0);
        if (name && name->data(Qt::UserRole).toInt() == static_cast<int>(link))
            return table_->item(row, column) ? table_->item(row, column)->data(Qt::UserRole).toLongLong() : -1;
    }
    return -1;
}

TimeRange TrafficWidget::shownRange() const {
    if (!rangeBand_ || !rangeBand_->visible()) return {};
    return {static_cast<Nanoseconds>(std::llround(rangeBand_->topLeft->coords().x() * kNsPerMs)),
            static_cast<Nanoseconds>(std::llround(rangeBand_->bottomRight->coords().x() * kNsPerMs))};
}

void TrafficWidget::selectFromPixels(int fromX, int toX) {
    if (runs_.empty()) return;
    const double a = plot_->xAxis->pixelToCoord(fromX) * kNsPerMs;
    const double b = plot_->xAxis->pixelToCoord(toX) * kNsPerMs;
    const double end = double(runs_.front()->result.iterationTime);
    auto clamp = [&](double v) { return static_cast<Nanoseconds>(std::llround(std::clamp(v, 0.0, end))); };
    link_->setTimeRange({clamp(std::min(a, b)), clamp(std::max(a, b))});
}

void TrafficWidget::showRange(TimeRange range) {
    if (rangeBand_) {
        rangeBand_->setVisible(!range.isEmpty());
        rangeBand_->topLeft->setCoords(double(range.start) / kNsPerMs, 0);
        rangeBand_->bottomRight->setCoords(double(range.end) / kNsPerMs, 1);
    }
    fillTable();
    plot_->replot();
}

}  // namespace spillway::views
