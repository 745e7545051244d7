#pragma once
// The hand-written profiles in tests/fixtures/profiles/, read through the real core loader.
#include "core/io/profile_loader.h"
#include "views/profile_view_data.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

#include <memory>

namespace spillway::test {

inline QString fixtureProfilePath(const char* name) {
    return QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/") + QString::fromUtf8(name);
}

// tiny-mlp.profile.json: 10 kernels, 15 tensors of a two-layer MLP training iteration.
inline std::shared_ptr<const views::ProfileViewData> loadTinyMlp() {
    const auto path = fixtureProfilePath("tiny-mlp.profile.json").toStdString();
    return views::makeProfileViewData(std::make_shared<const Profile>(loadProfile(path)));
}

// Each run of a suite starts like a first start of the app: the test-mode data directory (the
// default workspace, whose view state restores the last tab and run) and QSettings are emptied,
// so an earlier run of the suite cannot change what this one sees. Call after
// setTestModeEnabled and the application name.
inline void startFromCleanAppState() {
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
    QSettings().clear();
}

}  // namespace spillway::test
