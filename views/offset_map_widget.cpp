#include "views/offset_map_widget.h"

#include "views/axis_ticks.h"
#include "views/format_units.h"
#include "views/tier_colours.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <utility>

namespace spillway::views {

namespace {

constexpr int kTitle = 34;   // two text lines above each panel
constexpr int kMargin = 6;
constexpr int kAddressAxis = 70;  // the address ticks, left of the first panel (one scale for all)
constexpr int kTickAxis = 30;     // each panel's tick labels and the axis's name, below it
constexpr int kLegend = 20;       // what the colours and lines mean, at the bottom

// Long-lived buffers darker, so what stays at the bottom reads as a foundation: `share` is the
// part of the run a buffer lives (0 to 1). One hue: lightness alone carries it, for any reader.
QColor lifetimeColour(double share) { return QColor::fromHsvF(0.58, 0.25 + 0.6 * share, 0.95 - 0.35 * share); }

QColor bufferColour(const Buffer& b, std::int64_t span) {
    return lifetimeColour(span > 0 ? double(b.upper - b.lower) / double(span) : 0.0);
}

}  // namespace

OffsetMapWidget::OffsetMapWidget(ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    setObjectName("offsetMap");
    setMinimumSize(300, 200);
    connect(link_, &ViewLink::selectedTensorChanged, this, qOverload<>(&QWidget::update));
}

void OffsetMapWidget::setArenas(std::vector<std::shared_ptr<const PlacedArena>> arenas) {
    panels_.clear();
    for (auto& arena : arenas) {
        Panel p;
        p.arena = std::move(arena);
        const AllocationProblem& problem = p.arena->problem;
        p.arenaBytes = arenaBytes(problem, p.arena->layout);
        p.lowerBound = loadLowerBound(problem);
        if (!problem.buffers.empty()) {
            p.firstTick = problem.buffers.front().lower;
            p.endTick = problem.buffers.front().upper;
        }
        std::vector<std::pair<std::int64_t, Bytes>> events;
        for (const Buffer& b : problem.buffers) {
            p.firstTick = std::min(p.firstTick, b.lower);
            p.endTick = std::max(p.endTick, b.upper);
            events.emplace_back(b.lower, b.size);
            events.emplace_back(b.upper, -b.size);
        }
        std::sort(events.begin(), events.end());
        Bytes live = 0, best = -1;
        for (size_t i = 0; i < events.size();) {
            const std::int64_t tick = events[i].first;
            for (; i < events.size() && events[i].first == tick; ++i) live += events[i].second;
            if (live > best) {
                best = live;
                p.peakTick = tick;
            }
        }
        panels_.push_back(std::move(p));
    }
    update();
}

Bytes OffsetMapWidget::scaleTop() const {
    Bytes top = 1;
    for (const Panel& p : panels_) top = std::max({top, p.arenaBytes, p.arena->problem.capacity.value_or(0)});
    return top;
}

QRect OffsetMapWidget::panelRect(int panel) const {
    const int n = std::max(1, panelCount());
    const int w = (width() - kAddressAxis - kMargin * n) / n;
    return QRect(kAddressAxis + panel * (w + kMargin), kTitle, std::max(1, w),
                 std::max(1, height() - kTitle - kTickAxis - kLegend));
}

std::vector<double> OffsetMapWidget::addressTicks() const {
    return panels_.empty() ? std::vector<double>{} : niceTicks(0, double(scaleTop()), panelRect(0).height(), 40);
}

std::vector<double> OffsetMapWidget::tickTicks(int panel) const {
    const Panel& p = panels_.at(size_t(panel));
    return niceTicks(double(p.firstTick), double(p.endTick), panelRect(panel).width(), 70);
}

// Addresses on the left (bytes, with units), each panel's ticks below it with the axis's name.
void OffsetMapWidget::paintAxes(QPainter& p) const {
    p.setPen(palette().text().color());
    const QRect first = panelRect(0);
    for (double v : addressTicks()) {
        const int y = pixelOf(0, panels_.front().firstTick, Bytes(v)).y();
        p.drawLine(first.left() - 4, y, first.left(), y);
        p.drawText(QRect(0, y - 8, first.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter, formatBytes(Bytes(v)));
    }
    p.save();
    p.translate(10, first.center().y());
    p.rotate(-90);
    p.drawText(QRect(-first.height() / 2, -8, first.height(), 16), Qt::AlignCenter, addressAxisTitle());
    p.restore();
    for (int i = 0; i < panelCount(); ++i) {
        const QRect r = panelRect(i);
        for (double v : tickTicks(i)) {
            const int x = pixelOf(i, std::int64_t(std::llround(v)), 0).x();
            p.drawLine(x, r.bottom(), x, r.bottom() + 4);
            p.drawText(QRect(x - 30, r.bottom() + 4, 60, 12), Qt::AlignCenter, QString::number(v, 'f', 0));
        }
        p.drawText(QRect(r.left(), r.bottom() + 16, r.width(), 14), Qt::AlignCenter, tickAxisTitle());
    }
}

// The colour scale and the lines, in words and samples.
void OffsetMapWidget::paintLegend(QPainter& p) const {
    const int top = height() - kLegend + 4, box = kLegend - 8;
    int x = kAddressAxis;
    auto entry = [&](const QString& name, auto sample) {
        sample(QRect(x, top, box * 2, box));
        x += box * 2 + 4;
        p.setPen(palette().text().color());
        const int w = p.fontMetrics().horizontalAdvance(name);
        p.drawText(QRect(x, top - 2, w + 2, box + 4), Qt::AlignLeft | Qt::AlignVCenter, name);
        x += w + 12;
    };
    entry(tr("short-lived → long-lived buffer"), [&](QRect r) {
        p.fillRect(r.adjusted(0, 0, -r.width() / 2, 0), lifetimeColour(0.1));
        p.fillRect(r.adjusted(r.width() / 2, 0, 0, 0), lifetimeColour(1.0));
    });
    entry(tr("step with the most live bytes"), [&](QRect r) {
        p.setPen(QPen(QColor(200, 0, 0), 1, Qt::DotLine));
        p.drawLine(r.center().x(), r.top(), r.center().x(), r.bottom());
    });
    entry(tr("arena top"), [&](QRect r) {
        p.setPen(QPen(Qt::black, 1, Qt::DashLine));
        p.drawLine(r.left(), r.center().y(), r.right(), r.center().y());
    });
    entry(tr("selected"), [&](QRect r) { drawSelectionFrame(p, r); });
}

QString OffsetMapWidget::addressAxisTitle() const { return tr("arena offset"); }

QString OffsetMapWidget::tickAxisTitle() const { return tr("kernel (run order)"); }

QPoint OffsetMapWidget::pixelOf(int panel, std::int64_t tick, Bytes offset) const {
    const Panel& p = panels_[size_t(panel)];
    const QRect r = panelRect(panel);
    const double x = double(tick - p.firstTick) / double(std::max<std::int64_t>(1, p.endTick - p.firstTick));
    const double y = double(offset) / double(scaleTop());
    return QPoint(r.left() + int(x * r.width()), r.bottom() - int(y * r.height()));
}

std::int64_t OffsetMapWidget::peakTick(int panel) const { return panels_.at(size_t(panel)).peakTick; }

double OffsetMapWidget::fragmentation(int panel) const {
    const Panel& p = panels_.at(size_t(panel));
    return p.arenaBytes > 0 ? double(p.arenaBytes - p.lowerBound) / double(p.arenaBytes) : 0.0;
}

int OffsetMapWidget::panelAt(QPoint pixel) const {
    for (int i = 0; i < panelCount(); ++i)
        if (panelRect(i).contains(pixel)) return i;
    return -1;
}

std::optional<size_t> OffsetMapWidget::bufferAt(int panel, QPoint pixel) const {
    if (panel < 0 || panel >= panelCount()) return std::nullopt;
    const auto& arena = *panels_[size_t(panel)].arena;
    for (size_t i = 0; i < arena.problem.buffers.size(); ++i) {
        const Buffer& b = arena.problem.buffers[i];
        const QPoint a = pixelOf(panel, b.lower, arena.layout.offsets[i]);
        const QPoint c = pixelOf(panel, b.upper, arena.layout.offsets[i] + b.size);
        if (pixel.x() >= a.x() && pixel.x() <= std::max(a.x(), c.x() - 1) && pixel.y() <= a.y() &&
            pixel.y() >= std::min(a.y(), c.y() + 1))
            return i;
    }
    return std::nullopt;
}

void OffsetMapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (panels_.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No layout planned"));
        return;
    }
    const std::int64_t selected = link_->selectedTensor();
    for (int i = 0; i < panelCount(); ++i) {
        const Panel& panel = panels_[size_t(i)];
        const QRect r = panelRect(i);
        const auto& problem = panel.arena->problem;
        const auto& layout = panel.arena->layout;
        p.setPen(palette().text().color());
        p.drawText(QRect(r.left(), 0, r.width(), kTitle / 2), Qt::AlignLeft | Qt::AlignVCenter, panel.arena->name);
        p.drawText(QRect(r.left(), kTitle / 2, r.width(), kTitle / 2), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("arena %1, lower bound %2, fragmentation %3 %")
                       .arg(formatBytes(panel.arenaBytes), formatBytes(panel.lowerBound))
                       .arg(100.0 * fragmentation(i), 0, 'f', 2));
        p.fillRect(r, palette().base());  // free space
        const std::int64_t span = panel.endTick - panel.firstTick;
        std::optional<QRect> outline;
        for (size_t b = 0; b < problem.buffers.size() && b < layout.offsets.size(); ++b) {
            const Buffer& buffer = problem.buffers[b];
            const QPoint a = pixelOf(i, buffer.lower, layout.offsets[b]);
            const QPoint c = pixelOf(i, buffer.upper, layout.offsets[b] + buffer.size);
            const QRect box(QPoint(a.x(), c.y()), QSize(std::max(1, c.x() - a.x()), std::max(1, a.y() - c.y())));
            p.fillRect(box, bufferColour(buffer, span));
            if (selected >= 0 && buffer.origin.tensor == selected) outline = box;
        }
        // Arena top and capacity.
        p.setPen(QPen(Qt::black, 1, Qt::DashLine));
        const int arenaY = pixelOf(i, panel.firstTick, panel.arenaBytes).y();
        p.drawLine(r.left(), arenaY, r.right(), arenaY);
        if (problem.capacity) {
            p.setPen(QPen(Qt::red, 1, Qt::DashDotLine));
            const int capY = pixelOf(i, panel.firstTick, *problem.capacity).y();
            p.drawLine(r.left(), capY, r.right(), capY);
        }
        // The step with the most live bytes: where the lower bound is met.
        p.setPen(QPen(QColor(200, 0, 0), 1, Qt::DotLine));
        const int peakX = pixelOf(i, panel.peakTick, 0).x();
        p.drawLine(peakX, r.top(), peakX, r.bottom());
        if (outline) drawSelectionFrame(p, outline->adjusted(-1, -1, 1, 1));
    }
    paintAxes(p);
    paintLegend(p);
}

QString OffsetMapWidget::toolTipAt(QPoint pixel) const {
    const int panel = panelAt(pixel);
    const auto b = bufferAt(panel, pixel);
    if (!b) return {};
    const auto& arena = *panels_[size_t(panel)].arena;
    const Buffer& buffer = arena.problem.buffers[*b];
    const Bytes offset = arena.layout.offsets[*b];
    return tr("<b>%1</b><br>%2 at offset %3<br>live on ticks [%4, %5)")
        .arg(toQString(buffer.id).toHtmlEscaped(), formatBytes(buffer.size))
        .arg(offset)
        .arg(buffer.lower)
        .arg(buffer.upper);
}

bool OffsetMapWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

void OffsetMapWidget::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pixel = event->position().toPoint();
    const int panel = panelAt(pixel);
    const auto b = bufferAt(panel, pixel);
    link_->selectTensor(b ? panels_[size_t(panel)].arena->problem.buffers[*b].origin.tensor : -1);
}

}  // namespace spillway::views
