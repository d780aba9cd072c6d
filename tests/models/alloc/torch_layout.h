// A torch_caching state as text, for hand-worked layouts: each segment (as PyTorch's
// snapshot lists it) as "@OFFSET SIZE[a:BYTES f:BYTES ...]", offsets from the device's
// first address in MiB when whole, else bytes.
#pragma once

#include <string>

#include <fmt/format.h>

#include "models/alloc/torch_state.h"

namespace memsim::test {

inline std::string torch_layout(const torch::State& s) {
    const auto text = [](std::uint64_t b) {
        return b % (1024 * 1024) == 0 ? fmt::format("{}M", b / (1024 * 1024)) : fmt::format("{}", b);
    };
    std::string out;
    for (const auto& [head, bytes] : s.segments()) {
        if (!out.empty()) out += " | ";
        out += fmt::format("@{} {}[", text(s.block(head).address - torch::kDeviceBase), text(bytes));
        bool first = true;
        for (torch::BlockId id = head; id != torch::kNoBlock && s.block(id).mapped; id = s.block(id).next) {
            out += fmt::format("{}{}:{}", first ? "" : " ", s.block(id).allocated ? "a" : "f", text(s.block(id).size));
            first = false;
        }
        out += "]";
    }
    return out;
}

}  // namespace memsim::test
