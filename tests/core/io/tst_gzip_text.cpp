// Gzip-compressed input (core/io/base/gzip_text): any format reads the same compressed or not,
// found by the magic bytes rather than the name; a damaged, truncated or bomb-sized gzip is an
// ImportError naming the file and the byte offset; progress and cancel still work; a gzipped
// SQLite database is refused with a message that says what to do. The .gz files are made here
// by the system's gzip (Debian's, an essential package), so the inflater meets real output.
#include "core/io/base/file_text.h"
#include "core/io/base/gzip_text.h"
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"
#include "core/io/torch_trace/torch_trace_import.h"
#include "tests/core/io/large_profile_fixture.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

using namespace spillway;

namespace {

const QString kSamples = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/torch/");

// `gzip -c -n` of `data` (shell pipeline `command` instead when given).
QByteArray gzipOf(const QByteArray& data, const QString& command = {}) {
    QProcess p;
    if (command.isEmpty()) p.start("gzip", {"-c", "-n"});
    else p.start("sh", {"-c", command});
    if (!p.waitForStarted()) return {};
    p.write(data);
    p.closeWriteChannel();
    p.waitForFinished(120000);
    return p.exitCode() == 0 ? p.readAllStandardOutput() : QByteArray();
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::filesystem::path write(const QTemporaryDir& dir, const char* name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) return {};
    return path.toStdString();
}

ImportError readError(const std::filesystem::path& path) {
    try {
        readFileText(path);
    } catch (const ImportError& e) {
        return e;
    }
    return ImportError(path.string(), "no error");
}

struct Report {
    double fraction;
    std::string stage;
};

}  // namespace

class GzipTextTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QByteArray traceText_;  // samples/torch/resnet18-b2-cpu.trace.json
    QByteArray traceGz_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        traceText_ = readAll(kSamples + "resnet18-b2-cpu.trace.json");
        QVERIFY(!traceText_.isEmpty());
        traceGz_ = gzipOf(traceText_);
        if (traceGz_.isEmpty()) QSKIP("no gzip program to make the compressed inputs");
        QVERIFY(isGzipped(traceGz_.toStdString()));
    }

    // The content decides, not the name: a gzipped trace named .bin is a trace; a plain one
    // named .json.gz is read as it is.
    void formatFoundThroughGzipByContent() {
        const auto packed = write(dir_, "trace.bin", traceGz_);
        const auto misnamed = write(dir_, "plain.json.gz", traceText_);
        QCOMPARE(QString::fromStdString(detectProfileFormat(packed)), QStringLiteral("torch-trace"));
        QCOMPARE(readFileText(packed), traceText_.toStdString());
        QCOMPARE(readFileText(misnamed), traceText_.toStdString());
        Profile fromGzip = loadProfile(packed);
        const Profile plain = importTorchTrace((kSamples + "resnet18-b2-cpu.trace.json").toStdString());
        fromGzip.metadata.sourcePath = plain.metadata.sourcePath;
        QVERIFY(fromGzip == plain);
        QCOMPARE(readFileHead(packed, 4096), traceText_.left(4096).toStdString());
    }

    // Another format through the same path: a native profile, gzipped.
    void nativeProfileReadsCompressed() {
        const Profile big = test::largeChainProfile(200, 2);
        const std::string json = writeNativeProfile(big);
        const auto packed = write(dir_, "big.profile.json.gz", gzipOf(QByteArray::fromStdString(json)));
        QCOMPARE(QString::fromStdString(detectProfileFormat(packed)), QStringLiteral("spillway"));
        QCOMPARE(loadProfile(packed), big);
    }

    void truncatedStreamNamesFileAndEnd() {
        const qsizetype cut = traceGz_.size() / 2;
        const auto path = write(dir_, "cut.json.gz", traceGz_.left(cut));
        const ImportError e = readError(path);
        QCOMPARE(QString::fromStdString(e.location().file), QString::fromStdString(path.string()));
        QCOMPARE(e.location().byteOffset, std::int64_t(cut));
        QVERIFY2(QString::fromStdString(e.message()).contains("truncated"), e.what());
        // The loader says the same (the head still inflates, so the format is found first).
        QVERIFY_THROWS_EXCEPTION(ImportError, loadProfile(path));
    }

    void corruptDataNamesFileAndOffset() {
        QByteArray bad = traceGz_;
        const qsizetype middle = bad.size() / 2;
        for (qsizetype i = middle; i < middle + 64; ++i) bad[i] = char(bad[i] ^ 0x5a);
        const auto path = write(dir_, "corrupt.json.gz", bad);
        const ImportError e = readError(path);
        QCOMPARE(QString::fromStdString(e.location().file), QString::fromStdString(path.string()));
        QVERIFY2(e.location().byteOffset > middle && e.location().byteOffset <= bad.size(), e.what());
        QVERIFY2(QString::fromStdString(e.message()).contains("corrupt gzip data") ||
                     QString::fromStdString(e.message()).contains("truncated"),
                 e.what());
    }

    // `cat a.gz b.gz` is one valid gzip file; NUL padding after it is ignored; anything else
    // after the end is an error at its offset.
    void membersPaddingAndTrailingData() {
        const QByteArray second = gzipOf("tail");
        QCOMPARE(readFileText(write(dir_, "two.gz", traceGz_ + second)), (traceText_ + "tail").toStdString());
        QCOMPARE(readFileText(write(dir_, "padded.gz", traceGz_ + QByteArray(100, '\0'))), traceText_.toStdString());
        const ImportError e = readError(write(dir_, "trailing.gz", traceGz_ + "garbage"));
        QCOMPARE(e.location().byteOffset, std::int64_t(traceGz_.size()));
        QVERIFY2(QString::fromStdString(e.message()).contains("after the end of the gzip stream"), e.what());
    }

    // 300 MiB of zeros in a few hundred KiB: past the 256 MiB floor and 64 times the file.
    void zipBombIsRefused() {
        const QByteArray bomb = gzipOf({}, "head -c 314572800 /dev/zero | gzip -1 -c -n");
        if (bomb.isEmpty()) QSKIP("no shell pipeline to make the bomb");
        QVERIFY(std::uint64_t(bomb.size()) * kGzipMaxRatio < (std::uint64_t{300} << 20));
        const ImportError e = readError(write(dir_, "bomb.json.gz", bomb));
        QVERIFY2(QString::fromStdString(e.message()).contains("zip bomb"), e.what());
        QVERIFY2(QString::fromStdString(e.message()).contains("256.0 MiB"), e.what());
        QVERIFY(e.location().byteOffset > 0 && e.location().byteOffset <= bomb.size());
        // The limit is checked as the output grows, whatever it is.
        GzipInflater small("small.gz", 1000);
        QVERIFY_THROWS_EXCEPTION(ImportError, small.feed(traceGz_.toStdString()));
        QCOMPARE(gzipInflateLimit(1 << 20), std::uint64_t{256} << 20);
        QCOMPARE(gzipInflateLimit(std::uint64_t{10} << 20), std::uint64_t{640} << 20);
    }

    void emptyContentIsAnEmptyFile() {
        const auto path = write(dir_, "empty.json.gz", gzipOf(""));
        QCOMPARE(readFileText(path), std::string());
        try {
            loadProfile(path);
            QFAIL("an empty gzipped file was accepted");
        } catch (const ImportError& e) {
            QVERIFY2(QString::fromStdString(e.message()).contains("empty"), e.what());
        }
    }

    // SQLite cannot read through gzip: refused, sniffed or forced, with what to do.
    void gzippedSqliteIsRefused() {
        QByteArray db("SQLite format 3", 16);
        db += QByteArray(4096 - db.size(), '\0');
        const auto path = write(dir_, "report.sqlite.gz", gzipOf(db));
        QCOMPARE(QString::fromStdString(detectProfileFormat(path)), QStringLiteral("nsys-sqlite"));
        for (const char* format : {"", "nsys-sqlite"}) {
            ImportOptions options;
            options.format = format;
            try {
                loadProfile(path, options);
                QFAIL("a gzipped SQLite file was opened");
            } catch (const ImportError& e) {
                QVERIFY2(QString::fromStdString(e.message()).contains("gzip-compressed SQLite"), e.what());
                QCOMPARE(QString::fromStdString(e.location().file), QString::fromStdString(path.string()));
            }
        }
    }

    // Progress over a gzipped file: the compressed bytes while reading, then the inflated
    // text's parse position, then building; cancel while reading stops before the parse.
    void progressAndCancel() {
        const Profile big = test::largeChainProfile(4000, 8);  // > 8 MiB of JSON
        const auto path = write(dir_, "big.gz", gzipOf(QByteArray::fromStdString(writeNativeProfile(big))));
        std::vector<Report> reports;
        LoadProgress progress;
        progress.report = [&](double f, std::string_view stage) { reports.push_back({f, std::string(stage)}); };
        QCOMPARE(loadProfile(path, {}, progress), big);
        QCOMPARE(reports.front().fraction, 0.0);
        QCOMPARE(reports.back().stage, std::string("done"));
        int parsing = 0, reading = 0;
        for (size_t i = 1; i < reports.size(); ++i) {
            QVERIFY2(reports[i].fraction >= reports[i - 1].fraction, "progress went backwards");
            parsing += reports[i].stage == "parsing";
            reading += reports[i].stage == "reading";
        }
        QVERIFY(reading >= 1);
        QVERIFY2(parsing >= 3, "the parse of the inflated text reports its position every MiB");

        std::atomic<bool> cancel{false};
        reports.clear();
        progress.cancel = &cancel;
        progress.report = [&](double f, std::string_view stage) {
            reports.push_back({f, std::string(stage)});
            if (stage == "reading") cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, loadProfile(path, {}, progress));
        for (const Report& r : reports) QVERIFY(r.stage != "parsing" && r.stage != "done");
    }

    // The head of a damaged gzip is what could be inflated: enough to find the format.
    void headOfDamagedGzip() {
        const auto path = write(dir_, "half.gz", traceGz_.left(traceGz_.size() / 2));
        QCOMPARE(readFileHead(path, 4096), traceText_.left(4096).toStdString());
        QCOMPARE(gunzipHead("\x1f\x8b garbage", 100), std::string());
    }
};

QTEST_GUILESS_MAIN(GzipTextTest)
#include "tst_gzip_text.moc"
