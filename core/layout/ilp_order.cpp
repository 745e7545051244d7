#include "core/layout/ilp_order.h"

#include "core/layout/multi_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
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
    // steps: 0 for a single stream (one kernel per step, m steps), else multi-streaming over that many.
    OrderIlp(const OrderMemoryModel& model, const DependencyGraph& graph, const OrderMemoryModel::State& before,
             const std::vector<std::int64_t>& window, int steps)
        : m_(int(window.size())), steps_(steps > 0 ? steps : m_), multiStream_(steps > 0), pred_(size_t(m_)),
          asap_(size_t(m_), 0), alap_(size_t(m_), steps_ - 1) {
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

    // The fewest steps the slice's chains need: more than steps_ makes the model infeasible.
    int stepsNeeded() const {
        int longest = 0;
        for (int a : asap_) longest = std::max(longest, a + 1);
        return longest;
    }

    // The model's variables, counted as build() makes them, stopping once past `limit`.
    std::int64_t countVariables(std::int64_t limit) const;

    void build(MipModel& mip);
    // The step of each local kernel in CBC's solution, or empty when it is no schedule (single
    // stream: not a permutation).
    std::vector<int> decode(const std::vector<double>& values) const;
    // The start: single stream, kernel i at step i; multi-streaming, each as soon as possible.
    int startStep(int i) const { return multiStream_ ? asap_[size_t(i)] : i; }

private:
    Term ran(int i, int t) const {  // C[i][t]
        if (t < asap_[size_t(i)]) return {-1, 0};
        if (t >= alap_[size_t(i)]) return {-1, 1};
        // Before build() made the variables, countVariables only asks which terms are variables.
        if (c_.empty()) return {kNotBuilt, 0};
        return {c_[size_t(i)][size_t(t - asap_[size_t(i)])], 0};
    }
    static constexpr int kNotBuilt = std::numeric_limits<int>::max();
    enum class Fixed { No, Zero, One };
    // The C terms S[e][t] (created) or E[e][t] (needed) must follow, unless it is fixed.
    Fixed createdTerms(const SliceTensor& e, int t, std::vector<Term>& cs) const;
    Fixed neededTerms(const SliceTensor& e, int t, std::vector<Term>& cs) const;
    Term created(const SliceTensor& e, int t, MipModel& mip) const;
    Term needed(const SliceTensor& e, int t, MipModel& mip) const;
    void addKernels(MipModel& mip);

    int m_;
    int steps_;
    bool multiStream_;
    std::vector<std::vector<int>> pred_;
    std::vector<int> asap_, alap_;
    std::vector<double> ws_;
    std::vector<SliceTensor> tensors_;
    double base_ = 0;
    std::vector<std::vector<int>> r_, c_;  // per kernel, per step from asap
    int peak_ = -1;
};

// S[e][t] is 1 once some toucher has run by t: fixed when one surely has or none can have.
OrderIlp::Fixed OrderIlp::createdTerms(const SliceTensor& e, int t, std::vector<Term>& cs) const {
    cs.clear();
    if (e.startedBefore) return Fixed::One;
    for (int a : e.touchers) {
        const Term c = ran(a, t);
        if (c.var < 0 && c.constant == 1) return Fixed::One;
        if (c.var >= 0) cs.push_back(c);
    }
    return cs.empty() ? Fixed::Zero : Fixed::No;
}

// E[e][t] is 1 while some toucher has not run before t.
OrderIlp::Fixed OrderIlp::neededTerms(const SliceTensor& e, int t, std::vector<Term>& cs) const {
    cs.clear();
    if (e.usedAfter) return Fixed::One;
    for (int b : e.touchers) {
        const Term c = ran(b, t - 1);
        if (c.var < 0 && c.constant == 0) return Fixed::One;
        if (c.var >= 0) cs.push_back(c);
    }
    return cs.empty() ? Fixed::Zero : Fixed::No;
}

std::int64_t OrderIlp::countVariables(std::int64_t limit) const {
    std::int64_t v = 0;
    for (int i = 0; i < m_; ++i) v += 2 * std::int64_t(alap_[size_t(i)] - asap_[size_t(i)]) + 1;  // R, C
    std::vector<Term> cs;
    for (const SliceTensor& e : tensors_)
        for (int t = 0; t < steps_ && v <= limit; ++t) {
            const Fixed s = createdTerms(e, t, cs), n = neededTerms(e, t, cs);
            if (s == Fixed::Zero || n == Fixed::Zero) continue;
            v += (s == Fixed::No) + (n == Fixed::No) + (s == Fixed::No || n == Fixed::No);  // S, E, P
        }
    return v;
}

