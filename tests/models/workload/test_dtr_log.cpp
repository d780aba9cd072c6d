// DTR log import on tiny hand-written logs: exact ops, tensors, releases and peaks, and
// one test per kind of bad input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "models/alloc/os_allocator.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "models/alloc/replay.h"
#include "file_support.h"

using namespace memsim;

namespace {

std::string write_log(const std::string& file_name, const std::string& text) {
    const auto path = test::scratch_file(file_name);
    std::ofstream(path) << text;
    return path.string();
}

const char* kTinyLog = R"({"INSTRUCTION":"CONSTANT","NAME":"skipped_before_start"}
{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"INSTRUCTION":"CONSTANT","NAME":"w"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"w"}
{"INSTRUCTION":"CONSTANT","NAME":"x"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"x"}
{"ARGS":["x","w"],"INSTRUCTION":"CALL","NAME":"mm","RESULT":["y"],"TIME":"2000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"40","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
{"ARGS":["y"],"INSTRUCTION":"CALL","NAME":"view","RESULT":["v"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"40","NAME":"v"}
{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"v"}
{"INSTRUCTION":"RELEASE","NAME":"x"}
{"INSTRUCTION":"RELEASE","NAME":"y"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["v"],"INSTRUCTION":"MUTATE","MUTATE":[0],"NAME":"relu_","TIME":"500000"}
{"DST":"g","INSTRUCTION":"COPY","SRC":"v"}
{"ARGS":["g"],"INSTRUCTION":"CALL","NAME":"sum","RESULT":["s"],"TIME":"3000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"s"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"s"}
{"INSTRUCTION":"RELEASE","NAME":"g"}
{"INSTRUCTION":"RELEASE","NAME":"never_defined_is_ignored"}
{"DST":"v","INSTRUCTION":"COPY_FROM","SRC":"s"}
{"INSTRUCTION":"RELEASE","NAME":"w"}
)";

// The InputError message of loading `path` ("" when it loads or throws anything else).
std::string input_error_of(const std::string& path) {
    try {
        (void)load_dtr_log(path);
    } catch (const InputError& e) {
        return e.what();
    } catch (...) {
    }
    return "";
}

}  // namespace

TEST_CASE("dtr log: constants, alias, mutate, copy, copy_from and release map onto the workload") {
    const DtrLog log = load_dtr_log_detailed(write_log("tiny.log", kTinyLog));
    const Workload& w = log.workload;
    // Tensors: w, x (constants), y, v (alias of y), v$ (mutated version of v), s.
    REQUIRE(w.tensor_count() == 6);
    CHECK(w.tensors[0].name == "w");
    CHECK(w.tensors[0].constant);
    CHECK(w.tensors[0].producer == kNoOp);
    CHECK(w.tensors[0].bytes == 100);
    CHECK(w.tensors[1].bytes == 10);
    CHECK(w.tensors[2].bytes == 40);
    CHECK(w.tensors[3].alias_of == 2);
    CHECK(w.tensors[3].bytes == 0);
    CHECK(w.tensors[4].name == "v$");
    CHECK(w.tensors[4].bytes == 40);  // the size of v's storage (y)
    CHECK(w.tensors[4].alias_of == -1);
    CHECK(w.tensors[5].bytes == 8);

    REQUIRE(w.op_count() == 4);
    CHECK(w.ops[0].name == "mm");
    CHECK(w.ops[0].cost_ms == 2.0);
    CHECK(w.ops[0].inputs == std::vector<TensorId>{1, 0});
    CHECK(w.ops[0].outputs == std::vector<TensorId>{2});
    CHECK(w.ops[0].release.empty());
    CHECK(w.ops[1].outputs == std::vector<TensorId>{3});
    CHECK(w.ops[1].release == std::vector<TensorId>{1});  // x; y's storage still held by v
    CHECK(w.ops[2].name == "relu_");
    CHECK(w.ops[2].cost_ms == 0.5);
    CHECK(w.ops[2].inputs == std::vector<TensorId>{3});
    CHECK(w.ops[2].outputs == std::vector<TensorId>{4});
    CHECK(w.ops[2].release == std::vector<TensorId>{3, 2});  // old version v, then the storage y
    CHECK(w.ops[3].inputs == std::vector<TensorId>{4});
    CHECK(w.ops[3].release == std::vector<TensorId>{4, 0});  // v$ (COPY_FROM), then w
    CHECK(w.forward_end == 2);
    CHECK(w.compute_ms() == 6.5);
    CHECK(log.constant_arrival == std::vector<int>{0, 0, -1, -1, -1, -1});

    // 110 constants; +40 y = 150; -10 x = 140; +40 v$ = 180 (peak); -40 y; +8 s; -40 v$ - 100 w.
    OsAllocator os;
    CHECK(replay_peak(w, os) == 180);
    CHECK(dtr_log_baseline_peak(log) == 180);
}

TEST_CASE("dtr log: a constant appearing mid-log is resident from its arrival") {
    const char* text = R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"a","RESULT":["p"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"50","NAME":"p"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"p"}
{"INSTRUCTION":"RELEASE","NAME":"p"}
{"INSTRUCTION":"CONSTANT","NAME":"k"}
{"INSTRUCTION":"MEMORY","MEMORY":"30","NAME":"k"}
{"ARGS":["k"],"INSTRUCTION":"CALL","NAME":"b","RESULT":["q"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"5","NAME":"q"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"q"}
)";
    const DtrLog log = load_dtr_log_detailed(write_log("late_constant.log", text));
    CHECK(log.constant_arrival == std::vector<int>{-1, 1, -1});
    CHECK(log.workload.forward_end == 2);  // no BACKWARD annotation, no *backward* op
    // k arrives just before op 1 (after p was freed): max(50, 30 + 5) in both replays.
    CHECK(log.workload.ops[1].arrivals == std::vector<TensorId>{1});
    CHECK(log.workload.initial_tensors().empty());
    OsAllocator os;
    CHECK(replay_peak(log.workload, os) == 50);
    CHECK(dtr_log_baseline_peak(log) == 50);
    const std::vector<UsageRecord> records = usage_records(log.workload);
    REQUIRE(records.size() == 3);
    CHECK(records[1].tensor == 1);  // k lives from op 1
    CHECK(records[1].first_op == 1);
}

TEST_CASE("dtr log error: malformed JSON line") {
    const std::string path = write_log("bad_json.log", "{\"ANNOTATION\":\"START\",\"INSTRUCTION\":\"ANNOTATE\"}\n{\"INSTRUCTION\": \n");
    CHECK_THAT(input_error_of(path), Catch::Matchers::Contains(path + ":2: malformed JSON line '{\"INSTRUCTION\": '"));
}

TEST_CASE("dtr log error: unknown instruction") {
    const std::string path = write_log("bad_instruction.log", "{\"INSTRUCTION\":\"FROB\",\"NAME\":\"x\"}\n");
    CHECK_THAT(input_error_of(path), Catch::Matchers::Contains(path + ":1: unknown instruction \"FROB\""));
}

TEST_CASE("dtr log error: a CALL argument never defined") {
    const std::string path = write_log(
        "bad_arg.log", "{\"ARGS\":[\"zz\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"relu\",\"RESULT\":[\"r\"],\"TIME\":\"5\"}\n");
    CHECK_THAT(input_error_of(path), Catch::Matchers::Contains(path + ":1: CALL argument 'zz' was never defined"));
}

TEST_CASE("dtr log error: missing MEMORY line") {
    const std::string path = write_log("no_memory.log",
                                       "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n"
                                       "{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"w\"}\n");
    CHECK_THAT(input_error_of(path), Catch::Matchers::Contains(path + ":2: missing MEMORY line for 'w': found \"RELEASE\""));
}

TEST_CASE("dtr log error: non-integer size") {
    const std::string path = write_log("fractional.log",
                                       "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n"
                                       "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"12.5\",\"NAME\":\"w\"}\n");
    CHECK_THAT(input_error_of(path), Catch::Matchers::Contains(path + ":2: field MEMORY must be an integer, got \"12.5\""));
}

TEST_CASE("dtr log error: negative size") {
    const std::string path = write_log("negative.log",
                                       "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n"
                                       "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"-4\",\"NAME\":\"w\"}\n");
    CHECK_THAT(input_error_of(path), Catch::Matchers::Contains(path + ":2: field MEMORY must be >= 0, got -4"));
}
