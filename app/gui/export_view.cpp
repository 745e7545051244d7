#include "app/gui/export_view.h"

#include "app/gui/save_bytes.h"
#include "views/figure_export.h"

#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QBuffer>
#include <QSvgGenerator>
#include <QWidget>

namespace spillway::app {

namespace {

QString failure(const QString& path, const QString& why) { return QObject::tr("%1: %2").arg(path, why); }

// Both vector devices get the widget's screen resolution: a QPicture replays scaled by the
// target's DPI over the screen's (QPicture::play), and fonts sized in points turn into pixels at
// the device's DPI, so at any other resolution the charts and the text would come out smaller
// or larger than the widgets around them. The widget is painted as vectors by
// views::paintWidgetVectors (the exported figures of `spillway-cli reproduce` use it too).

}  // namespace

bool viewImageFormatFor(const QString& path, ViewImageFormat* format) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png") *format = ViewImageFormat::Png;
    else if (suffix == "svg") *format = ViewImageFormat::Svg;
    else if (suffix == "pdf") *format = ViewImageFormat::Pdf;
    else return false;
    return true;
}

QString exportViewImage(QWidget* view, const QString& path) {
    ViewImageFormat format;
    if (!viewImageFormatFor(path, &format))
        return failure(path, QObject::tr("unknown image type; expected a name ending in .png, .svg or .pdf"));
    return exportViewImage(view, path, format);
}

QString exportViewImage(QWidget* view, const QString& path, ViewImageFormat format) {
    if (!view || view->width() <= 0 || view->height() <= 0) return failure(path, QObject::tr("there is no view to export"));
    // Drawn into memory, then saved through the one write path (save_bytes.h).
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    const QSize size = view->size();
    switch (format) {
    case ViewImageFormat::Png: {
        // grab() renders the widget as the screen shows it, device pixel ratio included.
        if (!view->grab().toImage().save(&buffer, "PNG")) {
            return failure(path, QObject::tr("the PNG encoder failed"));
        }
        break;
    }
    case ViewImageFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setResolution(view->logicalDpiX());  // the screen's: see above
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(view->windowTitle().isEmpty() ? QStringLiteral("Spillway view") : view->windowTitle());
        svg.setDescription(QStringLiteral("Exported from Spillway"));
        QPainter painter;
        if (!painter.begin(&svg)) {
            return failure(path, QObject::tr("cannot start the SVG writer"));
        }
        views::paintWidgetVectors(view, painter);
        painter.end();
        break;
    }
    case ViewImageFormat::Pdf: {
        // One page exactly the widget's size, one device unit per widget pixel at the screen's
        // resolution (see above).
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("Spillway"));
        const int dpi = view->logicalDpiX();
        pdf.setResolution(dpi);
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setPageSize(QPageSize(QSizeF(size) * 72.0 / dpi, QPageSize::Point, QString(), QPageSize::ExactMatch));
        QPainter painter;
        if (!painter.begin(&pdf)) {
            return failure(path, QObject::tr("cannot start the PDF writer"));
        }
        views::paintWidgetVectors(view, painter);
        painter.end();
        break;
    }
    }
    return saveBytes(path, buffer.data());
}

}  // namespace spillway::app
