#pragma once
// A hard deadline for a MIP solve. CBC's own time limit is checked between its steps, not inside
// its root LP, and on a large whole-graph model (MODeL's order ILP on AlexNet, 25,558 variables)
// that LP ran past a 60 s limit for more than 15 minutes. So the solve runs in a child process
// (fork): the child solves and sends the result back through a pipe; when no complete answer
// has come by the deadline, the child is killed and the caller gets NoSolution, with a note, and
// keeps its start. Nothing is shared after the fork, so the child's CBC state dies with it.
#include "core/layout/mip_result.h"

#include <functional>

namespace spillway {

// Runs `solve` in a child process; `deadlineSeconds` after the call it is killed. Throws
// std::runtime_error when no child can be made (fork or pipe failing).
MipResult runWithDeadline(const std::function<MipResult()>& solve, double deadlineSeconds);

}  // namespace spillway
