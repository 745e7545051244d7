// Tensor::frames is a shared, immutable stack: copies share one vector, equality is by content,
// a write (push_back, or changing a string through a non-const iteration) never reaches another
// tensor, and the pool gives equal stacks one object.
#include "core/trace/frame_stack.h"
#include "core/trace/tensor.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace spillway;

class TestFrameStack : public QObject {
    Q_OBJECT
private slots:
    void readsLikeAVectorOfStrings() {
        const FrameStack stack{"model.py:12:forward", "train.py:3:<module>"};
        QCOMPARE(stack.size(), size_t{2});
        QVERIFY(!stack.empty());
        QCOMPARE(stack[0], std::string("model.py:12:forward"));
        QCOMPARE(stack.back(), std::string("train.py:3:<module>"));
        std::vector<std::string> seen;
        for (const std::string& f : stack) seen.push_back(f);
        QCOMPARE(seen, stack.strings());
        const std::vector<std::string>& asVector = stack;
        QCOMPARE(asVector.size(), size_t{2});
        QVERIFY(FrameStack().empty());
        QVERIFY(FrameStack(std::vector<std::string>{}).shared() == nullptr);
    }

    void copiesShareAndCompareByContent() {
        const auto shared = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a:1:f"});
        Tensor x, y;
        x.frames = shared;
        y.frames = shared;
        QCOMPARE(x.frames.shared().get(), shared.get());  // no copy of the strings
        QVERIFY(x == y);
        Tensor z;
        z.frames = FrameStack{"a:1:f"};  // another object, the same frames
        QVERIFY(z.frames.shared() != x.frames.shared());
        QVERIFY(x == z);
        z.frames = FrameStack{"a:1:g"};
        QVERIFY(!(x == z));
        QVERIFY(FrameStack() == FrameStack(std::vector<std::string>{}));
    }

    void writingCopiesASharedStackFirst() {
        const auto shared = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a:1:f"});
        FrameStack a(shared), b(shared);
        for (auto& f : b) f += "!";  // a non-const iteration writes b's own copy
        b.push_back("b:2:g");
        QCOMPARE(*shared, std::vector<std::string>{"a:1:f"});
        QCOMPARE(a.strings(), std::vector<std::string>{"a:1:f"});
        QCOMPARE(b.strings(), (std::vector<std::string>{"a:1:f!", "b:2:g"}));
        FrameStack c = b;  // shares b's copy until one of them writes
        QCOMPARE(c.shared().get(), b.shared().get());
        c.push_back("c:3:h");
        QCOMPARE(b.size(), size_t{2});
        QCOMPARE(c.size(), size_t{3});
    }

    void thePoolGivesEqualStacksOneObject() {
        FrameStackPool pool;
        const auto a = pool.intern({"a:1:f", "b:2:g"});
        const auto b = pool.intern({"a:1:f", "b:2:g"});
        const auto c = pool.intern({"a:1:f"});
        QCOMPARE(a.shared().get(), b.shared().get());
        QVERIFY(a.shared() != c.shared());
        QCOMPARE(pool.distinct(), size_t{2});
    }
};

QTEST_GUILESS_MAIN(TestFrameStack)
#include "tst_frame_stack.moc"
