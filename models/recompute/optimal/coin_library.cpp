#include "models/recompute/optimal/coin_library.h"

#include <dlfcn.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#ifndef MEMSIM_CBC_SONAME
#error "MEMSIM_CBC_SONAME: the soname of CBC's C interface library (CMakeLists.txt sets it)"
#endif

namespace memsim::optimal {

namespace {

[[noreturn]] void cannot_load(const char* soname, const std::string& what) {
    throw std::runtime_error(
        fmt::format("the optimal planner's solver, COIN-OR CBC ({}), {}; scripts/setup.sh installs "
                    "Debian's coinor-libcbc-dev",
                    soname, what));
}

}  // namespace

CoinApi load_coin_api(const char* soname) {
    // RTLD_LOCAL: nothing else in the process resolves against CBC. The library stays
    // loaded for the process's life (a forked solve inherits the mapping).
    void* library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = dlerror();
        cannot_load(soname, fmt::format("could not be loaded: {}", why ? why : "no reason given"));
    }
    const auto bind = [&](auto& entry, const char* name) {
        void* symbol = dlsym(library, name);
        if (!symbol) cannot_load(soname, fmt::format("has no entry point {}", name));
        entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(symbol);
    };
    CoinApi api{};
    // CLP's entry points are found through CBC's handle: dlsym searches the library's
    // dependencies too, and libCbcSolver needs libClp.
    bind(api.cbc_new_model, "Cbc_newModel");
    bind(api.cbc_delete_model, "Cbc_deleteModel");
    bind(api.cbc_load_problem, "Cbc_loadProblem");
    bind(api.cbc_set_obj_sense, "Cbc_setObjSense");
    bind(api.cbc_set_integer, "Cbc_setInteger");
    bind(api.cbc_set_log_level, "Cbc_setLogLevel");
    bind(api.cbc_set_maximum_seconds, "Cbc_setMaximumSeconds");
    bind(api.cbc_set_allowable_gap, "Cbc_setAllowableGap");
    bind(api.cbc_set_allowable_fraction_gap, "Cbc_setAllowableFractionGap");
    bind(api.cbc_set_mip_start_i, "Cbc_setMIPStartI");
    bind(api.cbc_solve, "Cbc_solve");
    bind(api.cbc_is_seconds_limit_reached, "Cbc_isSecondsLimitReached");
    bind(api.cbc_get_node_count, "Cbc_getNodeCount");
    bind(api.cbc_best_solution, "Cbc_bestSolution");
    bind(api.cbc_is_proven_optimal, "Cbc_isProvenOptimal");
    bind(api.cbc_is_proven_infeasible, "Cbc_isProvenInfeasible");
    bind(api.cbc_get_best_possible_obj_value, "Cbc_getBestPossibleObjValue");
    bind(api.cbc_get_obj_value, "Cbc_getObjValue");
    bind(api.clp_new_model, "Clp_newModel");
    bind(api.clp_delete_model, "Clp_deleteModel");
    bind(api.clp_set_log_level, "Clp_setLogLevel");
    bind(api.clp_load_problem, "Clp_loadProblem");
    bind(api.clp_set_obj_sense, "Clp_setObjSense");
    bind(api.clp_set_maximum_seconds, "Clp_setMaximumSeconds");
    bind(api.clp_initial_solve, "Clp_initialSolve");
    bind(api.clp_status, "Clp_status");
    bind(api.clp_get_col_solution, "Clp_getColSolution");
    bind(api.clp_objective_value, "Clp_objectiveValue");
    return api;
}

const CoinApi& coin_api() {
    static const CoinApi api = load_coin_api(MEMSIM_CBC_SONAME);
    return api;
}

}  // namespace memsim::optimal
