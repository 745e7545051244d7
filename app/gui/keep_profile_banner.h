#pragma once
// Over the run tabs, after a profile is opened from a file that is not in the workspace: it is
// not copied there silently (six opens once made a 128 MB workspace). "Keep" stores it; keeping
// a run stores it too; "Not now" hides the offer for this profile (issue 20).
#include <QFrame>

class QLabel;
class QPushButton;

namespace spillway::app {

class KeepProfileBanner : public QFrame {
    Q_OBJECT
public:
    explicit KeepProfileBanner(QWidget* parent = nullptr);

    void offer(const QString& name, qint64 bytes);  // the profile's name and size on disk
    void clear();

    QPushButton* keepButton() const { return keep_; }
    QPushButton* dismissButton() const { return dismiss_; }
    QString text() const;

signals:
    void keepRequested();

private:
    QLabel* label_ = nullptr;
    QPushButton* keep_ = nullptr;
    QPushButton* dismiss_ = nullptr;
};

}  // namespace spillway::app
