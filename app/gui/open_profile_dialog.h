#pragma once
// File ▸ Open…: the file dialog with every format's filter and, under the file list, which
// training iteration to import from a snapshot, trace or capture that holds several
// (ImportOptions::iteration: a steady-state one by default, all of them, or the K-th). The
// Overview then says how many were found and which one is shown.
#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>

class QComboBox;
class QFileDialog;
class QSpinBox;

namespace spillway::app {

class IterationChoice : public QWidget {
    Q_OBJECT
public:
    enum Entry { Steady, All, Number };
    explicit IterationChoice(QWidget* parent = nullptr);

    // ImportOptions::kSteadyIteration, kAllIterations or K >= 1.
    std::int64_t iteration() const;
    void setIteration(std::int64_t iteration);

    QComboBox* combo() const { return combo_; }
    QSpinBox* number() const { return number_; }

private:
    QComboBox* combo_;
    QSpinBox* number_;
};

// The dialog (Qt's own, so the choice can sit in it) with the choice set to `iteration`; its
// IterationChoice is the child named "iterationChoice".
QFileDialog* makeOpenProfileDialog(QWidget* parent, const QString& directory, std::int64_t iteration);

struct OpenRequest {
    QString path;
    std::int64_t iteration = 0;
};
// Shows the dialog; nullopt when cancelled. The folder and the choice are remembered in QSettings
// (lastOpenDir, open/iteration) as the next defaults.
std::optional<OpenRequest> askProfileToOpen(QWidget* parent);

}  // namespace spillway::app
