#pragma once
// One row per tensor of a profile, with when it is needed: the first kernel writing it, its
// first and last use and how many kernels touch it. Rebinds to an immutable ProfileViewData.
#include "views/profile_table_model.h"

namespace spillway::views {

class TensorTableModel : public ProfileTableModel {
    Q_OBJECT
public:
    enum Column { Id, Name, Kind, Size, Persistent, Producer, FirstUse, LastUse, Uses, ColumnCount };

    explicit TensorTableModel(QObject* parent = nullptr);

private:
    int rowsIn(const ProfileViewData& data) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant displayValue(int row, int column) const override;
    QString kernelLabel(std::int64_t kernelPos) const;
    QString toolTip(int row) const override;
    bool isRightAligned(int column) const override;
    QString translate(const char* text) const override { return tr(text); }
};

}  // namespace spillway::views
