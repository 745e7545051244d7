#include "views/tensor_gantt_widget.h"

#include "views/axis_ticks.h"
#include "views/format_units.h"
#include "views/tier_colours.h"
#include "views/time_window.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace spillway::views {

namespace {

constexpr int kHeader = 22;        // pixels above the chart: tick labels and marks
constexpr int kLegend = 20;        // pixels below it: the tier colours and the axis's name
constexpr double kMaxRowHeight = 14.0;

}  // namespace

TensorGanttWidget::TensorGanttWidget(ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    setObjectName("tensorGantt");
    setMinimumSize(300, 200);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    connect(link_, &ViewLink::timeRangeChanged, this, [this] {
        if (axis_ == Axis::Time) showLinkWindow();
    });
    connect(link_, &ViewLink::selectedTensorChanged, this, qOverload<>(&QWidget::update));
    connect(link_, &ViewLink::selectedKernelChanged, this, &TensorGanttWidget::followKernel);
}

void TensorGanttWidget::setRun(std::shared_ptr<const RunViewData> run) {
    run_ = std::move(run);
    rebuildRows();
    showLinkWindow();
}

// On the time axis the chart shows the link's window (the range every time view shares).
void TensorGanttWidget::showLinkWindow() {
    const TimeRange range = link_->timeRange();
    if (axis_ == Axis::Time && !range.isEmpty()) setView(double(range.start), double(range.end));
    else setView(0, axisEnd());
}

void TensorGanttWidget::setSortKey(SortKey key) {
    sortKey_ = key;
    rebuildRows();
}

void TensorGanttWidget::setKindFilter(std::optional<TensorKind> kind) {
    kindFilter_ = kind;
    rebuildRows();
}

void TensorGanttWidget::setMinimumBytes(Bytes bytes) {
    minimumBytes_ = bytes;
    rebuildRows();
}

void TensorGanttWidget::setJobFilter(std::optional<JobId> job) {
    jobFilter_ = job;
    rebuildRows();
}

void TensorGanttWidget::setAxis(Axis axis) {
    axis_ = axis;
    showLinkWindow();
}

void TensorGanttWidget::rebuildRows() {
    rows_.clear();
    if (run_ && run_->profile) {
        const auto& tensors = run_->profile->profile->tensors;
        const auto& live = run_->profile->liveness.tensors;
        for (size_t t = 0; t < tensors.size(); ++t) {
            if (kindFilter_ && tensors[t].kind != *kindFilter_) continue;
            if (jobFilter_ && tensors[t].job != *jobFilter_) continue;
            if (tensors[t].bytes < minimumBytes_) continue;
            rows_.push_back(static_cast<std::int64_t>(t));
        }
        auto firstUse = [&](std::int64_t t) {
            const auto f = live[size_t(t)].firstUse;
            return f < 0 ? std::numeric_limits<std::int64_t>::max() : f;
        };
        auto by = [&](auto key) {
            std::stable_sort(rows_.begin(), rows_.end(), [&](std::int64_t a, std::int64_t b) { return key(a) < key(b); });
        };
        switch (sortKey_) {
        case SortKey::FirstUse: by(firstUse); break;
        case SortKey::Size: by([&](std::int64_t t) { return -tensors[size_t(t)].bytes; }); break;
        case SortKey::Name: by([&](std::int64_t t) { return tensors[size_t(t)].name; }); break;
        case SortKey::Kind: by([&](std::int64_t t) { return static_cast<int>(tensors[size_t(t)].kind); }); break;
        }
    }
    update();
}

std::int64_t TensorGanttWidget::tensorAtRow(int row) const {
    return row >= 0 && row < rowCount() ? rows_[size_t(row)] : -1;
}

int TensorGanttWidget::rowOfTensor(std::int64_t tensorPos) const {
    const auto it = std::find(rows_.begin(), rows_.end(), tensorPos);
    return it == rows_.end() ? -1 : static_cast<int>(it - rows_.begin());
}

QRect TensorGanttWidget::chartRect() const {
    return QRect(0, kHeader, width(), std::max(1, height() - kHeader - kLegend));
}

// Every row that passes the filters is on screen: rows are up to kMaxRowHeight pixels high, and
// when there are more rows than pixel rows each pixel row stands for several.
double TensorGanttWidget::rowsPerPixel() const {
    const double h = chartRect().height();
    return std::max(double(rowCount()) / h, 1.0 / kMaxRowHeight);
}

