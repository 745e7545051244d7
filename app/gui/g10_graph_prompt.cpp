#include "app/gui/g10_graph_prompt.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QSettings>

namespace spillway::app {

namespace {
constexpr int kDefaultBatch = 256;  // the batch of G10's published BERT and ViT runs
constexpr int kMaxBatch = 1 << 20;
}  // namespace

std::optional<ImportOptions> askG10GraphOptions(QWidget* parent, const QString& graphPath) {
    QSettings settings;
    bool ok = false;
    const int batch = QInputDialog::getInt(
        parent, QObject::tr("G10 transformer graph"),
        QObject::tr("%1 is a G10 transformer graph.\nBatch size (what dimension 99 in the graph stands for):")
            .arg(QFileInfo(graphPath).fileName()),
        settings.value("g10/batch", kDefaultBatch).toInt(), 1, kMaxBatch, 1, &ok);
    if (!ok) return std::nullopt;
    settings.setValue("g10/batch", batch);

    ImportOptions options;
    options.batch = batch;
    const auto answer = QMessageBox::question(
        parent, QObject::tr("G10 transformer graph"),
        QObject::tr("Read G10's measured kernel times from a results folder\n"
                    "(results/<Model>/ with cudnn%1*.txt)?").arg(batch),
        QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, QMessageBox::No);
    if (answer == QMessageBox::Cancel) return std::nullopt;
    if (answer == QMessageBox::Yes) {
        const QString dir = QFileDialog::getExistingDirectory(
            parent, QObject::tr("G10 results folder"),
            settings.value("g10/resultsDir", QFileInfo(graphPath).absolutePath()).toString());
        if (dir.isEmpty()) return std::nullopt;
        settings.setValue("g10/resultsDir", dir);
        options.resultsDir = std::filesystem::path(QFile::encodeName(dir).toStdString());
    }
    return options;
}

}  // namespace spillway::app
