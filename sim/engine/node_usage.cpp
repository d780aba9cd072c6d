#include "sim/engine/node_usage.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/engine/run_result.h"

namespace memsim {

namespace {

namespace sg = simgrid::s4u;

// A split-duplex link's directions are SimGrid links "NAME_UP" and "NAME_DOWN": the
// lane names the link once and says the direction itself.
std::string link_name(const sg::Link* l) {
    std::string name = l->get_name();
    for (const std::string suffix : {"_UP", "_DOWN"})
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            return name.substr(0, name.size() - suffix.size());
    return name;
}

std::vector<sg::Link*> links_between(const sg::Host* from, const sg::Host* to) {
    std::vector<sg::Link*> links;
    from->route_to(to, links, nullptr);
    return links;
}

}  // namespace

int NodeUsage::lane_of(const std::string& name, bool link, bool forward, double bytes_per_s, bool peer, TierId tier) {
    for (std::size_t i = 0; i < lanes_.size(); ++i)
        if (lanes_[i].name == name && lanes_[i].link == link && lanes_[i].forward == forward) return static_cast<int>(i);
    const char* direction = peer   ? (forward ? " tx" : " rx")
                            : link ? (forward ? " d2h" : " h2d")
                                   : (forward ? " write" : " read");
    lanes_.push_back({name, name + direction, link, forward, peer, tier, bytes_per_s, 0, 0, {}});
    return static_cast<int>(lanes_.size()) - 1;
}

void NodeUsage::describe(const SimPlatform& p) {
    if (!p.is_node()) return;
    // Lanes in order of first appearance: GPU 0's route from its side, then GPU 1's new
    // links, ...; both directions of a link together, then every tier's devices (the disks).
    std::vector<std::pair<std::vector<sg::Link*>, std::vector<sg::Link*>>> paths;
    std::vector<std::string> names;
    const auto note = [&](const sg::Link* l) {
        if (std::find(names.begin(), names.end(), link_name(l)) == names.end()) names.push_back(link_name(l));
    };
    for (std::size_t g = 0; g < p.gpus.size(); ++g) {
        paths.emplace_back(links_between(p.gpus[g], p.host), links_between(p.host, p.gpus[g]));
        for (const sg::Link* l : paths.back().first) note(l);
        std::vector<sg::Link*> back = paths.back().second;
        for (auto it = back.rbegin(); it != back.rend(); ++it) note(*it);
    }
    for (const std::string& name : names)
        for (const bool d2h : {true, false})
            for (const auto& [to_host, to_gpu] : paths)
                for (const sg::Link* l : d2h ? to_host : to_gpu)
                    if (link_name(l) == name) lane_of(name, true, d2h, l->get_bandwidth() / SimPlatform::kDiskScale);
    for (TierId t = 0; t < p.devices.size(); ++t)
        for (const sg::Disk* d : p.devices[t])
            for (const bool write : {true, false})
                lane_of(d->get_name(), false, write,
                        (write ? d->get_write_bandwidth() : d->get_read_bandwidth()) / SimPlatform::kDiskScale, false, t);
    for (std::size_t g = 0; g < paths.size(); ++g) {
        std::vector<int> to_host, to_gpu;
        std::vector<std::string> to_host_names, to_gpu_names;
        for (const sg::Link* l : paths[g].first) {
            to_host.push_back(lane_of(link_name(l), true, true, 0));
            to_host_names.push_back(link_name(l));
        }
        for (const sg::Link* l : paths[g].second) {
            to_gpu.push_back(lane_of(link_name(l), true, false, 0));
            to_gpu_names.push_back(link_name(l));
        }
        routes_.emplace_back(std::move(to_host), std::move(to_gpu));
        route_texts_.emplace_back(fmt::format("{}", fmt::join(to_host_names, "+")), fmt::format("{}", fmt::join(to_gpu_names, "+")));
        device_lanes_.emplace_back();
        for (TierId t = 0; t < p.devices.size(); ++t) {
            const sg::Disk* d = p.device(t, static_cast<int>(g));
            device_lanes_.back().push_back(
                d ? std::pair{lane_of(d->get_name(), false, true, 0), lane_of(d->get_name(), false, false, 0)}
                  : std::pair{-1, -1});
        }
    }
}

int NodeUsage::device_lane(int gpu, TierId tier, bool write) const {
    const auto& [w, r] = device_lanes_[static_cast<std::size_t>(gpu)][tier];
    return write ? w : r;
}

const std::string& NodeUsage::route_text(int gpu, bool write) const {
    const auto& [to_host, to_gpu] = route_texts_[static_cast<std::size_t>(gpu)];
    return write ? to_host : to_gpu;
}

// A link already on a route to the host keeps its lanes (PCIe: the sender's link up is
// its d2h lane, the receiver's down its h2d); a link only GPUs reach (NVLink to the
// switch) gets a tx and an rx lane, UP being from its GPU.
void NodeUsage::describe_peers(const SimPlatform& p) {
    peer_count_ = p.gpus.size();
    peer_routes_.assign(peer_count_ * peer_count_, {});
    for (std::size_t from = 0; from < peer_count_; ++from)
        for (std::size_t to = 0; to < peer_count_; ++to) {
            if (from == to) continue;
            std::vector<int>& lanes = peer_routes_[from * peer_count_ + to];
            for (const sg::Link* l : links_between(p.gpus[from], p.gpus[to])) {
                const std::string name = link_name(l);
                const std::string full = l->get_name();
                const bool up = full.size() < 5 || full.compare(full.size() - 5, 5, "_DOWN") != 0;
                const bool known = std::any_of(lanes_.begin(), lanes_.end(),
                                               [&](const Lane& k) { return k.name == name && !k.peer; });
                lanes.push_back(lane_of(name, true, up, l->get_bandwidth() / SimPlatform::kDiskScale, !known));
            }
        }
}

void NodeUsage::peer_occupied(int resource, double start_ms, double end_ms, std::uint64_t bytes) {
    occupied(resource, start_ms, end_ms, bytes);
    lanes_[static_cast<std::size_t>(resource)].peer_bytes += bytes;
}

void NodeUsage::occupied(int resource, double start_ms, double end_ms, std::uint64_t bytes) {
    Lane& l = lanes_[static_cast<std::size_t>(resource)];
    l.bytes += bytes;
    l.intervals.emplace_back(start_ms, end_ms);
}

double NodeUsage::busy_ms(std::vector<std::pair<double, double>> intervals) {
    std::sort(intervals.begin(), intervals.end());
    double busy = 0;
    double open = 0, close = 0;
    bool any = false;
    for (const auto& [start, end] : intervals) {
        if (any && start <= close) {
            close = std::max(close, end);
            continue;
        }
        if (any) busy += close - open;
        open = start;
        close = end;
        any = true;
    }
    return any ? busy + (close - open) : 0.0;
}

std::vector<NodeFigures::Link> NodeUsage::links(double step_ms) const {
    std::vector<NodeFigures::Link> out;
    for (const Lane& l : lanes_) {
        if (!l.link) continue;
        const double busy = busy_ms(l.intervals);
        const char* direction = l.peer ? (l.forward ? "tx" : "rx") : (l.forward ? "d2h" : "h2d");
        out.push_back({l.name, direction, l.bytes_per_s, l.bytes, busy, step_ms > 0 ? busy / step_ms : 0.0});
    }
    return out;
}

std::vector<NodeFigures::Disk> NodeUsage::disks(double step_ms) const {
    std::vector<NodeFigures::Disk> out;
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
        const Lane& l = lanes_[i];
        if (l.link || !l.forward) continue;  // a disk's write lane, its read lane just after it
        const Lane& read = lanes_[i + 1];
        std::vector<std::pair<double, double>> both = l.intervals;
        both.insert(both.end(), read.intervals.begin(), read.intervals.end());
        const double busy = busy_ms(std::move(both));
        out.push_back({l.name, read.bytes, l.bytes, busy, step_ms > 0 ? busy / step_ms : 0.0});
    }
    return out;
}

