// Help and the command line tell the truth (issue 20): the shortcut list holds every QAction of
// the real window that has a shortcut (it is built from them, this holds it to that), Help links
// to pages of docs/ that exist, and `spillway --help` lists the tabs the window has, which
// --tab takes by name or index.
#include "app/gui/docs_links.h"
#include "app/gui/keyboard_shortcuts.h"
#include "app/gui/main_window.h"
#include "app/gui/shortcut_list.h"
#include "app/gui/tab_option.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QTabWidget>
#include <QtTest>

#include <memory>

using spillway::app::MainWindow;

namespace {

QMenu* helpMenu(MainWindow& window) {
    for (QAction* a : window.menuBar()->actions())
        if (a->menu() && a->text().remove('&') == "Help") return a->menu();
    return nullptr;
}

}  // namespace

class TestHelpMenu : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->setErrorDialogsEnabled(false);
        window_->show();
    }

    void everyShortcutOfTheWindowIsListed() {
        const QString html = spillway::app::KeyboardShortcuts::shortcutsHtml(window_.get());
        int withKeys = 0;
        for (const QAction* a : window_->findChildren<QAction*>()) {
            if (a->shortcuts().isEmpty()) continue;
            ++withKeys;
            const QString text = QString(a->text()).remove('&').toHtmlEscaped();
            const QString keys = a->shortcuts().first().toString(QKeySequence::NativeText).toHtmlEscaped();
            QVERIFY2(html.contains(text) && html.contains(keys),
                     qPrintable(QString("%1 (%2) is not in the list").arg(text, keys)));
        }
        QVERIFY(withKeys > 20);
        // Keys that work outside the menus are there too: the workspace dock's rename, the pan keys.
        bool sawWidgetKey = false;
        for (const auto& e : spillway::app::collectShortcuts(window_.get()))
            sawWidgetKey = sawWidgetKey || !e.where.contains(QStringLiteral("▸")) &&
                                               e.where != "File" && e.where != "View" && e.where != "Help" &&
                                               e.where != "Edit" && e.where != "Run";
        QVERIFY(sawWidgetKey);
    }

    void helpLinksToDocsThatExist() {
        QMenu* help = helpMenu(*window_);
        QVERIFY(help);
        QStringList pages;
        for (const QAction* a : help->actions()) {
            const QUrl url = a->data().toUrl();
            if (!a->objectName().startsWith("docs")) continue;
            QVERIFY2(url.isLocalFile() && QFileInfo(url.toLocalFile()).isFile(), qPrintable(a->objectName()));
            pages << QFileInfo(url.toLocalFile()).fileName();
        }
        QCOMPARE(pages, (QStringList{"app.md", "README.md", "formats.md", "cli-simulate.md"}));
        QAction* guide = help->findChild<QAction*>("docsAppAction");
        QVERIFY(guide);
        QVERIFY(guide->shortcuts().contains(QKeySequence(QKeySequence::HelpContents)));
        // SPILLWAY_DOCS points elsewhere (a package's layout): an unknown folder finds nothing.
        qputenv("SPILLWAY_DOCS", "/nonexistent-docs");
        QVERIFY(spillway::app::docsPageUrl("app.md").isEmpty());
        qunsetenv("SPILLWAY_DOCS");
    }

    void tabOptionTakesNamesAndIndices() {
        const QTabWidget* tabs = window_->tabs();
        const QString choices = spillway::app::tabChoices(tabs);
        for (int i = 0; i < tabs->count(); ++i) {
            const QString name = tabs->tabText(i).remove('&');
            QVERIFY2(choices.contains(QStringLiteral("%1 %2").arg(i).arg(name)), qPrintable(choices));
            QCOMPARE(spillway::app::tabIndexFromOption(tabs, name.toLower()), i);
            QCOMPARE(spillway::app::tabIndexFromOption(tabs, QString::number(i)), i);
        }
        QCOMPARE(spillway::app::tabIndexFromOption(tabs, "nonsense"), -1);
        QCOMPARE(spillway::app::tabIndexFromOption(tabs, QString::number(tabs->count())), -1);
    }

    // The real program: --help lists every tab; a --tab it does not have is refused, naming them.
    void programHelpListsTheTabs() {
        const QString program = QCoreApplication::applicationDirPath() + "/../app/spillway";
        if (!QFileInfo(program).isExecutable()) QSKIP("the spillway program is not built beside the tests");
        QProcess help;
        help.start(program, {"--help"});
        QVERIFY(help.waitForFinished(30000));
        // Qt wraps the help text: compare with the line breaks as spaces.
        const QString out = QString::fromUtf8(help.readAllStandardOutput()).simplified();
        QVERIFY2(out.contains(spillway::app::tabChoices(window_->tabs())), qPrintable(out));
        QProcess bad;
        bad.start(program, {"--tab", "nonsense"});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains("no such tab"));
    }

private:
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestHelpMenu)
#include "tst_help_menu.moc"
