// Storages and views on real logs (docs/workloads.md, "Storages and views"): the DTR logs
// under ../shared/dtr-logs at 70% of their no-policy peak (the shipped traced logs:
// tests/sim/engine/test_storage_views.cpp), every swap policy (sync, semi_sync and async
// with the budget selection, the hybrid), both semantics (storage_policies.h). Each run either finishes or stops with a status (oom,
// thrash), never an invariant error (the engine's own check, GpuStream::check_reads_resident),
// and its events say that every operator started with every storage it reads resident,
// and that every storage swapped out, freed and read later was read back (or recomputed)
// in between.
#include <catch2/catch.hpp>

#include <string>

#include "shared_data.h"
#include "storage_policies.h"

using namespace memsim;

TEST_CASE("storages and views: every swap policy reads back what a later operator reads through a view, on the DTR logs",
          "[shared]") {
    int swapped_and_read = 0;
    for (const std::string model : {"transformer", "lstm", "treelstm", "unroll_gan", "inceptionv4", "tv_densenet121"})
        swapped_and_read += test::check_every_swap_policy(test::shared_dtr_log(model));
    CHECK(swapped_and_read > 0);  // the logs do swap storages that are read again
}
