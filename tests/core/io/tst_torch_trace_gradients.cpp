// A gradient's bytes are its parameter's where the trace pairs them (core/io/torch_trace/
// torch_trace_gradients, docs/torch-import.md "Tensor bytes"): the [memory] events give the
// caching allocator's blocks, 512-byte multiples and, for a request over 1 MiB, up to 1 MiB
// larger than it; the AccumulateGrad call that follows a block's allocation names the parameter.
#include "core/io/torch_trace/torch_trace_gradients.h"
#include "core/io/torch_trace/torch_trace_import.h"
#include "core/io/torch_trace/torch_trace_ops.h"

#include <QtTest>

#include <fmt/format.h>

using namespace spillway;
using namespace spillway::torch_trace;

namespace {

constexpr Bytes kCuda = 512;  // allocatorGranule of CUDA
constexpr Bytes kCpu = 1;

// An AccumulateGrad call from `start` to `end` (ns) whose input has `bytes` bytes.
Span accumulateGrad(Nanoseconds start, Nanoseconds end, Bytes bytes) {
    Span s;
    s.name = std::string(kAccumulateGrad);
    s.category = "cpu_op";
    s.thread = "1/2";
    s.start = start;
    s.duration = end - start;
    s.args.push_back({{bytes / 4}, "float", bytes});
    return s;
}

TraceEvents calls(std::initializer_list<Span> spans) {
    TraceEvents events;
    events.spans = spans;
    return events;
}

std::vector<Bytes> sizes(const std::vector<GradientBlock>& blocks, const TraceEvents& events, Bytes granule,
                         const std::vector<ShapedTensor>& parameters = {}) {
    return sizeGradients(blocks, events, parameters, granule).bytes;
}

// A CUDA trace of one step: linear, loss, a backward node that allocates the weight's gradient
// (a block of `block` bytes for a [375000] float parameter), its AccumulateGrad, the optimizer
// step, and zero_grad freeing the gradient.
std::string cudaTrace(Bytes block) {
    const auto op = [](const char* name, int ts, int dur, const char* args = "{}") {
        return fmt::format(R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": 1, "tid": 1, "ts": {}, "dur": {}, "args": {}}},)",
                           name, ts, dur, args);
    };
    const auto memory = [](int ts, Bytes bytes, Bytes total) {
        return fmt::format(R"({{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": {}, "args": {{"Total Allocated": {}, "Bytes": {}, "Addr": 4096, "Device Id": 0, "Device Type": 1}}}},)",
                           ts, total, bytes);
    };
    std::string events = op("aten::linear", 0, 10) + op("aten::cross_entropy_loss", 20, 10) +
                         op("autograd::engine::evaluate_function: AddmmBackward0", 40, 20) + memory(45, block, block) +
                         op("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", 62, 5) +
                         op("torch::autograd::AccumulateGrad", 63, 3,
                            R"({"Input Dims": [[375000]], "Input type": ["float"]})") +
                         R"({"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#SGD.step", "pid": 1, "tid": 1, "ts": 80, "dur": 10, "args": {}},)" +
                         R"({"ph": "X", "cat": "user_annotation", "name": "Optimizer.zero_grad#SGD.zero_grad", "pid": 1, "tid": 1, "ts": 100, "dur": 10, "args": {}},)" +
                         memory(105, -block, 0);
    events.pop_back();  // the last comma
    return R"({"traceEvents": [)" + events + "]}";
}

}  // namespace

class TorchTraceGradientsTest : public QObject {
    Q_OBJECT

private slots:
    // A request over 1 MiB may get a block up to 1 MiB larger (the large pool splits off only a
    // remainder over 1 MiB); a small one exactly its 512-byte multiple.
    void largeBlockTakesItsParameterSize() {
        const Bytes parameter = 1'500'000;  // rounded: 1,500,160
        QCOMPARE(sizes({{1'500'160 + kMiB, 10}}, calls({accumulateGrad(20, 25, parameter)}), kCuda),
                 std::vector<Bytes>{parameter});
        // One granule past what the large pool can leave unsplit: not this parameter's block.
        QCOMPARE(sizes({{1'500'160 + kMiB + 512, 10}}, calls({accumulateGrad(20, 25, parameter)}), kCuda),
                 std::vector<Bytes>{1'500'160 + kMiB + 512});
        QCOMPARE(sizes({{3072, 10}}, calls({accumulateGrad(20, 25, 3000)}), kCuda), std::vector<Bytes>{3000});
        QCOMPARE(sizes({{3584, 10}}, calls({accumulateGrad(20, 25, 3000)}), kCuda), std::vector<Bytes>{3584});
        // The CPU allocator reports what was asked: only an exact size pairs.
        QCOMPARE(sizes({{1024, 10}}, calls({accumulateGrad(20, 25, 1000)}), kCpu), std::vector<Bytes>{1024});
        QCOMPARE(sizes({{1024, 10}}, calls({accumulateGrad(20, 25, 1000)}), kCuda), std::vector<Bytes>{1000});
    }

