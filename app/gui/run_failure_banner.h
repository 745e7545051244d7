#pragma once
// Over the run tabs: why the current settings cannot be simulated, so the reason stays in view
// instead of flashing in the status bar while the charts sit empty, and, when more GPU memory
// would let the run go, the least that does with a button to use it (issue 20).
#include <QFrame>

class QLabel;
class QPushButton;

namespace spillway::app {

class RunFailureBanner : public QFrame {
    Q_OBJECT
public:
    explicit RunFailureBanner(QWidget* parent = nullptr);

    // `minimumGpuBytes` 0: no amount of GPU memory helps (or none was found).
    void showFailure(const QString& message, qint64 minimumGpuBytes);
    void clear();  // a run was shown

    qint64 offeredGpuBytes() const { return offered_; }
    QPushButton* useButton() const { return use_; }
    QString text() const;

signals:
    // The user asked for this much GPU memory (the offer rounded up to 0.01 GiB, as the button says).
    void useGpuRequested(qint64 bytes);

private:
    QLabel* label_ = nullptr;
    QPushButton* use_ = nullptr;
    qint64 offered_ = 0;
};

// The offer as the button says it: rounded up to 0.01 GiB.
qint64 panelGpuBytesAtLeast(qint64 bytes);

}  // namespace spillway::app