double TensorGanttWidget::axisEnd() const {
    if (!run_) return 1.0;
    if (axis_ == Axis::KernelIndex) return std::max<double>(1.0, double(run_->result.kernels.size()));
    return std::max<double>(1.0, double(run_->result.iterationTime));
}

// Time maps to itself; for the kernel axis, a time inside kernel k's window maps to k plus the
// fraction of the window elapsed, so every kernel gets the same width.
double TensorGanttWidget::toAxis(Nanoseconds sinceStart) const {
    if (axis_ == Axis::Time || !run_) return double(sinceStart);
    const auto& kernels = run_->result.kernels;
    if (kernels.empty()) return 0;
    const Nanoseconds t = sinceStart + run_->iterationStart;
    auto it = std::upper_bound(kernels.begin(), kernels.end(), t,
                               [](Nanoseconds v, const KernelTiming& k) { return v < k.start; });
    if (it == kernels.begin()) return 0;
    const size_t k = size_t(it - kernels.begin()) - 1;
    const Nanoseconds len = std::max<Nanoseconds>(1, kernels[k].end - kernels[k].start);
    return double(k) + std::min(1.0, double(t - kernels[k].start) / double(len));
}

void TensorGanttWidget::setView(double from, double to) {
    if (to <= from) return;
    viewFrom_ = from;
    viewTo_ = to;
    update();
}

// On the time axis zoom, pan and reset move the link's window, so every time view follows; on
// the kernel axis they move this chart only.
void TensorGanttWidget::resetView() {
    if (axis_ == Axis::Time) link_->clearTimeRange();
    setView(0, axisEnd());
}

void TensorGanttWidget::zoom(double factor, double anchor) {
    if (axis_ == Axis::Time && run_) {
        const Nanoseconds end = run_->result.iterationTime;
        const TimeRange current{std::llround(viewFrom_), std::llround(viewTo_)};
        const TimeRange window = current == TimeRange{0, end} ? TimeRange{} : current;
        link_->setTimeRange(zoomWindow(window, end, factor, anchor));
        showLinkWindow();
        return;
    }
    const double from = anchor - (anchor - viewFrom_) / factor;
    const double to = anchor + (viewTo_ - anchor) / factor;
    if (to - from < 1e-3) return;
    setView(from, to);
}

void TensorGanttWidget::pan(double fraction) {
    if (axis_ == Axis::Time && run_) {
        link_->setTimeRange(panWindow(link_->timeRange(), run_->result.iterationTime, fraction));
        showLinkWindow();
        return;
    }
    const double shift = (viewTo_ - viewFrom_) * fraction;
    setView(viewFrom_ + shift, viewTo_ + shift);
}

int TensorGanttWidget::xOf(double axisValue) const {
    const QRect r = chartRect();
    return r.left() + int(std::floor((axisValue - viewFrom_) / (viewTo_ - viewFrom_) * r.width()));
}

int TensorGanttWidget::rowAtY(int y) const {
    const QRect r = chartRect();
    if (y < r.top() || y > r.bottom() || rowCount() == 0) return -1;
    const int row = int(double(y - r.top()) * rowsPerPixel());
    return row < rowCount() ? row : -1;
}

QColor TensorGanttWidget::colourOf(Residence where) { return tierColour(where); }

QString TensorGanttWidget::axisLabel(double value) const {
    return axis_ == Axis::Time ? formatDuration(static_cast<std::int64_t>(std::llround(value)))
                               : QString::number(value, 'f', 0);
}

QString TensorGanttWidget::axisTitle() const {
    return axis_ == Axis::Time ? tr("time since the iteration start") : tr("kernel (run order)");
}

std::vector<double> TensorGanttWidget::axisTicks() const {
    return niceTicks(viewFrom_, viewTo_, chartRect().width(), 110);
}

// Ticks with their labels (units included) above the chart.
void TensorGanttWidget::paintAxis(QPainter& p) const {
    const QRect chart = chartRect();
    p.setPen(palette().text().color());
    for (double v : axisTicks()) {
        const int x = xOf(v);
        p.drawLine(x, kHeader - 5, x, kHeader - 1);
        const QString text = axisLabel(v);
        const int w = p.fontMetrics().horizontalAdvance(text) + 4;
        const int left = std::clamp(x - w / 2, chart.left(), chart.right() - w);
        p.drawText(QRect(left, 0, w, kHeader - 5), Qt::AlignCenter, text);
    }
}

