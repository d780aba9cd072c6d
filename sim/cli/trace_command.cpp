// memsim trace: runs the Python tracer (tools/trace, docs/tracing.md) with the first
// interpreter that imports torch, and passes its arguments and exit status through.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/commands.h"

extern char** environ;

namespace memsim::cli {

namespace {

// Runs argv (looked up in PATH); returns its exit status, or -1 when it cannot start.
// With quiet, its output goes to /dev/null.
int run_process(const std::vector<std::string>& argv, bool quiet) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (quiet) {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    }
    pid_t pid = 0;
    const int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0) return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// $MEMSIM_PYTHON, then Debian's /usr/bin/python3 (where python3-torch installs), then
// python3 from PATH (often a pyenv or virtualenv interpreter without torch).
std::string find_torch_interpreter() {
    std::vector<std::string> candidates;
    if (const char* chosen = std::getenv("MEMSIM_PYTHON"); chosen && *chosen) candidates.emplace_back(chosen);
    candidates.emplace_back("/usr/bin/python3");
    candidates.emplace_back("python3");
    std::string tried;
    for (const std::string& python : candidates) {
        if (run_process({python, "-c", "import torch"}, true) == 0) return python;
        tried += (tried.empty() ? "" : ", ") + python;
    }
    throw std::runtime_error(fmt::format(
        "memsim trace: no Python interpreter that imports torch (tried {}); scripts/setup.sh installs Debian's "
        "python3-torch and python3-torchvision for /usr/bin/python3, or set MEMSIM_PYTHON to an interpreter with torch",
        tried));
}

}  // namespace

void register_trace_command(CLI::App& app) {
    struct Options {
        std::string model;
        std::string out;
        std::optional<int> batch;
        std::string input_shape;
        std::string optimizer;
        std::string device;
        std::optional<int> repeat;
        bool no_rss = false;
        bool list = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "trace", "Trace one PyTorch training iteration into a DTR operator log (docs/tracing.md)");
    cmd->add_option("model", opt->model, "A torchvision classification model name, or FILE.py:factory");
    cmd->add_option("--out", opt->out, "The log to write; the sidecar is OUT.meta.json");
    cmd->add_option("--batch", opt->batch, "Batch size (default 1)");
    cmd->add_option("--input-shape", opt->input_shape, "One sample's shape, e.g. 3,224,224 (default: the model's)");
    cmd->add_option("--optimizer", opt->optimizer, "sgd (default), adam or none")
        ->check(CLI::IsMember({"sgd", "adam", "none"}));
    cmd->add_option("--device", opt->device, "cpu (default) or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
    cmd->add_option("--repeat", opt->repeat, "Timing iterations; each operator's time is the median (default 3)");
    cmd->add_flag("--no-rss", opt->no_rss, "Skip the resident-set measurement process");
    cmd->add_flag("--list", opt->list, "List the torchvision models and exit");
    cmd->callback([opt]() {
        guarded([&]() {
            const std::string python = find_torch_interpreter();
            std::vector<std::string> argv = {python, "-m", "tools.trace"};
            if (!opt->model.empty()) argv.push_back(opt->model);
            const auto add = [&argv](const char* flag, const std::string& value) {
                if (!value.empty()) argv.insert(argv.end(), {flag, value});
            };
            add("--out", opt->out);
            add("--batch", opt->batch ? std::to_string(*opt->batch) : "");
            add("--input-shape", opt->input_shape);
            add("--optimizer", opt->optimizer);
            add("--device", opt->device);
            add("--repeat", opt->repeat ? std::to_string(*opt->repeat) : "");
            if (opt->no_rss) argv.emplace_back("--no-rss");
            if (opt->list) argv.emplace_back("--list");
            // The tracer package lives in the source tree this binary was built from.
            const char* old_path = std::getenv("PYTHONPATH");
            const std::string path = std::string(MEMSIM_SOURCE_DIR) + (old_path && *old_path ? std::string(":") + old_path : "");
            setenv("PYTHONPATH", path.c_str(), 1);
            std::cout.flush();
            const int status = run_process(argv, false);
            if (status < 0) throw std::runtime_error(fmt::format("memsim trace: cannot start {}", python));
            set_exit_code(status == 0 ? 0 : kExitError);
        });
    });
}

}  // namespace memsim::cli
