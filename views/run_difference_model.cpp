#include "views/run_difference_model.h"

#include "views/format_units.h"
#include "views/table_roles.h"

#include <QColor>

#include <cmath>
#include <limits>

namespace spillway::views {

namespace {

// The metrics in table order; `link` >= 0 means traffic on that link.
struct Metric {
    const char* name;
    RunDifferenceModel::Unit unit;
    std::int64_t (*read)(const SimulationResult&);
};

using U = RunDifferenceModel::Unit;
template <LinkId link>
std::int64_t trafficOf(const SimulationResult& r) {
    return r.traffic[static_cast<int>(link)];
}

const Metric kMetrics[] = {
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "iteration time"), U::Nanoseconds, [](const SimulationResult& r) { return r.iterationTime; }},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "compute"), U::Nanoseconds, [](const SimulationResult& r) { return r.totals.compute; }},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "fault stall"), U::Nanoseconds, [](const SimulationResult& r) { return r.totals.faultStall; }},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "oversubscription stall"), U::Nanoseconds, [](const SimulationResult& r) { return r.totals.oversubStall; }},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "late-prefetch stall"), U::Nanoseconds, [](const SimulationResult& r) { return r.totals.latePrefetchStall; }},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "NVLink stall"), U::Nanoseconds, [](const SimulationResult& r) { return r.totals.nvlinkStall; }},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "transfer overlap (hidden)"), U::Nanoseconds, [](const SimulationResult& r) { return r.totals.overlap; }},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "traffic host→GPU"), U::Bytes, trafficOf<LinkId::HostToGpu>},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "traffic GPU→host"), U::Bytes, trafficOf<LinkId::GpuToHost>},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "traffic SSD→GPU"), U::Bytes, trafficOf<LinkId::SsdToGpu>},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "traffic GPU→SSD"), U::Bytes, trafficOf<LinkId::GpuToSsd>},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "traffic SSD→host"), U::Bytes, trafficOf<LinkId::SsdToHost>},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "traffic host→SSD"), U::Bytes, trafficOf<LinkId::HostToSsd>},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "traffic NVLink"), U::Bytes, trafficOf<LinkId::NvLink>},
    {QT_TRANSLATE_NOOP("RunDifferenceModel", "peak GPU memory"), U::Bytes, [](const SimulationResult& r) { return r.peakGpuBytes; }},
};
constexpr int kMetricCount = static_cast<int>(std::size(kMetrics));

QString formatValue(U unit, std::int64_t v) { return unit == U::Bytes ? formatBytes(v) : formatDuration(v); }

QString formatDelta(U unit, std::int64_t d) {
    if (d == 0) return QStringLiteral("±0");
    return (d > 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatValue(unit, d > 0 ? d : -d);
}

}  // namespace

RunDifferenceModel::RunDifferenceModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunDifferenceModel::setRuns(std::vector<std::shared_ptr<const RunViewData>> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

int RunDifferenceModel::metricCount() { return kMetricCount; }

int RunDifferenceModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || runs_.empty() ? 0 : kMetricCount;
}

// Metric | baseline | run 1, Δ run 1, × run 1 | run 2, Δ, × | ...
int RunDifferenceModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid() || runs_.empty()) return 0;
    return 2 + 3 * (static_cast<int>(runs_.size()) - 1);
}

std::pair<RunDifferenceModel::ColumnKind, int> RunDifferenceModel::columnMeaning(int column) const {
    if (column <= 0) return {ColumnKind::Metric, -1};
    if (column == 1) return {ColumnKind::Value, 0};
    const int run = 1 + (column - 2) / 3;
    const ColumnKind kinds[] = {ColumnKind::Value, ColumnKind::Delta, ColumnKind::Ratio};
    return {kinds[(column - 2) % 3], run};
}

QString RunDifferenceModel::metricName(int row) const { return tr(kMetrics[row].name); }

RunDifferenceModel::Unit RunDifferenceModel::metricUnit(int row) const { return kMetrics[row].unit; }

std::int64_t RunDifferenceModel::value(int row, int run) const {
    return kMetrics[row].read(runs_[static_cast<size_t>(run)]->result);
}

std::optional<double> RunDifferenceModel::ratio(int row, int run) const {
    const std::int64_t base = value(row, 0), v = value(row, run);
    if (base == 0) return v == 0 ? std::optional<double>(1.0) : std::nullopt;
    return double(v) / double(base);
}

