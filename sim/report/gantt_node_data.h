// The Gantt page's data for a node (docs/tiers.md: platform.host.link set, one or more
// GPUs): which GPU did each activity and mark, each GPU's memory curve and memory by
// kind, host RAM in use and its capacity, each GPU's figures, and the order of the
// "node" lanes (one per link direction and per disk, each showing every GPU's
// transfers on that resource). A run without a node gets none of this, so its page is
// as before.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/engine/event_log.h"
#include "sim/engine/summary.h"
#include "models/workload/workload.h"

namespace memsim {

// True when the page shows a node: the log is a node's (platform.host.link) or has several GPUs.
bool gantt_shows_node(const EventLog& log);

// The lanes in drawing order for a node page: the GPU's lanes (compute, recompute, each
// tier's swaps nearest first, write before read, then the others in the order given),
// then the resource lanes in the platform's order (EventLog::resource_lanes: each GPU's
// route from the GPU side, then the devices), any other after them: links (by name,
// numbers in numeric order, out before in), then devices (write before read). `keys`
// says which lane is which (lane_keys).
std::vector<std::string> node_lane_order(const std::vector<std::string>& lanes, const std::map<std::string, LaneKey>& keys,
                                         const std::vector<std::string>& platform_order = {});

// A tier's swap lanes by its row's display names ("host RAM write"), others as lane_display_name.
std::string node_lane_display_name(const std::string& lane, const LaneKey& key);

// "node" for a resource lane (a link direction or a device), "gpu" for the others.
const char* lane_group(const LaneKey& key);

// Every page's lane fields read from its key: kind (swap, link, peer_link, device,
// other), direction (out, in), tier (its row's key; a swap's or a device's).
void add_lane_key_fields(nlohmann::json& entry, const LaneKey& key);
// A node page's: group, and for a resource lane whose name ends in a number its family
// ("pcie* d2h") and number.
void add_node_lane_fields(nlohmann::json& entry, const std::string& lane, const LaneKey& key);

int activity_gpu(const Activity& a);
int mark_gpu(const Mark& m);

// {gpus, gpu_colors, memory: [per GPU: series], kinds: [per GPU: null or kinds],
//  host_memory: [[t, bytes]...], host_capacity_bytes: B or null, host_peak_bytes,
//  step_time_ms, gpu_summaries: [per GPU: {status, time_ms, stall_ms, bytes_written, bytes_read}]}
// (series and kinds as sim/report/gantt_series.h makes them). `end_ms` grows to the last sample.
nlohmann::json node_page_data(const EventLog& log, const Summary& summary, const Workload* workload, double& end_ms);

}  // namespace memsim
