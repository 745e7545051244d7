#pragma once
// Shared by the tst_g10_* suites: where the real G10 data and the fixtures are, an independent
// reader of kernels.config (Qt regular expressions, nothing from the importer under test) to
// compare against, and a check that a call fails with an ImportError at a given file and line.
#include "core/io/base/import_error.h"
#include "core/trace/kernel.h"
#include "core/trace/tensor.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <functional>
#include <vector>

namespace g10test {

inline QString dataPath(const QString& relative) {
    return QStringLiteral(SPILLWAY_SHARED_DATA "/g10/") + relative;
}

inline QString fixturePath(const QString& name) {
    return QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/g10/") + name;
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

inline bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return f.write(bytes) == bytes.size();
}

// The first `count` lines of a file, each with its newline.
inline QByteArray firstLines(const QByteArray& text, int count) {
    qsizetype pos = 0;
    for (int i = 0; i < count && pos < text.size(); ++i) {
        const auto nl = text.indexOf('\n', pos);
        pos = nl < 0 ? text.size() : nl + 1;
    }
    return text.left(pos);
}

// Replaces line `line` (1-based) of a text.
inline QByteArray replaceLine(const QByteArray& text, int line, const QByteArray& with) {
    auto lines = text.split('\n');
    lines[line - 1] = with;
    return lines.join('\n');
}

struct OracleTensor {
    qint64 id = 0;
    qint64 bytes = 0;
    bool weight = false;
};

struct OracleKernel {
    QString name;
    qint64 cycles = 0;
    std::vector<OracleTensor> inputs;
    std::vector<OracleTensor> outputs;
};

// kernels.config read with regular expressions, independently of the importer.
inline std::vector<OracleKernel> readOracleKernels(const QString& path) {
    static const QRegularExpression header(QStringLiteral("^Kernel ID: (\\d+), Name: (\\S+)$"));
    static const QRegularExpression time(QStringLiteral("^Execution Time: (\\d+)$"));
    static const QRegularExpression tensor(
        QStringLiteral("^tensor(\\d+) Is weight \\(global\\)\\?: ([01]), Size in byte: (\\d+),"));
    std::vector<OracleKernel> kernels;
    bool inOutputs = false;
    for (const auto& raw : readAll(path).split('\n')) {
        const QString line = QString::fromLatin1(raw);
        if (auto m = header.match(line); m.hasMatch()) {
            kernels.push_back({m.captured(2), 0, {}, {}});
            inOutputs = false;
        } else if (auto t = time.match(line); t.hasMatch()) {
            kernels.back().cycles = t.captured(1).toLongLong();
        } else if (line.startsWith(QStringLiteral("Output Tensors:"))) {
            inOutputs = true;
        } else if (auto x = tensor.match(line); x.hasMatch()) {
            OracleTensor o{x.captured(1).toLongLong(), x.captured(3).toLongLong(),
                           x.captured(2) == QStringLiteral("1")};
            (inOutputs ? kernels.back().outputs : kernels.back().inputs).push_back(o);
        }
    }
    return kernels;
}

// Sum of "Size in byte" over tensors.config.
inline qint64 oracleFootprint(const QString& tensorsConfig) {
    static const QRegularExpression size(QStringLiteral("Size in byte: (\\d+),"));
    qint64 total = 0;
    auto it = size.globalMatch(QString::fromLatin1(readAll(tensorsConfig)));
    while (it.hasNext()) total += it.next().captured(1).toLongLong();
    return total;
}

// Values of a cudnn<B>*.txt file, in file order.
inline std::vector<double> oracleMeasurements(const QString& path) {
    std::vector<double> values;
    for (const auto& raw : readAll(path).split('\n')) {
        const auto fields = QString::fromLatin1(raw).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (fields.size() == 3) values.push_back(fields[1].toDouble());
    }
    return values;
}

// QCOMPARE cannot print Spillway's enums (their toString returns a string_view): compare names.
inline QString name(spillway::KernelPhase phase) {
    const auto text = spillway::toString(phase);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
inline QString name(spillway::TensorKind kind) {
    const auto text = spillway::toString(kind);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

template <typename T>
std::vector<T> sorted(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// Runs `call`; it must throw spillway::ImportError whose location names a file ending in
// `fileEnd`, at line `line`, with a message that contains "expected" and `part`.
inline void expectImportError(const std::function<void()>& call, const QString& fileEnd,
                              qint64 line, const QString& part) {
    try {
        call();
    } catch (const spillway::ImportError& e) {
        const auto file = QString::fromStdString(e.location().file);
        const auto message = QString::fromStdString(e.message());
        QVERIFY2(file.endsWith(fileEnd), qPrintable(QStringLiteral("file '%1' in: %2")
                                                         .arg(file, QString::fromUtf8(e.what()))));
        QVERIFY2(e.location().line == line,
                 qPrintable(QStringLiteral("line %1, expected %2 in: %3")
                                .arg(e.location().line)
                                .arg(line)
                                .arg(QString::fromUtf8(e.what()))));
        QVERIFY2(message.contains(QStringLiteral("expected")), qPrintable(message));
        QVERIFY2(message.contains(part), qPrintable(message));
        return;
    } catch (const std::exception& e) {
        QFAIL(qPrintable(QStringLiteral("threw a non-ImportError: %1").arg(e.what())));
    }
    QFAIL("no ImportError was thrown");
}

}  // namespace g10test