QVariant RunDifferenceModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const int row = index.row();
    const auto [kind, run] = columnMeaning(index.column());
    const U unit = metricUnit(row);
    if (role == Qt::TextAlignmentRole)
        return kind == ColumnKind::Metric ? int(Qt::AlignLeft | Qt::AlignVCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == kSortRole) {
        switch (kind) {
        case ColumnKind::Metric: return row;  // back to table order
        case ColumnKind::Value: return qint64(value(row, run));
        case ColumnKind::Delta: return qint64(delta(row, run));
        case ColumnKind::Ratio: {
            // No finite ratio (something from nothing) sorts above every finite one.
            const auto r = ratio(row, run);
            return r ? *r : std::numeric_limits<double>::infinity();
        }
        }
    }
    if (role == Qt::DisplayRole) {
        switch (kind) {
        case ColumnKind::Metric: return metricName(row);
        case ColumnKind::Value: return formatValue(unit, value(row, run));
        case ColumnKind::Delta: return formatDelta(unit, delta(row, run));
        case ColumnKind::Ratio: {
            const auto r = ratio(row, run);
            return r ? QStringLiteral("%1×").arg(*r, 0, 'f', 3) : tr("new");
        }
        }
    }
    if (role == Qt::ToolTipRole && kind != ColumnKind::Metric) {
        const QString u = unit == U::Bytes ? tr("bytes") : tr("ns");
        return tr("%1 of %2: %3 %4 (baseline %5: %6 %4)")
            .arg(metricName(row), runs_[size_t(run)]->name)
            .arg(value(row, run))
            .arg(u, runs_.front()->name)
            .arg(value(row, 0));
    }
    if (role == Qt::ForegroundRole && kind == ColumnKind::Delta) {
        // Less time or traffic than the baseline reads green, more reads red.
        const std::int64_t d = delta(row, run);
        if (d != 0) return QColor(d < 0 ? QColor(0, 128, 0) : QColor(190, 0, 0));
    }
    return {};
}

QVariant RunDifferenceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section >= columnCount()) return QAbstractTableModel::headerData(section, orientation, role);
    const auto [kind, run] = columnMeaning(section);
    if (role == Qt::DisplayRole) {
        switch (kind) {
        case ColumnKind::Metric: return tr("Metric");
        case ColumnKind::Value: return run == 0 ? tr("%1 (baseline)").arg(runs_[0]->name) : runs_[size_t(run)]->name;
        case ColumnKind::Delta: return tr("Δ %1").arg(runs_[size_t(run)]->name);
        case ColumnKind::Ratio: return tr("× %1").arg(runs_[size_t(run)]->name);
        }
    }
    if (role == Qt::ToolTipRole && run >= 0) {
        switch (kind) {
        case ColumnKind::Value: return tr("The metric of %1").arg(runs_[size_t(run)]->name);
        case ColumnKind::Delta: return tr("%1 minus the baseline %2").arg(runs_[size_t(run)]->name, runs_[0]->name);
        case ColumnKind::Ratio: return tr("%1 divided by the baseline %2").arg(runs_[size_t(run)]->name, runs_[0]->name);
        default: break;
        }
    }
    return {};
}

QString RunDifferenceModel::toTsv() const {
    auto clean = [](QString text) { return text.replace('\t', ' ').replace('\n', ' '); };
    QString tsv;
    QStringList header;
    for (int c = 0; c < columnCount(); ++c) header << clean(headerData(c, Qt::Horizontal).toString());
    tsv += header.join('\t') + '\n';
    for (int row = 0; row < rowCount(); ++row) {
        QStringList cells{clean(metricName(row)) + (metricUnit(row) == U::Bytes ? tr(" (bytes)") : tr(" (ns)"))};
        for (int c = 1; c < columnCount(); ++c) {
            const auto [kind, run] = columnMeaning(c);
            switch (kind) {
            case ColumnKind::Value: cells << QString::number(value(row, run)); break;
            case ColumnKind::Delta: cells << QString::number(delta(row, run)); break;
            case ColumnKind::Ratio: {
                const auto r = ratio(row, run);
                cells << (r ? QString::number(*r, 'g', 6) : QString());
                break;
            }
            case ColumnKind::Metric: break;
            }
        }
        tsv += cells.join('\t') + '\n';
    }
    return tsv;
}

}  // namespace spillway::views
