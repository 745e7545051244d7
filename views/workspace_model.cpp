#include "views/workspace_model.h"

#include "views/format_units.h"
#include "views/table_roles.h"

#include <QDateTime>

#include <map>

namespace spillway::views {

namespace {

// Top-level rows (profiles) have internal id 0; a child's internal id is its profile's row + 1.
constexpr quintptr kTopLevel = 0;

QString timeText(store::TimestampMs ms) {
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd hh:mm"));
}

Nanoseconds totalStall(const store::RunSummary& run) { return run.iterationTime - run.totals.compute; }

}  // namespace

QString workspaceKindName(WorkspaceItem::Kind kind) {
    switch (kind) {
    case WorkspaceItem::Kind::Profile: return QStringLiteral("profile");
    case WorkspaceItem::Kind::Run: return QStringLiteral("run");
    case WorkspaceItem::Kind::Plan: return QStringLiteral("plan");
    case WorkspaceItem::Kind::None: break;
    }
    return {};
}

WorkspaceModel::WorkspaceModel(QObject* parent) : QAbstractItemModel(parent) {}

void WorkspaceModel::setContents(std::vector<store::ProfileSummary> profiles, std::vector<store::RunSummary> runs,
                                 std::vector<store::PlanSummary> plans) {
    beginResetModel();
    profiles_.clear();
    std::map<store::RowId, size_t> row;
    for (auto& p : profiles) {
        row[p.id] = profiles_.size();
        profiles_.push_back({std::move(p), {}, {}});
    }
    for (auto& r : runs)
        if (auto it = row.find(r.profileId); it != row.end()) profiles_[it->second].runs.push_back(std::move(r));
    for (auto& p : plans)
        if (auto it = row.find(p.profileId); it != row.end()) profiles_[it->second].plans.push_back(std::move(p));
    endResetModel();
}

WorkspaceItem WorkspaceModel::itemAt(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    if (index.internalId() == kTopLevel) return {WorkspaceItem::Kind::Profile, profiles_[size_t(index.row())].summary.id};
    const ProfileNode& node = profiles_[index.internalId() - 1];
    const size_t row = size_t(index.row());
    if (row < node.runs.size()) return {WorkspaceItem::Kind::Run, node.runs[row].id};
    return {WorkspaceItem::Kind::Plan, node.plans[row - node.runs.size()].id};
}

QModelIndex WorkspaceModel::indexOf(WorkspaceItem item, int column) const {
    for (size_t p = 0; p < profiles_.size(); ++p) {
        const ProfileNode& node = profiles_[p];
        if (item.kind == WorkspaceItem::Kind::Profile && node.summary.id == item.id)
            return createIndex(int(p), column, kTopLevel);
        for (size_t r = 0; r < node.runs.size(); ++r)
            if (item.kind == WorkspaceItem::Kind::Run && node.runs[r].id == item.id)
                return createIndex(int(r), column, quintptr(p + 1));
        for (size_t r = 0; r < node.plans.size(); ++r)
            if (item.kind == WorkspaceItem::Kind::Plan && node.plans[r].id == item.id)
                return createIndex(int(node.runs.size() + r), column, quintptr(p + 1));
    }
    return {};
}

QString WorkspaceModel::nameOf(WorkspaceItem item) const {
    const QModelIndex index = indexOf(item);
    return index.isValid() ? index.data(Qt::EditRole).toString() : QString();
}

store::RowId WorkspaceModel::profileOf(WorkspaceItem item) const {
    const QModelIndex index = indexOf(item);
    if (!index.isValid()) return 0;
    const size_t row = index.internalId() == kTopLevel ? size_t(index.row()) : index.internalId() - 1;
    return profiles_[row].summary.id;
}

const store::RunSummary* WorkspaceModel::runSummary(store::RowId id) const {
    for (const ProfileNode& node : profiles_)
        for (const store::RunSummary& run : node.runs)
            if (run.id == id) return &run;
    return nullptr;
}

int WorkspaceModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return int(profiles_.size());
    if (parent.column() != 0 || parent.internalId() != kTopLevel) return 0;
    return profiles_[size_t(parent.row())].childCount();
}

int WorkspaceModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QModelIndex WorkspaceModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) return row < int(profiles_.size()) ? createIndex(row, column, kTopLevel) : QModelIndex();
    if (parent.internalId() != kTopLevel || row >= profiles_[size_t(parent.row())].childCount()) return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex WorkspaceModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kTopLevel) return {};
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

QVariant WorkspaceModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    if (index.internalId() == kTopLevel) return profileData(profiles_[size_t(index.row())], index.column(), role);
    const ProfileNode& node = profiles_[index.internalId() - 1];
    const size_t row = size_t(index.row());
    if (row < node.runs.size()) return runData(node.runs[row], index.column(), role);
    return planData(node.plans[row - node.runs.size()], index.column(), role);
}

