#include "models/recompute/optimal/coin_library.h"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#ifndef MEMSIM_CBC_SONAME
#error "MEMSIM_CBC_SONAME: the soname of CBC's C interface library (CMakeLists.txt sets it)"
#endif

namespace memsim::optimal {

namespace {

[[noreturn]] void cannot_load(const std::string& what) {
    throw std::runtime_error(
        fmt::format("the optimal planner's solver, COIN-OR CBC ({}), {}; scripts/setup.sh installs "
                    "Debian's coinor-libcbc-dev",
                    MEMSIM_CBC_SONAME, what));
}

template <typename F>
void bind(void* library, F& entry, const char* name) {
    dlerror();
    void* symbol = dlsym(library, name);
    if (!symbol) cannot_load(fmt::format("has no entry point {}", name));
    entry = reinterpret_cast<F>(symbol);
}

CoinApi load() {
    // RTLD_LOCAL: nothing else in the process resolves against CBC; the handle is kept
    // for the process's life (a forked solve inherits the mapping).
    void* library = dlopen(MEMSIM_CBC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = dlerror();
        cannot_load(fmt::format("could not be loaded: {}", why ? why : "no reason given"));
    }
    CoinApi api{};
    // CLP's entry points are found through CBC's handle: dlsym searches the library's
    // dependencies too, and libCbcSolver needs libClp.
    bind(library, api.cbc_new_model, "Cbc_newModel");
    bind(library, api.cbc_delete_model, "Cbc_deleteModel");
    bind(library, api.cbc_load_problem, "Cbc_loadProblem");
    bind(library, api.cbc_set_obj_sense, "Cbc_setObjSense");
    bind(library, api.cbc_set_integer, "Cbc_setInteger");
    bind(library, api.cbc_set_log_level, "Cbc_setLogLevel");
    bind(library, api.cbc_set_maximum_seconds, "Cbc_setMaximumSeconds");
    bind(library, api.cbc_set_allowable_gap, "Cbc_setAllowableGap");
    bind(library, api.cbc_set_allowable_fraction_gap, "Cbc_setAllowableFractionGap");
    bind(library, api.cbc_set_mip_start_i, "Cbc_setMIPStartI");
    bind(library, api.cbc_solve, "Cbc_solve");
    bind(library, api.cbc_is_seconds_limit_reached, "Cbc_isSecondsLimitReached");
    bind(library, api.cbc_get_node_count, "Cbc_getNodeCount");
    bind(library, api.cbc_best_solution, "Cbc_bestSolution");
    bind(library, api.cbc_is_proven_optimal, "Cbc_isProvenOptimal");
    bind(library, api.cbc_is_proven_infeasible, "Cbc_isProvenInfeasible");
    bind(library, api.cbc_get_best_possible_obj_value, "Cbc_getBestPossibleObjValue");
    bind(library, api.cbc_get_obj_value, "Cbc_getObjValue");
    bind(library, api.clp_new_model, "Clp_newModel");
    bind(library, api.clp_delete_model, "Clp_deleteModel");
    bind(library, api.clp_set_log_level, "Clp_setLogLevel");
    bind(library, api.clp_load_problem, "Clp_loadProblem");
    bind(library, api.clp_set_obj_sense, "Clp_setObjSense");
    bind(library, api.clp_set_maximum_seconds, "Clp_setMaximumSeconds");
    bind(library, api.clp_initial_solve, "Clp_initialSolve");
    bind(library, api.clp_status, "Clp_status");
    bind(library, api.clp_get_col_solution, "Clp_getColSolution");
    bind(library, api.clp_objective_value, "Clp_objectiveValue");
    return api;
}

}  // namespace

const CoinApi& coin_api() {
    static const CoinApi api = load();
    return api;
}

}  // namespace memsim::optimal
