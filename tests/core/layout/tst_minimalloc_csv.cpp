// minimalloc CSV reader and writer (core/layout/minimalloc_csv.h): a round trip through the
// writer and the reader keeps every field, with and without offsets; the real benchmark files
// read with the published buffer counts; bad input names the line and column it failed at.
#include "core/io/base/import_error.h"
#include "core/layout/minimalloc_csv.h"

#include <QtTest>

#include <string>

using namespace spillway;

namespace {

// Parses `text` and returns the error's location and message; fails the test if it parses.
struct Failure {
    std::int64_t line = 0, column = 0;
    std::string message;
};

Failure parseFailure(const std::string& text) {
    try {
        parseMinimallocCsv(text, "bad.csv");
    } catch (const ImportError& e) {
        return {e.location().line, e.location().column, e.message()};
    }
    return {-1, -1, "parsed without an error"};
}

}  // namespace

class TestMinimallocCsv : public QObject {
    Q_OBJECT
private slots:
    void roundTripWithoutAndWithOffsets() {
        AllocationProblem p;
        Buffer a;
        a.id = "a";
        a.lower = 0;
        a.upper = 3;
        a.size = 4;
        Buffer b;
        b.id = "long name";
        b.lower = 2;
        b.upper = 9;
        b.size = 1048576;
        p.buffers = {a, b};
        const MinimallocCsv plain = parseMinimallocCsv(formatMinimallocCsv(p, nullptr), "x.csv");
        QCOMPARE(plain.problem.buffers, p.buffers);
        QVERIFY(!plain.layout);
        const Layout layout{{0, 4}};
        const std::string text = formatMinimallocCsv(p, &layout);
        QCOMPARE(text, std::string("id,lower,upper,size,offset\na,0,3,4,0\nlong name,2,9,1048576,4\n"));
        const MinimallocCsv withOffsets = parseMinimallocCsv(text, "x.csv");
        QCOMPARE(withOffsets.problem.buffers, p.buffers);
        QVERIFY(withOffsets.layout);
        QCOMPARE(*withOffsets.layout, layout);
    }

    void writesAndReadsAFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.csv").toStdString();
        const MinimallocCsv toy =
            readMinimallocCsv(std::string(SPILLWAY_SHARED_DATA) + "/minimalloc/examples/input.12.csv");
        const Layout layout{{0, 0, 4, 4, 8}};
        writeMinimallocCsv(path, toy.problem, &layout);
        const MinimallocCsv back = readMinimallocCsv(path);
        QCOMPARE(back.problem.buffers, toy.problem.buffers);
        QCOMPARE(*back.layout, layout);
    }

    void benchmarkFilesHaveThePublishedCounts() {
        // The README's table: A 154 ... K 454 buffers.
        const std::pair<char, size_t> counts[] = {{'A', 154}, {'B', 170}, {'C', 203}, {'D', 213},
                                                  {'E', 215}, {'F', 296}, {'G', 308}, {'H', 316},
                                                  {'I', 374}, {'J', 409}, {'K', 454}};
        for (const auto& [name, count] : counts) {
            const MinimallocCsv csv = readMinimallocCsv(std::string(SPILLWAY_SHARED_DATA) + "/minimalloc/" +
                                                        name + ".1048576.csv");
            QCOMPARE(csv.problem.buffers.size(), count);
        }
    }

    void badHeaderNamesLineOne() {
        const Failure f = parseFailure("id,start,end,size\na,0,1,4\n");
        QCOMPARE(f.line, std::int64_t(1));
        QCOMPARE(f.column, std::int64_t(1));
        QVERIFY2(f.message.find("id,lower,upper,size") != std::string::npos, f.message.c_str());
    }

    void nonIntegerNamesItsColumn() {
        // Line 3, field 'size' starts at column 7 ("b,1,2,x4": b=1, 1=3, 2=5, x4=7).
        const Failure f = parseFailure("id,lower,upper,size\na,0,1,4\nb,1,2,x4\n");
        QCOMPARE(f.line, std::int64_t(3));
        QCOMPARE(f.column, std::int64_t(7));
        QVERIFY2(f.message.find("'size' must be an integer") != std::string::npos, f.message.c_str());
        const Failure g = parseFailure("id,lower,upper,size\na,0,1.5,4\n");
        QCOMPARE(g.line, std::int64_t(2));
        QCOMPARE(g.column, std::int64_t(5));
        QVERIFY2(g.message.find("'upper'") != std::string::npos, g.message.c_str());
    }

    void upperNotAfterLowerIsRejected() {
        const Failure f = parseFailure("id,lower,upper,size\na,5,5,4\n");
        QCOMPARE(f.line, std::int64_t(2));
        QCOMPARE(f.column, std::int64_t(5));
        QVERIFY2(f.message.find("greater than 'lower'") != std::string::npos, f.message.c_str());
    }

    void duplicateIdIsRejected() {
        const Failure f = parseFailure("id,lower,upper,size\na,0,1,4\nb,0,1,4\na,2,3,4\n");
        QCOMPARE(f.line, std::int64_t(4));
        QCOMPARE(f.column, std::int64_t(1));
        QVERIFY2(f.message.find("duplicate buffer id 'a'") != std::string::npos, f.message.c_str());
    }

    void wrongFieldCountAndEmptyFile() {
        const Failure f = parseFailure("id,lower,upper,size\na,0,1\n");
        QCOMPARE(f.line, std::int64_t(2));
        QVERIFY2(f.message.find("expected 4") != std::string::npos, f.message.c_str());
        const Failure g = parseFailure("");
        QVERIFY2(g.message.find("empty file") != std::string::npos, g.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMinimallocCsv)
#include "tst_minimalloc_csv.moc"
