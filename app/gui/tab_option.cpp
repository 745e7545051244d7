#include "app/gui/tab_option.h"

#include <QStringList>
#include <QTabWidget>

namespace spillway::app {

namespace {
QString tabName(const QTabWidget* tabs, int i) { return tabs->tabText(i).remove('&'); }
}  // namespace

QString tabChoices(const QTabWidget* tabs) {
    QStringList names;
    for (int i = 0; i < tabs->count(); ++i) names << QStringLiteral("%1 %2").arg(i).arg(tabName(tabs, i));
    return names.join(QStringLiteral(", "));
}

int tabIndexFromOption(const QTabWidget* tabs, const QString& value) {
    bool isNumber = false;
    const int index = value.toInt(&isNumber);
    if (isNumber) return index >= 0 && index < tabs->count() ? index : -1;
    for (int i = 0; i < tabs->count(); ++i)
        if (tabName(tabs, i).compare(value.trimmed(), Qt::CaseInsensitive) == 0) return i;
    return -1;
}

}  // namespace spillway::app
