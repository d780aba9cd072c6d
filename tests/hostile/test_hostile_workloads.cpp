// Issue 18, items 3 to 6 on workloads: byte totals never wrap, costs add up to a finite
// time, every input file is what it claims, DTR indices and profile batches are strict,
// and sizes are checked before anything is built.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>

#include "hostile_support.h"
#include "models/checked_math.h"
#include "models/workload/dtr_log.h"
#include "models/workload/example_mlp.h"
#include "models/workload/input_error.h"
#include "models/workload/mnn_profile.h"
#include "models/workload/workload_limits.h"
#include "test_support.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

const std::string kOneCall = R"({"INSTRUCTION":"CONSTANT","NAME":"x"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"x"}
{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["y"],"TIME":"1000"}
{"INSTRUCTION":"MEMORY","MEMORY":"20","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
)";

}  // namespace

TEST_CASE("hostile workloads: checked byte arithmetic") {
    CHECK(checked_add(1, 2) == 3u);
    CHECK_FALSE(checked_add(~std::uint64_t{0}, 1));
    CHECK(checked_mul(std::uint64_t{1} << 31, std::uint64_t{1} << 32) == std::uint64_t{1} << 63);
    CHECK_FALSE(checked_mul(std::uint64_t{1} << 32, std::uint64_t{1} << 32));
    CHECK(checked_align_up(65, 64) == 128u);
    CHECK(checked_align_up(128, 64) == 128u);
    CHECK_FALSE(checked_align_up(~std::uint64_t{0} - 1, 64));
}

TEST_CASE("hostile workloads: tensor bytes whose total passes 2^53 are refused, naming the tensor") {
    const std::uint64_t half = std::uint64_t{1} << 62;
    const Workload w = WorkloadBuilder().op(1, half, {}, {}).op(1, half, {0}, {}).op(1, half, {1}, {}).build(1);
    CHECK_THROWS_WITH(check_workload_limits(w), Catch::Contains("test: tensor '0'") && Catch::Contains("2^53"));
    const Workload fits = WorkloadBuilder().op(1, kMaxTotalBytes / 2, {}, {}).op(1, kMaxTotalBytes / 2, {0}, {}).build(1);
    CHECK_NOTHROW(check_workload_limits(fits));
}

TEST_CASE("hostile workloads: operator costs that add up past a finite time are refused") {
    const Workload w = WorkloadBuilder().op(1e308, 8, {}, {}).op(1e308, 8, {0}, {}).build(1);
    CHECK_THROWS_WITH(check_workload_limits(w), Catch::Contains("op 0 (op0): cost 1e+308 ms"));
    const fs::path dir = copy_example_profile("huge_cost");
    std::string costs = read_file(dir / "mlp.4.cost_info.json");
    costs.replace(costs.find("\"0\": ") + 5, costs.find(',', costs.find("\"0\": ")) - costs.find("\"0\": ") - 5, "1e308");
    write_text(dir / "mlp.4.cost_info.json", costs);
    CHECK_THROWS_WITH(load_mnn_profile(dir.string(), 4), Catch::Contains(dir.string()) && Catch::Contains("op 0"));
}

TEST_CASE("hostile workloads: plan --records refuses totals that do not fit, unsorted records and huge --align") {
    const fs::path dir = fresh_dir("records");
    const std::string big = write_text(dir / "big.json", R"({"records": [{"size": 9223372036854775807, "first": 0, "last": 1},
        {"size": 9223372036854775807, "first": 0, "last": 1}, {"size": 9223372036854775807, "first": 0, "last": 1}]})");
    const Outcome o = run_memsim("plan --records " + big + " -s greedy_by_size --offsets");
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains(big + ": records[0].size: 9223372036854775807"));
    CHECK(o.out.empty());
    const std::string unsorted = write_text(dir / "unsorted.json", R"({"records": [{"size": 8, "first": 2, "last": 3},
        {"size": 16, "first": 0, "last": 1}]})");
    const Outcome u = run_memsim("plan --records " + unsorted + " -s greedy_in_order");
    CHECK(u.code == 1);
    CHECK_THAT(u.err, Catch::Contains(unsorted + ": records[1].first: 0 is before records[0].first 2"));
    const std::string ok = write_text(dir / "ok.json", R"({"records": [{"size": 8, "first": 0, "last": 1}]})");
    const Outcome a = run_memsim("plan --records " + ok + " -s greedy_by_size --offsets --align 1099511627776");
    CHECK(a.code == 1);
    CHECK_THAT(a.err, Catch::Contains("--align: 1099511627776 is out of range"));
}

TEST_CASE("hostile workloads: a DTR log that is not a regular non-empty file with operators is refused") {
    const fs::path dir = fresh_dir("dtr_kinds");
    fs::create_directories(dir / "a_directory");
    const std::string empty = write_text(dir / "empty.log", "");
    const std::string blank = write_text(dir / "blank.log", "\n  \n\t\n");
    const std::string constants_only = write_text(dir / "constants.log", kOneCall.substr(0, kOneCall.find("{\"ARGS")));
    REQUIRE(::mkfifo((dir / "fifo.log").c_str(), 0600) == 0);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {(dir / "a_directory").string(), "is a directory"},
        {empty, "empty"},
        {blank, "no operators"},
        {constants_only, "no operators"},
        {"/dev/null", "device"},
        {"/dev/zero", "device"},
        {(dir / "fifo.log").string(), "FIFO"},
        {(dir / "missing.log").string(), "No such file"}};
    for (const auto& [path, what] : cases) {
        INFO(path);
        CHECK_THROWS_WITH(load_dtr_log(path), Catch::StartsWith(path + ": ") && Catch::Contains(what));
    }
    CHECK(load_dtr_log(write_text(dir / "ok.log", kOneCall)).ops.size() == 1);
}