void NodeUsage::check_log(const EventLog& log) const {
    if (!log.recording || !enabled()) return;
    std::vector<std::uint64_t> recorded(lanes_.size(), 0), requested(lanes_.size(), 0);
    std::map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < lanes_.size(); ++i) index[lanes_[i].lane] = i;
    for (const Activity& a : log.activities) {
        if (a.key.kind == LaneKind::Swap) {
            const bool write = a.key.direction == Direction::Out;
            for (const int l : route(a.gpu, write)) requested[static_cast<std::size_t>(l)] += a.bytes;
            const int device = device_lane(a.gpu, a.key.tier, write);
            if (device >= 0) requested[static_cast<std::size_t>(device)] += a.bytes;
            continue;
        }
        if (!is_resource_lane(a.key)) continue;
        const auto it = index.find(a.lane);
        if (it == index.end()) throw InvariantError(fmt::format("the log has a resource lane '{}' the node does not have", a.lane));
        recorded[it->second] += a.bytes;
    }
    for (std::size_t i = 0; i < lanes_.size(); ++i)
        if (recorded[i] != lanes_[i].bytes || requested[i] + lanes_[i].peer_bytes != lanes_[i].bytes)
            throw InvariantError(fmt::format("resource lane '{}': the log's activities on it moved {} B, the requests through it {} B, "
                                             "the engine counted {} B",
                                             lanes_[i].lane, recorded[i], requested[i], lanes_[i].bytes));
}

}  // namespace memsim
