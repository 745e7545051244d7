#include "views/import_notes_html.h"

#include "core/analysis/profile_summary.h"
#include "core/trace/kind_evidence.h"
#include "views/format_units.h"

#include <QObject>

#include <utility>
#include <vector>

namespace spillway::views {

namespace {

const std::string kIterationsPrefix = "iterations.";
const std::string kKindRulePrefix = "kind_rule.";
const std::string kUnclassifiedShare = "kind_rule.unclassified_share";

QString html(const std::string& text) { return toQString(text).toHtmlEscaped(); }

const std::string* note(const ProfileNotes& notes, const std::string& key) {
    const auto it = notes.find(key);
    return it == notes.end() ? nullptr : &it->second;
}

// The warnings to show: every "warning.*" note, and the unclassified share over
// kUnclassifiedWarning when the importer did not warn about it itself.
std::vector<std::pair<std::string, QString>> warnings(const ProfileNotes& notes) {
    std::vector<std::pair<std::string, QString>> out;
    for (const auto& [id, text] : warningNotes(notes)) out.emplace_back(id, toQString(text));
    const double share = unclassifiedKindShare(notes);
    if (share > kUnclassifiedWarning && !notes.contains(std::string(kWarningNotePrefix) + "unclassified_kinds"))
        out.emplace_back("unclassified_kinds",
                         QObject::tr("%1 % of the tensor bytes were classified by no evidence (over %2 %): their kind "
                                     "is a fallback, and planners that treat kinds differently may mislead")
                             .arg(100.0 * share, 0, 'f', 0)
                             .arg(100.0 * kUnclassifiedWarning, 0, 'f', 0));
    return out;
}

QString twoColumnRow(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td valign=top style='padding-right:12px'><tt>%1</tt></td><td>%2</td></tr>").arg(key, value);
}

}  // namespace

QString iterationsHtml(const ProfileNotes& notes) {
    const auto* found = note(notes, kIterationsPrefix + "found");
    if (!found) return {};
    const auto* imported = note(notes, kIterationsPrefix + "imported");
    const QString which = !imported           ? QObject::tr("?")
                          : *imported == "all" ? QObject::tr("all of them, as one profile")
                                               : QObject::tr("iteration %1").arg(html(*imported));
    // How they were found (iterations.rule) is long: it is listed with the other notes.
    return QObject::tr("%1 found; showing %2").arg(html(*found), which);
}

QString footprintMeaning(const ProfileNotes& notes, std::int64_t tensorCount) {
    return QString::fromStdString(spillway::footprintMeaning(notes, tensorCount));
}

int importWarningCount(const ProfileNotes& notes) { return int(warnings(notes).size()); }

QString importWarningsHtml(const ProfileNotes& notes) {
    QString out;
    for (const auto& [id, text] : warnings(notes))
        out += QObject::tr("<p style='color:#8a4b00; background-color:#fff3cd'>&nbsp;⚠ <b>Warning</b> "
                           "<span style='color:gray'>(%1)</span>: %2&nbsp;</p>")
                   .arg(html(id), text.toHtmlEscaped());
    return out;
}

QString importNotesHtml(const ProfileNotes& notes) {
    if (notes.empty()) return {};
    QString rules, others;
    for (const auto& [key, value] : notes) {
        if (key == kUnclassifiedShare || key == kIterationsPrefix + "found" || key == kIterationsPrefix + "imported" ||
            key.starts_with(kWarningNotePrefix))
            continue;
        if (key.starts_with(kKindRulePrefix))
            rules += twoColumnRow(html(key.substr(kKindRulePrefix.size())), html(value));
        else
            others += twoColumnRow(html(key), html(value));
    }
    QString out;
    const double share = unclassifiedKindShare(notes);
    if (!rules.isEmpty() || share >= 0) {
        out += QObject::tr("<h3>How the tensor kinds were decided</h3>");
        out += "<table cellspacing=0 cellpadding=2>" + rules;
        if (share >= 0)
            out += twoColumnRow(QObject::tr("unclassified"),
                                QObject::tr("%1 % of the tensor bytes (no evidence; the kind is a fallback)")
                                    .arg(100.0 * share, 0, 'f', 1));
        out += "</table>";
    }
    if (!others.isEmpty())
        out += QObject::tr("<h3>Import notes</h3><table cellspacing=0 cellpadding=2 style='color:#444'>") + others + "</table>";
    return out;
}

}  // namespace spillway::views
