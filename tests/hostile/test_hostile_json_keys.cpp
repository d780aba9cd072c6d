// Issue 18, item 2 on JSON inputs: a key written twice in one object of a profile file or
// a DTR log line is an error naming the file (and line) and the key, as unknown keys are;
// before, the readers silently took one of the two values.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "hostile_support.h"
#include "models/workload/dtr_log.h"
#include "models/workload/mnn_profile.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void replace_once(const fs::path& path, const std::string& from, const std::string& to) {
    std::string text = read_all(path);
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    write_text(path, text);
}

}  // namespace

TEST_CASE("hostile json keys: a profile file with a key written twice is an error naming the file and the key") {
    const fs::path sizes = copy_example_profile("dup_sizes");
    replace_once(sizes / "mlp.4.tensor_size.json", "\"0\": 16,", "\"0\": 16,\n \"0\": 32,");
    CHECK_THROWS_WITH(load_mnn_profile(sizes.string(), 4),
                      Catch::Contains((sizes / "mlp.4.tensor_size.json").string() + ": key \"0\" at the top level is written twice"));

    const fs::path io = copy_example_profile("dup_io");
    replace_once(io / "mlp.io_info.json", "\"id\": 1,", "\"id\": 1,\n  \"id\": 1,");
    CHECK_THROWS_WITH(load_mnn_profile(io.string(), 4),
                      Catch::Contains((io / "mlp.io_info.json").string() + ": key \"id\" in [1] is written twice"));

    const fs::path costs = copy_example_profile("dup_costs");
    std::string cost_text = read_all(costs / "mlp.4.cost_info.json");
    const std::size_t brace = cost_text.find('{');
    REQUIRE(brace != std::string::npos);
    const std::size_t first_key_end = cost_text.find(',', brace);
    const std::string first_entry = cost_text.substr(brace + 1, first_key_end - brace - 1);  // e.g. "\"0\": 0.01"
    cost_text.insert(first_key_end + 1, first_entry + ",");
    write_text(costs / "mlp.4.cost_info.json", cost_text);
    CHECK_THROWS_WITH(load_mnn_profile(costs.string(), 4),
                      Catch::Contains((costs / "mlp.4.cost_info.json").string() + ": key ") &&
                          Catch::Contains("is written twice"));
}

TEST_CASE("hostile json keys: a DTR log line with a key written twice is an error naming file, line and key") {
    const fs::path dir = fresh_dir("dup_dtr");
    const std::string log = write_text(
        dir / "dup.log",
        "{\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"ARGS\":[],\"RESULT\":[\"y\"],\"TIME\":\"5\"}\n"
        "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"8\",\"NAME\":\"y\",\"MEMORY\":\"80000\"}\n"
        "{\"INSTRUCTION\":\"ALIAS\",\"ALIAS\":\"-1\",\"NAME\":\"y\"}\n");
    CHECK_THROWS_WITH(load_dtr_log(log), Catch::StartsWith(log + ":2: key \"MEMORY\" is written twice"));
    // A nested object counts its own keys; equal keys in different objects are fine.
    const std::string nested = write_text(
        dir / "nested.log", "{\"INSTRUCTION\":\"ANNOTATE\",\"ANNOTATION\":\"START\",\"X\":{\"A\":1,\"A\":2}}\n");
    CHECK_THROWS_WITH(load_dtr_log(nested), Catch::StartsWith(nested + ":1: key \"A\" is written twice"));
}
