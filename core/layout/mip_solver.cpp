#include "core/layout/mip_solver.h"

#include "core/layout/mip_deadline.h"

#include <Cbc_C_Interface.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

// See MipModel::solve: one CBC solve at a time in the process.
std::mutex& cbcMutex() {
    static std::mutex m;
    return m;
}

// The hard deadline: CBC's limit half again, plus 2 s (a 10 s solve of MODeL-MS on VGG took 14.4 s
// with its model's construction; a 2 s one on 9,178 pair binaries 2.95 s).
constexpr double kDeadlineFactor = 1.5;
constexpr double kDeadlineGraceSeconds = 2.0;

struct CbcDeleter {
    void operator()(Cbc_Model* m) const { Cbc_deleteModel(m); }
};

}  // namespace

std::string mipStatusName(MipStatus status) {
    switch (status) {
    case MipStatus::Optimal: return "optimal";
    case MipStatus::Feasible: return "feasible (time limit)";
    case MipStatus::Infeasible: return "infeasible";
    case MipStatus::NoSolution: return "no solution (time limit)";
    case MipStatus::NotRun: return "not run";
    }
    return "?";
}

int MipModel::addVariable(double lower, double upper, double objective, bool integer) {
    lower_.push_back(lower);
    upper_.push_back(upper);
    objective_.push_back(objective);
    integer_.push_back(integer ? 1 : 0);
    integers_ += integer;
    return int(lower_.size() - 1);
}

void MipModel::addConstraint(const std::vector<std::pair<int, double>>& terms, double lower, double upper) {
    const int row = int(rowLower_.size());
    for (const auto& [column, value] : terms) {
        if (column < 0 || column >= int(lower_.size()))
            throw std::logic_error(fmt::format("MIP constraint names variable {} of {}", column, lower_.size()));
        if (value != 0) entries_.push_back({row, column, value});
    }
    rowLower_.push_back(lower);
    rowUpper_.push_back(upper);
}

MipResult MipModel::solve(double timeLimitSeconds) const {
    // Compressed sparse columns, as Cbc_loadProblem takes them.
    const int columns = int(lower_.size());
    std::vector<int> start(size_t(columns) + 1, 0);
    for (const Entry& e : entries_) ++start[size_t(e.column) + 1];
    for (int c = 0; c < columns; ++c) start[size_t(c) + 1] += start[size_t(c)];
    std::vector<int> fill(start.begin(), start.end() - 1), index(entries_.size());
    std::vector<double> value(entries_.size());
    for (const Entry& e : entries_) {
        const int at = fill[size_t(e.column)]++;
        index[size_t(at)] = e.row;
        value[size_t(at)] = e.value;
    }
    // Everything CBC does, from making its model to deleting it, under the one lock: its setup
    // (CbcMain0) touches the same global state as the solve.
    std::lock_guard<std::mutex> lock(cbcMutex());
    const auto locked = Clock::now();  // time waiting for another solve is not this one's
    // In a child process with a hard deadline (mip_deadline.h): CBC overshoots its own limit
    // a little as a rule, and without bound inside a large root LP.
    MipResult result = runWithDeadline([&]() { return solveWithCbc(columns, start, index, value, timeLimitSeconds); },
                                       kDeadlineFactor * timeLimitSeconds + kDeadlineGraceSeconds);
    result.seconds = std::chrono::duration<double>(Clock::now() - locked).count();
    return result;
}

MipResult MipModel::solveWithCbc(int columns, const std::vector<int>& start, const std::vector<int>& index,
                                 const std::vector<double>& value, double timeLimitSeconds) const {
    MipResult result;
    std::unique_ptr<Cbc_Model, CbcDeleter> cbc(Cbc_newModel());
    Cbc_loadProblem(cbc.get(), columns, int(rowLower_.size()), start.data(), index.data(), value.data(), lower_.data(),
                    upper_.data(), objective_.data(), rowLower_.data(), rowUpper_.data());
    std::vector<int> startColumns;
    std::vector<double> startValues;
    for (int c = 0; c < columns; ++c) {
        if (!integer_[size_t(c)]) continue;
        Cbc_setInteger(cbc.get(), c);
        if (size_t(c) < start_.size() && start_[size_t(c)] != 0) {
            startColumns.push_back(c);
            startValues.push_back(start_[size_t(c)]);
        }
    }
    if (start_.size() == size_t(columns))
        Cbc_setMIPStartI(cbc.get(), int(startColumns.size()), startColumns.data(), startValues.data());
    Cbc_setParameter(cbc.get(), "log", "0");
    Cbc_setParameter(cbc.get(), "slog", "0");
    Cbc_setParameter(cbc.get(), "timeMode", "elapsed");
    // CBC 2.10.8 crashed in CglPreProcess::postProcess after a time-limited solve of an order
    // leaf (ResNet-18, 0.3 s per leaf); without preprocessing it does not.
    Cbc_setParameter(cbc.get(), "preprocess", "off");
    Cbc_setParameter(cbc.get(), "seconds", fmt::format("{:.3f}", std::max(0.001, timeLimitSeconds)).c_str());
    Cbc_solve(cbc.get());
    const double* solution = Cbc_bestSolution(cbc.get());
    if (Cbc_isProvenOptimal(cbc.get())) result.status = MipStatus::Optimal;
    else if (Cbc_isProvenInfeasible(cbc.get())) result.status = MipStatus::Infeasible;
    else result.status = solution ? MipStatus::Feasible : MipStatus::NoSolution;
    if (result.status == MipStatus::Optimal && !solution) solution = Cbc_getColSolution(cbc.get());
    if (solution && (result.status == MipStatus::Optimal || result.status == MipStatus::Feasible)) {
        result.values.assign(solution, solution + columns);
        result.objective = Cbc_getObjValue(cbc.get());
    } else if (result.status == MipStatus::Optimal) {
        result.status = MipStatus::NoSolution;  // should not happen; never report a proof without its answer
    }
    result.bound = Cbc_getBestPossibleObjValue(cbc.get());
    if (result.status == MipStatus::Optimal) result.bound = result.objective;
    return result;
}

}  // namespace spillway
