// Rule 3 of docs/workloads.md (which side of the loss junction) through single-input
// layout copies: a small synthetic MNN profile shaped as issue 17 describes,
//   softmax -> copy(softmax) -> junction(copy, label), then copy(softmax),
//   copy(junction), combine(the two copies),
// must end the forward pass after the junction. Compared by identity (the rule before
// the copies were looked through), the combining op reads neither the prediction nor the
// junction's output, and the junction would be taken for the gradient seed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/workload/forward_end.h"
#include "models/workload/mnn_profile.h"
#include "file_support.h"

using namespace memsim;
using namespace memsim::test;
using nlohmann::json;

namespace {

struct ProfileOp {
    std::string type;
    std::vector<int> inputs;  // op i produces tensor i
};

// Writes profile "loss" at batch 1: op i outputs tensor i of 100 bytes, 1 ms, nothing
// released early (release lists only change live bytes, not rule 3).
std::string write_profile(const std::string& name, const std::vector<ProfileOp>& ops) {
    const std::filesystem::path dir = fresh_dir(name);
    json io = json::array(), sizes = json::object(), resize = json::array(), costs = json::object();
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::string id = std::to_string(i);
        io.push_back({{"op", id + "th:" + ops[i].type},
                      {"id", i},
                      {"inputs", ops[i].inputs},
                      {"outputs", {i}},
                      {"temporary", {i}},
                      {"release", json::array()}});
        sizes[id] = 100;
        resize.push_back(json::array());
        costs[id] = 1.0;
    }
    auto put = [&](const std::string& file, const json& j) { std::ofstream(dir / file) << j.dump(); };
    put("loss.io_info.json", io);
    put("loss.1.tensor_size.json", sizes);
    put("loss.1.resize_info.json", resize);
    put("loss.1.cost_info.json", costs);
    return dir.string();
}

// 0 image, 1 weights, 2 logits = MatMul(0, 1), 3 Softmax(2) = the prediction's source,
// 4 OneHot = the label, 5 copy(3), 6 junction(5, 4), 7 copy(3), 8 copy(6),
// 9 combine(7, `combine_second`), 10 a gradient MatMul(9, 0).
std::vector<ProfileOp> loss_graph(int combine_second) {
    return {{"Raster", {}},    {"Raster", {}},          {"MatMul", {0, 1}},
            {"Softmax", {2}},  {"OneHot", {}},          {"Raster", {3}},
            {"BinaryOp", {5, 4}}, {"Raster", {3}},      {"Raster", {6}},
            {"BinaryOp", {7, combine_second}},          {"MatMul", {9, 0}}};
}

}  // namespace

TEST_CASE("forward_end: the loss junction read again through single-input copies") {
    const Workload w = load_mnn_profile(write_profile("fe_copies", loss_graph(8)), 1);
    const ForwardEndGuess g = infer_forward_end(w);
    // Junction = op 6 (reads the label 4 and the deepest other input, 5). Op 9 reads 7
    // and 8: 7 copies 3 as the prediction 5 does (one copy each side of 3), 8 copies the
    // junction's output 6 (one copy): 3 copies, and forward_end = 6 + 1.
    CHECK(g.forward_end == 7);
    CHECK(w.forward_end == 7);
    CHECK(g.copies_looked_through == 3);
    CHECK(g.rule ==
          "inferred: loss junction at op 6 (6th:BinaryOp) reads the label and the prediction (tensor 5); it computes "
          "the loss (op 9 reads the prediction and its output through 3 single-input copies), so the forward pass "
          "ends after it");
}

TEST_CASE("forward_end: copies of the prediction alone leave the junction the gradient seed") {
    // Op 9 combines the prediction's copy with the label instead of the junction's output:
    // nothing after the junction reads both, so the backward pass starts at it.
    const Workload w = load_mnn_profile(write_profile("fe_seed", loss_graph(4)), 1);
    const ForwardEndGuess g = infer_forward_end(w);
    CHECK(g.forward_end == 6);
    CHECK(g.copies_looked_through == 0);
    CHECK_THAT(g.rule, Catch::EndsWith("it is the gradient seed, so the backward pass starts there"));
}

TEST_CASE("cli: info says how many copies rule 3 looked through") {
    const Outcome o = run_memsim("info " + write_profile("fe_info", loss_graph(8)) + " --batch 1 --json");
    REQUIRE(o.code == 0);
    const json j = json::parse(o.out);
    CHECK(j["forward_end"] == 7);
    CHECK(j["forward_end_via_copies"] == 3);
    CHECK_THAT(j["forward_end_rule"].get<std::string>(), Catch::Contains("through 3 single-input copies"));
    // The example MLP reads its prediction directly: nothing looked through; a given
    // forward_end has no rule to report on.
    const json mlp = json::parse(run_memsim("info examples/mlp --batch 4 --json").out);
    CHECK(mlp["forward_end"] == 30);
    CHECK(mlp["forward_end_via_copies"] == 0);
    CHECK_FALSE(json::parse(run_memsim("info examples/mlp --batch 4 --forward-end 20 --json").out)
                    .contains("forward_end_via_copies"));
}

TEST_CASE("shared: the shared profiles read their prediction directly (no copies looked through)", "[shared]") {
    // MobilenetV2: op 1438 reads the Softmax output 1436 and the junction's output 1437
    // themselves. Squeezenet: nothing after the junction (op 119) reads both, even
    // through copies, so it stays the gradient seed.
    const ForwardEndGuess mobilenet = infer_forward_end(load_mnn_profile(MEMSIM_SHARED_DIR "/profiles/MobilenetV2", 4));
    CHECK(mobilenet.forward_end == 1438);
    CHECK(mobilenet.copies_looked_through == 0);
    const ForwardEndGuess squeezenet = infer_forward_end(load_mnn_profile(MEMSIM_SHARED_DIR "/profiles/Squeezenet", 4));
    CHECK(squeezenet.forward_end == 119);
    CHECK(squeezenet.copies_looked_through == 0);
}
