#include "app/gui/open_dialog_filters.h"

#include "core/io/profile_loader.h"

#include <QObject>

#include <map>

namespace spillway::app {

namespace {

// The loader recognises formats by content, not by name; these are the names files of each
// format usually have, so the dialog can narrow the list. A format missing here (a newer
// importer) still gets a filter that shows every file.
const std::map<std::string, QStringList>& usualFileNames() {
    static const std::map<std::string, QStringList> names{
        {"spillway", {"*.profile.json", "*.json"}},
        {"g10-configs", {"kernels.config", "*.config"}},
        {"g10-graph", {"*.txt"}},
        {"torch-trace", {"*.json", "*.pt.trace.json"}},
        {"torch-snapshot", {"*.pickle", "*.pkl"}},
        {"nsys-sqlite", {"*.sqlite"}},
    };
    return names;
}

bool isFolderFormat(const std::string& id) { return id == "g10-workload"; }

}  // namespace

QStringList profileOpenFilters() {
    QStringList perFormat;
    QStringList allPatterns;
    for (const auto& format : profileFormats()) {
        if (isFolderFormat(format.id)) continue;  // opened with File ▸ Open Folder…
        const auto it = usualFileNames().find(format.id);
        const QStringList patterns = it != usualFileNames().end() ? it->second : QStringList{"*"};
        for (const auto& p : patterns)
            if (!allPatterns.contains(p)) allPatterns << p;
        perFormat << QStringLiteral("%1 (%2)").arg(QString::fromStdString(format.description), patterns.join(' '));
    }
    QStringList filters;
    filters << QObject::tr("All supported profiles (%1)").arg(allPatterns.join(' '));
    filters << perFormat;
    // Not a profile, but File ▸ Open recognises it and opens it in the Jobs tab (issue 6).
    filters << QObject::tr("Spillway workload of several jobs (*.workload.json)");
    filters << QObject::tr("All files (*)");
    return filters;
}

QString supportedFormatsHtml() {
    QString html = QObject::tr("<p>Spillway recognises a profile by its content, so the file name "
                               "does not matter. It reads:</p><table cellpadding=3>");
    for (const auto& format : profileFormats())
        html += QStringLiteral("<tr><td><tt>%1</tt></td><td>%2%3</td></tr>")
                    .arg(QString::fromStdString(format.id).toHtmlEscaped(),
                         QString::fromStdString(format.description).toHtmlEscaped(),
                         isFolderFormat(format.id) ? QObject::tr(" — use <b>File ▸ Open Folder…</b>") : QString());
    html += QObject::tr("</table><p>A G10 transformer graph asks for the batch size (and, optionally, the "
                        "folder with G10's measured kernel times). <b>File ▸ Save As</b> writes any "
                        "opened profile as a native <tt>spillway.profile/1</tt> JSON file.</p>"
                        "<p>A <tt>spillway.workload/1</tt> file (several training jobs on one GPU) opens "
                        "in the <b>Jobs</b> tab, from <b>File ▸ Open Workload…</b> or any other way of "
                        "opening a file.</p>");
    return html;
}

}  // namespace spillway::app
