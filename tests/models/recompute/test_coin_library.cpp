// CBC is opened on the first solve (models/recompute/optimal/coin_library.h): the library
// pkg-config named is found and gives every entry point; one that cannot be loaded is an
// error naming it and the package that provides it.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "models/recompute/optimal/coin_library.h"

using namespace memsim::optimal;

TEST_CASE("coin library: CBC's entry points are found by the soname CMake read") {
    const CoinApi& api = coin_api();
    CHECK(api.cbc_new_model != nullptr);
    CHECK(api.cbc_solve != nullptr);
    CHECK(api.clp_new_model != nullptr);  // CLP's, through CBC's handle
    CHECK(api.clp_objective_value != nullptr);
    CHECK(&coin_api() == &api);  // loaded once
}

TEST_CASE("coin library: a solver library that cannot be loaded is an error naming it and the package") {
    try {
        (void)load_coin_api("libmemsim_no_such_solver.so.7");
        FAIL("no error");
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::StartsWith("the optimal planner's solver, COIN-OR CBC (libmemsim_no_such_solver.so.7), "
                                           "could not be loaded: libmemsim_no_such_solver.so.7: cannot open shared object file"));
        CHECK_THAT(what, Catch::EndsWith("; scripts/setup.sh installs Debian's coinor-libcbc-dev"));
    }
}

TEST_CASE("coin library: a library without CBC's entry points is an error naming the first one missing") {
    try {
        (void)load_coin_api("libm.so.6");
        FAIL("no error");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) ==
              "the optimal planner's solver, COIN-OR CBC (libm.so.6), has no entry point Cbc_newModel; scripts/setup.sh "
              "installs Debian's coinor-libcbc-dev");
    }
}
