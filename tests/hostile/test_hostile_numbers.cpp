// Issue 31, item 5: numbers that wrapped or vanished with exit 0. A budget past 2^63
// bytes, a measured cost no iteration can take, a size past 2^63 in a DTR log, and
// memsim's own summary.json and sweep.json read back are all checked like any input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hostile_support.h"
#include "models/checked_math.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "models/workload/mnn_profile.h"
#include "sim/report/point_results.h"
#include "sim/scenario/sweep_plan.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json summary_of(const Outcome& o, const fs::path& dir) {
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    return nlohmann::json::parse(read_file(dir / "summary.json"));
}

}  // namespace

TEST_CASE("hostile numbers: a budget at or past 2^63 bytes is a budget that never binds, like 2^62 (issue 31 example)") {
    CHECK(saturated_signed(std::uint64_t{1} << 62) == std::int64_t{1} << 62);
    CHECK(saturated_signed(std::uint64_t{1} << 63) == INT64_MAX);
    CHECK(saturated_signed(UINT64_MAX) == INT64_MAX);
    const fs::path dir = fresh_dir("budget_2_63");
    // The async prefetch guard (the example) and the budget and hideable selections all
    // compared the budget as a signed number: 2^63 turned negative and bound everywhere.
    for (const std::string& policy : {std::string("--set policy.swap.mode=async"),
                                      std::string("--set policy.swap.mode=async --set policy.swap.select=budget"),
                                      std::string("--set policy.swap.mode=semi_sync --set policy.swap.select=hideable")}) {
        INFO(policy);
        std::vector<nlohmann::json> runs;
        for (const char* budget : {"4611686018427387904B", "9223372036854775808B", "12000000000000000000B"}) {
            const fs::path out = dir / budget;
            runs.push_back(summary_of(run_memsim(fmt::format("run scenarios/example.yaml {} --set platform.memory.budget={} -q "
                                                             "--out {}", policy, budget, out.string())),
                                      out));
        }
        for (const char* field : {"time_ms", "stall_ms", "peak_bytes", "bytes_written", "bytes_read"}) {
            INFO(field);
            CHECK(runs[1][field] == runs[0][field]);
            CHECK(runs[2][field] == runs[0][field]);
        }
        CHECK(runs[1]["budget_bytes"] == 9223372036854775808ULL);  // reported as written
    }
}

TEST_CASE("hostile numbers: a measured cost no iteration can take is refused, also under linear_fit (issue 31 example)") {
    const fs::path dir = copy_example_profile("cost_1e308");
    // 1e308 ms in batch 2's costs: linear_fit computed inf - inf and made it about 0.
    std::string costs = read_file(dir / "mlp.2.cost_info.json");
    const std::size_t at = costs.find("\"3\":");
    REQUIRE(at != std::string::npos);
    costs.replace(at, costs.find_first_of(",}", at) - at, "\"3\": 1e308");
    write_text(dir / "mlp.2.cost_info.json", costs);
    for (const CostModel model : {CostModel::LinearFit, CostModel::Measured}) {
        CHECK_THROWS_WITH(load_mnn_profile(dir.string(), model == CostModel::LinearFit ? 4 : 2, std::nullopt, model),
                          Catch::Contains("mlp.2.cost_info.json") &&
                              Catch::Contains("op 3: cost 1e+308 ms is more than a whole iteration may take (1e+09 ms)"));
    }
    // 2e9 ms, finite but past the iteration's limit on its own (the variant).
    costs.replace(costs.find("1e308"), 5, "2000000000");
    write_text(dir / "mlp.2.cost_info.json", costs);
    CHECK_THROWS_WITH(load_mnn_profile(dir.string(), 4, std::nullopt, CostModel::LinearFit),
                      Catch::Contains("op 3: cost 2000000000 ms is more than a whole iteration may take"));
}

TEST_CASE("hostile numbers: DTR sizes and times at or past 2^63 say so, not 'got -1' (issue 31 example)") {
    const fs::path dir = fresh_dir("dtr_2_63");
    const auto log_with = [&](const std::string& name, const std::string& memory, const std::string& time = "\"1000\"") {
        return write_text(dir / name, "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n"
                                      "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":" + memory + ",\"NAME\":\"x\"}\n"
                                      "{\"ARGS\":[\"x\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[],\"TIME\":" + time + "}\n");
    };
    for (const std::string& size : {std::string("\"9223372036854775808\""), std::string("9223372036854775808"),
                                    std::string("18446744073709551615"), std::string("\"99999999999999999999999\"")}) {
        INFO(size);
        const std::string log = log_with("big.log", size);
        CHECK_THROWS_WITH(load_dtr_log(log), Catch::StartsWith(log + ":2: field MEMORY is ") &&
                                                 Catch::Contains("more than the largest allowed, 9007199254740992"));
    }
    // Just past 2^53 (each size fits, the workload's total would not): the same message.
    CHECK_THROWS_WITH(load_dtr_log(log_with("past53.log", "\"9007199254740993\"")), Catch::Contains("more than the largest allowed"));
    CHECK(load_dtr_log(log_with("at53.log", "\"9007199254740992\"")).tensors[0].bytes == 9007199254740992ULL);
    CHECK_THROWS_WITH(load_dtr_log(log_with("negative.log", "\"-9223372036854775809\"")), Catch::Contains("must be >= 0"));
    CHECK_THROWS_WITH(load_dtr_log(log_with("time.log", "\"1\"", "\"9223372036854775808\"")),
                      Catch::Contains(":3: field TIME is 9223372036854775808, more than the largest allowed"));
}

