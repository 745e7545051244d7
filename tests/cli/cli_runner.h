#pragma once
// Runs the real spillway-cli binary (SPILLWAY_CLI_PATH), or any other program, and collects its
// exit code and output.
#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

struct CliRun {
    int code = -1;  // -1: did not finish in time; -2: crashed
    QByteArray out;
    QByteArray err;
};

// Any program (spillway-replay, or /bin/sh where a test needs a shell's limits), read the same
// way as the CLI, so a suite checks every tool's exit code and output alike.
inline CliRun runProgram(const QString& program, const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(program, args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline CliRun runCli(const QStringList& args, int timeoutMs = 300000) {
    return runProgram(QStringLiteral(SPILLWAY_CLI_PATH), args, timeoutMs);
}
