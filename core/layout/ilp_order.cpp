#include "core/layout/ilp_order.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

// Bytes enter the model in MiB: coefficients of a few GiB stay far from CBC's tolerances, and
// the peak is recomputed exactly from the order CBC returns.
constexpr double kScale = 1024.0 * 1024.0;

// A variable or a constant (a fixed 0 or 1 outside a kernel's possible steps).
struct Term {
    int var = -1;
    double constant = 0;
};

struct Row {
    std::vector<std::pair<int, double>> terms;
    double constant = 0;
    void add(Term x, double coefficient) {
        if (x.var >= 0) terms.emplace_back(x.var, coefficient);
        else constant += coefficient * x.constant;
    }
};

struct SliceTensor {
    Bytes size = 0;
    bool startedBefore = false, usedAfter = false;
    std::int32_t remaining = 0;  // touchers not run when the slice starts
    std::vector<int> touchers;   // local kernel indices
};

class OrderIlp {
public:
    OrderIlp(const OrderMemoryModel& model, const DependencyGraph& graph, const OrderMemoryModel::State& before,
             const std::vector<std::int64_t>& window)
        : m_(int(window.size())), pred_(size_t(m_)), asap_(size_t(m_), 0), alap_(size_t(m_), m_ - 1) {
        std::unordered_map<std::int64_t, int> local;
        for (int i = 0; i < m_; ++i) local[window[size_t(i)]] = i;
        std::unordered_map<std::int32_t, int> tensorLocal;
        base_ = double(model.persistentBytes() + before.live);
        for (int i = 0; i < m_; ++i) {
            for (auto p : graph.predecessors(size_t(window[size_t(i)])))
                if (auto it = local.find(p); it != local.end()) pred_[size_t(i)].push_back(it->second);
            ws_.push_back(double(model.workspace(size_t(window[size_t(i)]))));
            for (auto t : model.touched(size_t(window[size_t(i)]))) {
                auto [it, fresh] = tensorLocal.try_emplace(t, int(tensors_.size()));
                if (fresh) {
                    SliceTensor st;
                    st.size = model.size(t);
                    st.startedBefore = before.remaining[size_t(t)] < model.touchCount(t);
                    st.remaining = before.remaining[size_t(t)];
                    tensors_.push_back(st);
                    if (st.startedBefore) base_ -= double(st.size);  // counted with the slice's tensors
                }
                tensors_[size_t(it->second)].touchers.push_back(i);
            }
        }
        for (auto& t : tensors_) t.usedAfter = t.remaining > std::int32_t(t.touchers.size());
        // Earliest and latest step of each kernel from the slice's chains (window is topological).
        for (int i = 0; i < m_; ++i)
            for (int p : pred_[size_t(i)]) asap_[size_t(i)] = std::max(asap_[size_t(i)], asap_[size_t(p)] + 1);
        for (int i = m_ - 1; i >= 0; --i)
            for (int p : pred_[size_t(i)]) alap_[size_t(p)] = std::min(alap_[size_t(p)], alap_[size_t(i)] - 1);
    }

    std::int64_t estimatedVariables() const {
        std::int64_t v = 0;
        for (int i = 0; i < m_; ++i) v += 2 * std::int64_t(alap_[size_t(i)] - asap_[size_t(i)] + 1);
        return v + 3 * std::int64_t(tensors_.size()) * m_;
    }

    void build(MipModel& mip);
    // The order of local kernels in CBC's solution, or empty when it is not a permutation.
    std::vector<int> decode(const std::vector<double>& values) const;

private:
    Term ran(int i, int t) const {  // C[i][t]
        if (t < asap_[size_t(i)]) return {-1, 0};
        if (t >= alap_[size_t(i)]) return {-1, 1};
        return {c_[size_t(i)][size_t(t - asap_[size_t(i)])], 0};
    }
    Term created(const SliceTensor& e, int t, MipModel& mip) const;
    Term needed(const SliceTensor& e, int t, MipModel& mip) const;
    void addKernels(MipModel& mip);

    int m_;
    std::vector<std::vector<int>> pred_;
    std::vector<int> asap_, alap_;
    std::vector<double> ws_;
    std::vector<SliceTensor> tensors_;
    double base_ = 0;
    std::vector<std::vector<int>> r_, c_;  // per kernel, per step from asap
    int peak_ = -1;
};

