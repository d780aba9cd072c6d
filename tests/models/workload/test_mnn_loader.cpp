#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "models/workload/input_error.h"
#include "models/workload/mnn_profile.h"
#include "file_support.h"

using namespace memsim;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A valid 3-op profile "tiny" at batch 2: op0 -> t0; op1 reads t0 (scratch 1:0),
// releases t0; op2 reads t1, releases t1.
struct TinyProfile {
    json io = json::parse(R"([
      {"op":"0th:Raster","id":0,"inputs":[],"outputs":[0],"temporary":[0],"release":[]},
      {"op":"1th:MatMul","id":1,"inputs":[0],"outputs":[1],"temporary":[1],"release":[0]},
      {"op":"2th:OneHot","id":2,"inputs":[1],"outputs":[2],"temporary":[2],"release":[1]}])");
    json sizes = json::parse(R"({"0": 100, "1": 200, "2": 50, "1:0": 64})");
    json resize = json::parse(R"([[], [["alloc","1:0"],["free","1:0"]], []])");
    json costs = json::parse(R"({"0": 1.5, "1": 2.0, "2": 0.5})");

    std::string write() const {
        const fs::path dir = test::fresh_dir("tiny");
        auto put = [&](const std::string& name, const json& j) { std::ofstream(dir / name) << j.dump(); };
        put("tiny.io_info.json", io);
        put("tiny.2.tensor_size.json", sizes);
        put("tiny.2.resize_info.json", resize);
        put("tiny.2.cost_info.json", costs);
        return dir.string();
    }
};

void expect_error(const TinyProfile& p, const std::string& file_part, const std::string& message_part) {
    const std::string dir = p.write();
    try {
        load_mnn_profile(dir, 2, 2);
        FAIL("no error raised; expected: " << message_part);
    } catch (const InputError& e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains(file_part));
        CHECK_THAT(what, Catch::Contains(message_part));
    }
}

}  // namespace

TEST_CASE("loader: a valid tiny profile") {
    const Workload w = load_mnn_profile(TinyProfile().write(), 2, 2);
    CHECK(w.name == "tiny");
    CHECK(w.ops.size() == 3);
    CHECK(w.tensors.size() == 4);  // 3 outputs + 1 scratch
    CHECK(w.compute_ms() == 4.0);
    CHECK(w.ops[1].scratch.size() == 2);
    CHECK(w.forward_end == 2);
}

TEST_CASE("loader error: unknown tensor id in tensor_size") {
    TinyProfile p;
    p.sizes["7"] = 10;
    expect_error(p, "tiny.2.tensor_size.json", "tensor '7': unknown tensor id");
}

TEST_CASE("loader error: unknown input tensor") {
    TinyProfile p;
    p.io[2]["inputs"] = json::array({9});
    expect_error(p, "tiny.io_info.json", "op 2: input tensor 9 unknown");
}

TEST_CASE("loader error: op without cost") {
    TinyProfile p;
    p.costs.erase("1");
    expect_error(p, "tiny.2.cost_info.json", "op 1 (1th:MatMul) has no cost");
}

TEST_CASE("loader error: negative size") {
    TinyProfile p;
    p.sizes["1"] = -5;
    expect_error(p, "tiny.2.tensor_size.json", "tensor '1': size -5 is not an integer >= 0");
}

TEST_CASE("loader error: non-integer size") {
    TinyProfile p;
    p.sizes["1"] = 12.5;
    expect_error(p, "tiny.2.tensor_size.json", "tensor '1': size 12.5 is not an integer >= 0");
}

TEST_CASE("loader error: tensor released twice") {
    TinyProfile p;
    p.io[2]["release"] = json::array({1, 0});
    expect_error(p, "tiny.io_info.json", "op 2: tensor 0 released twice (first at op 1)");
}

TEST_CASE("loader error: tensor used after release") {
    TinyProfile p;
    p.io[2]["inputs"] = json::array({1, 0});
    expect_error(p, "tiny.io_info.json", "op 2: input tensor 0 used after its release at op 1");
}

TEST_CASE("loader error: scratch freed but never allocated") {
    TinyProfile p;
    p.resize[2] = json::parse(R"([["free","2:0"]])");
    p.sizes["2:0"] = 64;
    expect_error(p, "tiny.2.resize_info.json", "op 2: scratch '2:0' freed but never allocated");
}

TEST_CASE("loader error: scratch of another operator") {
    TinyProfile p;
    p.resize[2] = json::parse(R"([["alloc","1:0"]])");
    expect_error(p, "tiny.2.resize_info.json", "scratch '1:0' does not belong to this operator");
}

TEST_CASE("loader error: negative cost") {
    TinyProfile p;
    p.costs["0"] = -1;
    expect_error(p, "tiny.2.cost_info.json", "op 0: cost -1 is not a number of milliseconds >= 0");
}

TEST_CASE("loader error: id out of order") {
    TinyProfile p;
    p.io[1]["id"] = 5;
    expect_error(p, "tiny.io_info.json", "entry 1: 'id' is 5 (must equal its position 1)");
}

