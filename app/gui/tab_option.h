#pragma once
// `spillway --tab NAME|INDEX`: which tab the window shows, by the names it really has, so the
// help text cannot fall behind the tabs.
#include <QString>

class QTabWidget;

namespace spillway::app {

// "0 Overview, 1 Kernels, ...": every tab by index and name, as `--help` lists them.
QString tabChoices(const QTabWidget* tabs);

// The index of the tab `value` names: its index, or its name in any case ("memory"). -1 when
// it names none.
int tabIndexFromOption(const QTabWidget* tabs, const QString& value);

}  // namespace spillway::app
