#include "app/gui/profile_load_job.h"

#include "app/gui/job_outcome.h"
#include "core/io/valid_profile.h"

#include <QFile>

namespace spillway::app {

namespace {

// The core loader's share of the bar; the views' derived data (liveness, peaks) takes the rest.
constexpr double kLoaderPercent = 90.0;

}  // namespace

ProfileLoadOutcome loadProfileForViews(const QString& path, const ImportOptions& options, JobControl* control) {
    ProfileLoadOutcome outcome;
    outcome.path = path;
    outcome.options = options;
    runJobInto(outcome, path, [&] {
        const std::filesystem::path fsPath(QFile::encodeName(path).toStdString());
        LoadProgress progress;
        if (control) {
            progress.cancel = &control->cancel;
            progress.report = [control](double fraction, std::string_view) {
                control->percent.store(static_cast<int>(fraction * kLoaderPercent), std::memory_order_relaxed);
            };
        }
        auto profile = std::make_shared<const Profile>(loadValidProfile(fsPath, options, progress));
        if (progress.cancelled()) throw LoadCancelled();
        auto data = views::makeProfileViewData(std::move(profile));
        if (progress.cancelled()) throw LoadCancelled();
        outcome.data = std::move(data);
        if (control) control->percent.store(100, std::memory_order_relaxed);
    });
    return outcome;
}

}  // namespace spillway::app
