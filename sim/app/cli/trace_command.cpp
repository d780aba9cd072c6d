// memsim trace: runs the Python tracer (tools/trace, docs/tracing.md) with the first
// interpreter that imports torch, as a supervised child (sim/app/cli/tracer_process.h): every
// way it ends without the log it reported is an error with one clear message.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/io/input_file.h"
#include "models/io/json_input.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "sim/app/cli/commands.h"
#include "sim/app/cli/tracer_process.h"
#include "sim/scenario/source_tree.h"

extern char** environ;

namespace memsim::cli {

namespace {

// Runs argv (looked up in PATH) with its output to /dev/null; returns its exit status, or
// -1 when it cannot start.
int run_quietly(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0) return -1;
    int status = 0;
    pid_t waited = 0;
    while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }  // a signal noted meanwhile (SignalsNoted) is handled once this check is done
    if (waited < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// $MEMSIM_PYTHON, then Debian's /usr/bin/python3 (where python3-torch installs), then
// python3 from PATH (often a pyenv or virtualenv interpreter without torch).
std::vector<std::string> torch_interpreter_candidates() {
    std::vector<std::string> candidates;
    if (const char* chosen = std::getenv("MEMSIM_PYTHON"); chosen && *chosen) candidates.emplace_back(chosen);
    candidates.emplace_back("/usr/bin/python3");
    candidates.emplace_back("python3");
    return candidates;
}

std::string no_torch_message(const std::string& tried) {
    return fmt::format(
        "memsim trace: no Python interpreter that imports torch (tried {}); scripts/setup.sh installs "
        "Debian's python3-torch and python3-torchvision for /usr/bin/python3, or set MEMSIM_PYTHON to an "
        "interpreter with torch",
        tried);
}

// The default --timeout (tools/trace/__main__.py has the same): generous, the largest
// model of docs/tracing.md traced in 32 minutes on a loaded 2-core machine.
constexpr double kDefaultTimeoutS = 3 * 3600;
// After the tracer's own --timeout, or a signal passed on: how long it has to stop
// cleanly before SIGKILL.
constexpr double kGraceS = 20;

// The tracer writes OUT and OUT.meta.json under these names before renaming them
// (tools/trace/tracer.py, temporary_name); after a stop they may be left behind.
void remove_temporaries(const std::string& out, pid_t pid) {
    std::error_code ignored;
    for (const std::string& path : {out, out + ".meta.json"})
        std::filesystem::remove(fmt::format("{}.tmp-{}", path, pid), ignored);
}

// Why the tracer ended without reporting a finished trace, in one line.
std::string unfinished_message(const TracerEnd& end, const std::string& python, const std::string& model,
                               double timeout_s) {
    if (end.deadline_passed)
        return fmt::format("the tracer did not finish within --timeout {:g} s and was stopped; no log was written "
                           "(a larger model needs a larger --timeout; 0 means no limit)", timeout_s);
    if (!end.exited)
        return fmt::format("the tracer ({}, pid {}) was killed by {} before finishing ({}); no log was written{}", python,
                           end.pid, signal_name(end.status), strsignal(end.status),
                           end.status == SIGKILL ? " (the kernel's out-of-memory killer sends SIGKILL: a smaller --batch "
                                                   "or --input-shape needs less memory)"
                                                 : "");
    if (end.report_bytes > kMaxReportBytes)
        return fmt::format("the tracer ({}) ended with exit status {} after {} bytes were written on its report pipe, where "
                           "it writes 'ok' or 'error': code run by {} (the model or its factory) wrote there; no log is "
                           "taken as written", python, end.status, end.report_bytes, model);
    return fmt::format("the tracer ({}) ended with exit status {} before finishing, without an error message: code run "
                       "by {} (the model or its factory) ended the Python process, e.g. with os._exit({}); no log was "
                       "written", python, end.status, model, end.status);
}

// A file's identity, to tell a log the tracer wrote (renamed into place: a new inode)
// from one that was there before the trace. None: no file there.
std::optional<std::pair<dev_t, ino_t>> file_identity(const std::string& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) return std::nullopt;
    return std::pair{info.st_dev, info.st_ino};
}

// The tracer said "ok", but the model's code runs in its process and can write that too:
// the log and its sidecar must be new, and complete (the sidecar's operator count is the
// log's). Returns why not, or "" when they are.
std::string unwritten_log(const std::string& out, const std::optional<std::pair<dev_t, ino_t>>& log_before,
                          const std::optional<std::pair<dev_t, ino_t>>& meta_before) {
    const std::string meta_path = out + ".meta.json";
    for (const auto& [path, before] : {std::pair{out, log_before}, std::pair{meta_path, meta_before}}) {
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0) return fmt::format("{} does not exist", path);
        if (!S_ISREG(info.st_mode)) return fmt::format("{} is not a regular file", path);
        if (before && *before == std::pair{info.st_dev, info.st_ino})
            return fmt::format("{} is the file that was there before the trace (the tracer did not write it)", path);
    }
    try {
        const nlohmann::json meta = parse_json_input(read_input_file(meta_path, "the trace sidecar", kMaxSidecarBytes), meta_path);
        if (!meta.is_object() || !meta.contains("ops") || !meta["ops"].is_number_unsigned())
            return fmt::format("{} has no operator count (ops)", meta_path);
        const std::size_t ops = load_dtr_log(out).ops.size();
        if (ops != meta["ops"].get<std::uint64_t>())
            return fmt::format("{} has {} operators, its sidecar says {}", out, ops, meta["ops"].get<std::uint64_t>());
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
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
        std::optional<int> micro_batches;
        bool no_rss = false;
        bool list = false;
        bool quiet = false;
        double timeout_s = kDefaultTimeoutS;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "trace", "Trace one PyTorch training iteration into a DTR operator log (docs/tracing.md)");
    cmd->add_option("model", opt->model, "A torchvision classification model name, or FILE.py:factory");
    cmd->add_option("--out", opt->out, "The log to write; the sidecar is OUT.meta.json");
    cmd->add_option("--batch", opt->batch, "Batch size (default 1)");
    cmd->add_option("--input-shape", opt->input_shape, "One sample's shape, e.g. 3,224,224 (default: the model's)");
    cmd->add_option("--optimizer", opt->optimizer,
                    "sgd (default), adam, adamw or none, for a factory that returns no optimizer of its own")
        ->check(CLI::IsMember({"sgd", "adam", "adamw", "none"}));
    cmd->add_option("--micro-batches", opt->micro_batches,
                    "Gradient accumulation: K forward and backward passes, then one optimizer step (default 1)");
    cmd->add_option("--device", opt->device, "cpu (default) or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
    cmd->add_option("--repeat", opt->repeat, "Timing iterations; each operator's time is the median (default 3)");
    cmd->add_flag("--no-rss", opt->no_rss, "Skip the resident-set measurement process");
    cmd->add_flag("--list", opt->list, "List the torchvision models and exit");
    cmd->add_flag("-q,--quiet", opt->quiet, "No progress lines");
    cmd->add_option("--timeout", opt->timeout_s,
                    fmt::format("Stop the tracer after this many seconds (default {:g}, 3 hours; 0: no limit)",
                                kDefaultTimeoutS))
        ->check(CLI::Range(0.0, 1e7));
    cmd->callback([opt]() {
        guarded([&]() {
            const SignalsNoted noted;  // from here on a signal stops the tracer rather than orphaning it
            std::vector<std::string> argv = {"", "-m", "tools.trace"};  // argv[0]: each interpreter in turn
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
            add("--micro-batches", opt->micro_batches ? std::to_string(*opt->micro_batches) : "");
            if (opt->no_rss) argv.emplace_back("--no-rss");
            if (opt->list) argv.emplace_back("--list");
            if (opt->quiet) argv.emplace_back("--quiet");
            argv.insert(argv.end(), {"--timeout", fmt::format("{:g}", opt->timeout_s)});
            argv.insert(argv.end(), {"--report-fd", std::to_string(kReportFd)});
            // The tracer package lives in the source tree this binary was built from.
            const char* old_path = std::getenv("PYTHONPATH");
            const std::string path = std::string(source_tree()) + (old_path && *old_path ? std::string(":") + old_path : "");
            setenv("PYTHONPATH", path.c_str(), 1);
            std::cout.flush();
            const bool writes_log = !opt->list && !opt->model.empty() && !opt->out.empty();
            const auto log_before = file_identity(opt->out), meta_before = file_identity(opt->out + ".meta.json");
            // The tracer itself is the check that an interpreter imports torch: it reports
            // "no-torch" and memsim tries the next (one import of torch per trace, where a
            // probe first took a second one, 1.4 s here). Model code could forge that report,
            // so a "no-torch" is believed only when the interpreter indeed cannot import it.
            std::string python, tried;
            TracerEnd end;
            for (const std::string& candidate : torch_interpreter_candidates()) {
                if (const int signum = SignalsNoted::received()) {  // between two interpreters
                    std::cerr << fmt::format("memsim trace: interrupted by {}; no log was written\n", signal_name(signum));
                    std::signal(signum, SIG_DFL);
                    std::raise(signum);
                }
                argv[0] = candidate;
                try {
                    // The tracer stops itself at --timeout; memsim's own deadline is the
                    // backstop for a process stuck where Python cannot run its handler.
                    end = run_tracer(argv, opt->timeout_s > 0 ? opt->timeout_s + kGraceS : 0, kGraceS);
                } catch (const TracerNotStarted&) {  // no such interpreter; a pipe or waitpid failure stays an error
                    tried += (tried.empty() ? "" : ", ") + candidate;
                    continue;
                }
                if (end.report == "no-torch" && end.forwarded_signal == 0 &&
                    run_quietly({candidate, "-c", "import torch"}) != 0) {
                    tried += (tried.empty() ? "" : ", ") + candidate;
                    continue;
                }
                python = candidate;
                break;
            }
            if (python.empty()) throw std::runtime_error(no_torch_message(tried));
            std::string unwritten;
            if (end.report == "ok" && end.forwarded_signal == 0 && writes_log)
                unwritten = unwritten_log(opt->out, log_before, meta_before);
            if (!unwritten.empty()) {
                set_exit_code(kExitError);
                std::cerr << fmt::format("memsim trace: error: the tracer reported its log complete, but {}: code run by "
                                         "{} (the model or its factory) may have written that report and ended the "
                                         "Python process ({} {})\n",
                                         unwritten, opt->model, end.exited ? "it ended with exit status" : "it was killed by",
                                         end.exited ? std::to_string(end.status) : signal_name(end.status));
                return;
            }
            if (end.report == "ok" && end.forwarded_signal == 0) {  // the log and its sidecar are complete
                if (!end.exited || end.status != 0)
                    std::cerr << fmt::format("memsim trace: warning: the tracer reported its log complete, then ended "
                                             "with {} {}\n", end.exited ? "exit status" : "signal",
                                             end.exited ? std::to_string(end.status) : signal_name(end.status));
                return;
            }
            remove_temporaries(opt->out, end.pid);
            if (end.forwarded_signal != 0) {
                if (end.report.empty())  // the tracer said nothing of it: say it here
                    std::cerr << fmt::format("memsim trace: interrupted by {}; the tracer (pid {}) was stopped, no log "
                                             "was written\n", signal_name(end.forwarded_signal), end.pid);
                // End the way the signal would have ended memsim (the caller's shell sees it).
                std::signal(end.forwarded_signal, SIG_DFL);
                std::raise(end.forwarded_signal);
            }
            set_exit_code(kExitError);
            if (end.report == "error") return;  // the tracer printed its one-line message
            std::cerr << "memsim trace: error: " << unfinished_message(end, python, opt->model, opt->timeout_s) << "\n";
        });
    });
}

}  // namespace memsim::cli