// S[e][t]: a constant when every toucher's C is, else a variable above each toucher's C.
Term OrderIlp::created(const SliceTensor& e, int t, MipModel& mip) const {
    if (e.startedBefore) return {-1, 1};
    std::vector<Term> cs;
    for (int a : e.touchers) {
        const Term c = ran(a, t);
        if (c.var < 0 && c.constant == 1) return {-1, 1};
        if (c.var >= 0) cs.push_back(c);
    }
    if (cs.empty()) return {-1, 0};
    const int s = mip.addVariable(0, 1, 0, false);
    for (const Term& c : cs) mip.addConstraint({{s, 1}, {c.var, -1}}, 0, kMipInfinity);
    return {s, 0};
}

// E[e][t]: some toucher has not run before t.
Term OrderIlp::needed(const SliceTensor& e, int t, MipModel& mip) const {
    if (e.usedAfter) return {-1, 1};
    std::vector<Term> cs;
    for (int b : e.touchers) {
        const Term c = ran(b, t - 1);
        if (c.var < 0 && c.constant == 0) return {-1, 1};
        if (c.var >= 0) cs.push_back(c);
    }
    if (cs.empty()) return {-1, 0};
    const int v = mip.addVariable(0, 1, 0, false);
    for (const Term& c : cs) mip.addConstraint({{v, 1}, {c.var, 1}}, 1, kMipInfinity);  // E >= 1 - C
    return {v, 0};
}

// R, C, one kernel per step, each kernel once, and the edges.
void OrderIlp::addKernels(MipModel& mip) {
    r_.resize(size_t(m_));
    c_.resize(size_t(m_));
    for (int i = 0; i < m_; ++i) {
        Row once;
        for (int t = asap_[size_t(i)]; t <= alap_[size_t(i)]; ++t) {
            r_[size_t(i)].push_back(mip.addBinary());
            once.terms.emplace_back(r_[size_t(i)].back(), 1);
            if (t < alap_[size_t(i)]) c_[size_t(i)].push_back(mip.addVariable(0, 1, 0, false));
        }
        mip.addConstraint(once.terms, 1, 1);
        for (int t = asap_[size_t(i)]; t < alap_[size_t(i)]; ++t) {  // C[t] = C[t-1] + R[t]
            Row def;
            def.add(ran(i, t), 1);
            def.add(ran(i, t - 1), -1);
            def.terms.emplace_back(r_[size_t(i)][size_t(t - asap_[size_t(i)])], -1);
            mip.addConstraint(def.terms, -def.constant, -def.constant);
        }
    }
    for (int t = 0; t < m_; ++t) {
        Row one;
        for (int i = 0; i < m_; ++i)
            if (asap_[size_t(i)] <= t && t <= alap_[size_t(i)])
                one.terms.emplace_back(r_[size_t(i)][size_t(t - asap_[size_t(i)])], 1);
        mip.addConstraint(one.terms, 1, 1);
    }
    for (int v = 0; v < m_; ++v)
        for (int u : pred_[size_t(v)])
            for (int t = asap_[size_t(v)]; t <= alap_[size_t(v)]; ++t) {  // C[v][t] <= C[u][t-1]
                Row edge;
                edge.add(ran(v, t), 1);
                edge.add(ran(u, t - 1), -1);
                if (!edge.terms.empty()) mip.addConstraint(edge.terms, -kMipInfinity, -edge.constant);
            }
}

void OrderIlp::build(MipModel& mip) {
    addKernels(mip);
    peak_ = mip.addVariable(0, kMipInfinity, 1, false);
    std::vector<Row> memory(static_cast<size_t>(m_));
    for (const SliceTensor& e : tensors_)
        for (int t = 0; t < m_; ++t) {
            const Term s = created(e, t, mip);
            const Term n = needed(e, t, mip);
            if ((s.var < 0 && s.constant == 0) || (n.var < 0 && n.constant == 0)) continue;
            const double size = double(e.size) / kScale;
            if (s.var < 0 && n.var < 0) {  // live at t whatever the order
                memory[size_t(t)].constant += size;
                continue;
            }
            const int p = mip.addVariable(0, 1, 0, false);  // P >= S + E - 1
            Row live;
            live.terms.emplace_back(p, 1);
            live.add(s, -1);
            live.add(n, -1);
            mip.addConstraint(live.terms, -1 - live.constant, kMipInfinity);
            memory[size_t(t)].terms.emplace_back(p, size);
        }
    for (int t = 0; t < m_; ++t) {
        Row& row = memory[size_t(t)];
        for (int i = 0; i < m_; ++i)
            if (ws_[size_t(i)] > 0 && asap_[size_t(i)] <= t && t <= alap_[size_t(i)])
                row.terms.emplace_back(r_[size_t(i)][size_t(t - asap_[size_t(i)])], ws_[size_t(i)] / kScale);
        row.terms.emplace_back(peak_, -1);
        mip.addConstraint(row.terms, -kMipInfinity, -(base_ / kScale + row.constant));
    }
    // Start: the slice's own order, kernel i at step i.
    std::vector<double> start(size_t(mip.variables()), 0.0);
    for (int i = 0; i < m_; ++i) start[size_t(r_[size_t(i)][size_t(i - asap_[size_t(i)])])] = 1;
    mip.setStart(std::move(start));
}

