#include "app/gui/find_tensor.h"

#include <QRegularExpression>

namespace spillway::app {

namespace {

std::int64_t byId(const Profile& profile, qint64 id) {
    for (size_t t = 0; t < profile.tensors.size(); ++t)
        if (profile.tensors[t].id == id) return static_cast<std::int64_t>(t);
    return -1;
}

}  // namespace

std::int64_t findTensor(const Profile& profile, const QString& query) {
    const QString q = query.trimmed();
    if (q.isEmpty()) return -1;
    static const QRegularExpression idOnly(QStringLiteral("^(?:#|id\\s*)?(-?\\d+)$"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression completion(QStringLiteral("\\(id (-?\\d+)\\)$"));
    for (const auto* pattern : {&idOnly, &completion}) {
        const auto m = pattern->match(q);
        if (!m.hasMatch()) continue;
        const std::int64_t found = byId(profile, m.captured(1).toLongLong());
        // "1024" may also be part of a name ("fc1024"): fall through to the names.
        if (found >= 0) return found;
    }
    const std::string exact = q.toStdString();
    for (size_t t = 0; t < profile.tensors.size(); ++t)
        if (profile.tensors[t].name == exact) return static_cast<std::int64_t>(t);
    std::int64_t caseless = -1, part = -1;
    for (size_t t = 0; t < profile.tensors.size() && caseless < 0; ++t) {
        const QString name = QString::fromStdString(profile.tensors[t].name);
        if (name.compare(q, Qt::CaseInsensitive) == 0) caseless = static_cast<std::int64_t>(t);
        else if (part < 0 && name.contains(q, Qt::CaseInsensitive)) part = static_cast<std::int64_t>(t);
    }
    return caseless >= 0 ? caseless : part;
}

QStringList tensorCompletions(const Profile& profile) {
    QStringList items;
    items.reserve(static_cast<qsizetype>(profile.tensors.size()));
    for (const Tensor& t : profile.tensors)
        items << QStringLiteral("%1 (id %2)").arg(QString::fromStdString(t.name)).arg(t.id);
    return items;
}

}  // namespace spillway::app
