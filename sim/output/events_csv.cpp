#include "sim/output/events_csv.h"

#include <fmt/format.h>

#include "sim/output/text_format.h"

namespace memsim {

std::string events_csv(const EventLog& log) {
    std::string out =
        "record,lane,start_ms,end_ms,duration_ms,op,label,tensors,bytes,bytes_in_use,live_bytes,budget_bytes\n";
    for (const Activity& a : log.activities) {
        out += fmt::format("activity,{},{},{},{},{},{},{},{},,,\n", csv_field(a.lane), format_ms(a.start_ms),
                           format_ms(a.end_ms), format_ms(a.end_ms - a.start_ms), a.op, csv_field(a.label),
                           join_ints(a.tensors, ';'), a.bytes);
    }
    const std::string budget = log.budget_bytes ? std::to_string(*log.budget_bytes) : "";
    for (const MemorySample& m : log.memory)
        out += fmt::format("memory,,{},,,,,,,{},{},{}\n", format_ms(m.time_ms), m.bytes_in_use, m.live_bytes, budget);
    if (log.forward_end_ms >= 0) out += fmt::format("marker,,{},,,,forward_end,,,,,\n", format_ms(log.forward_end_ms));
    return out;
}

void write_events_csv(const EventLog& log, const std::string& path) { write_text_file(path, events_csv(log)); }

}  // namespace memsim