TEST_CASE("loader error: invalid JSON and missing folder") {
    const std::string dir = TinyProfile().write();
    std::ofstream(fs::path(dir) / "tiny.2.cost_info.json") << "{\"0\": 1,";
    CHECK_THROWS_WITH(load_mnn_profile(dir, 2, 2), Catch::Contains("tiny.2.cost_info.json: invalid JSON"));
    CHECK_THROWS_WITH(load_mnn_profile(dir + "_nope", 2, 2), Catch::Contains("profile folder does not exist"));
    CHECK_THROWS_WITH(load_mnn_profile(dir, 3, 2), Catch::Contains("tiny.3.tensor_size.json: cannot open file"));
}

TEST_CASE("loader error: io_info field types") {
    SECTION("an input id that is a string") {
        TinyProfile p;
        p.io[1]["inputs"] = json::array({"0"});
        expect_error(p, "tiny.io_info.json", "op 1: field 'inputs' holds \"0\" (tensor ids are integers >= 0)");
    }
    SECTION("a negative output id") {
        TinyProfile p;
        p.io[2]["outputs"] = json::array({-3});
        expect_error(p, "tiny.io_info.json", "op 2: field 'outputs' holds -3 (tensor ids are integers >= 0)");
    }
    SECTION("a fractional release id") {
        TinyProfile p;
        p.io[2]["release"] = json::array({1.5});
        expect_error(p, "tiny.io_info.json", "op 2: field 'release' holds 1.5");
    }
    SECTION("release that is not a list") {
        TinyProfile p;
        p.io[0]["release"] = 7;
        expect_error(p, "tiny.io_info.json", "op 0: field 'release' missing or not a list");
    }
    SECTION("a missing outputs field") {
        TinyProfile p;
        p.io[0].erase("outputs");
        expect_error(p, "tiny.io_info.json", "op 0: field 'outputs' missing or not a list");
    }
    SECTION("an entry that is not an object") {
        TinyProfile p;
        p.io[1] = json::array({1, 2});
        expect_error(p, "tiny.io_info.json", "entry 1 is not an object");
    }
    SECTION("an id that is a string") {
        TinyProfile p;
        p.io[1]["id"] = "1";
        expect_error(p, "tiny.io_info.json", "entry 1: 'id' is \"1\" (must equal its position 1)");
    }
    SECTION("a top level that is not a list") {
        TinyProfile p;
        p.io = json::object({{"ops", 3}});
        expect_error(p, "tiny.io_info.json", "expected a non-empty list of operators");
    }
    SECTION("truncated JSON") {
        const std::string dir = TinyProfile().write();
        std::ofstream(fs::path(dir) / "tiny.io_info.json") << "[{\"op\": \"x\", \"id\": 0,";
        CHECK_THROWS_WITH(load_mnn_profile(dir, 2, 2), Catch::Contains("tiny.io_info.json: invalid JSON"));
    }
}

TEST_CASE("loader: linear_fit costs, per operator, clipped at zero") {
    // Costs at batch 2: 1.5, 2.0, 0.5 ms; at batch 4: 2.5, 4.0, 0.1 ms. Lines through two
    // points, evaluated at batch 8: 1.5 + 0.5*6 = 4.5; 2.0 + 1.0*6 = 8.0; 0.5 - 0.2*6 < 0 -> 0.
    TinyProfile p;
    const std::string dir = p.write();
    auto put = [&](const std::string& name, const json& j) { std::ofstream(fs::path(dir) / name) << j.dump(); };
    put("tiny.4.cost_info.json", json::parse(R"({"0": 2.5, "1": 4.0, "2": 0.1})"));
    for (const int b : {4, 8}) {
        put("tiny." + std::to_string(b) + ".tensor_size.json", p.sizes);
        put("tiny." + std::to_string(b) + ".resize_info.json", p.resize);
    }
    CHECK_THROWS_WITH(load_mnn_profile(dir, 8, 2), Catch::Contains("tiny.8.cost_info.json: no cost file for batch 8") &&
                                                        Catch::Contains("measured for batches 2 4"));
    const Workload w = load_mnn_profile(dir, 8, 2, CostModel::LinearFit);
    CHECK(w.ops[0].cost_ms == Approx(4.5).epsilon(1e-12));
    CHECK(w.ops[1].cost_ms == Approx(8.0).epsilon(1e-12));
    CHECK(w.ops[2].cost_ms == 0.0);
    CHECK_THAT(w.cost_note, Catch::Contains("linear fit over batches 2 4"));
    // At a measured batch the fit goes through the measured points (two batches).
    const Workload at4 = load_mnn_profile(dir, 4, 2, CostModel::LinearFit);
    CHECK(at4.ops[1].cost_ms == Approx(4.0).epsilon(1e-12));
    CHECK(profile_batches(dir, "cost_info") == std::vector<int>{2, 4});
    CHECK(profile_batches(dir, "tensor_size") == std::vector<int>{2, 4, 8});
    // One batch is not enough for a line.
    fs::remove(fs::path(dir) / "tiny.4.cost_info.json");
    CHECK_THROWS_WITH(load_mnn_profile(dir, 8, 2, CostModel::LinearFit), Catch::Contains("at least two batches (found: 2)"));
}