TEST_CASE("hostile numbers: a summary.json read back is checked field by field, like any input") {
    const fs::path dir = fresh_dir("summary_numbers");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"status": "ok", "message": "", "time_ms": -5})", "field time_ms is -5, not a number >= 0"},
        {R"({"status": "ok", "message": "", "peak_bytes": 1.5})", "field peak_bytes is 1.5, not a non-negative integer"},
        {R"({"status": "ok", "message": "", "peak_bytes": -1})", "field peak_bytes is -1, not a non-negative integer"},
        {R"({"status": "ok", "message": "", "forward_end": -3})", "field forward_end is -3, not a non-negative integer"},
        {R"({"status": "ok", "message": "", "budget_bytes": "lots"})", "field budget_bytes is \"lots\", not null or a number"},
        {R"({"status": "ok", "message": "", "details": {"forward_ms": "x"}})", "field details is"},
        {R"({"status": "ok", "message": "", "warnings": [1]})", "field warnings is [1], not a list of strings"},
        {R"({"status": "fine", "message": ""})", "status \"fine\" is none of ok, oom, thrash, host_full, infeasible, unsolved, error"},
        {R"({"status": "ok", "message": "", "time_ms": 1, "time_ms": 2})", "key \"time_ms\" is written twice"},
        {R"({"status": "ok", "message": "", "time_ms": 1e400})", "not valid JSON"},
    };
    int index = 0;
    for (const auto& [text, what] : cases) {
        const SweepPoint point{++index, {}};
        const fs::path summary = fs::path(point_dir(dir.string(), point)) / "summary.json";
        write_text(summary, text);
        INFO(text);
        const PointResult r = read_point_result(dir.string(), point);
        CHECK(r.status == "error");
        CHECK(r.summary.is_null());  // nothing of it reaches results.csv or the plots
        CHECK_THAT(r.message, Catch::Contains(summary.string() + ": unreadable") && Catch::Contains(what));
    }
    // What memsim writes passes: unknown extra fields are kept.
    const SweepPoint good{++index, {}};
    write_text(fs::path(point_dir(dir.string(), good)) / "summary.json",
               R"({"status": "oom", "message": "m", "time_ms": 2, "peak_bytes": 5, "budget_bytes": null, "extra": "kept"})");
    const PointResult g = read_point_result(dir.string(), good);
    CHECK(g.status == "oom");
    CHECK(g.summary["extra"] == "kept");
}

TEST_CASE("hostile numbers: a sweep.json read back holds numbered points and value lists memsim could have written") {
    nlohmann::json plan = {{"scenario_file", "/x.yaml"},
                           {"scenario_name", "x"},
                           {"overrides", nlohmann::json::array()},
                           {"parameters", {{{"key", "policy.swap.mode"}, {"values", {"none", "sync"}}}}},
                           {"points", {{{"index", 1}, {"values", {"none"}}}, {{"index", 2}, {"values", {"sync"}}}}},
                           {"output", {{"events", false}, {"gantt", false}, {"trace", false}, {"dir", "out/x"}}}};
    CHECK(plan_from_json(plan, "p.json").points.size() == 2);
    for (const nlohmann::json& index : {nlohmann::json(-1), nlohmann::json(0), nlohmann::json(1), nlohmann::json(4294967297ULL),
                                        nlohmann::json(1.5), nlohmann::json("2")}) {
        INFO(index.dump());
        nlohmann::json bad = plan;
        bad["points"][1]["index"] = index;  // 1 repeats the first point's folder
        CHECK_THROWS_WITH(plan_from_json(bad, "p.json"), Catch::Contains("p.json: point 2: index") &&
                                                             Catch::Contains("is not a positive number up to 1000000000"));
    }
    nlohmann::json empty = plan;
    empty["parameters"][0]["values"] = nlohmann::json::array();
    CHECK_THROWS_WITH(plan_from_json(empty, "p.json"), Catch::Contains("has an empty key or no values"));
    nlohmann::json many = plan;
    many["points"] = nlohmann::json::array();
    for (int i = 1; i <= 100001; ++i) many["points"].push_back({{"index", i}, {"values", {"none"}}});
    CHECK_THROWS_WITH(plan_from_json(many, "p.json"), Catch::Contains("not a list of at most 100000 points"));
}
