#include "core/io/gpu_activity/kernel_phases.h"

#include "core/io/gpu_activity/kernel_name_phases.h"
#include "core/io/gpu_activity/range_phases.h"
#include "core/io/torch_trace/torch_trace_phases.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace spillway::gpu_activity {

namespace {

bool decided(PhaseRule r) {
    return r == PhaseRule::Recorded || r == PhaseRule::Mark || r == PhaseRule::Range || r == PhaseRule::Name;
}

Nanoseconds lookupTime(const KernelRecord& k) { return k.launchTime.value_or(k.start); }

// Rule 2: the first spillway.* range holding the kernel's time; nullopt outside them all.
void phasesFromMarks(const std::vector<KernelRecord>& kernels, const std::vector<const RangeMark*>& marks,
                     KernelPhases& out) {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Nanoseconds t = lookupTime(kernels[i]);
        for (const auto* m : marks)
            if (m->start <= t && t <= m->end) {
                out.phase[i] = torch_trace::phaseOfMark(m->name);
                break;
            }
        out.rule[i] = PhaseRule::Mark;
    }
}

// Rule 5, for every kernel rules 1-4 left open.
void fillFromNeighbours(KernelPhases& out) {
    const std::size_t n = out.phase.size();
    std::vector<std::ptrdiff_t> nextDecided(n + 1, -1);
    for (std::size_t i = n; i-- > 0;)
        nextDecided[i] = decided(out.rule[i]) ? static_cast<std::ptrdiff_t>(i) : nextDecided[i + 1];
    std::optional<KernelPhase> previous;
    for (std::size_t i = 0; i < n; ++i) {
        if (decided(out.rule[i])) {
            previous = out.phase[i];
            continue;
        }
        const auto next = nextDecided[i];
        if (!previous && next < 0) {
            out.phase[i] = KernelPhase::Other;
            out.rule[i] = PhaseRule::Undecided;
        } else if (!previous) {
            out.phase[i] = out.phase[static_cast<std::size_t>(next)];
            out.rule[i] = PhaseRule::BeforeFirst;
        } else if (next < 0) {
            out.phase[i] = previous;
            out.rule[i] = PhaseRule::AfterLast;
        } else if (const auto later = out.phase[static_cast<std::size_t>(next)]; later == previous) {
            out.phase[i] = previous;
            out.rule[i] = PhaseRule::Between;
        } else {
            // The loss and the optimizer begin with kernels named for them; the others (the
            // backward pass's gradient seed, the next step's first layer) may not.
            out.phase[i] = later == KernelPhase::Optimizer || later == KernelPhase::Loss ? previous : later;
            out.rule[i] = PhaseRule::AtChange;
        }
    }
}

}  // namespace

void KernelPhases::keep(const std::vector<bool>& flags) {
    std::size_t to = 0;
    for (std::size_t i = 0; i < phase.size(); ++i)
        if (flags[i]) {
            phase[to] = phase[i];
            rule[to] = rule[i];
            ++to;
        }
    phase.resize(to);
    rule.resize(to);
}

void KernelPhases::cut(std::size_t begin, std::size_t end) {
    phase = std::vector<std::optional<KernelPhase>>(phase.begin() + static_cast<std::ptrdiff_t>(begin),
                                                    phase.begin() + static_cast<std::ptrdiff_t>(end));
    rule = std::vector<PhaseRule>(rule.begin() + static_cast<std::ptrdiff_t>(begin),
                                  rule.begin() + static_cast<std::ptrdiff_t>(end));
}

KernelPhases assignPhases(const std::vector<KernelRecord>& kernels, const std::vector<RangeMark>& ranges) {
    KernelPhases out;
    out.phase.assign(kernels.size(), std::nullopt);
    out.rule.assign(kernels.size(), PhaseRule::Undecided);
    out.atLaunch = std::any_of(kernels.begin(), kernels.end(), [](const KernelRecord& k) { return k.launchTime; });
    std::vector<const RangeMark*> marks;
    for (const auto& r : ranges)
        if (r.name.starts_with("spillway.")) marks.push_back(&r);
    const bool recorded = std::any_of(kernels.begin(), kernels.end(), [](const KernelRecord& k) { return k.recordedPhase; });
    if (!recorded && !marks.empty()) {
        out.fromMarks = true;
        phasesFromMarks(kernels, marks, out);
        return out;
    }
    std::vector<Nanoseconds> times;
    times.reserve(kernels.size());
    for (const auto& k : kernels) times.push_back(lookupTime(k));
    const auto fromRanges = phasesFromRanges(times, ranges, out.namedRanges);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (kernels[i].recordedPhase) {
            out.phase[i] = kernels[i].recordedPhase;
            out.rule[i] = PhaseRule::Recorded;
        } else if (fromRanges[i]) {
            out.phase[i] = fromRanges[i];
            out.rule[i] = PhaseRule::Range;
        } else if (const auto byName = phaseOfKernelName(kernels[i].name)) {
            out.phase[i] = byName;
            out.rule[i] = PhaseRule::Name;
        }
    }
    fillFromNeighbours(out);
    return out;
}

std::string describePhases(const KernelPhases& phases, std::int64_t outsideMarks) {
    const std::size_t n = phases.phase.size();
    if (phases.fromMarks)
        return fmt::format("from spillway.* NVTX ranges at each kernel's {} time; {} kernels outside them (or in "
                           "spillway.setup) left out",
                           phases.atLaunch ? "launch" : "start", outsideMarks);
    std::map<PhaseRule, std::size_t> count;
    std::map<KernelPhase, std::size_t> byPhase;
    for (std::size_t i = 0; i < n; ++i) {
        ++count[phases.rule[i]];
        if (phases.phase[i]) ++byPhase[*phases.phase[i]];
    }
    if (count[PhaseRule::Undecided] == n)
        return "no phase evidence (no NVTX range or kernel name says a phase): every kernel's phase is \"other\"";
    std::string source;
    if (count[PhaseRule::Recorded])
        source = "the stored capture's phases (from NVTX ranges when it was captured) and";
    else if (count[PhaseRule::Range])
        source = fmt::format("NVTX ranges ({} name a phase; looked up at each kernel's {} time),",
                             phases.namedRanges, phases.atLaunch ? "launch" : "start");
    std::string text = fmt::format("from {}{}kernel names and neighbours:", source, source.empty() ? "" : " ");
    for (const auto& [phase, c] : byPhase) text += fmt::format(" {} {},", toString(phase), c);
    text.back() = ';';
    text += fmt::format(" of {} kernels", n);
    auto part = [&](PhaseRule r, std::string_view what) {
        if (const auto c = count[r])
            text += fmt::format("; {} {} ({:.1f}%)", c, what, 100.0 * static_cast<double>(c) / static_cast<double>(n));
    };
    part(PhaseRule::Recorded, "as recorded");
    part(PhaseRule::Range, "decided by NVTX ranges");
    part(PhaseRule::Name, "decided by kernel names (multi_tensor_apply, sgd, adam: optimizer; dgrad, wgrad, "
                          "backward, bwd: backward; loss; fprop, forward, fwd: forward)");
    part(PhaseRule::Between, "between two decided kernels of one phase, took it");
    part(PhaseRule::AtChange, "at a change of phase, took the later one (the earlier one before the loss and the optimizer)");
    part(PhaseRule::AfterLast, "after the last decided kernel, took its phase");
    part(PhaseRule::BeforeFirst, "before the first decided kernel, took its phase");
    return text;
}

}  // namespace spillway::gpu_activity
