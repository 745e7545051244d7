#pragma once
// File > Export > Current View: a tab's widget as PNG (what the screen shows, pixel for pixel),
// SVG or PDF (vector: QCustomPlot charts are replayed as drawing commands, everything else is
// rendered through QWidget::render). The format follows the file's suffix. Files are written
// through saveBytes (core's one write path), so a failed export never leaves a half-written file
// where an older one was, and a FIFO or device is written into, not replaced.
#include <QString>

class QWidget;

namespace spillway::app {

enum class ViewImageFormat { Png, Svg, Pdf };

// From the suffix (case-insensitive): .png, .svg, .pdf; false for anything else.
bool viewImageFormatFor(const QString& path, ViewImageFormat* format);

// Returns "" on success, otherwise why it failed (naming the file).
QString exportViewImage(QWidget* view, const QString& path);
QString exportViewImage(QWidget* view, const QString& path, ViewImageFormat format);

}  // namespace spillway::app
