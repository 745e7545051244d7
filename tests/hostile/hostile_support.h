#pragma once
// Shared by the tests/hostile suites: running spillway-cli and spillway-replay the same way, and
// the few file helpers each suite needs to write a hostile input and read back what a tool wrote.
#include "tests/cli/cli_runner.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtGlobal>

namespace spillway::hostile {

// Long enough for any command here to finish on a loaded machine; a hang shows as code -1
// within a minute instead of holding the suite for runCli's five.
inline constexpr int kHangMs = 60000;

// spillway-replay is not a compile definition: ctest sets SPILLWAY_REPLAY (empty otherwise, which
// a suite that needs it checks first).
inline QString replayPath() { return qEnvironmentVariable("SPILLWAY_REPLAY"); }

// One call for both tools, so a data-driven test can list replay runs beside CLI runs: a first
// word "replay" picks spillway-replay (without that word), anything else is spillway-cli.
inline CliRun runTool(QStringList args, int timeoutMs = kHangMs) {
    if (!args.isEmpty() && args.front() == QStringLiteral("replay")) {
        args.pop_front();
        return runProgram(replayPath(), args, timeoutMs);
    }
    return runProgram(QStringLiteral(SPILLWAY_CLI_PATH), args, timeoutMs);
}

// False when the file cannot be written whole, for a QVERIFY at the call.
inline bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Empty when the file cannot be read: what a tool failed to write compares unequal to anything.
inline QByteArray readBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// `text` as `name` in `dir`, returning its path for the command line. A temporary folder that
// cannot be written is the machine's fault, not the test's: stop there.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    if (!writeBytes(path, text)) qFatal("cannot write %s", qPrintable(path));
    return path;
}

// `text` with its only occurrence of `from` replaced by `to`. A `from` that is missing or
// repeated stops the suite: the hostile file would be the valid one, or hostile twice over.
inline QByteArray replacedOnce(QByteArray text, const QByteArray& from, const QByteArray& to) {
    if (text.count(from) != 1) qFatal("\"%s\" is not in the text exactly once", from.constData());
    return text.replace(from, to);
}

}  // namespace spillway::hostile
