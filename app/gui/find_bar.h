#pragma once
// The find bar (Ctrl+F): a line edit with completion over every tensor's "name (id N)". Enter
// looks the text up (app/gui/find_tensor.h) and emits tensorFound, or says "no tensor matches
// ‘x’" in the bar; Escape hides it. It reads the open profile through a callback when shown,
// so it never holds a stale one.
#include "core/trace/profile.h"

#include <QWidget>

#include <functional>
#include <memory>

class QCompleter;
class QLabel;
class QLineEdit;
class QStringListModel;

namespace spillway::app {

class FindBar : public QWidget {
    Q_OBJECT
public:
    using ProfileSource = std::function<std::shared_ptr<const Profile>()>;
    explicit FindBar(ProfileSource profile, QWidget* parent = nullptr);

    // Called when the bar is shown: fresh completions, focus in the field, its text selected.
    void activate();
    // Looks up the field's text.
    void find();

    QLineEdit* edit() const { return edit_; }
    QCompleter* completer() const { return completer_; }
    QString message() const;

signals:
    void tensorFound(std::int64_t tensorPos);
    void closeRequested();

private:
    void refreshCompletions();

    ProfileSource profile_;
    std::shared_ptr<const Profile> completing_;  // the profile the completions are from
    QLineEdit* edit_;
    QLabel* message_;
    QCompleter* completer_;
    QStringListModel* completions_;
};

}  // namespace spillway::app
