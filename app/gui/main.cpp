// spillway: the desktop app.
#include "app/gui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Spillway");
    QApplication::setOrganizationName("Spillway");
    QApplication::setApplicationVersion(SPILLWAY_VERSION);
    QApplication::setWindowIcon(QIcon(":/icons/spillway.svg"));

    QCommandLineParser parser;
    parser.setApplicationDescription("Explore GPU memory use of deep-learning training profiles");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("profile", "Profile file or folder to open");
    parser.process(app);

    spillway::app::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty()) window.openProfile(parser.positionalArguments().first());
    return app.exec();
}
