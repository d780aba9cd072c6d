// The published DTR runtime's per-storage rules (docs/recompute.md, "DTR semantics") on
// hand-made DTR logs, each traced by hand, checked in the engine (policy.semantics: dtr)
// and in the reference runtime alike. Every op costs 1 ms unless said; sizes in bytes;
// heuristic dtr: cost / (size x staleness), the clock counting op time only.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "dtr_reference_runtime.h"
#include "file_support.h"
#include "models/workload/dtr_log.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"

using namespace memsim;

namespace {

std::string call(const std::string& name, const std::vector<std::string>& args, const std::string& result,
                 std::uint64_t bytes, int alias = -1, int ms = 1) {
    std::string a;
    for (const std::string& x : args) a += (a.empty() ? "\"" : ",\"") + x + "\"";
    std::string text = fmt::format(R"({{"ARGS":[{}],"INSTRUCTION":"CALL","NAME":"{}","RESULT":[{}],"TIME":"{}"}})", a, name,
                                   result.empty() ? "" : "\"" + result + "\"", ms * 1000000) + "\n";
    if (!result.empty())
        text += fmt::format(R"({{"INSTRUCTION":"MEMORY","MEMORY":"{}","NAME":"{}"}})", bytes, result) + "\n" +
                fmt::format(R"({{"ALIAS":"{}","INSTRUCTION":"ALIAS","NAME":"{}"}})", alias, result) + "\n";
    return text;
}

std::string release(const std::string& name) { return fmt::format(R"({{"INSTRUCTION":"RELEASE","NAME":"{}"}})", name) + "\n"; }

std::string constant(const std::string& name, std::uint64_t bytes) {
    return fmt::format(R"({{"INSTRUCTION":"CONSTANT","NAME":"{}"}})", name) + "\n" +
           fmt::format(R"({{"INSTRUCTION":"MEMORY","MEMORY":"{}","NAME":"{}"}})", bytes, name) + "\n";
}

std::string copy_from(const std::string& dst, const std::string& src) {
    return fmt::format(R"({{"DST":"{}","INSTRUCTION":"COPY_FROM","SRC":"{}"}})", dst, src) + "\n";
}

std::string mutate(const std::string& name, const std::string& arg) {
    return fmt::format(R"({{"ARGS":["{}"],"INSTRUCTION":"MUTATE","MUTATE":[0],"NAME":"{}","TIME":"1000000"}})", arg, name) +
           "\n";
}

DtrLog load(const std::string& file_name, const std::string& body) {
    const auto path = test::scratch_file(file_name);
    std::ofstream(path) << R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"})" << "\n" << body;
    return load_dtr_log_detailed(path.string());
}

struct StorageOutcome {
    std::string status;
    int recomputed = 0;
    double recompute_ms = 0, clock_ms = 0;
};

StorageOutcome engine(const DtrLog& log, std::uint64_t budget) {
    const Workload& w = log.workload;
    const Scenario s = parse_scenario(
        fmt::format("workload: {{synthetic: mlp}}\nplatform: {{memory: {{budget: {}B}}}}\n"
                    "policy: {{allocator: os, semantics: dtr, recompute: {{heuristic: dtr}}}}\n",
                    budget),
        "test");
    const RunResult r = simulate(w, s);
    return {r.summary.status, static_cast<int>(r.summary.recomputed_ops), r.summary.recompute_ms, r.summary.time_ms};
}

StorageOutcome reference(const DtrLog& log, std::uint64_t budget) {
    auto heuristic = make_eviction_heuristic("dtr", {});
    DtrRuntimeOptions options;
    options.budget_bytes = budget;
    options.final_requests = *log.workload.end_of_log_requests;
    const DtrRuntimeResult r = run_dtr_reference(log.workload, *heuristic, options);
    return {r.status == RecomputeStatus::Ok ? "ok" : "stopped", r.recomputed_ops, r.recompute_ms, r.clock_ms};
}

void check_both(const DtrLog& w, std::uint64_t budget, int recomputed, double recompute_ms, double clock_ms) {
    for (const auto& [who, o] : {std::pair{"engine", engine(w, budget)}, std::pair{"reference", reference(w, budget)}}) {
        INFO(who);
        CHECK(o.status == "ok");
        CHECK(o.recomputed == recomputed);
        CHECK(o.recompute_ms == Approx(recompute_ms));
        CHECK(o.clock_ms == Approx(clock_ms));
    }
}

}  // namespace

