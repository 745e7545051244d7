#include "views/profile_overview_widget.h"

#include "views/format_units.h"
#include "views/import_notes_html.h"

#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace spillway::views {

namespace {

QString qstr(std::string_view text) {
    return toQString(text).toHtmlEscaped();
}

QString row(const QString& label, const QString& value) {
    return QStringLiteral("<tr><th align=left>%1</th><td>%2</td></tr>").arg(label, value);
}

QString percent(std::int64_t part, std::int64_t whole) {
    return whole > 0 ? QString::number(100.0 * double(part) / double(whole), 'f', 1) + " %" : QString("–");
}

QString kernelLabel(const Profile& p, std::int64_t pos) {
    const auto& k = p.kernels[static_cast<size_t>(pos)];
    return QObject::tr("#%1 <b>%2</b> (id %3, %4)").arg(pos).arg(qstr(k.name)).arg(k.id).arg(qstr(toString(k.phase)));
}

QString tableOpen(const QStringList& headers, const QList<bool>& rightAligned) {
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=3 border=0><tr>");
    for (int i = 0; i < headers.size(); ++i)
        html += QStringLiteral("<th align=%1 style='border-bottom:1px solid #999'>%2</th>")
                    .arg(rightAligned[i] ? "right" : "left", headers[i]);
    return html + "</tr>";
}

QString cells(const QStringList& values, const QList<bool>& rightAligned) {
    QString html = "<tr>";
    for (int i = 0; i < values.size(); ++i)
        html += QStringLiteral("<td align=%1>%2</td>").arg(rightAligned[i] ? "right" : "left", values[i]);
    return html + "</tr>";
}

QString largestTensorsHtml(const ProfileViewData& data) {
    const Profile& p = *data.profile;
    QString html;
    const QList<bool> largestAlign{false, false, true, false};
    html += QObject::tr("<h3>Largest tensors</h3>");
    html += tableOpen({QObject::tr("Name"), QObject::tr("Kind"), QObject::tr("Size"), QObject::tr("Needed")}, largestAlign);
    for (auto pos : data.summary.largestTensors) {
        const auto& t = p.tensors[static_cast<size_t>(pos)];
        const auto& live = data.liveness.tensors[static_cast<size_t>(pos)];
        const QString needed = t.persistent ? QObject::tr("whole iteration")
                               : live.firstUse < 0 ? QObject::tr("never used")
                                                   : QObject::tr("kernels %1–%2").arg(live.firstUse).arg(live.lastUse);
        html += cells({qstr(t.name), qstr(toString(t.kind)), formatBytes(t.bytes), needed}, largestAlign);
    }
    html += "</table>";
    return html;
}

QColor phaseColour(KernelPhase phase) {
    switch (phase) {
    case KernelPhase::Forward: return {44, 160, 44, 28};
    case KernelPhase::Loss: return {148, 103, 189, 40};
    case KernelPhase::Backward: return {255, 127, 14, 28};
    case KernelPhase::Optimizer: return {214, 39, 40, 28};
    case KernelPhase::Other: break;
    }
    return {127, 127, 127, 24};
}

}  // namespace