// S[e][t]: a constant when every toucher's C is, else a variable above each toucher's C.
Term OrderIlp::created(const SliceTensor& e, int t, MipModel& mip) const {
    std::vector<Term> cs;
    const Fixed fixed = createdTerms(e, t, cs);
    if (fixed != Fixed::No) return {-1, fixed == Fixed::One ? 1.0 : 0.0};
    const int s = mip.addVariable(0, 1, 0, false);
    for (const Term& c : cs) mip.addConstraint({{s, 1}, {c.var, -1}}, 0, kMipInfinity);
    return {s, 0};
}

// E[e][t]: some toucher has not run before t.
Term OrderIlp::needed(const SliceTensor& e, int t, MipModel& mip) const {
    std::vector<Term> cs;
    const Fixed fixed = neededTerms(e, t, cs);
    if (fixed != Fixed::No) return {-1, fixed == Fixed::One ? 1.0 : 0.0};
    const int v = mip.addVariable(0, 1, 0, false);
    for (const Term& c : cs) mip.addConstraint({{v, 1}, {c.var, 1}}, 1, kMipInfinity);  // E >= 1 - C
    return {v, 0};
}

// R, C, each kernel once, one kernel per step (single stream), and the edges.
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
    for (int t = 0; t < m_ && !multiStream_; ++t) {
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
    std::vector<Row> memory(static_cast<size_t>(steps_));
    for (const SliceTensor& e : tensors_)
        for (int t = 0; t < steps_; ++t) {
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
    for (int t = 0; t < steps_; ++t) {
        Row& row = memory[size_t(t)];
        for (int i = 0; i < m_; ++i)
            if (ws_[size_t(i)] > 0 && asap_[size_t(i)] <= t && t <= alap_[size_t(i)])
                row.terms.emplace_back(r_[size_t(i)][size_t(t - asap_[size_t(i)])], ws_[size_t(i)] / kScale);
        row.terms.emplace_back(peak_, -1);
        mip.addConstraint(row.terms, -kMipInfinity, -(base_ / kScale + row.constant));
    }
    std::vector<double> start(size_t(mip.variables()), 0.0);
    for (int i = 0; i < m_; ++i) start[size_t(r_[size_t(i)][size_t(startStep(i) - asap_[size_t(i)])])] = 1;
    mip.setStart(std::move(start));
}

std::vector<int> OrderIlp::decode(const std::vector<double>& values) const {
    std::vector<int> stepOf(size_t(m_), -1);
    std::vector<char> taken(size_t(steps_), 0);
    for (int i = 0; i < m_; ++i)
        for (int t = asap_[size_t(i)]; t <= alap_[size_t(i)]; ++t)
            if (values[size_t(r_[size_t(i)][size_t(t - asap_[size_t(i)])])] > 0.5) {
                if (stepOf[size_t(i)] >= 0 || (taken[size_t(t)] && !multiStream_)) return {};
                stepOf[size_t(i)] = t;
                taken[size_t(t)] = 1;
            }
    if (std::find(stepOf.begin(), stepOf.end(), -1) != stepOf.end()) return {};
    return stepOf;
}

// Peak of running `order` from `before`, and whether it respects the graph.
// A schedule of the slice: its kernels in step order and, multi-streaming, their steps
// renumbered from 0 without gaps (CBC may leave a step empty).
struct Schedule {
    std::vector<std::int64_t> order, timesteps;
};

Schedule scheduleOf(const std::vector<std::int64_t>& window, const std::vector<int>& stepOf, bool multiStream) {
    std::vector<int> local(window.size());
    std::iota(local.begin(), local.end(), 0);
    std::stable_sort(local.begin(), local.end(), [&](int a, int b) { return stepOf[size_t(a)] < stepOf[size_t(b)]; });
    Schedule s;
    for (size_t i = 0; i < local.size(); ++i) {
        s.order.push_back(window[size_t(local[i])]);
        if (!multiStream) continue;
        const bool newStep = i > 0 && stepOf[size_t(local[i])] != stepOf[size_t(local[i - 1])];
        s.timesteps.push_back(i == 0 ? 0 : s.timesteps.back() + (newStep ? 1 : 0));
    }
    return s;
}

bool respectsEdges(const DependencyGraph& graph, const std::vector<std::int64_t>& order) {
    std::unordered_map<std::int64_t, size_t> at;
    for (size_t i = 0; i < order.size(); ++i) at[order[i]] = i;
    for (size_t i = 0; i < order.size(); ++i)
        for (auto p : graph.predecessors(size_t(order[i])))
            if (auto it = at.find(p); it != at.end() && it->second > i) return false;
    return true;
}

bool isValid(const DependencyGraph& graph, const Schedule& s) {
    return respectsEdges(graph, s.order) && (s.timesteps.empty() || isValidTimesteps(graph, s.order, s.timesteps, nullptr));
}

// Peak of running the schedule from `before`.
Bytes replayPeak(const OrderMemoryModel& model, OrderMemoryModel::State state, const Schedule& s) {
    Bytes peak = 0;
    if (!s.timesteps.empty()) {
        for (Bytes m : timestepMemory(model, s.order, s.timesteps, std::move(state))) peak = std::max(peak, m);
        return peak;
    }
    for (auto k : s.order) peak = std::max(peak, model.step(state, size_t(k)));
    return peak;
}

}  // namespace

