#pragma once
// A G10 transformer graph cannot be read without the batch size that its dimension 99 stands
// for; measured kernel times come from an optional results folder. This asks the user for both.
#include "core/io/base/import_options.h"

#include <QString>

#include <optional>

class QWidget;

namespace spillway::app {

// nullopt when the user cancels. Remembers the last answers in QSettings as the next defaults.
std::optional<ImportOptions> askG10GraphOptions(QWidget* parent, const QString& graphPath);

}  // namespace spillway::app
