#pragma once
// The workspace dock's tree: profiles at the top level, under each the runs made from it and
// then its plans. Columns carry the key numbers the store keeps beside each run (no result is
// read to list them). The model holds a snapshot of summaries and never touches the store:
// the app refills it after every change, and an inline rename only asks (renameRequested) so
// the app can make it an undoable command.
#include "core/store/workspace_records.h"

#include <QAbstractItemModel>

#include <vector>

namespace spillway::views {

struct WorkspaceItem {
    enum class Kind { None, Profile, Run, Plan };
    Kind kind = Kind::None;
    store::RowId id = 0;
    bool operator==(const WorkspaceItem&) const = default;
};

// "profile", "run", "plan": the word the undo texts and messages use.
QString workspaceKindName(WorkspaceItem::Kind kind);

class WorkspaceModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Policy, Hardware, IterationTime, TotalStall, Traffic, PeakGpu, ColumnCount };

    explicit WorkspaceModel(QObject* parent = nullptr);

    // Replaces everything (a model reset). Runs and plans of a profile not in `profiles` are
    // not shown.
    void setContents(std::vector<store::ProfileSummary> profiles, std::vector<store::RunSummary> runs,
                     std::vector<store::PlanSummary> plans);

    WorkspaceItem itemAt(const QModelIndex& index) const;
    QModelIndex indexOf(WorkspaceItem item, int column = Name) const;
    QString nameOf(WorkspaceItem item) const;
    // The profile a run or plan belongs to (the item itself for a profile); 0 when unknown.
    store::RowId profileOf(WorkspaceItem item) const;
    const store::RunSummary* runSummary(store::RowId id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // An edited name is shown at once and asked for through renameRequested; the app stores it.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void renameRequested(spillway::views::WorkspaceItem item, const QString& oldName, const QString& newName);

private:
    struct ProfileNode {
        store::ProfileSummary summary;
        std::vector<store::RunSummary> runs;
        std::vector<store::PlanSummary> plans;
        int childCount() const { return int(runs.size() + plans.size()); }
    };
    QVariant profileData(const ProfileNode& node, int column, int role) const;
    QVariant runData(const store::RunSummary& run, int column, int role) const;
    QVariant planData(const store::PlanSummary& plan, int column, int role) const;

    std::vector<ProfileNode> profiles_;
};

}  // namespace spillway::views

Q_DECLARE_METATYPE(spillway::views::WorkspaceItem)
