// The optional keys of a DTR log (ROLE, ROLES, RECOMPUTES, FLOPS, BYTES, DTYPE,
// ANNOTATE MICRO_BATCH) and the roles inferred for a log without them, on hand-made logs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "file_support.h"

using namespace memsim;

namespace {

std::string write_keys_log(const std::string& file_name, const std::string& text) {
    const auto path = test::scratch_file("keys_" + file_name);
    std::ofstream(path) << text;
    return path.string();
}

std::string keys_input_error_of(const std::string& path) {
    try {
        (void)load_dtr_log(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::map<std::string, std::string> roles_by_name(const Workload& w) {
    std::map<std::string, std::string> out;
    for (const Tensor& t : w.tensors) out[t.name] = std::string(role_name(t.role));
    return out;
}

}  // namespace

namespace Catch {
template <>
struct StringMaker<std::map<std::string, int>> {
    static std::string convert(const std::map<std::string, int>& m) {
        std::string out;
        for (const auto& [k, v] : m) out += k + ": " + std::to_string(v) + "; ";
        return out;
    }
};
template <>
struct StringMaker<std::map<std::string, std::string>> {
    static std::string convert(const std::map<std::string, std::string>& m) {
        std::string out;
        for (const auto& [k, v] : m) out += k + "=" + v + " ";
        return out;
    }
};
}  // namespace Catch

namespace {

const std::string kHeader = R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"INSTRUCTION":"CONSTANT","NAME":"w","ROLE":"parameter"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"w"}
)";

// One constant, one CALL with every key, one MUTATE re-run by a later CALL.
const std::string kKeys = kHeader + R"({"ARGS":["w"],"INSTRUCTION":"CALL","NAME":"mm","RESULT":["y","v"],"TIME":"1000","FLOPS":"2000","BYTES":"340","DTYPE":"float32","ROLES":["activation","activation"]}
{"INSTRUCTION":"MEMORY","MEMORY":"40","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
{"INSTRUCTION":"MEMORY","MEMORY":"0","NAME":"v"}
{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"v"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["y"],"INSTRUCTION":"MUTATE","MUTATE":[0],"NAME":"relu_","TIME":"10","FLOPS":10,"BYTES":80,"DTYPE":"int64"}
{"ARGS":["w"],"INSTRUCTION":"CALL","NAME":"mm","RESULT":["r"],"TIME":"1000","RECOMPUTES":"0","DTYPE":"bfloat16","ROLES":["other"]}
{"INSTRUCTION":"MEMORY","MEMORY":"40","NAME":"r"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"r"}
)";

}  // namespace

TEST_CASE("dtr log keys: ROLE, ROLES, FLOPS, BYTES, DTYPE and RECOMPUTES load into the workload") {
    const Workload w = load_dtr_log(write_keys_log("keys.log", kKeys));
    REQUIRE(w.op_count() == 3);
    CHECK(w.ops[0].flops == 2000.0);
    CHECK(w.ops[0].bytes_moved == 340.0);
    CHECK(w.ops[0].dtype == Dtype::fp32);
    CHECK(w.ops[0].recomputes == kNoOp);
    CHECK(w.ops[1].flops == 10.0);  // plain JSON integers too
    CHECK(w.ops[1].bytes_moved == 80.0);
    CHECK(w.ops[1].dtype == Dtype::unknown);  // a PyTorch dtype without a peak rate
    CHECK(w.ops[2].recomputes == 0);
    CHECK(w.ops[2].dtype == Dtype::bf16);
    CHECK(w.ops[2].flops == 0.0);  // not given
    // w, y, v (alias of y), y$ (relu_'s version of y: an activation as y was), r.
    const auto roles = roles_by_name(w);
    CHECK(roles == std::map<std::string, std::string>{
                       {"w", "parameter"}, {"y", "activation"}, {"v", "activation"}, {"y$", "activation"}, {"r", "other"}});
    CHECK(w.role_rule == "recorded in the log (ROLE, ROLES)");
}

TEST_CASE("dtr log keys: a log without them loads with no FLOPs, no dtype and no recomputation") {
    std::string plain = kKeys;
    for (const char* key : {R"(,"FLOPS":"2000","BYTES":"340","DTYPE":"float32")", R"(,"FLOPS":10,"BYTES":80,"DTYPE":"int64")",
                            R"(,"RECOMPUTES":"0","DTYPE":"bfloat16")", R"(,"ROLES":["activation","activation"])",
                            R"(,"ROLES":["other"])", R"(,"ROLE":"parameter")"})
        plain.erase(plain.find(key), std::string(key).size());
    const Workload w = load_dtr_log(write_keys_log("plain.log", plain));
    for (const Op& op : w.ops) {
        CHECK(op.flops == 0.0);
        CHECK(op.bytes_moved == 0.0);
        CHECK(op.dtype == Dtype::unknown);
        CHECK(op.recomputes == kNoOp);
    }
    CHECK(w.micro_batches.empty());
    CHECK(w.forward_end == 1);
    CHECK(w.forward_end_rule == "dtr log: BACKWARD annotation");
    // No optimizer step: the constant stays 'other' and so does v, a view of it (ALIAS 0:
    // the call's argument w); forward outputs are activations (y$, relu_'s version of y,
    // too), the backward's output is 'other'.
    CHECK(roles_by_name(w) == std::map<std::string, std::string>{
                                  {"w", "other"}, {"y", "activation"}, {"v", "other"}, {"y$", "activation"}, {"r", "other"}});
    CHECK(w.role_rule.rfind("inferred from no optimizer step in the log", 0) == 0);
}

// An SGD update written the tracer's way (a CALL "add_" on the constant with a 0-byte
// result), one written the published way (MUTATE of the constant), an Adam-like state
// only the step uses, an input the forward reads and an unused buffer.
const std::string kStep = R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"INSTRUCTION":"CONSTANT","NAME":"x"}
{"INSTRUCTION":"MEMORY","MEMORY":"40","NAME":"x"}
{"INSTRUCTION":"CONSTANT","NAME":"w"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"w"}
{"INSTRUCTION":"CONSTANT","NAME":"v"}
{"INSTRUCTION":"MEMORY","MEMORY":"60","NAME":"v"}
{"INSTRUCTION":"CONSTANT","NAME":"m"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"m"}
{"INSTRUCTION":"CONSTANT","NAME":"b"}
{"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"b"}
{"ARGS":["x","w"],"INSTRUCTION":"CALL","NAME":"mm","RESULT":["y"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"40","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
{"ARGS":["y"],"INSTRUCTION":"CALL","NAME":"view","RESULT":["yv"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"0","NAME":"yv"}
{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"yv"}
{"ARGS":["yv","v"],"INSTRUCTION":"CALL","NAME":"mul","RESULT":["z"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"40","NAME":"z"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"z"}
{"ARGS":["z"],"INSTRUCTION":"CALL","NAME":"sum","RESULT":["loss"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"4","NAME":"loss"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"loss"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["loss"],"INSTRUCTION":"CALL","NAME":"ones_like","RESULT":["g0"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"4","NAME":"g0"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"g0"}
{"ARGS":["g0","x"],"INSTRUCTION":"CALL","NAME":"mm","RESULT":["gw"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"gw"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"gw"}
{"ARGS":["g0","yv"],"INSTRUCTION":"CALL","NAME":"mul","RESULT":["gv"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"60","NAME":"gv"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"gv"}
{"ARGS":["m"],"INSTRUCTION":"CALL","NAME":"mul_","RESULT":["d0"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"0","NAME":"d0"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"d0"}
{"ARGS":["m","gw"],"INSTRUCTION":"CALL","NAME":"add_","RESULT":["d1"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"0","NAME":"d1"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"d1"}
{"ARGS":["w","m"],"INSTRUCTION":"CALL","NAME":"add_","RESULT":["d2"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"0","NAME":"d2"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"d2"}
{"ARGS":["v","gv"],"INSTRUCTION":"MUTATE","MUTATE":[0],"NAME":"sub_","TIME":"1"}
)";

TEST_CASE("dtr log roles: inferred from the optimizer step on a hand-made log") {
    const Workload w = load_dtr_log(write_keys_log("step.log", kStep));
    CHECK(roles_by_name(w) == std::map<std::string, std::string>{
                                  {"x", "other"},        // read by the forward, never written: input or buffer
                                  {"w", "parameter"},    // the forward reads it, the step's add_ writes it
                                  {"v", "parameter"},    // the forward reads it, the step's MUTATE writes it
                                  {"v$", "parameter"},   // its new version
                                  {"m", "optimizer_state"},  // only the step uses it
                                  {"b", "other"},        // nothing uses it
                                  {"y", "activation"},   {"yv", "activation"}, {"z", "activation"},
                                  {"loss", "activation"},
                                  {"g0", "other"},       // a backward output the step does not read
                                  {"gw", "gradient"},    {"gv", "gradient"},
                                  {"d0", "other"},       {"d1", "other"},      {"d2", "other"}});
    CHECK(w.role_rule ==
          "inferred from the optimizer step (in-place writes to constants after the last BACKWARD, from op 7): "
          "parameters = constants the forward reads and the step writes (2); optimizer state = constants only the step "
          "uses (1); gradients = backward outputs the step reads (2); activations = outputs of forward ops; the rest 'other'");
}

TEST_CASE("dtr log roles: a recorded role wins, inference decides the rest") {
    std::string log = kStep;
    const std::string x = R"({"INSTRUCTION":"CONSTANT","NAME":"x"})";
    log.replace(log.find(x), x.size(), R"({"INSTRUCTION":"CONSTANT","NAME":"x","ROLE":"input"})");
    const Workload w = load_dtr_log(write_keys_log("mixed.log", log));
    const auto roles = roles_by_name(w);
    CHECK(roles.at("x") == "input");
    CHECK(roles.at("w") == "parameter");
    CHECK(w.role_rule.rfind("recorded in the log (ROLE, ROLES) for 1 of 16 tensors; the rest inferred from the optimizer step", 0) == 0);
}

// Two micro-batches: each with its forward and BACKWARD; the second's gradient
// accumulated into the first's (MUTATE), then one step.
const std::string kMicro = kHeader + R"({"ANNOTATION":"MICRO_BATCH","INSTRUCTION":"ANNOTATE"}
{"ARGS":["w"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["a"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"a"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"a"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["a"],"INSTRUCTION":"CALL","NAME":"f_backward","RESULT":["g"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"g"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"g"}
{"ANNOTATION":"MICRO_BATCH","INSTRUCTION":"ANNOTATE"}
{"ARGS":["w"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["a2"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"a2"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"a2"}
{"ARGS":["a2"],"INSTRUCTION":"CALL","NAME":"g","RESULT":["a3"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"a3"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"a3"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["a3"],"INSTRUCTION":"CALL","NAME":"f_backward","RESULT":["g2"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"g2"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"g2"}
{"ARGS":["g","g2"],"INSTRUCTION":"MUTATE","MUTATE":[0],"NAME":"add_","TIME":"1"}
{"ARGS":["w","g"],"INSTRUCTION":"CALL","NAME":"add_","RESULT":["d"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"0","NAME":"d"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"d"}
)";

TEST_CASE("dtr log keys: MICRO_BATCH annotations give each micro-batch its forward end") {
    std::string log = kMicro;
    const std::string w_role = R"(,"ROLE":"parameter")";
    log.erase(log.find(w_role), w_role.size());  // roles inferred
    const Workload w = load_dtr_log(write_keys_log("micro.log", log));
    REQUIRE(w.micro_batches.size() == 2);
    CHECK(w.micro_batches[0].first_op == 0);
    CHECK(w.micro_batches[0].forward_end == 1);
    CHECK(w.micro_batches[1].first_op == 2);
    CHECK(w.micro_batches[1].forward_end == 4);
    CHECK(w.forward_end == 1);  // the first micro-batch's, for the rules that know one forward pass
    CHECK(w.forward_end_rule == "dtr log: BACKWARD annotation of the first of 2 micro-batches");
    // Both forwards' outputs are activations; the step (op 6) reads g's accumulated version.
    CHECK(roles_by_name(w) == std::map<std::string, std::string>{{"w", "parameter"}, {"a", "activation"},
                                                                 {"g", "gradient"}, {"a2", "activation"},
                                                                 {"a3", "activation"}, {"g2", "other"},
                                                                 {"g$", "gradient"}, {"d", "other"}});
}

TEST_CASE("dtr log keys error: bad values name the file, the line and the value") {
    const auto error_with = [](const std::string& name, const std::string& from, const std::string& to) {
        std::string log = kKeys;
        log.replace(log.find(from), from.size(), to);
        return keys_input_error_of(write_keys_log(name, log));
    };
    CHECK_THAT(error_with("role.log", R"("ROLE":"parameter")", R"("ROLE":"weights")"),
               Catch::Contains("/keys_role.log:2: field ROLE holds \"weights\", not a role (roles: parameter, "
                               "gradient, optimizer_state, activation, input, other)"));
    CHECK_THAT(error_with("roles.log", R"("ROLES":["other"])", R"("ROLES":["other","other"])"),
               Catch::Contains(":11: field ROLES must list one role per RESULT entry (1), got [\"other\",\"other\"]"));
    CHECK_THAT(error_with("roles2.log", R"("ROLES":["other"])", R"("ROLES":[3])"),
               Catch::Contains(":11: field ROLES holds 3, not a role"));
    CHECK_THAT(error_with("dtype.log", R"("DTYPE":"float32")", R"("DTYPE":"float8")"),
               Catch::Contains(":4: field DTYPE is \"float8\", not a PyTorch dtype"));
    CHECK_THAT(error_with("flops.log", R"("FLOPS":"2000")", R"("FLOPS":"-1")"),
               Catch::Contains(":4: field FLOPS must be >= 0, got -1"));
    CHECK_THAT(error_with("bytes.log", R"("BYTES":80)", R"("BYTES":"many")"),
               Catch::Contains(":10: field BYTES must be an integer, got \"many\""));
    CHECK_THAT(error_with("recomputes.log", R"("RECOMPUTES":"0")", R"("RECOMPUTES":"2")"),
               Catch::Contains(":11: field RECOMPUTES is 2: it must be the index of an earlier operator (0 to 1"));
}

TEST_CASE("dtr log keys error: a micro-batch without its BACKWARD annotation") {
    std::string log = kMicro;
    const std::string backward = "{\"ANNOTATION\":\"BACKWARD\",\"INSTRUCTION\":\"ANNOTATE\"}\n";
    log.erase(log.find(backward), backward.size());  // the first micro-batch's
    CHECK_THAT(keys_input_error_of(write_keys_log("micro_nobackward.log", log)),
               Catch::Contains("/keys_micro_nobackward.log:11: MICRO_BATCH annotation, but the micro-batch "
                               "started at line 4 has no BACKWARD annotation"));
    std::string last = kMicro;
    last.erase(last.rfind(backward), backward.size());  // the second's
    CHECK_THAT(keys_input_error_of(write_keys_log("micro_nobackward2.log", last)),
               Catch::Contains("/keys_micro_nobackward2.log:12: the micro-batch this MICRO_BATCH annotation "
                               "starts has no BACKWARD annotation"));
}

TEST_CASE("dtr log roles: the shipped GPT trace has 4 bytes per parameter and Adam state twice that") {
    // examples/traced/gpt_b8.log: tools/trace/examples/gpt.py at its defaults has
    // V·h + s·h + L·(12h² + 13h) + 2h = 512·64 + 64·64 + 2·(12·64² + 13·64) + 2·64 = 136,960
    // parameters; AdamW keeps two moments per parameter and a 4-byte step counter for each
    // of its 28 parameter tensors.
    const Workload w = load_dtr_log(std::string(MEMSIM_SOURCE_DIR) + "/examples/traced/gpt_b8.log");
    std::map<TensorRole, std::uint64_t> constant_bytes;
    for (const Tensor& t : w.tensors)
        if (t.constant && t.alias_of < 0) constant_bytes[t.role] += t.bytes;
    CHECK(constant_bytes[TensorRole::parameter] == 4 * 136960);
    CHECK(constant_bytes[TensorRole::optimizer_state] == 2 * 4 * 136960 + 28 * 4);
    CHECK(constant_bytes[TensorRole::input] == 2 * 8 * 64 * 8);  // tokens and labels: 8 x 64 int64 each
    CHECK(w.role_rule == "recorded in the log (ROLE, ROLES)");
    std::uint64_t gradient_bytes = 0;
    for (const Tensor& t : w.tensors)
        if (t.role == TensorRole::gradient && t.alias_of < 0) gradient_bytes += t.bytes;
    CHECK(gradient_bytes == 4 * 136960);  // one gradient per parameter (the tied matrix once)
}

TEST_CASE("dtr log roles: inferred on the shipped GPT trace without its ROLE keys, they are the recorded ones") {
    // The same log with ROLE and ROLES removed: AdamW's step (weight decay, then the
    // moments, then the update) tells parameters, optimizer state and gradients apart;
    // only the inputs (tokens, labels) cannot be told from a buffer and stay 'other'.
    const std::string shipped = std::string(MEMSIM_SOURCE_DIR) + "/examples/traced/gpt_b8.log";
    std::ifstream in(shipped);
    std::string stripped, line;
    while (std::getline(in, line)) {
        nlohmann::json j = nlohmann::json::parse(line);
        j.erase("ROLE");
        j.erase("ROLES");
        stripped += j.dump() + "\n";
    }
    const Workload recorded = load_dtr_log(shipped);
    const Workload inferred = load_dtr_log(write_keys_log("gpt_without_roles.log", stripped));
    REQUIRE(inferred.tensor_count() == recorded.tensor_count());
    std::map<std::string, int> disagree;
    for (std::size_t t = 0; t < recorded.tensor_count(); ++t)
        if (recorded.tensors[t].role != inferred.tensors[t].role)
            ++disagree[std::string(role_name(recorded.tensors[t].role)) + " inferred " +
                       std::string(role_name(inferred.tensors[t].role))];
    // tokens, labels and the loss's reshape(-1) view of the labels.
    CHECK(disagree == std::map<std::string, int>{{"input inferred other", 3}});
    CHECK(inferred.role_rule.find("parameters = constants the forward reads and the step writes (28); optimizer state = "
                                  "constants only the step uses (84)") != std::string::npos);
}
