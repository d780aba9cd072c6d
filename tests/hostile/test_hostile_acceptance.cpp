// Issue 31, item 9: input that was accepted without a word. Profile keys written two ways,
// a MUTATE naming one tensor twice, duplicate keys and out-of-range numbers in a trace
// sidecar, an unchecked --disk-bandwidth, profiles `generate` wrote but memsim refused,
// spreadsheet formulas in CSV cells, and command lines printed without shell quoting.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "hostile_support.h"
#include "models/workload/dtr_log.h"
#include "models/workload/example_mlp.h"
#include "models/workload/input_error.h"
#include "models/workload/mnn_profile.h"
#include "sim/report/text_format.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

const std::string kLog = R"({"INSTRUCTION":"CONSTANT","NAME":"a"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"a"}
{"DST":"b","INSTRUCTION":"COPY","SRC":"a"}
{"ARGS":["a"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["y"],"TIME":"1000"}
{"INSTRUCTION":"MEMORY","MEMORY":"20","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
)";

// The example profile with one key of mlp.4.tensor_size.json renamed.
fs::path profile_with_size_key(const std::string& name, const std::string& from, const std::string& to) {
    const fs::path dir = copy_example_profile(name);
    std::string sizes = read_file(dir / "mlp.4.tensor_size.json");
    const std::size_t at = sizes.find("\"" + from + "\":");
    REQUIRE(at != std::string::npos);
    sizes.replace(at, from.size() + 2, "\"" + to + "\"");
    write_text(dir / "mlp.4.tensor_size.json", sizes);
    return dir;
}

}  // namespace

TEST_CASE("hostile acceptance: a profile key is an index written one way, as MNN writes it (issue 31 example)") {
    // "00" named tensor 0 a second time, " 1" and "+1" were read as 1, "1:2:3" was a scratch id nothing reads; "abc" was the only error.
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"0", "00"}, {"1", " 1"}, {"1", "+1"}, {"1", "1:2:3"}, {"1", "abc"}, {"1", "1:"}, {"1", "1:02"}, {"1", "-1"}}) {
        INFO(to);
        const fs::path dir = profile_with_size_key("keys_" + std::to_string(std::hash<std::string>{}(to)), from, to);
        CHECK_THROWS_WITH(load_mnn_profile(dir.string(), 4),
                          Catch::Contains("mlp.4.tensor_size.json: tensor '" + to + "': unknown tensor id (expected 'i' or "
                                                                                     "'i:k', decimal without sign or leading zero"));
    }
    // Cost keys alike.
    const fs::path dir = copy_example_profile("cost_keys");
    std::string costs = read_file(dir / "mlp.4.cost_info.json");
    costs.replace(costs.find("\"3\":"), 4, "\"03\":");
    write_text(dir / "mlp.4.cost_info.json", costs);
    CHECK_THROWS_WITH(load_mnn_profile(dir.string(), 4), Catch::Contains("key '03': unknown operator index"));
    CHECK(load_mnn_profile(copy_example_profile("keys_ok").string(), 4).ops.size() > 0);
}

TEST_CASE("hostile acceptance: a MUTATE naming one tensor twice is an error at load, naming the file and line (issue 31 example)") {
    const fs::path dir = fresh_dir("mutate_twice");
    // Through a COPY (the example: info accepted it and gave a wrong baseline peak).
    const std::string copy = write_text(dir / "copy.log", kLog + R"({"ARGS":["a","b"],"INSTRUCTION":"MUTATE","MUTATE":[0,1],"NAME":"add_","TIME":"1"})" "\n");
    CHECK_THROWS_WITH(load_dtr_log(copy), Catch::StartsWith(copy + ":7: MUTATE names one tensor twice: arguments 'a' and 'b' "
                                                                   "are the same tensor"));
    // The same name twice (the variant).
    const std::string same = write_text(dir / "same.log", kLog + R"({"ARGS":["y","y"],"INSTRUCTION":"MUTATE","MUTATE":["1",0],"NAME":"add_","TIME":"1"})" "\n");
    CHECK_THROWS_WITH(load_dtr_log(same), Catch::Contains(":7: MUTATE names one tensor twice: arguments 'y' and 'y'"));
    const Outcome o = run_memsim("info --dtr-log " + copy);
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains(copy + ":7:"));
    // Distinct tensors are fine, even a view and its storage.
    const std::string ok = write_text(dir / "ok.log", kLog + R"({"ARGS":["a","y"],"INSTRUCTION":"MUTATE","MUTATE":[0,1],"NAME":"add_","TIME":"1"})" "\n");
    CHECK(load_dtr_log(ok).ops.size() == 2);
}

