#include "app/gui/save_bytes.h"

#include "core/io/base/file_text.h"

#include <QFile>

#include <exception>
#include <string>

namespace spillway::app {

QString saveBytes(const QString& path, const QByteArray& bytes) {
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(), std::string(bytes.constData(), bytes.size()));
    } catch (const std::exception& e) {
        // The core's message already starts with the path.
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace spillway::app
