#include "sim/app/run/heuristic_runs.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "models/recompute/eviction_heuristic.h"
#include "sim/engine/engine.h"
#include "sim/app/run/child_process.h"
#include "sim/app/run/run_config.h"

namespace memsim {

namespace {

// A heuristic's run of `s`: no planner, no swapping, the heuristic `name`.
Scenario with_heuristic(const Scenario& s, const std::string& name) {
    Scenario run = s;
    run.policy.recompute.planner.clear();
    run.policy.recompute.planner_params.clear();
    run.policy.recompute.heuristic = name;
    run.policy.recompute.heuristic_params.clear();  // each heuristic with its row's defaults
    run.policy.swap = SwapSpec{};
    run.policy.hybrid = false;
    return run;
}

// Text the parent reads back: per finished run, "name count" then "c|r op" per step.
std::string runs_text(const Scenario& s, const Workload& w) {
    std::ostringstream out;
    for (const std::string& name : eviction_heuristic_names()) {
        try {
            // The engine alone: the plan is what is read, no measuring run is needed.
            const Scenario run = with_heuristic(s, name);
            const RunResult r = simulate(w, resolve_engine_config(run, w), straight_plan(w));
            if (r.summary.status != "ok") continue;
            const ExecPlan plan = plan_of_run(r.log);
            out << name << ' ' << plan.size() << '\n';
            for (const PlanStep& step : plan) out << (step.kind == StepKind::Compute ? 'c' : 'r') << ' ' << step.op << '\n';
        } catch (const std::exception&) {
            // a heuristic that cannot run here offers no candidate
        }
    }
    return out.str();
}

std::vector<optimal::CandidatePlan> parse_runs(const std::string& text) {
    std::vector<optimal::CandidatePlan> out;
    std::istringstream in(text);
    std::string name;
    std::size_t count = 0;
    while (in >> name >> count) {
        optimal::CandidatePlan c;
        c.name = name;
        for (std::size_t i = 0; i < count; ++i) {
            char kind = 0;
            int op = -1;
            if (!(in >> kind >> op)) return out;  // a truncated answer: what came whole
            c.plan.push_back({kind == 'c' ? StepKind::Compute : StepKind::Recompute, op, -1});
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace

ExecPlan plan_of_run(const EventLog& log) {
    ExecPlan plan;
    for (const Activity& a : log.activities) {
        if (a.gpu != 0) continue;  // GPU 0's run on a node of several GPUs
        if (a.lane == std::string_view(lane::kCompute)) plan.push_back({StepKind::Compute, a.op, -1});
        else if (a.lane == std::string_view(lane::kRecompute)) plan.push_back({StepKind::Recompute, a.op, -1});
    }
    return plan;
}

std::vector<optimal::CandidatePlan> heuristic_runs(const Scenario& s, const Workload& w) {
    int fd[2];
    if (pipe(fd) != 0) throw std::runtime_error(std::string("cannot start the heuristics' runs: ") + std::strerror(errno));
    const pid_t pid = fork_child([&] {
        close(fd[0]);
        const std::string text = runs_text(s, w);
        for (std::size_t done = 0; done < text.size();) {
            const ssize_t n = write(fd[1], text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += static_cast<std::size_t>(n);
        }
        return 0;
    });
    if (pid < 0) {
        const int error = errno;
        close(fd[0]);
        close(fd[1]);
        throw std::runtime_error(std::string("cannot start the heuristics' runs: ") + std::strerror(error));
    }
    close(fd[1]);
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = read(fd[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return parse_runs(text);
}

}  // namespace memsim
