#pragma once
// The selected tensor's allocation stack, beside every view (what PyTorch's memory_viz shows on
// hover): its name, kind, size, when the allocator handed it out and took it back, and the
// frames that asked for it, innermost first. The first frame outside torch, where the user's own
// code called in, is marked; torch's frames are greyed. Follows the ViewLink's selected tensor.
#include "views/profile_view_data.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;

namespace spillway::views {

class ViewLink;

class StackPane : public QWidget {
    Q_OBJECT
public:
    enum Column { Marker, Function, Location, ColumnCount };

    explicit StackPane(ViewLink* link, QWidget* parent = nullptr);

    // nullptr shows nothing; the selection is the link's.
    void setViewData(std::shared_ptr<const ProfileViewData> data);

    // What is shown, for tests: the header as plain text, the frame rows, the marked row (-1: none).
    QString headerText() const;
    int frameCount() const;
    QString frameText(int row) const;  // "function  file:line" as shown
    int userFrameRow() const { return userRow_; }
    QTreeWidget* frameList() const { return frames_; }
    // The stack as text, one recorded frame per line, innermost first (Copy Stack).
    QString stackText() const;

private:
    void showTensor(std::int64_t tensorPos);
    void showHeader(const Tensor& tensor, std::int64_t tensorPos);
    void fillFrames(const Tensor& tensor);

    ViewLink* link_;
    std::shared_ptr<const ProfileViewData> data_;
    std::int64_t shown_ = -1;
    int userRow_ = -1;
    QLabel* header_;
    QTreeWidget* frames_;
};

}  // namespace spillway::views
