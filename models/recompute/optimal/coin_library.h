// COIN-OR CBC and CLP, loaded when the first integer program or relaxation is solved
// (dlopen), not at every process start: linked, they and the BLAS/LAPACK they load cost
// each memsim process about 10 ms of CPU before main (docs/performance.md, "Loading the
// solver on first use"), and most runs solve nothing. The entry points are typed by
// Debian's headers (Cbc_C_Interface.h, Clp_C_Interface.h); the library's name is the
// soname CMake read from the library pkg-config found (CMakeLists.txt).
#pragma once

#include <Cbc_C_Interface.h>
#include <Clp_C_Interface.h>

namespace memsim::optimal {

struct CoinApi {
    decltype(&Cbc_newModel) cbc_new_model;
    decltype(&Cbc_deleteModel) cbc_delete_model;
    decltype(&Cbc_loadProblem) cbc_load_problem;
    decltype(&Cbc_setObjSense) cbc_set_obj_sense;
    decltype(&Cbc_setInteger) cbc_set_integer;
    decltype(&Cbc_setLogLevel) cbc_set_log_level;
    decltype(&Cbc_setMaximumSeconds) cbc_set_maximum_seconds;
    decltype(&Cbc_setAllowableGap) cbc_set_allowable_gap;
    decltype(&Cbc_setAllowableFractionGap) cbc_set_allowable_fraction_gap;
    decltype(&Cbc_setMIPStartI) cbc_set_mip_start_i;
    decltype(&Cbc_solve) cbc_solve;
    decltype(&Cbc_isSecondsLimitReached) cbc_is_seconds_limit_reached;
    decltype(&Cbc_getNodeCount) cbc_get_node_count;
    decltype(&Cbc_bestSolution) cbc_best_solution;
    decltype(&Cbc_isProvenOptimal) cbc_is_proven_optimal;
    decltype(&Cbc_isProvenInfeasible) cbc_is_proven_infeasible;
    decltype(&Cbc_getBestPossibleObjValue) cbc_get_best_possible_obj_value;
    decltype(&Cbc_getObjValue) cbc_get_obj_value;
    decltype(&Clp_newModel) clp_new_model;
    decltype(&Clp_deleteModel) clp_delete_model;
    decltype(&Clp_setLogLevel) clp_set_log_level;
    decltype(&Clp_loadProblem) clp_load_problem;
    decltype(&Clp_setObjSense) clp_set_obj_sense;
    decltype(&Clp_setMaximumSeconds) clp_set_maximum_seconds;
    decltype(&Clp_initialSolve) clp_initial_solve;
    decltype(&Clp_status) clp_status;
    decltype(&Clp_getColSolution) clp_get_col_solution;
    decltype(&Clp_objectiveValue) clp_objective_value;
};

// The entry points, the library loaded on the first call (thread-safe). Throws
// std::runtime_error naming the library and what the loader said when it cannot be
// loaded or lacks an entry point.
const CoinApi& coin_api();

// What coin_api does once, from the library `soname` (its tests name others).
CoinApi load_coin_api(const char* soname);

}  // namespace memsim::optimal