TEST_CASE("hostile workloads: MUTATE indices are strict integers, each listed once") {
    const fs::path dir = fresh_dir("dtr_mutate");
    auto log_with = [&](const std::string& name, const std::string& mutate) {
        return write_text(dir / name, kOneCall + R"({"ARGS":["y"],"INSTRUCTION":"MUTATE","MUTATE":)" + mutate +
                                          R"(,"NAME":"relu_","TIME":"10"})" + "\n");
    };
    CHECK(load_dtr_log(log_with("ok.log", "[\"0\"]")).ops.size() == 2);
    CHECK_THROWS_WITH(load_dtr_log(log_with("abc.log", "[\"abc\"]")), Catch::Contains(":6: MUTATE index \"abc\" is not an integer"));
    CHECK_THROWS_WITH(load_dtr_log(log_with("half.log", "[\"0x\"]")), Catch::Contains("MUTATE index \"0x\""));
    CHECK_THROWS_WITH(load_dtr_log(log_with("float.log", "[0.5]")), Catch::Contains("MUTATE index 0.5"));
    CHECK_THROWS_WITH(load_dtr_log(log_with("twice.log", "[0, \"0\"]")), Catch::Contains("MUTATE index \"0\" is listed twice"));
}

TEST_CASE("hostile workloads: profile files must be regular files, batches in file names are strict") {
    const fs::path dir = copy_example_profile("profile_kinds");
    fs::remove(dir / "mlp.4.resize_info.json");
    fs::create_directory(dir / "mlp.4.resize_info.json");
    CHECK_THROWS_WITH(load_mnn_profile(dir.string(), 4),
                      Catch::Contains((dir / "mlp.4.resize_info.json").string() + ": cannot open profile file: it is a directory"));

    const fs::path padded = copy_example_profile("profile_padded");
    fs::copy_file(padded / "mlp.4.cost_info.json", padded / "mlp.004.cost_info.json");
    CHECK_THROWS_WITH(load_mnn_profile(padded.string(), 4, std::nullopt, CostModel::LinearFit),
                      Catch::Contains("mlp.004.cost_info.json: batch number '004'"));

    // linear_fit needs two distinct measured batches.
    const fs::path single = copy_example_profile("profile_single");
    for (const char* b : {"1", "2", "8"}) fs::remove(single / (std::string("mlp.") + b + ".cost_info.json"));
    CHECK_THROWS_WITH(load_mnn_profile(single.string(), 4, std::nullopt, CostModel::LinearFit),
                      Catch::Contains("linear_fit needs cost files for at least two batches (found: 4)"));
}

TEST_CASE("hostile workloads: a generated workload too large for the machine is refused before it is built") {
    MlpShape shape;
    shape.layers = 100000000;
    CHECK_THROWS_WITH(make_example_mlp(shape), Catch::Contains("example mlp") && Catch::Contains("GiB"));
    MlpShape wide;
    wide.hidden = 2000000000;
    CHECK_THROWS_WITH(make_example_mlp(wide), Catch::Contains("past 2^53 bytes"));
}

TEST_CASE("hostile workloads: planning memory follows the records, not the largest op index") {
    const fs::path dir = fresh_dir("sparse_records");
    const std::string sparse = write_text(dir / "sparse.json", R"({"records": [{"size": 16, "first": 0, "last": 1},
        {"size": 8, "first": 1, "last": 100000000}, {"size": 4, "first": 100000000, "last": 100000000}]})");
    // 1 GB of address space: the per-operator sweeps of 10^8 operators took 4.7 GB. The
    // sanitizer build reserves terabytes of shadow address space, so there it runs unbounded.
#ifdef MEMSIM_SANITIZE
    const char* limit = "";
#else
    const char* limit = "ulimit -v 1000000;";
#endif
    for (const char* strategy : {"greedy_by_breadth", "greedy_by_size", "mxnet", "best_offsets"}) {
        INFO(strategy);
        const Outcome o = run_memsim_with(limit, std::string("plan --records ") + sparse + " -s " + strategy);
        CHECK(o.code == 0);
        CHECK_THAT(o.out, Catch::Contains("\"total\":24"));
    }
}

TEST_CASE("hostile workloads: a number too large for a double is an error naming the file and line (fuzz finding)") {
    const fs::path dir = fresh_dir("json_overflow");
    const std::string log = write_text(dir / "big.log", "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n"
                                                        "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":1e400,\"NAME\":\"x\"}\n");
    CHECK_THROWS_WITH(load_dtr_log(log), Catch::StartsWith(log + ":2: malformed JSON line"));
    const std::string records = write_text(dir / "big.json", R"({"records": [{"size": 1e347, "first": 0, "last": 1}]})");
    const Outcome o = run_memsim("plan --records " + records + " -s naive");
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::StartsWith("memsim: error: " + records + ": not valid JSON"));
}