std::vector<int> OrderIlp::decode(const std::vector<double>& values) const {
    std::vector<int> order(size_t(m_), -1);
    for (int i = 0; i < m_; ++i)
        for (int t = asap_[size_t(i)]; t <= alap_[size_t(i)]; ++t)
            if (values[size_t(r_[size_t(i)][size_t(t - asap_[size_t(i)])])] > 0.5) {
                if (order[size_t(t)] >= 0) return {};
                order[size_t(t)] = i;
            }
    if (std::find(order.begin(), order.end(), -1) != order.end()) return {};
    return order;
}

// Peak of running `order` from `before`, and whether it respects the graph.
Bytes replayPeak(const OrderMemoryModel& model, OrderMemoryModel::State state, const std::vector<std::int64_t>& order) {
    Bytes peak = 0;
    for (auto k : order) peak = std::max(peak, model.step(state, size_t(k)));
    return peak;
}

bool respectsEdges(const DependencyGraph& graph, const std::vector<std::int64_t>& order) {
    std::unordered_map<std::int64_t, size_t> at;
    for (size_t i = 0; i < order.size(); ++i) at[order[i]] = i;
    for (size_t i = 0; i < order.size(); ++i)
        for (auto p : graph.predecessors(size_t(order[i])))
            if (auto it = at.find(p); it != at.end() && it->second > i) return false;
    return true;
}

}  // namespace

IlpOrderSolution solveOrderIlp(const OrderMemoryModel& model, const DependencyGraph& graph,
                               const OrderMemoryModel::State& before, const std::vector<std::int64_t>& window,
                               const IlpOrderOptions& options) {
    const auto started = Clock::now();
    IlpOrderSolution r;
    r.order = window;
    r.peak = replayPeak(model, before, window);
    auto finish = [&](std::string note) {
        r.note = std::move(note);
        r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        return r;
    };
    if (window.size() < 2) return r.status = MipStatus::Optimal, r.bound = r.peak, finish("one kernel");
    OrderIlp ilp(model, graph, before, window);
    if (ilp.estimatedVariables() > options.maxVariables)
        return finish(fmt::format("not run: about {} variables (limit {})", ilp.estimatedVariables(), options.maxVariables));
    MipModel mip;
    ilp.build(mip);
    r.binaries = mip.integers();
    r.variables = mip.variables();
    r.constraints = mip.constraints();
    const double left = options.timeLimitSeconds - std::chrono::duration<double>(Clock::now() - started).count();
    const double built = std::chrono::duration<double>(Clock::now() - started).count();
    const MipResult m = mip.solve(std::max(0.0, left));
    r.status = m.status;
    if (m.status == MipStatus::Optimal || m.status == MipStatus::Feasible) {
        std::vector<std::int64_t> order;
        for (int i : ilp.decode(m.values)) order.push_back(window[size_t(i)]);
        const bool valid = order.size() == window.size() && respectsEdges(graph, order);
        const Bytes peak = valid ? replayPeak(model, before, order) : 0;
        if (valid && peak <= r.peak) r.order = std::move(order), r.peak = peak, r.fromIlp = true;
        // A proof stands only for the order it was made for (the ILP's objective is this peak).
        if (m.status == MipStatus::Optimal && !(valid && std::abs(double(peak) - m.objective * kScale) < 1024))
            r.status = MipStatus::Feasible;
        r.bound = r.status == MipStatus::Optimal ? r.peak : std::min(r.peak, Bytes(std::floor(m.bound * kScale)));
    }
    auto done = finish(fmt::format("CBC {}: {} kernels, {} binaries, {} variables, {} rows", mipStatusName(r.status),
                              window.size(), r.binaries, r.variables, r.constraints));
    done.seconds = built + m.seconds;  // not the time spent waiting for another leaf's CBC solve
    return done;
}

}  // namespace spillway