// Below the chart: a swatch per tier, the selection's frame, and what the axis measures.
void TensorGanttWidget::paintLegend(QPainter& p) const {
    const int top = height() - kLegend + 4, box = kLegend - 8;
    int x = 4;
    auto swatch = [&](const QString& name, auto drawBox) {
        drawBox(QRect(x, top, box, box));
        x += box + 4;
        p.setPen(palette().text().color());
        const int w = p.fontMetrics().horizontalAdvance(name);
        p.drawText(QRect(x, top - 2, w + 2, box + 4), Qt::AlignLeft | Qt::AlignVCenter, name);
        x += w + 12;
    };
    for (Residence where : legendTiers())
        swatch(tierName(where), [&](QRect r) { p.fillRect(r, tierColour(where)); });
    swatch(tr("selected"), [&](QRect r) { drawSelectionFrame(p, r); });
    p.setPen(palette().text().color());
    p.drawText(QRect(x, top - 2, std::max(0, width() - x - 4), box + 4), Qt::AlignRight | Qt::AlignVCenter,
               tr("x: %1").arg(axisTitle()));
}


void TensorGanttWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    lastPaintedBars_ = 0;
    const QRect chart = chartRect();
    p.setPen(palette().text().color());
    if (!run_ || rows_.empty()) {
        p.drawText(chart, Qt::AlignCenter, run_ ? tr("No tensor matches the filter") : tr("No run"));
        return;
    }
    paintAxis(p);
    paintLegend(p);
    const auto& tensors = run_->profile->profile->tensors;
    const auto& residency = run_->result.tensorResidency;
    const double perPixel = rowsPerPixel();
    const double rowHeight = 1.0 / perPixel;  // pixels; below 1 when rows share pixel rows
    const std::int64_t selected = link_->selectedTensor();
    const double scale = chart.width() / (viewTo_ - viewFrom_);
    // One painted line per pixel row (or per row when rows are taller than a pixel).
    const int lines = perPixel >= 1.0 ? chart.height() : rowCount();
    std::optional<QRectF> selectedBand;
    for (int line = 0; line < lines; ++line) {
        int first, last;  // rows this line covers
        double top, height;
        if (perPixel >= 1.0) {
            first = int(line * perPixel);
            last = std::min(rowCount(), std::max(first + 1, int((line + 1) * perPixel)));
            top = chart.top() + line;
            height = 1;
        } else {
            first = line;
            last = line + 1;
            top = chart.top() + line * rowHeight;
            height = std::max(1.0, rowHeight - 1.0);
        }
        if (first >= rowCount()) break;
        // The largest tensor of the covered rows stands for them (the selected one wins).
        std::int64_t t = rows_[size_t(first)];
        for (int r = first + 1; r < last; ++r) {
            const std::int64_t c = rows_[size_t(r)];
            if (c == selected || (t != selected && tensors[size_t(c)].bytes > tensors[size_t(t)].bytes)) t = c;
        }
        if (t == selected) selectedBand = QRectF(chart.left(), top, chart.width(), height);
        if (size_t(t) >= residency.size()) continue;
        int paintedTo = chart.left() - 1;  // pixel columns already painted on this line
        for (const ResidencyInterval& iv : residency[size_t(t)]) {
            const QColor colour = colourOf(iv.where);
            if (!colour.isValid()) continue;
            const double a = toAxis(iv.start - run_->iterationStart), b = toAxis(iv.end - run_->iterationStart);
            if (b < viewFrom_ || a > viewTo_) continue;
            int x0 = chart.left() + int(std::floor((a - viewFrom_) * scale));
            int x1 = chart.left() + int(std::floor((b - viewFrom_) * scale));
            x0 = std::max(x0, chart.left());
            x1 = std::min(std::max(x1, x0 + 1), chart.right() + 1);
            if (x1 <= paintedTo + 1) continue;  // this pixel column already shows a state
            x0 = std::max(x0, paintedTo + 1);
            p.fillRect(QRectF(x0, top, x1 - x0, height), colour);
            paintedTo = x1 - 1;
            ++lastPaintedBars_;
        }
    }
    // The selection as a frame drawn over the bars, so it shows whatever the row holds.
    if (selectedBand) drawSelectionFrame(p, selectedBand->adjusted(1, -1, -1, 1));
    // The selected kernel (play mode's cursor) as a vertical line across the rows.
    if (const double cursor = kernelCursor(); !std::isnan(cursor) && cursor >= viewFrom_ && cursor <= viewTo_) {
        p.setPen(QPen(QColor(0, 90, 200), 1.5));
        p.drawLine(xOf(cursor), chart.top(), xOf(cursor), chart.bottom());
    }
}

