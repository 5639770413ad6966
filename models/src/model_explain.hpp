// gups-model --explain: how one prediction came about, in words a person
// checks by hand: the role plan of the node (the paper's for 4 cores and 3
// dimensions, the planner's general one otherwise), the virtual torus and the
// physical network it is laid on, each core's load, and the network bound's
// derivation (bisection, software hops, links per hop, bytes per update, the
// busiest links).
#pragma once

#include <string>

#include "models/src/bounds.hpp"
#include "models/src/machine.hpp"

namespace gups::model {

std::string explain_prediction(const Machine& machine, const Prediction& p, const ModelOptions& options);

}  // namespace gups::model
