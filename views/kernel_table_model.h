#pragma once
// One row per kernel of a profile, in program order. The model never changes a profile: it
// shows one immutable ProfileViewData and resets when it is given another.
#include "views/profile_table_model.h"

namespace spillway::views {

class KernelTableModel : public ProfileTableModel {
    Q_OBJECT
public:
    enum Column {
        Position,
        Id,
        Name,
        Op,
        Phase,
        Duration,
        InputCount,
        OutputCount,
        InputBytes,
        OutputBytes,
        Workspace,
        ColumnCount
    };

    explicit KernelTableModel(QObject* parent = nullptr);

private:
    int rowsIn(const ProfileViewData& data) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant displayValue(int row, int column) const override;
    QString toolTip(int row) const override;
    bool isRightAligned(int column) const override;
    QString translate(const char* text) const override { return tr(text); }
};

}  // namespace spillway::views
