// spillway: the desktop app.
#include "app/gui/lesson_player.h"
#include "app/gui/main_window.h"
#include "app/gui/screenshot_tour.h"
#include "app/gui/sweep_page.h"
#include "app/gui/tab_option.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>

int main(int argc, char** argv) {
    // The resources live in the static spillway_app library; without this the linker may drop
    // them and the window icon would be missing.
    Q_INIT_RESOURCE(spillway);
    QApplication app(argc, argv);
    QApplication::setApplicationName("Spillway");
    QApplication::setOrganizationName("Spillway");
    QApplication::setApplicationVersion(SPILLWAY_VERSION);
    // Matches packaging/spillway.desktop, so desktops (Wayland in particular) find the icon.
    QGuiApplication::setDesktopFileName("spillway");
    QApplication::setWindowIcon(QIcon(":/icons/spillway.svg"));

    // Made before the options are parsed so that --help lists the tabs the window really has.
    spillway::app::MainWindow window;
    QCommandLineParser parser;
    parser.setApplicationDescription("Explore GPU memory use of deep-learning training profiles");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("profile", "Profile file or G10 workload folder to open");
    // A headless-friendly export for docs and scripts (run under xvfb-run): the real window,
    // rendered by its own grab() once the profile is loaded.
    const QCommandLineOption screenshot("screenshot", "Open the profile, save the window as a PNG and quit.", "png");
    const QCommandLineOption size("size", "Window size for --screenshot (default 1280x800).", "WxH", "1280x800");
    const QCommandLineOption tab("tab", "Tab to show, by name or index: " + spillway::app::tabChoices(window.tabs()) +
                                            ". With --screenshot: the tab saved.",
                                 "name|index");
    // Every view and two lesson steps, one PNG each (scripts/screenshots makes docs/images with it).
    const QCommandLineOption screenshots("screenshots", "Open the profile, save every tab and two lesson steps as PNGs in DIR and quit.", "dir");
    // For --screenshots: a memory snapshot with allocation stacks, for the Stack dock and Frames tab.
    const QCommandLineOption stackProfile("stack-profile", "With --screenshots: also open this profile (one with allocation stacks) and save the Stack dock and the Frames tab.", "profile");
    // A merged design sweep (`spillway-cli sweep merge --sqlite/--csv`), shown in the Sweep tab.
    const QCommandLineOption sweepTable("sweep-table", "Open a merged sweep table (.sqlite or .csv) in the Sweep tab.", "file");
    parser.addOptions({screenshot, size, tab, screenshots, stackProfile, sweepTable});
    parser.process(app);
    int tabIndex = -1;
    if (parser.isSet(tab)) {
        tabIndex = spillway::app::tabIndexFromOption(window.tabs(), parser.value(tab));
        if (tabIndex < 0) {
            std::fprintf(stderr, "error: --tab %s: no such tab; the tabs are %s\n", qPrintable(parser.value(tab)),
                         qPrintable(spillway::app::tabChoices(window.tabs())));
            return 2;
        }
    }
    const QString screenshotPath = parser.value(screenshot);
    if (!screenshotPath.isEmpty()) {
        if (parser.positionalArguments().isEmpty()) parser.showHelp(2);
        const QStringList wh = parser.value(size).split('x');
        if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
        window.setErrorDialogsEnabled(false);
        QObject::connect(&window, &spillway::app::MainWindow::loadFailed, &app,
                         [](const QString&, const QString& where, const QString& message) {
                             std::fprintf(stderr, "error: %s: %s\n", qPrintable(where), qPrintable(message));
                             QCoreApplication::exit(2);
                         });
        QObject::connect(&window, &spillway::app::MainWindow::profileLoaded, &app, [&] {
            window.tabs()->setCurrentIndex(std::max(tabIndex, 0));
            // Let the tables and the chart lay out and paint once before grabbing.
            QTimer::singleShot(300, &app, [&] {
                QCoreApplication::exit(window.grab().save(screenshotPath, "PNG") ? 0 : 1);
            });
        });
    }
    if (parser.isSet(screenshots)) {
        if (parser.positionalArguments().isEmpty()) parser.showHelp(2);
        const QStringList wh = parser.value(size).split('x');
        if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
        window.setErrorDialogsEnabled(false);
        window.show();
        auto* tour = new spillway::app::ScreenshotTour(&window, window.lessonPlayer(), parser.positionalArguments().first(),
                                                       parser.value(screenshots),
                                                       spillway::app::LessonPlayer::bundledLessonFolder(), &app);
        tour->setStackProfile(parser.value(stackProfile));
        QObject::connect(tour, &spillway::app::ScreenshotTour::finished, &app, [](int status) { QCoreApplication::exit(status); });
        tour->start();
        return app.exec();
    }
    window.show();
    if (!parser.positionalArguments().isEmpty()) window.openProfile(parser.positionalArguments().first());
    if (tabIndex >= 0) window.tabs()->setCurrentIndex(tabIndex);
    if (parser.isSet(sweepTable)) {
        window.tabs()->setCurrentWidget(window.sweepPage());
        window.sweepPage()->openTable(parser.value(sweepTable));
    }
    return app.exec();
}
