#include "app/gui/profile_load_job.h"

#include "core/io/import_error.h"
#include "core/io/profile_loader.h"

#include <QElapsedTimer>
#include <QFile>

namespace spillway::app {

ProfileLoadOutcome loadProfileForViews(const QString& path, const ImportOptions& options) {
    ProfileLoadOutcome outcome;
    outcome.path = path;
    outcome.options = options;
    QElapsedTimer timer;
    timer.start();
    try {
        const std::filesystem::path fsPath(QFile::encodeName(path).toStdString());
        auto profile = std::make_shared<const Profile>(loadProfile(fsPath, options));
        outcome.data = views::makeProfileViewData(std::move(profile));
    } catch (const ImportError& e) {
        outcome.errorWhere = QString::fromStdString(e.location().describe());
        outcome.errorMessage = QString::fromStdString(e.message());
    } catch (const std::exception& e) {
        // Not an input problem the importer diagnosed (out of memory, a filesystem error...):
        // still report it against the file rather than ending the app.
        outcome.errorWhere = path;
        outcome.errorMessage = QString::fromLocal8Bit(e.what());
    }
    outcome.elapsedNs = timer.nsecsElapsed();
    return outcome;
}

}  // namespace spillway::app
