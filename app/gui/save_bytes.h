#pragma once
// Every file the app itself writes (view images, run CSVs) goes through core's one write path,
// writeFileAtomically: a regular file is replaced whole through NAME.part, a link is followed, and
// a device or FIFO is written into, never replaced (QSaveFile would rename a file over a FIFO).
#include <QByteArray>
#include <QString>

namespace spillway::app {

// "" when the bytes were written, otherwise why not, naming the file.
QString saveBytes(const QString& path, const QByteArray& bytes);

}  // namespace spillway::app