TEST_CASE("dtr rules: a view used after its storage was evicted and brought back re-runs its view op") {
    // Budget 8. f -> x (4 B), clock 1; view(x) -> v, clock 2, x stamped 2; g -> y (4 B),
    // clock 3; g2 -> z (4 B) must evict: x scores cost 2 (f + view) / (4 x 1) = 0.5, y
    // 1 / (4 x 0) = inf: x goes and v is undefined. h(v): v's view op needs x: recompute f
    // (evicting y: 1 / (4 x 1) against z's inf), clock 5, then the view op again, clock 6
    // (the storage is back, the view is not), then h, clock 7. Two recomputations.
    const DtrLog w = load("view_after_eviction.log", call("f", {}, "x", 4) + call("view", {"x"}, "v", 0, 0) +
                                                           call("g", {}, "y", 4) + call("g2", {}, "z", 4) +
                                                           call("h", {"v"}, "u", 0) + release("y") + release("z") +
                                                           release("u"));
    check_both(w, 8, 2, 2.0, 7.0);
}

TEST_CASE("dtr rules: a storage's cost grows when a later op creates a view in it") {
    // Budget 8. g -> b (4 B), clock 1; view(b) -> v costs 10 ms: b's cost is 11, clock
    // 11, b stamped 11; f -> a (4 B, 2 ms), clock 13; tick (no output), clock 14; h -> c
    // needs 4 B: b scores 11 / (4 x 3) = 0.92, a 2 / (4 x 1) = 0.5: a goes (with the
    // producer's cost alone b would score 1 / 12 and go). use(a, b): recompute f (2 ms,
    // evicting c), clock 17, then use, clock 18.
    const DtrLog w = load("cost_grows.log", call("g", {}, "b", 4) + call("view", {"b"}, "v", 0, 0, 10) +
                                                  call("f", {}, "a", 4, -1, 2) + call("tick", {}, "", 0) +
                                                  call("h", {}, "c", 4) + call("use", {"a", "b"}, "", 0) +
                                                  release("a") + release("b") + release("v") + release("c"));
    check_both(w, 8, 1, 2.0, 18.0);
}

TEST_CASE("dtr rules: a pending output counts as evicted in a neighbourhood sum") {
    // Budget 12. f -> X (1 B), g(X) -> J (4 B), h -> I (4 B), clock 3; m -> M (4 B, 3 ms)
    // evicts J (1/4 against X's 1/2 and I's inf), clock 6; n -> N (4 B) evicts I (1/12;
    // X scores (1 + J's 1) / (1 x 5)), clock 7. Q(I, J) -> P (4 B, 4 ms): P exists from
    // the request on. Rematerializing I needs 4 B: X scores (1 + J's 1 + P's 4) / (1 x 6)
    // = 1.0, M 3 / (4 x 1) = 0.75: M goes (without P in X's sum X would, scoring 1/3, and
    // f would be recomputed too). h again (clock 8, evicting M), g again (clock 9,
    // evicting N), Q (clock 13, evicting X): two recomputations.
    const DtrLog w = load("pending_output.log",
                          call("f", {}, "X", 1) + call("g", {"X"}, "J", 4) + call("h", {}, "I", 4) +
                              call("m", {}, "M", 4, -1, 3) + call("n", {}, "N", 4) + call("Q", {"I", "J"}, "P", 4, -1, 4) +
                              release("X") + release("J") + release("I") + release("M") + release("N") + release("P"));
    check_both(w, 12, 2, 2.0, 13.0);
}

