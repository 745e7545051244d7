#pragma once
// Runs the real spillway-cli binary (SPILLWAY_CLI_PATH) and collects its exit code and output.
#include <QByteArray>
#include <QProcess>
#include <QStringList>

struct CliRun {
    int code = -1;  // -1: did not finish in time; -2: crashed
    QByteArray out;
    QByteArray err;
};

inline CliRun runCli(const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(QStringLiteral(SPILLWAY_CLI_PATH), args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}
