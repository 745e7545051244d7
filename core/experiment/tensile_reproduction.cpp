#include "core/experiment/tensile_reproduction.h"

#include "core/experiment/tensile_comparisons.h"
#include "core/experiment/tensile_figures.h"
#include "core/experiment/tensile_report_text.h"

namespace spillway {

Reproduction reproduceTensile(const ReproductionOptions& options) { return reproduceTensileScope(options, {}); }

Reproduction reproduceTensileScope(const ReproductionOptions& options, const tensile::Scope& scope) {
    return tensileReproduction(tensile::runEvaluation(options, scope), scope);
}

Reproduction tensileReproduction(const std::vector<tensile::NetworkRuns>& runs, const tensile::Scope& scope) {
    Reproduction r;
    r.paper = "TENSILE: the paper's evaluation reproduced (Tables 1-2, Fig. 6)";
    r.setup = tensile::setupText(runs, scope);
    r.figures = tensile::figures(runs, scope.maxJobs, scope.iterations);
    r.comparisons = tensile::comparisons(runs, scope.maxJobs);
    r.discussion = tensile::discussion(runs, scope);
    return r;
}

}  // namespace spillway
