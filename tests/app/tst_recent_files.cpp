// File ▸ Open Recent keeps each file once, newest first, at most kMaxEntries, across restarts
// (QSettings).
#include "app/gui/recent_files.h"
#include "app_fixtures.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using spillway::app::RecentFiles;

class TestRecentFiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_recent_files");
        RecentFiles().clear();
    }

    void newestFirstWithoutDuplicates() {
        const QString a = spillway::test::fixtureProfilePath("tiny-mlp.profile.json");
        const QString b = spillway::test::fixtureProfilePath("broken-phase.profile.json");
        RecentFiles().add(a);
        RecentFiles().add(b);
        // The same file by another spelling moves to the front instead of being listed twice.
        RecentFiles().add(QFileInfo(a).absolutePath() + "/../profiles/tiny-mlp.profile.json");
        const QStringList paths = RecentFiles().paths();
        QCOMPARE(paths.size(), 2);
        QCOMPARE(paths[0], QFileInfo(a).canonicalFilePath());
        QCOMPARE(paths[1], QFileInfo(b).canonicalFilePath());
        RecentFiles().remove(b);
        QCOMPARE(RecentFiles().paths(), QStringList{QFileInfo(a).canonicalFilePath()});
    }

    void dropsTheOldestBeyondTheLimit() {
        RecentFiles().clear();
        QTemporaryDir dir;
        for (int i = 0; i < RecentFiles::kMaxEntries + 3; ++i) RecentFiles().add(dir.filePath(QString("p%1.json").arg(i)));
        const QStringList paths = RecentFiles().paths();
        QCOMPARE(paths.size(), RecentFiles::kMaxEntries);
        QVERIFY(paths.first().endsWith(QString("p%1.json").arg(RecentFiles::kMaxEntries + 2)));
        QVERIFY(paths.last().endsWith("p3.json"));
    }
};

QTEST_MAIN(TestRecentFiles)
#include "tst_recent_files.moc"
