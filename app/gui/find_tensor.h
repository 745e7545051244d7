#pragma once
// Which tensor the find bar means: "42", "#42" or "id 42" is the tensor with that id; a
// completion "name (id 42)" is that id too; anything else is a name, matched exactly first,
// then ignoring case, then as a part of the name (case-insensitive), the first in profile
// order winning. Plain functions over the profile, so the rules are tested without a window.
#include "core/trace/profile.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace spillway::app {

// The tensor's position in profile.tensors, or -1 when nothing matches.
std::int64_t findTensor(const Profile& profile, const QString& query);

// What the completer offers: "name (id N)" for every tensor, in profile order.
QStringList tensorCompletions(const Profile& profile);

}  // namespace spillway::app