std::int64_t maxVariablesWithin(double timeLimitSeconds) {
    return std::max<std::int64_t>(IlpOrderOptions{}.maxVariables, std::int64_t(1000.0 * std::min(timeLimitSeconds, 1e9)));
}

IlpOrderSolution solveOrderIlp(const OrderMemoryModel& model, const DependencyGraph& graph,
                               const OrderMemoryModel::State& before, const std::vector<std::int64_t>& window,
                               const IlpOrderOptions& options) {
    const auto started = Clock::now();
    IlpOrderSolution r;
    const bool multiStream = options.timesteps > 0;
    OrderIlp ilp(model, graph, before, window, int(std::min<std::int64_t>(options.timesteps, 1 << 30)));
    std::vector<int> startSteps(window.size());
    for (size_t i = 0; i < window.size(); ++i) startSteps[i] = ilp.startStep(int(i));
    Schedule best = scheduleOf(window, startSteps, multiStream);
    r.peak = replayPeak(model, before, best);
    auto finish = [&](std::string note) {
        r.order = best.order;
        r.timesteps = best.timesteps;
        r.note = std::move(note);
        r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        return r;
    };
    if (multiStream && ilp.stepsNeeded() > options.timesteps)
        return finish(fmt::format("not run: the kernels' longest chain needs {} timesteps, {} given", ilp.stepsNeeded(),
                                  options.timesteps));
    if (window.size() < 2) return r.status = MipStatus::Optimal, r.bound = r.peak, finish("one kernel");
    if (const auto variables = ilp.countVariables(options.maxVariables); variables > options.maxVariables)
        return finish(fmt::format("not run: over {} variables (limit {})", variables, options.maxVariables));
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
        const std::vector<int> stepOf = ilp.decode(m.values);
        const Schedule found = stepOf.empty() ? Schedule{} : scheduleOf(window, stepOf, multiStream);
        const bool valid = found.order.size() == window.size() && isValid(graph, found);
        const Bytes peak = valid ? replayPeak(model, before, found) : 0;
        if (valid && peak <= r.peak) best = found, r.peak = peak, r.fromIlp = true;
        // A proof stands only for the order it was made for (the ILP's objective is this peak).
        if (m.status == MipStatus::Optimal && !(valid && std::abs(double(peak) - m.objective * kScale) < 1024))
            r.status = MipStatus::Feasible;
        r.bound = r.status == MipStatus::Optimal ? r.peak : std::min(r.peak, Bytes(std::floor(m.bound * kScale)));
    }
    auto done = finish(fmt::format("CBC {}: {} kernels{}, {} binaries, {} variables, {} rows", mipStatusName(r.status),
                                   window.size(), multiStream ? fmt::format(" in {} timesteps", options.timesteps) : "",
                                   r.binaries, r.variables, r.constraints));
    done.seconds = built + m.seconds;  // not the time spent waiting for another leaf's CBC solve
    return done;
}

}  // namespace spillway
