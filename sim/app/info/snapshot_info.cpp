#include "sim/app/info/snapshot_info.h"

#include <stdexcept>

#include <fmt/format.h>

#include "models/alloc/replay.h"
#include "models/alloc/torch_caching_allocator.h"
#include "models/allocators.h"
#include "models/workload/dtr_log_lines.h"  // shorten_for_message
#include "models/workload/input_error.h"

namespace memsim {

std::vector<std::pair<std::string, std::uint64_t>> replayed_segment_events(const Workload& w, const std::string& alloc_conf) {
    TorchCachingAllocator a(parse_torch_alloc_conf(alloc_conf));
    replay_peak(w, a);
    std::vector<AllocatorEvent> events;
    a.take_events(events);
    std::vector<std::pair<std::string, std::uint64_t>> out;
    for (const AllocatorEvent& e : events)
        if (std::string(e.action).rfind("segment_", 0) == 0) out.emplace_back(e.action, e.size);
    return out;
}

nlohmann::json snapshot_info(const SnapshotWorkload& s, const std::string& alloc_conf) {
    const RecordedAllocator& r = s.recorded;
    const std::string conf = !alloc_conf.empty() ? alloc_conf : r.alloc_conf.value_or("");
    try {
        parse_torch_alloc_conf(conf);
    } catch (const std::invalid_argument& e) {
        throw InputError(fmt::format("{} '{}': {}", alloc_conf.empty() ? "the snapshot's PYTORCH_CUDA_ALLOC_CONF" : "--torch-alloc-conf",
                                     shorten_for_message(conf), e.what()));
    }
    const Workload& w = s.workload;
    nlohmann::json j;
    j["workload"] = w.name;
    j["source"] = w.source;
    j["ops"] = w.ops.size();
    j["tensors"] = w.tensors.size();
    j["compute_ms"] = w.compute_ms();
    j["recorded_device"] = r.device;
    j["recorded_trace_entries"] = r.trace_entries;
    j["recorded_streams"] = r.streams;
    j["recorded_alloc_conf"] = r.alloc_conf ? nlohmann::json(*r.alloc_conf) : nlohmann::json(nullptr);
    j["recorded_ooms"] = r.ooms;
    j["recorded_reserved_at_start_bytes"] = r.reserved_at_start;
    j["recorded_live_at_start_bytes"] = r.live_at_start;
    j["recorded_reserved_peak_bytes"] = r.reserved_peak_bytes;
    j["recorded_requested_peak_bytes"] = r.requested_peak_bytes;
    j["recorded_segment_events"] = r.segment_events.size();
    j["replay_torch_alloc_conf"] = conf;
    nlohmann::json peaks = nlohmann::json::object();
    const bool too_many = w.tensors.size() > kMaxInfoPlannedTensors;
    if (too_many)
        j["replayed_peak_skipped"] = fmt::format("the static planners: {} tensors, above the {} they are replayed for here "
                                                 "(their placement is quadratic in tensors; run one with policy.allocator)",
                                                 w.tensors.size(), kMaxInfoPlannedTensors);
    for (const AllocatorRow& row : allocator_table()) {
        const std::string name(row.name);
        if (too_many && row.flags.plans_ahead) {
            peaks[name] = nullptr;
            continue;
        }
        ParamValues given;
        if (!row.flags.config_param.empty()) given[std::string(row.flags.config_param)] = conf;
        std::unique_ptr<Allocator> a = make_allocator(name, given);
        peaks[name] = replay_peak(w, *a);
    }
    j["replayed_peak_bytes"] = peaks;
    const auto replayed = replayed_segment_events(w, conf);
    j["replayed_segment_events"] = replayed.size();
    // Only a trace that began with no segment held can be compared event by event.
    if (r.reserved_at_start == 0) j["replayed_segments_match_recorded"] = replayed == r.segment_events;
    else j["replayed_segments_match_recorded"] = nullptr;
    return j;
}

}  // namespace memsim
