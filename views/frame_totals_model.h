#pragma once
// "Top allocating frames" (heaptrack's bytes by function) over the profile's allocation stacks:
// one row per distinct frame with the bytes of the tensors it allocated (inclusive: its stack
// holds the frame; self: the innermost frame), how many, and the most of them live during one
// kernel. Frames inside torch are greyed, so the user's own frames stand out.
#include "views/profile_table_model.h"

namespace spillway::views {

class FrameTotalsModel : public ProfileTableModel {
    Q_OBJECT
public:
    // The numbers before the location, which is long: they stay in view in a narrow tab.
    enum Column { Function, Inclusive, Self, Tensors, PeakLive, Location, ColumnCount };

    explicit FrameTotalsModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // The frame of a row; null outside the rows.
    const FrameTotal* frameAt(int row) const;

private:
    int rowsIn(const ProfileViewData& data) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant displayValue(int row, int column) const override;
    QString toolTip(int row) const override;
    bool isRightAligned(int column) const override;
    QString translate(const char* text) const override { return tr(text); }
};

}  // namespace spillway::views
