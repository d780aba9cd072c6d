// _memsim: the memsim CLI inside the Python process (docs/python.md). SimGrid allows one
// engine per process, so every command runs in a child forked from this warm process
// (fork_child: no exec, no library loading); its stdout and stderr are captured and handed
// back with its exit code, byte for byte what the CLI prints. `run` also keeps workloads
// loaded here between calls (workload_cache.h). The package's Python part
// (python/memsim/) turns these outcomes into results and exceptions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "models/io/atomic_file.h"
#include "python/workload_cache.h"
#include "sim/app/cli/commands.h"
#include "sim/app/run/child_process.h"
#include "sim/app/run/run_pipeline.h"
#include "sim/scenario/schema.h"
#include "sim/scenario/source_tree.h"
#include "sim/scenario/sweep_plan.h"

namespace py = pybind11;

namespace memsim::python {

namespace {

// What a command left: its exit code, what it printed, the run's folder (run only) and
// which kind of input an error is about ("scenario", "workload", "output" or "").
using Outcome = std::tuple<int, py::bytes, py::bytes, std::string, std::string>;

// An anonymous in-memory file a child writes to and the parent reads after it ended.
class Capture {
public:
    explicit Capture(const char* name) : fd_(memfd_create(name, MFD_CLOEXEC)) {
        if (fd_ < 0) throw std::runtime_error(std::string("memsim: cannot capture a child's output: ") + std::strerror(errno));
    }
    ~Capture() { close(fd_); }
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;
    [[nodiscard]] int fd() const { return fd_; }
    [[nodiscard]] std::string text() const {
        std::string text;
        char buffer[65536];
        for (off_t at = 0;;) {
            const ssize_t n = pread(fd_, buffer, sizeof buffer, at);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            text.append(buffer, static_cast<std::size_t>(n));
            at += n;
        }
        return text;
    }

private:
    int fd_;
};

void put(int fd, const std::string& text) {
    for (std::size_t at = 0; at < text.size();) {
        const ssize_t n = write(fd, text.data() + at, text.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        at += static_cast<std::size_t>(n);
    }
}

// Runs body(note_fd) in a forked child with stdout and stderr captured; waits for it with
// the GIL released. Ctrl-C (KeyboardInterrupt) stops the child and is raised here.
Outcome in_child(const std::function<int(int)>& body) {
    Capture out("memsim-stdout"), err("memsim-stderr"), note("memsim-note");
    const pid_t pid = fork_child([&]() -> int {
        if (dup2(out.fd(), STDOUT_FILENO) < 0 || dup2(err.fd(), STDERR_FILENO) < 0) return 1;
        return body(note.fd());
    });
    if (pid < 0) throw std::runtime_error(std::string("memsim: cannot fork a process for the run: ") + std::strerror(errno));
    int status = 0;
    for (;;) {
        pid_t waited = 0;
        int error = 0;
        {
            py::gil_scoped_release released;
            waited = waitpid(pid, &status, 0);
            error = errno;
        }
        if (waited == pid) break;
        if (waited < 0 && error != EINTR) throw std::runtime_error(std::string("memsim: waitpid: ") + std::strerror(error));
        if (PyErr_CheckSignals() != 0) {  // Ctrl-C in the notebook: the child ends too
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            throw py::error_already_set();
        }
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::string dir = note.text(), kind;
    if (const auto bang = dir.find('\n'); bang != std::string::npos) {
        kind = dir.substr(bang + 1);
        dir.resize(bang);
    }
    return {code, py::bytes(out.text()), py::bytes(err.text()), dir, kind};
}

Outcome refused(const std::exception& e, const std::string& kind) {
    return {cli::kExitError, py::bytes(""), py::bytes("memsim: error: " + cli::error_message(e) + "\n"), "", kind};
}

// `memsim ARGS...`, in a child.
Outcome cli_command(const std::vector<std::string>& args) {
    return in_child([&](int) {
        std::vector<std::string> words{"memsim"};
        words.insert(words.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& w : words) argv.push_back(w.data());
        argv.push_back(nullptr);
        return cli::run_cli(static_cast<int>(words.size()), argv.data());
    });
}

// `memsim run SCENARIO --set ... [--out OUT] [-q]`, as run_command.cpp does it, with the
// scenario read and the workload loaded (or found loaded) here, and the run in a child.
Outcome run_command(const std::string& scenario_file, const std::vector<std::string>& sets, const std::string& out_dir,
                    bool quiet) {
    Scenario s;
    try {
        s = load_scenario(scenario_file, sets);
        check_sweep_section(s);
    } catch (const std::exception& e) {
        return refused(e, "scenario");
    }
    const Workload* w = nullptr;
    try {
        w = &cached_workload(s);
    } catch (const std::exception& e) {
        return refused(e, "workload");
    }
    return in_child([&](int note) {
        cli::guarded([&] {
            try {
                const ScenarioRun run = run_scenario(s, *w, out_dir);
                put(note, run.dir + "\n");
                if (report_run(run, s, scenario_file, std::cout, std::cerr, quiet) != 0)
                    cli::set_exit_code(cli::kExitScenarioFailed);
            } catch (const OutputError&) {
                put(note, "\noutput");
                throw;
            }
        });
        return cli::exit_code();
    });
}

}  // namespace

}  // namespace memsim::python

PYBIND11_MODULE(_memsim, m) {
    using namespace memsim::python;
    m.doc() = "memsim's extension module: the CLI's commands in children forked from this process. "
              "Use the memsim package, not this module.";
    m.def("cli", &cli_command, py::arg("args"),
          "Runs `memsim ARGS...` in a forked child: (exit code, stdout, stderr, '', '').");
    m.def("run", &run_command, py::arg("scenario"), py::arg("sets"), py::arg("out"), py::arg("quiet"),
          "Runs `memsim run` in a forked child on a workload kept loaded here: (exit code, stdout, stderr, "
          "output folder, error kind).");
    m.def("workloads_parsed", &workloads_parsed, "How many workloads run() has parsed in this process.");
    m.def("path_keys", &memsim::path_keys, "The scenario keys that hold a path (resolved against the scenario's folder).");
    m.attr("source_dir") = memsim::source_tree();
}