TEST_CASE("dtr rules: a tensor still referenced at the end is brought back and kept") {
    // Budget 8. f -> a, g -> b (4 B each), h -> c evicts a (1/4 against b's inf), clock 3;
    // b and c are released (freed at once). The end requests a once more: f runs again
    // (clock 4), a recomputation.
    const DtrLog w = load("end_of_log.log", call("f", {}, "a", 4) + call("g", {}, "b", 4) + call("h", {}, "c", 4) +
                                                release("b") + release("c"));
    REQUIRE(w.workload.end_of_log_requests == std::vector<TensorId>{0});
    check_both(w, 8, 1, 1.0, 4.0);
}

TEST_CASE("dtr rules: a constant is resident from its CONSTANT line, not from the start") {
    // Budget 8. f -> a (8 B), released at once; the constant k (8 B) arrives after it and
    // use(k) runs: clock 2, nothing recomputed. Resident from op 0, k would leave no room
    // for a (out of memory).
    const DtrLog w = load("constant_line.log", call("f", {}, "a", 8) + release("a") + constant("k", 8) +
                                                   call("use", {"k"}, "", 0));
    check_both(w, 8, 0, 0.0, 2.0);
}

TEST_CASE("dtr rules: the end-of-log requests follow the names, a COPY_FROM target keeping its place") {
    // Budget 8, 4 B each. fa -> a (clock 1), fc -> c (clock 2); fe -> e evicts a (1/4
    // against c's inf), clock 3; gb(e) -> b evicts c (1/4; e is locked), clock 4, and e is
    // released (freed). fx -> x, clock 5; fy -> y evicts b ((1 + e's 1) / (4 x 1) against
    // x's inf), clock 6. COPY_FROM a <- b: the name a (bound first) now names b, the old a
    // is released; x and y too. Memory is empty. The names in first-binding order are
    // a, c, e, b, x, y: the requests are b (as a), c, b. b: fe again (clock 7), gb (clock
    // 8), b pinned; c: fc evicts e (clock 9), pinned; b again: nothing. Three
    // recomputations. In creation order (c, then b) c would be pinned first, and gb would
    // find e locked and c pinned: out of memory.
    const DtrLog w = load("end_copy_from.log", call("fa", {}, "a", 4) + call("fc", {}, "c", 4) + call("fe", {}, "e", 4) +
                                                   call("gb", {"e"}, "b", 4) + release("e") + call("fx", {}, "x", 4) +
                                                   call("fy", {}, "y", 4) + copy_from("a", "b") + release("x") +
                                                   release("y"));
    // Tensors: a 0, c 1, e 2, b 3, x 4, y 5.
    REQUIRE(w.workload.end_of_log_requests == std::vector<TensorId>{3, 1, 3});
    check_both(w, 8, 3, 3.0, 9.0);
}

TEST_CASE("dtr rules: the end-of-log requests follow the names, a MUTATE's new version keeping its place") {
    // Budget 8, 4 B each. fa -> a (clock 1), fc -> c (clock 2); m mutates a: a is locked,
    // so c goes; the new version a' (clock 3) takes the name a, the old a is released
    // (freed). fx -> x (clock 4); fy -> y evicts a' ((1 + old a's 1) / (4 x 1) against x's
    // inf), clock 5; x and y are released. The requests: a' (the name a), then c. a': fa
    // again (clock 6), m (clock 7), pinned; c: fc evicts the old a (clock 8). Three
    // recomputations. In creation order (c, then a') m would find the old a locked and c
    // pinned: out of memory.
    const DtrLog w = load("end_mutate.log", call("fa", {}, "a", 4) + call("fc", {}, "c", 4) + mutate("m", "a") +
                                                call("fx", {}, "x", 4) + call("fy", {}, "y", 4) + release("x") +
                                                release("y"));
    // Tensors: a 0, c 1, a' 2, x 3, y 4.
    REQUIRE(w.workload.end_of_log_requests == std::vector<TensorId>{2, 1});
    check_both(w, 8, 3, 3.0, 8.0);
}
