#include "report/events_csv.h"

#include <fmt/format.h>

#include "report/activity_labels.h"
#include "report/text_format.h"

namespace memsim {

std::string events_csv(const EventLog& log, const Workload* workload) {
    const TensorNames names(workload);
    std::string out =
        "record,lane,start_ms,end_ms,duration_ms,op,label,tensors,bytes,bytes_in_use,live_bytes,budget_bytes\n";
    for (const Activity& a : log.activities) {
        out += fmt::format("activity,{},{},{},{},{},{},{},{},,,\n", csv_field(a.lane), format_ms(a.start_ms),
                           format_ms(a.end_ms), format_ms(a.end_ms - a.start_ms), a.op,
                           csv_field(activity_label(a, names)), join_ints(a.tensors, ';'), a.bytes);
    }
    for (const Mark& m : log.marks)
        out += fmt::format("mark,{},{},,,{},{},{},{},,,\n", csv_field(m.kind), format_ms(m.time_ms), m.op,
                           csv_field(mark_label(m, names)), m.tensor >= 0 ? std::to_string(m.tensor) : "", m.bytes);
    const std::string budget = log.budget_bytes ? std::to_string(*log.budget_bytes) : "";
    for (const MemorySample& m : log.memory)
        out += fmt::format("memory,,{},,,,,,,{},{},{}\n", format_ms(m.time_ms), m.bytes_in_use, m.live_bytes, budget);
    // Host RAM of a node (docs/tiers.md): its own rows, only when the run had a host tier.
    for (const HostSample& h : log.host_memory)
        out += fmt::format("host_memory,,{},,,,,,,{},,\n", format_ms(h.time_ms), h.bytes_in_use);
    if (log.forward_end_ms >= 0) out += fmt::format("marker,,{},,,,forward_end,,,,,\n", format_ms(log.forward_end_ms));
    return out;
}

void write_events_csv(const EventLog& log, const std::string& path, const Workload* workload) {
    write_text_file(path, events_csv(log, workload));
}

}  // namespace memsim