    // Two blocks that could each hold either parameter: each call takes the block allocated last
    // before it ended, so the block allocated first goes to the call that ran first.
    void timeChoosesAmongSizesThatFit() {
        const std::vector<GradientBlock> blocks{{2'000'384, 10}, {2'099'712, 20}};
        const auto events = calls({accumulateGrad(12, 15, 2'000'000), accumulateGrad(22, 25, 1'200'000)});
        QCOMPARE(sizes(blocks, events, kCuda), (std::vector<Bytes>{2'000'000, 1'200'000}));
        // A block allocated after a call ended is not that call's.
        const auto late = sizeGradients({{3584, 30}}, calls({accumulateGrad(20, 25, 3500)}), {}, kCuda);
        QCOMPARE(late.bytes, std::vector<Bytes>{3584});
        QCOMPARE(late.unpaired, std::int64_t(1));
    }

    // One parameter per block: a second block of the same size with no call left keeps its size
    // (ViT's class token: its gradient is a view that holds the [1,197,768] block it was sliced
    // from, which no parameter's size fits).
    void oneParameterPerBlock() {
        const auto out = sizeGradients({{3072, 10}, {3072, 11}, {605184, 5}},
                                       calls({accumulateGrad(20, 25, 3000), accumulateGrad(30, 35, 3072)}), {}, kCuda);
        QCOMPARE(out.bytes, (std::vector<Bytes>{3072, 3000, 605184}));
        QCOMPARE(out.byCall, std::int64_t(2));
        QCOMPARE(out.unpaired, std::int64_t(1));
        QCOMPARE(out.blockBytes, Bytes(3072 + 3072 + 605184));
        QCOMPARE(out.tensorBytes, Bytes(3072 + 3000 + 605184));
    }

    // A gradient allocated before the trace (a step before profiling; zero_grad at the start of
    // the next) has no call in it: it takes a parameter of a size it can hold, each parameter once.
    void beforeTheTraceBySize() {
        std::vector<ShapedTensor> parameters{{"[250]", "float", 1000, 1024}, {"[500000]", "float", 2'000'000, 2'000'384}};
        const auto out = sizeGradients({{1024, std::nullopt}, {1024, std::nullopt}, {2'000'384 + kMiB, std::nullopt}},
                                       calls({}), parameters, kCuda);
        QCOMPARE(out.bytes, (std::vector<Bytes>{1000, 1024, 2'000'000}));
        QCOMPARE(out.bySize, std::int64_t(2));
        QCOMPARE(out.unpaired, std::int64_t(1));
        QVERIFY(QString::fromStdString(out.describe()).contains("2 (allocated before the trace)"));
    }

    // Through the importer: the tensor, the kind tally and the notes agree on the parameter's
    // bytes; the block's rounding is in no tensor.
    void importedGradientHasItsParameterBytes() {
        const Bytes block = 1'500'160 + kMiB;
        const Profile p = parseTorchTrace(cudaTrace(block), "grad.json");
        const auto gradient = std::find_if(p.tensors.begin(), p.tensors.end(),
                                           [](const Tensor& t) { return t.kind == TensorKind::Gradient; });
        QVERIFY(gradient != p.tensors.end());
        QCOMPARE(gradient->bytes, Bytes(1'500'000));
        QCOMPARE(gradient->address, std::optional<std::uint64_t>(4096));
        const auto& notes = p.metadata.notes;
        QVERIFY2(notes.at("kind_rule.gradient.zero_grad").starts_with("gradient: 1 tensors, 1500000 bytes"),
                 notes.at("kind_rule.gradient.zero_grad").c_str());
        QVERIFY2(notes.at("gradient_bytes").find(fmt::format("1 gradient blocks ({} bytes): 1 sized", block)) == 0,
                 notes.at("gradient_bytes").c_str());
        QVERIFY(notes.at("gradient_bytes").find(fmt::format("{} under their blocks", block - 1'500'000)) !=
                std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TorchTraceGradientsTest)
#include "tst_torch_trace_gradients.moc"