QString overviewHtml(const ProfileViewData& data) {
    const Profile& p = *data.profile;
    const ProfileSummary& s = data.summary;
    const auto& md = p.metadata;
    QString html = "<table cellspacing=0 cellpadding=0><tr><td valign=top>";
    html += QObject::tr("<h2>%1</h2>").arg(md.model.empty() ? QObject::tr("(unnamed model)") : qstr(md.model));

    QStringList facts;
    if (md.batch > 0) facts << QObject::tr("batch %1").arg(md.batch);
    if (!md.device.empty()) facts << qstr(md.device);
    if (!facts.isEmpty()) html += "<p>" + facts.join(" · ") + "</p>";

    html += "<table cellspacing=0 cellpadding=3>";
    html += row(QObject::tr("Source"), QObject::tr("%1 <span style='color:gray'>%2</span>")
                                           .arg(qstr(md.source), qstr(md.sourcePath)));
    html += row(QObject::tr("Kernels"), QString::number(s.kernelCount));
    html += row(QObject::tr("Tensors"), QString::number(s.tensorCount));
    html += row(QObject::tr("Jobs"), QString::number(s.jobCount));
    html += row(QObject::tr("Footprint"), QObject::tr("%1 <span style='color:gray'>(%2; persistent %3)</span>")
                                              .arg(formatBytes(s.footprintBytes), footprintMeaning(md.notes, s.tensorCount),
                                                   formatBytes(s.persistentBytes)));
    if (const QString iterations = iterationsHtml(md.notes); !iterations.isEmpty())
        html += row(QObject::tr("Iterations"), iterations);
    html += row(QObject::tr("Theoretical peak"),
                s.peakKernelPos >= 0 ? QObject::tr("<b>%1</b> at kernel %2")
                                           .arg(formatBytes(s.peakBytes), kernelLabel(p, s.peakKernelPos))
                                     : QObject::tr("– (no kernels)"));
    html += row(QObject::tr("Largest workspace"), formatBytes(s.maxWorkspaceBytes));
    html += row(QObject::tr("Iteration time"),
                QObject::tr("%1 <span style='color:gray'>(sum of kernel times, everything resident)</span>")
                    .arg(formatDuration(s.totalTime)));
    html += "</table>";

    if (data.validationProblemCount > 0) {
        html += QObject::tr("<p style='color:#b00'><b>%n validation problem(s)</b>; the analysis may be "
                            "incomplete:</p><ul>", nullptr, int(data.validationProblemCount));
        for (const auto& problem : data.firstValidationProblems) html += "<li>" + qstr(problem) + "</li>";
        html += "</ul>";
    }
    html += importWarningsHtml(md.notes);

    // Two columns: what the profile is on the left, what is largest on the right.
    html += "</td><td width=48></td><td valign=top>";
    html += largestTensorsHtml(data);
    html += "</td></tr></table>";
    html += "<table cellspacing=0 cellpadding=0><tr><td valign=top>";
    const QList<bool> phaseAlign{false, true, true, true};
    html += QObject::tr("<h3>Time per phase</h3>");
    html += tableOpen({QObject::tr("Phase"), QObject::tr("Kernels"), QObject::tr("Time"), QObject::tr("Share")}, phaseAlign);
    for (const auto& [phase, totals] : s.phases)
        html += cells({qstr(toString(phase)), QString::number(totals.kernels), formatDuration(totals.time),
                       percent(totals.time, s.totalTime)},
                      phaseAlign);
    html += "</table>";
    html += "</td><td width=48></td><td valign=top>";

    const QList<bool> kindAlign{false, true, true, true};
    html += QObject::tr("<h3>Memory per tensor kind</h3>");
    html += tableOpen({QObject::tr("Kind"), QObject::tr("Tensors"), QObject::tr("Size"), QObject::tr("Share")}, kindAlign);
    for (const auto& [kind, totals] : s.kinds)
        html += cells({qstr(toString(kind)), QString::number(totals.tensors), formatBytes(totals.bytes),
                       percent(totals.bytes, s.footprintBytes)},
                      kindAlign);
    html += "</table>";
    html += "</td></tr></table>";
    html += importNotesHtml(md.notes);
    return html;
}