TEST_CASE("hostile acceptance: a trace sidecar is read like any input: each key once, numbers in range, errors naming it") {
    const fs::path dir = fresh_dir("sidecar");
    const std::string log = write_text(dir / "t.log", kLog);
    const std::string sidecar = log + ".meta.json";
    for (const auto& [text, what] : std::vector<std::pair<std::string, std::string>>{
             {R"({"untraced_iteration_ns": 5, "tracer_peak_bytes": 7, "tracer_peak_bytes": 9})", "key \"tracer_peak_bytes\" is written twice"},
             {R"({"untraced_iteration_ns": 1e400, "tracer_peak_bytes": 7})", "not valid JSON"},
             {R"({"untraced_iteration_ns": 18446744073709551615, "tracer_peak_bytes": 7})", "field untraced_iteration_ns must be an integer from 1 to 2^53, got 18446744073709551615"},
             {R"({"untraced_iteration_ns": 5, "tracer_peak_bytes": -7})", "field tracer_peak_bytes must be an integer from 1 to 2^53, got -7"},
             {R"([5, 7])", "expected a JSON object, got array"}}) {
        INFO(text);
        write_text(sidecar, text);
        const Outcome o = run_memsim("info --dtr-log " + log);
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::StartsWith("memsim: error: " + sidecar + ": ") && Catch::Contains(what));
    }
    write_text(sidecar, R"({"untraced_iteration_ns": 2000, "tracer_peak_bytes": 7})");
    const Outcome ok = run_memsim("info --dtr-log " + log);
    CHECK(ok.code == 0);
    CHECK_THAT(ok.out, Catch::Contains("traced_untraced_iteration_ns 2000"));
}

TEST_CASE("hostile acceptance: info --disk-bandwidth has the range platform.disk.bandwidth has") {
    for (const auto& [rate, what] : std::vector<std::pair<std::string, std::string>>{
             {"1e16B/s", "1e+16 B/s is outside 1 B/s .. 1000000000000000 B/s"},
             {"0.5B/s", "0.5 B/s is outside"},
             {"0B/s", "a rate must be > 0"},
             {"fast", "is not a rate"}}) {
        INFO(rate);
        const Outcome o = run_memsim("info examples/mlp --batch 4 --disk-bandwidth " + rate);
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::StartsWith("memsim: error: --disk-bandwidth '" + rate + "': ") && Catch::Contains(what));
    }
    CHECK(run_memsim("info examples/mlp --batch 4 --disk-bandwidth 1000TB/s").code == 0);
}

TEST_CASE("hostile acceptance: memsim generate writes only profiles memsim loads (issue 31 example)") {
    const fs::path dir = fresh_dir("generate_loads");
    // Batch 2^31 - 1: its matrix products cost more than an iteration may take.
    const Outcome big = run_memsim("generate " + (dir / "big").string() + " --batch 2147483647");
    CHECK(big.code == 1);
    CHECK_THAT(big.err, Catch::Contains("brings the iteration's compute time past 1e+09 ms"));
    CHECK_FALSE(fs::exists(dir / "big" / "mlp.2147483647.tensor_size.json"));
    // A nine-digit batch was written but not listed as measured (linear_fit saw none).
    const std::string nine = (dir / "nine").string();
    REQUIRE(run_memsim("generate " + nine + " --batch 100000000 123456789 110000000 --layers 1 --width 1").code == 0);
    const Outcome fit = run_memsim("info " + nine + " --batch 110000000 --costs linear_fit");
    INFO(fit.err);
    CHECK(fit.code == 0);
    // Every shape generate accepts, memsim loads.
    for (const std::string& shape : {std::string("--batch 3 --layers 1 --width 1"), std::string("--batch 50000000 --layers 1")}) {
        INFO(shape);
        const fs::path out = dir / std::to_string(std::hash<std::string>{}(shape));
        REQUIRE(run_memsim("generate " + out.string() + " " + shape).code == 0);
        for (const auto& e : fs::directory_iterator(out)) {
            const std::string name = e.path().filename().string();
            if (name.find(".tensor_size.json") == std::string::npos) continue;
            const std::string batch = name.substr(4, name.find('.', 4) - 4);
            CHECK(run_memsim("info " + out.string() + " --batch " + batch).code == 0);
        }
    }
}