QVariant WorkspaceModel::profileData(const ProfileNode& node, int column, int role) const {
    const store::ProfileSummary& p = node.summary;
    if (column == Name && (role == Qt::DisplayRole || role == Qt::EditRole || role == kSortRole))
        return toQString(p.name);
    if (role == Qt::ToolTipRole)
        return tr("%1\nmodel: %2\n%3 kernels, %4 tensors, %5\nideal iteration %6\nfrom %7\nadded %8")
            .arg(toQString(p.name), toQString(p.model))
            .arg(p.kernelCount)
            .arg(p.tensorCount)
            .arg(formatBytes(p.totalTensorBytes), formatDuration(p.idealTime), toQString(p.sourcePath),
                 timeText(p.addedAt));
    if (column == Policy && role == Qt::DisplayRole) return tr("%n run(s)", nullptr, int(node.runs.size()));
    if (column == IterationTime && role == Qt::DisplayRole) return tr("ideal %1").arg(formatDuration(p.idealTime));
    if (column == IterationTime && role == kSortRole) return qint64(p.idealTime);
    return {};
}

QVariant WorkspaceModel::runData(const store::RunSummary& r, int column, int role) const {
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (column) {
        case Name: return toQString(r.name);
        case Policy: return toQString(r.policy);
        case Hardware: return toQString(r.hardwareId);
        case IterationTime: return formatDuration(r.iterationTime);
        case TotalStall: return formatDuration(totalStall(r));
        case Traffic: return formatBytes(r.trafficBytes);
        case PeakGpu: return formatBytes(r.peakGpuBytes);
        default: return {};
        }
    }
    if (role == kSortRole) {
        switch (column) {
        case Name: return toQString(r.name);
        case Policy: return toQString(r.policy);
        case Hardware: return toQString(r.hardwareId);
        case IterationTime: return qint64(r.iterationTime);
        case TotalStall: return qint64(totalStall(r));
        case Traffic: return qint64(r.trafficBytes);
        case PeakGpu: return qint64(r.peakGpuBytes);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("%1: %2 on %3, kept %4\niteration %5 (ideal %6)\ncompute %7, fault stall %8, "
                  "oversubscription stall %9, late prefetch %10\ntraffic %11, peak GPU %12")
            .arg(toQString(r.name), toQString(r.policy), toQString(r.hardwareId), timeText(r.createdAt),
                 formatDuration(r.iterationTime), formatDuration(r.idealTime), formatDuration(r.totals.compute),
                 formatDuration(r.totals.faultStall), formatDuration(r.totals.oversubStall))
            .arg(formatDuration(r.totals.latePrefetchStall), formatBytes(r.trafficBytes), formatBytes(r.peakGpuBytes));
    if (role == Qt::TextAlignmentRole && column >= IterationTime)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant WorkspaceModel::planData(const store::PlanSummary& p, int column, int role) const {
    if (role == Qt::DisplayRole || role == Qt::EditRole || role == kSortRole) {
        switch (column) {
        case Name: return role == Qt::DisplayRole ? tr("%1 (plan)").arg(toQString(p.name)) : toQString(p.name);
        case Policy: return toQString(p.policy);
        case Hardware: return toQString(p.hardwareId);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("Plan %1: %2 for %3, made %4")
            .arg(toQString(p.name), toQString(p.policy), toQString(p.hardwareId), timeText(p.createdAt));
    return {};
}

QVariant WorkspaceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const names[] = {"Name", "Policy", "Hardware", "Iteration", "Total stall", "Traffic", "Peak GPU"};
    static const char* const tips[] = {
        "Profile, and under it the runs kept from it and its plans (F2 renames)",
        "Migration policy the run was planned with",
        "Hardware preset the run was simulated on",
        "Simulated iteration time",
        "Iteration time not spent computing: every stall, after overlap",
        "Bytes moved over every link, both directions",
        "Largest GPU-resident byte count during the iteration"};
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

Qt::ItemFlags WorkspaceModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == Name) f |= Qt::ItemIsEditable;
    if (index.internalId() == kTopLevel && profiles_[size_t(index.row())].childCount() == 0) f |= Qt::ItemNeverHasChildren;
    return f;
}

bool WorkspaceModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || index.column() != Name) return false;
    const QString name = value.toString().trimmed();
    const WorkspaceItem item = itemAt(index);
    const QString old = nameOf(item);
    if (name.isEmpty() || name == old || item.kind == WorkspaceItem::Kind::None) return false;
    // Shown at once; the app stores it (an undoable command) and refills the model.
    const std::string text = name.toStdString();
    if (index.internalId() == kTopLevel) {
        profiles_[size_t(index.row())].summary.name = text;
    } else {
        ProfileNode& node = profiles_[index.internalId() - 1];
        const size_t row = size_t(index.row());
        if (row < node.runs.size()) node.runs[row].name = text;
        else node.plans[row - node.runs.size()].name = text;
    }
    emit dataChanged(index, index);
    emit renameRequested(item, old, name);
    return true;
}

}  // namespace spillway::views