ProfileOverviewWidget::ProfileOverviewWidget(QWidget* parent) : QWidget(parent) {
    text_ = new QTextBrowser(this);
    text_->setObjectName("overviewText");
    text_->setOpenLinks(false);
    text_->setFrameShape(QFrame::NoFrame);

    chart_ = new QCustomPlot(this);
    chart_->setObjectName("liveMemoryChart");
    chart_->setMinimumHeight(180);
    chart_->setNoAntialiasingOnDrag(true);
    chart_->plotLayout()->insertRow(0);
    chart_->plotLayout()->addElement(0, 0, new QCPTextElement(chart_, tr("Theoretical live memory per kernel"),
                                                              QFont(font().family(), font().pointSize() + 1, QFont::Bold)));
    chart_->xAxis->setLabel(tr("kernel (program order)"));
    chart_->addGraph();
    chart_->graph(0)->setLineStyle(QCPGraph::lsStepLeft);
    chart_->graph(0)->setPen(QPen(QColor(31, 119, 180), 1.5));
    chart_->graph(0)->setBrush(QColor(31, 119, 180, 60));

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(text_);
    splitter->addWidget(chart_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    setViewData(nullptr);
}

void ProfileOverviewWidget::setViewData(std::shared_ptr<const ProfileViewData> data) {
    data_ = std::move(data);
    showSummary();
    showChart();
}

QString ProfileOverviewWidget::summaryText() const { return text_->toPlainText(); }

int ProfileOverviewWidget::chartPointCount() const {
    // Without the closing point: one per kernel.
    return std::max(0, chart_->graph(0)->dataCount() - 1);
}

// Light background bands per run of kernels in the same phase, so the forward/backward shape of
// the memory curve is visible. A profile whose phases interleave a lot (several jobs) would
// paint thousands of slivers; it gets no bands.
void ProfileOverviewWidget::shadePhases(double top) {
    constexpr size_t kMaxBands = 64;
    const auto& kernels = data_->profile->kernels;
    std::vector<std::pair<size_t, size_t>> runs;  // [first, end) kernel positions
    for (size_t k = 0; k < kernels.size(); ++k) {
        if (k == 0 || kernels[k].phase != kernels[k - 1].phase) runs.push_back({k, k + 1});
        else runs.back().second = k + 1;
        if (runs.size() > kMaxBands) return;
    }
    for (const auto& [first, end] : runs) {
        const auto phase = kernels[first].phase;
        auto* band = new QCPItemRect(chart_);
        band->setLayer("background");
        band->topLeft->setCoords(double(first), top);
        band->bottomRight->setCoords(double(end), 0);
        band->setPen(Qt::NoPen);
        band->setBrush(phaseColour(phase));
        auto* label = new QCPItemText(chart_);
        label->setLayer("background");
        label->setClipToAxisRect(true);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setCoords(double(first), top);
        label->setText(" " + QString::fromUtf8(toString(phase).data(), qsizetype(toString(phase).size())));
        label->setColor(QColor(90, 90, 90));
    }
}

void ProfileOverviewWidget::showSummary() {
    if (!data_) {
        text_->setHtml(tr("<h2>No profile open</h2><p>Open a profile with <b>File ▸ Open…</b> (Ctrl+O), "
                          "a G10 workload folder with <b>File ▸ Open Folder…</b>, or drop a file or folder "
                          "on this window.</p><p>Supported formats are listed under <b>Help ▸ Supported "
                          "formats</b>.</p>"));
        return;
    }
    text_->setHtml(overviewHtml(*data_));
}

void ProfileOverviewWidget::showChart() {
    auto* graph = chart_->graph(0);
    for (int i = chart_->itemCount() - 1; i >= 0; --i) chart_->removeItem(i);
    if (!data_ || data_->liveBytesPerKernel.empty()) {
        graph->data()->clear();
        chart_->setVisible(data_ != nullptr);
        chart_->replot();
        return;
    }
    chart_->setVisible(true);
    const auto& live = data_->liveBytesPerKernel;
    const Bytes peak = *std::max_element(live.begin(), live.end());
    const auto [scale, unit] = byteAxisUnit(peak);
    // Kernel k spans [k, k+1); the extra point at n closes the last kernel's step.
    QVector<double> x, y;
    x.reserve(static_cast<qsizetype>(live.size()) + 1);
    y.reserve(static_cast<qsizetype>(live.size()) + 1);
    for (size_t k = 0; k < live.size(); ++k) {
        x.push_back(double(k));
        y.push_back(double(live[k]) / scale);
    }
    x.push_back(double(live.size()));
    y.push_back(y.back());
    graph->setData(x, y, true);
    shadePhases(double(peak) / scale * 1.12);
    chart_->yAxis->setLabel(tr("live memory (%1)").arg(unit));
    chart_->xAxis->setRange(0, std::max<double>(1.0, double(live.size())));
    chart_->yAxis->setRange(0, double(peak) / scale * 1.12);

    if (data_->summary.peakKernelPos >= 0) {
        const double px = double(data_->summary.peakKernelPos);
        auto* marker = new QCPItemStraightLine(chart_);
        marker->setPen(QPen(QColor(214, 39, 40), 1, Qt::DashLine));
        marker->point1->setCoords(px, 0);
        marker->point2->setCoords(px, 1);
        auto* label = new QCPItemText(chart_);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setCoords(px, double(peak) / scale * 1.1);
        label->setText(tr(" peak %1 at #%2").arg(formatBytes(peak)).arg(data_->summary.peakKernelPos));
        label->setColor(QColor(214, 39, 40));
        if (px > double(live.size()) * 0.7) label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    }
    chart_->replot();
}

}  // namespace spillway::views
