#include "app/gui/docs_links.h"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

namespace spillway::app {

QString docsFolder() {
    const QString fromEnv = qEnvironmentVariable("SPILLWAY_DOCS");
    if (!fromEnv.isEmpty()) return fromEnv;
    const QDir app(QCoreApplication::applicationDirPath());
    // Installed (bin/ beside share/doc/spillway), then the build tree (build/app/ or build/tests/).
    for (const QString& relative : {QStringLiteral("../share/doc/spillway/docs"), QStringLiteral("../share/doc/spillway"),
                                    QStringLiteral("../../docs"), QStringLiteral("../../../docs")})
        if (QFileInfo(app.filePath(relative + "/app.md")).isFile()) return QDir::cleanPath(app.filePath(relative));
    return {};
}

QUrl docsPageUrl(const QString& page) {
    const QString folder = docsFolder();
    if (folder.isEmpty()) return {};
    for (const QString& path : {folder + "/" + page, folder + "/../" + page})
        if (QFileInfo(path).isFile()) return QUrl::fromLocalFile(QDir::cleanPath(path));
    return {};
}

void addDocsActions(QMenu* help, QWidget* dialogParent) {
    struct Link {
        QString text;
        QString page;
        const char* objectName;
        QKeySequence key;
    };
    const Link links[] = {
        {QObject::tr("Spillway &Help"), QStringLiteral("app.md"), "docsAppAction", QKeySequence::HelpContents},
        {QObject::tr("&Documentation Index"), QStringLiteral("README.md"), "docsIndexAction", {}},
        {QObject::tr("&File Formats"), QStringLiteral("formats.md"), "docsFormatsAction", {}},
        {QObject::tr("&Command-Line Tool"), QStringLiteral("cli-simulate.md"), "docsCliAction", {}},
    };
    for (const Link& link : links) {
        QAction* action = help->addAction(link.text);
        action->setObjectName(link.objectName);
        action->setShortcut(link.key);
        action->setData(docsPageUrl(link.page));
        const QString page = link.page;
        QObject::connect(action, &QAction::triggered, help, [action, page, dialogParent] {
            const QUrl url = action->data().toUrl();
            if (url.isEmpty() || !QDesktopServices::openUrl(url))
                QMessageBox::information(dialogParent, QObject::tr("Documentation"),
                                         QObject::tr("%1 was not found: looked in $SPILLWAY_DOCS, share/doc/spillway "
                                                     "beside the program, and the source tree's docs/.")
                                             .arg(page));
        });
    }
}

}  // namespace spillway::app
