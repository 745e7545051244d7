#pragma once
// Name filters for the Open dialog, one per file format the core loader knows
// (profileFormats()), plus "all supported" and "all files".
#include <QStringList>

namespace spillway::app {

QStringList profileOpenFilters();

// Help ▸ Supported formats: every format of profileFormats() with its description, as HTML.
QString supportedFormatsHtml();

}  // namespace spillway::app
