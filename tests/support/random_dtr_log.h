// Random small valid DTR operator logs (docs/workloads.md, DTR operator logs) for the
// property tests: constants (also declared mid-way), calls with several results, views
// (ALIAS) used again later in the forward pass, MUTATE of distinct tensors, COPY,
// COPY_FROM, RELEASE, and the BACKWARD annotation anywhere, before the first operator
// included. Issue 31's two engine crashes were found by logs of this kind.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace memsim::test {

inline std::string random_dtr_log(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    struct Name {
        std::string name;
        int tensor;  // names bound by COPY share a tensor: MUTATE must not name one tensor twice
    };
    std::vector<Name> bound;
    int tensors = 0, lines = 0;
    std::string log;
    auto line = [&](const std::string& text) {
        log += text + "\n";
        ++lines;
    };
    auto size = [&] { return chance(0.15) ? 0 : uniform(1, 4000); };
    auto constant_size = [&] { return chance(0.15) ? 0 : uniform(1, 400); };  // weights: never evicted, so small
    auto constant = [&] {
        const std::string name = fmt::format("c{}", lines);
        line(fmt::format(R"({{"INSTRUCTION":"CONSTANT","NAME":"{}"}})", name));
        line(fmt::format(R"({{"INSTRUCTION":"MEMORY","MEMORY":"{}","NAME":"{}"}})", constant_size(), name));
        bound.push_back({name, tensors++});
    };
    auto pick_args = [&](int most) {
        std::vector<Name> args;
        std::vector<Name> pool = bound;
        const int k = std::min<int>(static_cast<int>(pool.size()), uniform(0, most));
        for (int i = 0; i < k; ++i) {
            // Recent names more often: chains, as in a network.
            const int n = static_cast<int>(pool.size());
            const int at = chance(0.6) ? uniform(std::max(0, n - 3), n - 1) : uniform(0, n - 1);
            args.push_back(pool[static_cast<std::size_t>(at)]);
            pool.erase(pool.begin() + at);
        }
        return args;
    };
    auto quoted = [](const std::vector<std::string>& names) {
        std::string out;
        for (const std::string& n : names) out += (out.empty() ? "\"" : ",\"") + n + "\"";
        return out;
    };

    if (chance(0.2)) line(R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"})");
    for (int i = uniform(0, 3); i > 0; --i) constant();
    const int ops = uniform(1, 14);
    const int backward_at = uniform(0, ops);  // 0: the annotation precedes every operator
    const bool annotate = chance(0.85);  // else forward_end comes from the first *backward* op name
    bool annotated = false;
    for (int op = 0; op < ops;) {
        if (op == backward_at && annotate && !annotated) {
            line(R"({"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"})");
            annotated = true;
        }
        const double k = std::uniform_real_distribution<double>(0, 1)(rng);
        const bool backward = op >= backward_at;
        if (k < 0.55 || bound.empty()) {
            const std::vector<Name> args = pick_args(3);
            std::vector<std::string> arg_names, results;
            for (const Name& a : args) arg_names.push_back(a.name);
            for (int r = uniform(1, 2); r > 0; --r) results.push_back(fmt::format("t{}_{}", lines, r));
            line(fmt::format(R"({{"ARGS":[{}],"INSTRUCTION":"CALL","NAME":"{}","RESULT":[{}],"TIME":"{}"}})",
                             quoted(arg_names), backward ? "mm_backward" : "mm", quoted(results), uniform(0, 4000000)));
            for (const std::string& r : results) {
                line(fmt::format(R"({{"INSTRUCTION":"MEMORY","MEMORY":"{}","NAME":"{}"}})", size(), r));
                const int alias = !args.empty() && chance(0.3) ? uniform(0, static_cast<int>(args.size()) - 1) : -1;
                line(fmt::format(R"({{"ALIAS":"{}","INSTRUCTION":"ALIAS","NAME":"{}"}})", alias, r));
                bound.push_back({r, tensors++});
            }
            ++op;
        } else if (k < 0.65) {
            const std::vector<Name> args = pick_args(3);
            if (args.empty()) continue;
            std::vector<std::string> arg_names;
            std::vector<int> mutated, seen;
            for (std::size_t i = 0; i < args.size(); ++i) {
                arg_names.push_back(args[i].name);
                if (std::find(seen.begin(), seen.end(), args[i].tensor) == seen.end() && (mutated.empty() || chance(0.5))) {
                    mutated.push_back(static_cast<int>(i));
                    seen.push_back(args[i].tensor);
                }
            }
            line(fmt::format(R"({{"ARGS":[{}],"INSTRUCTION":"MUTATE","MUTATE":[{}],"NAME":"add_","TIME":"{}"}})",
                             quoted(arg_names), fmt::join(mutated, ","), uniform(0, 4000000)));
            for (int m : mutated)  // the names now refer to fresh tensors
                for (Name& b : bound)
                    if (b.name == args[static_cast<std::size_t>(m)].name) b.tensor = tensors++;
            ++op;
        } else if (k < 0.72) {
            const Name& src = bound[static_cast<std::size_t>(uniform(0, static_cast<int>(bound.size()) - 1))];
            const Name copy{fmt::format("d{}", lines), src.tensor};
            line(fmt::format(R"({{"DST":"{}","INSTRUCTION":"COPY","SRC":"{}"}})", copy.name, src.name));
            bound.push_back(copy);
        } else if (k < 0.78 && bound.size() >= 2) {
            const std::vector<Name> two = pick_args(2);
            if (two.size() < 2) continue;
            line(fmt::format(R"({{"DST":"{}","INSTRUCTION":"COPY_FROM","SRC":"{}"}})", two[0].name, two[1].name));
            for (Name& b : bound)
                if (b.name == two[0].name) b.tensor = two[1].tensor;
        } else if (k < 0.82) {
            constant();
        } else {
            const int at = uniform(0, static_cast<int>(bound.size()) - 1);
            line(fmt::format(R"({{"INSTRUCTION":"RELEASE","NAME":"{}"}})", bound[static_cast<std::size_t>(at)].name));
            bound.erase(bound.begin() + at);
        }
    }
    if (annotate && !annotated) line(R"({"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"})");
    for (std::size_t i = 0; i < bound.size(); ++i)
        if (chance(0.5)) line(fmt::format(R"({{"INSTRUCTION":"RELEASE","NAME":"{}"}})", bound[i].name));
    return log;
}

}  // namespace memsim::test