TEST_CASE("hostile acceptance: spreadsheet formulas in CSV cells are neutralised, numbers are not (issue 31 example)") {
    // OWASP: a text cell starting with =, +, -, @, tab or carriage return gets a leading '.
    CHECK(csv_field("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0");
    CHECK(csv_field("@SUM(A1)") == "'@SUM(A1)");
    CHECK(csv_field("+x") == "'+x");
    CHECK(csv_field("-x,y") == "\"'-x,y\"");
    CHECK(csv_field("\tx") == "'\tx");
    CHECK(csv_field("=\"q\"") == "\"'=\"\"q\"\"\"");
    for (const char* number : {"-1", "+2", "-0.5", "-1e-07", "1E+30", ".5", "-3."}) CHECK(csv_field(number) == number);
    for (const char* text : {"-", "-e5", "+.", "-1x", "--1"}) CHECK(csv_field(text) == std::string("'") + text);
    CHECK(csv_field("ok") == "ok");
    // In events.csv: an operator of a DTR log named as a formula.
    const fs::path dir = fresh_dir("csv_injection");
    const std::string log = write_text(dir / "f.log", R"log({"ARGS":[],"INSTRUCTION":"CALL","NAME":"=HYPERLINK(\"http://x\")","RESULT":["y"],"TIME":"1000"}
{"INSTRUCTION":"MEMORY","MEMORY":"20","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
)log");
    const std::string scenario = write_text(dir / "s.yaml", "name: s\nworkload: {dtr_log: " + log + "}\noutput: {events: true}\n"
                                                            "sweep: {description: ['=SUM(1+1)', '@x', plain]}\n");
    REQUIRE(run_memsim("run " + scenario + " -q --out " + (dir / "run").string()).code == 0);
    const std::string events = read_file(dir / "run" / "events.csv");
    CHECK_THAT(events, Catch::Contains(",\"'=HYPERLINK(\"\"http://x\"\")\","));
    CHECK_THAT(events, !Catch::Contains(",=HYPERLINK"));
    // In results.csv: a swept value.
    REQUIRE(run_memsim("sweep " + scenario + " -j 1 --out " + (dir / "sweep").string()).code == 0);
    const std::string results = read_file(dir / "sweep" / "results.csv");
    CHECK_THAT(results, Catch::Contains("\n0001,'=SUM(1+1),ok,"));
    CHECK_THAT(results, Catch::Contains("\n0002,\"\"\"@x\"\"\",ok,"));  // "@x": quoted for --set (@ cannot start a plain YAML value)
    CHECK_THAT(results, Catch::Contains("\n0003,plain,ok,"));
}

TEST_CASE("hostile acceptance: the command lines --emit-jobs prints are quoted for the shell (issue 31 example)") {
    const fs::path dir = fresh_dir("emit_quoting") / "it's a dir";
    const std::string scenario =
        write_text(fresh_dir("emit_quoting_in") / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 2}\nsweep: {workload.n: [1, 2]}\n");
    const Outcome o = run_memsim("sweep " + scenario + " --emit-jobs " + shell_quote(dir.string()));
    REQUIRE(o.code == 0);
    const std::string jobs = (dir / "jobs.txt").string();
    CHECK_THAT(o.out, Catch::Contains("run them:   parallel --jobs 8 < " + shell_quote(jobs) + "\n"));
    CHECK_THAT(o.out, Catch::Contains("then:       memsim merge " + shell_quote(dir.string()) + "\n"));
    CHECK_THAT(o.out, Catch::Contains("--wrap " + shell_quote("sed -n \"${SLURM_ARRAY_TASK_ID}p\" " + shell_quote(jobs) + " | bash")));
    // Pasted into bash, the quoted paths are the paths.
    const fs::path echo = fresh_dir("emit_quoting_echo") / "words";
    const std::string merge_line = o.out.substr(o.out.find("then:       memsim merge ") + 25);
    const std::string cmd = "printf '%s\\n' " + merge_line.substr(0, merge_line.find('\n')) + " > " + shell_quote(echo.string());
    REQUIRE(std::system(("bash -c " + shell_quote(cmd)).c_str()) == 0);
    CHECK(read_file(echo) == dir.string() + "\n");
}
