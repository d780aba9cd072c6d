#include "sim/report/events_csv.h"

#include <fmt/format.h>

#include "sim/report/activity_labels.h"
#include "sim/report/text_format.h"

namespace memsim {

namespace {

// The node's columns (docs/tiers.md): gpu, tier, link; nothing on a single GPU without a node.
class NodeColumns {
public:
    explicit NodeColumns(const EventLog& log) : log_(log) {}

    [[nodiscard]] std::string activity(const Activity& a) {
        if (!log_.node) return "";
        if (a.key.kind == LaneKind::Swap) {
            request_tier_ = tier_row(a.key.tier).key;
            const bool write = a.key.direction == Direction::Out;
            const auto g = static_cast<std::size_t>(a.gpu);
            const std::vector<std::string>& routes = write ? log_.route_d2h : log_.route_h2d;
            return row(std::to_string(a.gpu), request_tier_, g < routes.size() ? routes[g] : "");
        }
        if (is_resource_lane(a.key)) {
            // "pcie0 d2h" -> pcie0; the tier its key names (a device's lane is its tier, a
            // link's that of the request crossing it); a collective's or the offloaded
            // optimizer's flow, of no tier, that of the request before it in the log.
            const std::string_view name = a.lane.substr(0, a.lane.rfind(' '));
            const std::string_view tier = a.key.tier != kNoTier ? tier_row(a.key.tier).key : request_tier_;
            return row(std::to_string(a.gpu), tier, csv_field(name));
        }
        return row(std::to_string(a.gpu), "", "");
    }
    [[nodiscard]] std::string gpu(int g) const { return log_.node ? row(std::to_string(g), "", "") : ""; }
    // An eviction's mark names the tier its tensor was written to.
    [[nodiscard]] std::string mark(const Mark& m) const {
        return log_.node ? row(std::to_string(m.gpu), m.tier != kNoTier ? tier_row(m.tier).key : "", "") : "";
    }
    [[nodiscard]] std::string node() const { return log_.node ? row("", "", "") : ""; }
    [[nodiscard]] std::string header() const { return log_.node ? ",gpu,tier,link" : ""; }

private:
    static std::string row(const std::string& gpu, std::string_view tier, std::string_view link) {
        return fmt::format(",{},{},{}", gpu, tier, link);
    }
    const EventLog& log_;
    std::string_view request_tier_;
};

}  // namespace

std::string events_csv(const EventLog& log, const Workload* workload) {
    const TensorNames names(workload);
    NodeColumns node(log);
    std::string out = "record,lane,start_ms,end_ms,duration_ms,op,label,tensors,bytes,bytes_in_use,live_bytes,budget_bytes" +
                      node.header() + "\n";
    for (const Activity& a : log.activities) {
        out += fmt::format("activity,{},{},{},{},{},{},{},{},,,{}\n", csv_field(a.lane), format_ms(a.start_ms),
                           format_ms(a.end_ms), format_ms(a.end_ms - a.start_ms), a.op,
                           csv_field(activity_label(a, names)), join_ints(a.tensors, ';'), a.bytes, node.activity(a));
    }
    for (const Mark& m : log.marks)
        out += fmt::format("mark,{},{},,,{},{},{},{},,,{}\n", csv_field(m.kind), format_ms(m.time_ms), m.op,
                           csv_field(mark_label(m, names)), m.tensor >= 0 ? std::to_string(m.tensor) : "", m.bytes, node.mark(m));
    const std::string budget = log.budget_bytes ? std::to_string(*log.budget_bytes) : "";
    for (const MemorySample& m : log.memory)
        out += fmt::format("memory,,{},,,,,,,{},{},{}{}\n", format_ms(m.time_ms), m.bytes_in_use, m.live_bytes, budget,
                           node.gpu(m.gpu));
    // Host RAM of a node (docs/tiers.md): its own rows, only when the run had a host tier.
    for (const HostSample& h : log.host_memory)
        out += fmt::format("host_memory,,{},,,,,,,{},,{}\n", format_ms(h.time_ms), h.bytes_in_use, node.node());
    // The forward/backward boundary the log knows is GPU 0's.
    if (log.forward_end_ms >= 0)
        out += fmt::format("marker,,{},,,,forward_end,,,,,{}\n", format_ms(log.forward_end_ms), node.gpu(0));
    return out;
}

void write_events_csv(const EventLog& log, const std::string& path, const Workload* workload) {
    write_text_file(path, events_csv(log, workload));
}

}  // namespace memsim
