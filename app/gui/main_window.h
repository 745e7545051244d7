#pragma once
#include <QMainWindow>

namespace spillway::app {

// Placeholder main window; the real one (tables of kernels and tensors) replaces it.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    void openProfile(const QString& path);
};

}  // namespace spillway::app