double TensorGanttWidget::kernelCursor() const {
    const std::int64_t k = link_->selectedKernel();
    if (!run_ || k < 0 || k >= std::int64_t(run_->result.kernels.size())) return std::nan("");
    if (axis_ == Axis::KernelIndex) return double(k);
    return toAxis(run_->result.kernels[size_t(k)].start - run_->iterationStart);
}

// Keeps the zoom and scrolls only when the kernel leaves the window, so play mode reads like a
// page turning rather than a strip sliding under the cursor.
void TensorGanttWidget::followKernel(std::int64_t) {
    const double cursor = kernelCursor();
    const double width = viewTo_ - viewFrom_;
    if (!std::isnan(cursor) && (cursor < viewFrom_ || cursor >= viewTo_)) setView(cursor - 0.1 * width, cursor + 0.9 * width);
    else update();
}


QString TensorGanttWidget::toolTipForRow(int row) const {
    const std::int64_t t = tensorAtRow(row);
    if (t < 0 || !run_) return {};
    const Profile& profile = *run_->profile->profile;
    const Tensor& tensor = profile.tensors[size_t(t)];
    const auto& live = run_->profile->liveness.tensors[size_t(t)];
    auto kernelName = [&](std::int64_t pos) {
        return pos < 0 ? tr("none") : QStringLiteral("#%1 %2").arg(pos).arg(toQString(profile.kernels[size_t(pos)].name));
    };
    QStringList consumers;
    for (std::int32_t use : live.uses) {
        if (use == live.producer) continue;
        if (consumers.size() == 6) {
            consumers << tr("… (%1 in all)").arg(live.uses.size());
            break;
        }
        consumers << kernelName(use);
    }
    return tr("<b>%1</b> (id %2)<br>%3, %4, job %5<br>produced by %6<br>used by %7")
        .arg(toQString(tensor.name).toHtmlEscaped())
        .arg(tensor.id)
        .arg(formatBytes(tensor.bytes), toQString(toString(tensor.kind)))
        .arg(tensor.job)
        .arg(kernelName(run_->profile->tensorProducer[size_t(t)]).toHtmlEscaped(),
             consumers.isEmpty() ? tr("no other kernel") : consumers.join(", ").toHtmlEscaped());
}

bool TensorGanttWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipForRow(rowAtY(help->pos().y()));
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

void TensorGanttWidget::wheelEvent(QWheelEvent* event) {
    const QRect chart = chartRect();
    const double anchor = viewFrom_ + (event->position().x() - chart.left()) / chart.width() * (viewTo_ - viewFrom_);
    zoom(event->angleDelta().y() > 0 ? 1.25 : 0.8, anchor);
    event->accept();
}

void TensorGanttWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    dragFrom_ = event->position().toPoint();
    dragViewFrom_ = viewFrom_;
}

void TensorGanttWidget::mouseMoveEvent(QMouseEvent* event) {
    if (!dragFrom_ || !(event->buttons() & Qt::LeftButton)) return;
    const double dx = event->position().x() - dragFrom_->x();
    const double width = viewTo_ - viewFrom_;
    const double from = dragViewFrom_ - dx / chartRect().width() * width;
    if (axis_ == Axis::Time && run_ && !link_->timeRange().isEmpty()) {
        link_->setTimeRange(panWindow({std::llround(dragViewFrom_), std::llround(dragViewFrom_ + width)},
                                      run_->result.iterationTime, (from - dragViewFrom_) / width));
        return;
    }
    setView(from, from + width);
}

void TensorGanttWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (dragFrom_ && (event->position().toPoint() - *dragFrom_).manhattanLength() < 4)
        link_->selectTensor(tensorAtRow(rowAtY(event->position().toPoint().y())));
    dragFrom_.reset();
}

void TensorGanttWidget::keyPressEvent(QKeyEvent* event) {
    const double centre = (viewFrom_ + viewTo_) / 2;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoom(1.5, centre); break;
    case Qt::Key_Minus: zoom(1 / 1.5, centre); break;
    case Qt::Key_Left: pan(-0.2); break;
    case Qt::Key_Right: pan(0.2); break;
    case Qt::Key_0:
    case Qt::Key_Home: resetView(); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

}  // namespace spillway::views
