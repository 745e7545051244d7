// The Open dialog and Help ▸ Supported Formats are built from the core's format registry, so a
// new importer shows up in both without touching the app.
#include "app/gui/open_dialog_filters.h"
#include "core/io/profile_loader.h"

#include <QtTest>

class TestOpenDialogFilters : public QObject {
    Q_OBJECT
private slots:
    void listsEveryFileFormatOfTheLoader() {
        const QStringList filters = spillway::app::profileOpenFilters();
        QVERIFY(filters.first().startsWith("All supported profiles ("));
        QCOMPARE(filters.last(), QString("All files (*)"));
        for (const auto& format : spillway::profileFormats()) {
            const QString description = QString::fromStdString(format.description);
            const bool listed = std::any_of(filters.begin(), filters.end(),
                                            [&](const QString& f) { return f.startsWith(description + " ("); });
            // Folders are not files: the G10 workload folder has its own Open Folder action.
            QCOMPARE(listed, format.id != "g10-workload");
        }
        QVERIFY(filters.first().contains("*.json"));
        QVERIFY(filters.first().contains("*.pickle"));
        QVERIFY(filters.first().contains("*.sqlite"));  // Nsight Systems exports
    }

    void helpNamesEveryFormat() {
        const QString html = spillway::app::supportedFormatsHtml();
        for (const auto& format : spillway::profileFormats())
            QVERIFY2(html.contains("<tt>" + QString::fromStdString(format.id) + "</tt>"), format.id.c_str());
    }
};

QTEST_MAIN(TestOpenDialogFilters)
#include "tst_open_dialog_filters.moc"
