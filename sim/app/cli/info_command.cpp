// memsim info: static facts about a workload (no simulation).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/alloc/os_allocator.h"
#include "models/io/input_file.h"
#include "models/io/json_input.h"
#include "models/alloc/pool_allocator.h"
#include "models/workload/dtr_log.h"
#include "models/workload/forward_end.h"
#include "models/workload/mnn_profile.h"
#include "models/alloc/replay.h"
#include "models/workload/input_error.h"
#include "sim/app/cli/commands.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/units.h"
#include "sim/app/info/snapshot_info.h"
#include "sim/app/info/workload_info.h"
#include "sim/app/run/workload_factory.h"
#include "sim/scenario/value_limits.h"

namespace memsim::cli {

namespace {

// A log written by `memsim trace` has a sidecar LOG.meta.json (docs/tracing.md): show the
// untraced iteration's wall time next to the sum of operator times, and the tracer's own
// peak next to the replayed one.
void add_trace_sidecar(nlohmann::json& info, const std::string& log_path) {
    const std::string path = log_path + ".meta.json";
    struct stat entry {};
    if (::lstat(path.c_str(), &entry) != 0 && errno == ENOENT) return;  // no sidecar: a log not from `memsim trace`
    // Read like any input: checked open, each key once, numbers in range.
    const nlohmann::json meta = parse_json_input(read_input_file(path, "the trace sidecar", kMaxSidecarBytes), path);
    if (!meta.is_object()) throw InputError(fmt::format("{}: expected a JSON object, got {}", path, meta.type_name()));
    constexpr std::uint64_t kMaxExact = std::uint64_t{1} << 53;  // exact in a double
    for (const char* field : {"untraced_iteration_ns", "tracer_peak_bytes"})
        if (!meta.contains(field) || !meta[field].is_number_unsigned() || meta[field].get<std::uint64_t>() == 0 ||
            meta[field].get<std::uint64_t>() > kMaxExact)
            throw InputError(fmt::format("{}: field {} must be an integer from 1 to 2^53, got {}", path, field,
                                         meta.contains(field) ? meta[field].dump().substr(0, 80) : "nothing"));
    const auto untraced = meta["untraced_iteration_ns"].get<std::uint64_t>();
    const double op_sum = info["baseline_compute_ns"].get<double>();
    const double share = op_sum / static_cast<double>(untraced);
    info["traced_untraced_iteration_ns"] = untraced;
    info["traced_op_time_share"] = std::round(share * 1000.0) / 1000.0;
    info["traced_tracer_peak_bytes"] = meta["tracer_peak_bytes"];
    // The tracer's OP_TIME_TOLERANCE (tools/trace/tracer.py; docs/tracing.md, "Operator
    // times against the iteration").
    constexpr double kOpTimeTolerance = 0.25;
    if (std::abs(share - 1.0) > kOpTimeTolerance) {
        const auto shown = [](double ns) { return ns < 1e9 ? fmt::format("{:.1f} ms", ns / 1e6) : fmt::format("{:.1f} s", ns / 1e9); };
        info["traced_op_time_warning"] = fmt::format(
            "the operators' times sum to {}, {:.2f}x the untraced iteration ({}), outside the tolerance of {:.0f}%: "
            "memsim replays operator times, so run reports {} as the no-policy time and every overhead is relative "
            "to it (docs/tracing.md)",
            shown(op_sum), share, shown(static_cast<double>(untraced)), kOpTimeTolerance * 100, shown(op_sum));
    }
}

bool is_scenario_file(const std::string& path) {
    const auto dot = path.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : path.substr(dot);
    return ext == ".yaml" || ext == ".yml";
}

// `memsim info SCENARIO.yaml`: the workload the scenario runs, as `run` would load it
// (device costs included), and whether its peak fits the platform's GPU memory.
nlohmann::json scenario_info(const Scenario& s, double disk_bytes_per_s) {
    const Workload w = load_workload(s);
    nlohmann::json info = workload_info(w, disk_bytes_per_s);
    info["scenario"] = s.name;
    info["costs"] = s.workload.costs == "measured" ? "recorded" : s.workload.costs;
    if (s.platform.gpu_model) {
        info["gpu"] = s.platform.gpu_model->preset.empty() ? "custom" : s.platform.gpu_model->preset;
        if (const std::uint64_t memory = s.platform.gpu_model->memory_bytes; memory > 0) {
            info["gpu_memory_bytes"] = memory;
            info["fits_gpu_memory"] = info["oracle_peak_bytes"].get<std::uint64_t>() <= memory;
        }
    }
    return info;
}

}  // namespace

void register_info_command(CLI::App& app) {
    struct Options {
        WorkloadSourceOptions source;
        std::optional<int> forward_end;
        bool json = false;
        std::string costs = "measured";
        std::string torch_snapshot;
        std::string torch_alloc_conf;
        std::string disk_bandwidth = fmt::format("{}B/{}s", kPhoneDiskBytes, kPhoneDiskSeconds);
        std::vector<std::string> sets;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("info", "Static facts about a workload (a profile, a log or a SCENARIO.yaml's): sizes, "
                                                "peaks, roles, FLOPs");
    add_workload_source_options(*cmd, opt->source);
    cmd->add_option("--forward-end", opt->forward_end, "First backward operator (default: inferred)");
    cmd->add_option("--disk-bandwidth", opt->disk_bandwidth,
                    "Disk rate for the swap-time lower bound (default: the profiled phone, " + opt->disk_bandwidth + ")");
    cmd->add_option("--costs", opt->costs,
                    "measured: the batch's cost file; linear_fit: per-operator line through every measured batch")
        ->check(CLI::IsMember({"measured", "linear_fit"}));
    cmd->add_option("--torch-snapshot", opt->torch_snapshot,
                    "A PyTorch memory snapshot (pickle, recorded with history): the recorded peaks next to every allocator's replay");
    cmd->add_option("--torch-alloc-conf", opt->torch_alloc_conf,
                    "torch_caching's options for --torch-snapshot (PYTORCH_CUDA_ALLOC_CONF syntax; default: the snapshot's own)");
    cmd->add_option("--set", opt->sets, "With a SCENARIO.yaml: override a key (KEY=VALUE, repeatable)");
    cmd->add_flag("--json", opt->json, "Print one JSON object instead of a table");
    cmd->callback([opt]() {
        guarded([&]() {
            const int sources = !opt->source.profile.empty() + !opt->source.dtr_log.empty() + !opt->torch_snapshot.empty();
            if (sources != 1)
                throw InputError("memsim info: give one of a SCENARIO.yaml, a profile folder (with --batch), --dtr-log PATH or "
                                 "--torch-snapshot PATH");
            if (!opt->torch_alloc_conf.empty() && opt->torch_snapshot.empty())
                throw InputError("memsim info: --torch-alloc-conf goes with --torch-snapshot");
            // The same range as platform.disk.bandwidth in a scenario (sim/scenario/value_limits.h).
            double rate = 0;
            try {
                rate = parse_rate_bytes_per_s(opt->disk_bandwidth);
            } catch (const std::invalid_argument& e) {
                throw InputError(fmt::format("--disk-bandwidth '{}': {}", opt->disk_bandwidth, e.what()));
            }
            if (!(rate >= kMinRateBytesPerS && rate <= kMaxRateBytesPerS))
                throw InputError(fmt::format("--disk-bandwidth '{}': {} B/s is outside {} B/s .. {} B/s", opt->disk_bandwidth,
                                             rate, kMinRateBytesPerS, kMaxRateBytesPerS));
            nlohmann::json info;
            if (is_scenario_file(opt->source.profile)) {
                if (opt->source.batch > 0 || opt->forward_end || opt->costs != "measured")
                    throw InputError("memsim info: --batch, --forward-end and --costs go with a profile folder; a scenario says "
                                     "them itself (workload.batch, workload.forward_end, workload.costs)");
                info = scenario_info(load_scenario(opt->source.profile, opt->sets), rate);
            } else if (!opt->sets.empty()) {
                throw InputError("memsim info: --set goes with a SCENARIO.yaml");
            } else if (!opt->torch_snapshot.empty()) {
                info = snapshot_info(load_torch_snapshot(opt->torch_snapshot), opt->torch_alloc_conf);
            } else if (!opt->source.dtr_log.empty()) {
                const DtrLog log = load_dtr_log_detailed(opt->source.dtr_log);
                info = workload_info(log.workload, rate);
                // The published simulator counts each constant from the line it appears on.
                info["baseline_peak_bytes"] = dtr_log_baseline_peak(log);
                info["baseline_compute_ns"] = std::llround(log.workload.compute_ms() * 1e6);
                // The published table counts CONSTANT lines as operators: ops + constants.
                const ConstantTotals constants = constant_totals(log.workload);
                info["constants"] = constants.count;
                info["constant_bytes"] = constants.bytes;
                add_trace_sidecar(info, opt->source.dtr_log);
            } else {
                if (opt->source.batch <= 0) throw InputError("memsim info: --batch B is required with a profile folder");
                const Workload w = load_mnn_profile(opt->source.profile, opt->source.batch, opt->forward_end,
                                                    opt->costs == "linear_fit" ? CostModel::LinearFit : CostModel::Measured);
                info = workload_info(w, rate);
                // Rule 3 of docs/workloads.md: how many layout copies it looked through.
                if (!opt->forward_end) info["forward_end_via_copies"] = infer_forward_end(w).copies_looked_through;
            }
            if (opt->json) {
                std::cout << info.dump(2) << "\n";
                return;
            }
            for (const auto& [key, value] : info.items()) {
                if (value.is_object()) {  // one line per entry: replayed_peak_bytes.os ...
                    for (const auto& [name, v] : value.items())
                        std::cout << fmt::format("{:<28} {}\n", key + "." + name, v.dump());
                    continue;
                }
                std::cout << fmt::format("{:<28} {}\n", key, value.is_string() ? value.get<std::string>() : value.dump());
            }
        });
    });
}

}  // namespace memsim::cli
