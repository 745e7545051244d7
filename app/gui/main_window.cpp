#include "app/gui/main_window.h"

namespace spillway::app {
MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) { setWindowTitle("Spillway"); }
void MainWindow::openProfile(const QString&) {}
}  // namespace spillway::app
