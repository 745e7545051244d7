#include "core/trace/foreach_adamw.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

namespace {

constexpr std::int64_t kChunkElements = 65536;
constexpr int kMaxBlocks = 320;
constexpr int kMaxTensors[5] = {110, 64, 48, 36, 30};

// One _foreach_ op: which lists it reads, which it writes, in launch order. A launch touches
// the parameters whose chunks it holds; its bytes are its elements times 4 bytes times the
// distinct lists it reads or writes (an in-place list counts twice: read and written).
struct ForeachOp {
    const char* op;
    int lists;            // multi_tensor_apply depth
    int accesses;         // fp32 reads + writes per element
    std::vector<int> in;  // 0 weight, 1 grad, 2 exp_avg, 3 exp_avg_sq, 4 sqrt temporary
    std::vector<int> out;
};

}  // namespace

std::vector<ForeachLaunch> multiTensorApplyLaunches(const std::vector<std::int64_t>& elements, int lists) {
    if (lists < 1 || lists > 5) throw std::invalid_argument("multi_tensor_apply: 1 to 5 lists");
    std::vector<ForeachLaunch> launches;
    ForeachLaunch current;
    int blocks = 0;
    std::size_t last = elements.size();
    while (last > 0 && elements[last - 1] <= 0) --last;
    for (std::size_t t = 0; t < last; ++t) {
        if (elements[t] <= 0) continue;
        current.tensors.push_back(t);
        const std::int64_t chunks = (elements[t] + kChunkElements - 1) / kChunkElements;
        for (std::int64_t c = 0; c < chunks; ++c) {
            ++blocks;
            const bool lastChunk = c == chunks - 1;
            current.elements += lastChunk ? elements[t] - c * kChunkElements : kChunkElements;
            const bool tensorsFull = lastChunk && int(current.tensors.size()) == kMaxTensors[lists - 1];
            const bool blocksFull = blocks == kMaxBlocks;
            if (!(tensorsFull || blocksFull || (lastChunk && t + 1 == last))) continue;
            launches.push_back(current);
            blocks = 0;
            current = {};
            if (!lastChunk) current.tensors.push_back(t);  // the rest of this tensor opens the next launch
        }
    }
    return launches;
}

void appendForeachAdamW(RooflineGraphBuilder& b, const std::vector<AdamParam>& params) {
    std::vector<std::int64_t> elements;
    std::vector<TensorId> roots;
    for (const AdamParam& p : params) {
        elements.push_back(b.bytesOf(p.weight) / 4);
        roots.push_back(b.tensor(p.name + ".exp_avg_sq.sqrt", b.bytesOf(p.weight), TensorKind::Temporary));
    }
    // torch/optim/adamw.py (_multi_tensor_adamw): decay, first moment, second moment, denominator.
    const ForeachOp ops[] = {
        {"aten::_foreach_mul_", 1, 2, {0}, {0}},           {"aten::_foreach_lerp_", 2, 3, {2, 1}, {2}},
        {"aten::_foreach_mul_", 1, 2, {3}, {3}},           {"aten::_foreach_addcmul_", 3, 3, {3, 1}, {3}},
        {"aten::_foreach_sqrt", 2, 2, {3}, {4}},           {"aten::_foreach_div_", 1, 2, {4}, {4}},
        {"aten::_foreach_add_", 1, 2, {4}, {4}},           {"aten::_foreach_addcdiv_", 3, 4, {0, 2, 4}, {0}},
    };
    const auto listTensor = [&](std::size_t param, int list) {
        const AdamParam& p = params[param];
        const TensorId ids[] = {p.weight, p.grad, p.expAvg, p.expAvgSq, roots[param]};
        return ids[list];
    };
    int step = 0;
    for (const ForeachOp& op : ops) {
        const auto launches = multiTensorApplyLaunches(elements, op.lists);
        for (std::size_t l = 0; l < launches.size(); ++l) {
            std::vector<TensorId> in, out;
            for (std::size_t param : launches[l].tensors) {
                for (int list : op.in) in.push_back(listTensor(param, list));
                for (int list : op.out) out.push_back(listTensor(param, list));
            }
            // Chunks, not whole tensors: a tensor split over launches counts its share in each.
            const double bytes = double(launches[l].elements) * 4.0 * op.accesses;
            b.kernel(fmt::format("adamw.{}.{}.launch{}", step, op.op + 6, l), op.op, KernelPhase::Optimizer,
                     std::move(in), std::move(out), KernelWork{0, bytes, false});
        }
        ++step;
    }
}

}  // namespace spillway
