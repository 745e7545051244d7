#pragma once
// Where the documentation is, for Help's links: the Markdown pages of docs/ (and README.md),
// installed under share/doc/spillway or found in the source tree beside a build.
#include <QString>
#include <QUrl>

class QMenu;
class QWidget;

namespace spillway::app {

// The folder holding the pages: $SPILLWAY_DOCS, else share/doc/spillway beside bin/ when it has
// app.md, else the source tree's docs/ above the build folder. Empty when none is found.
QString docsFolder();

// A file URL of `page` ("app.md", "formats.md"; "README.md" is looked for beside docs/ too), or
// an empty URL when the page is not found.
QUrl docsPageUrl(const QString& page);

// Help's documentation actions (each with its page's URL as data, opened with
// QDesktopServices::openUrl; a page that is not found says where it was looked for).
void addDocsActions(QMenu* help, QWidget* dialogParent);

}  // namespace spillway::app
