#include "sim/report/activity_labels.h"

#include <fmt/format.h>

#include "sim/report/text_format.h"

namespace memsim {

namespace {

constexpr std::size_t kNamesListed = 3;  // a longer list ends in "and N more"

// "waiting for a swap-in" -> "swap-in"; "waiting for swap-outs (sync)" -> "swap-outs, sync".
std::string stall_reason(std::string why) {
    for (const char* prefix : {"waiting for ", "a ", "an ", "the "})
        if (why.rfind(prefix, 0) == 0) why.erase(0, std::string(prefix).size());
    std::string out;
    for (std::size_t i = 0; i < why.size(); ++i) {
        if (why.compare(i, 2, " (") == 0) {
            out += ", ";
            ++i;
        } else if (why[i] != ')') {
            out += why[i];
        }
    }
    return out;
}

std::string with_bytes(const std::string& text, std::uint64_t bytes) {
    return bytes > 0 ? fmt::format("{} ({})", text, format_bytes_human(bytes)) : text;
}

}  // namespace

std::string TensorNames::operator()(int tensor) const {
    if (workload_ && tensor >= 0 && static_cast<std::size_t>(tensor) < workload_->tensors.size())
        return workload_->tensors[static_cast<std::size_t>(tensor)].name;
    return fmt::format("#{}", tensor);
}

std::string TensorNames::described(int tensor) const {
    const std::string name = (*this)(tensor);
    if (!workload_ || tensor < 0 || static_cast<std::size_t>(tensor) >= workload_->tensors.size()) return name;
    const Tensor& t = workload_->tensors[static_cast<std::size_t>(tensor)];
    if (t.producer < 0 || static_cast<std::size_t>(t.producer) >= workload_->ops.size())
        return t.constant ? name + " (a constant: weights or an input)" : name;
    const std::string op = fmt::format("op {} {}", t.producer, workload_->ops[static_cast<std::size_t>(t.producer)].name);
    // The DTR log reader names the version an in-place (MUTATE) operator writes NAME$.
    if (name.size() > 1 && name.back() == '$')
        return fmt::format("{} ({} as {} changed it in place)", name, name.substr(0, name.size() - 1), op);
    return fmt::format("{} (output of {})", name, op);
}

std::string TensorNames::list(std::span<const int> tensors) const {
    std::string out = tensors.size() == 1 ? "tensor " : "tensors ";
    for (std::size_t i = 0; i < tensors.size() && i < kNamesListed; ++i) out += (i > 0 ? ", " : "") + (*this)(tensors[i]);
    if (tensors.size() > kNamesListed) out += fmt::format(" and {} more", tensors.size() - kNamesListed);
    return out;
}

OpList<int, 2> subject_tensors(const Activity& a) {
    if (a.for_tensor >= 0) return {a.for_tensor};
    return a.tensors;
}

std::string activity_label(const Activity& a, const TensorNames& names) {
    const OpList<int, 2> subject = subject_tensors(a);
    if (a.key.kind == LaneKind::Swap) {
        const bool write = a.key.direction == Direction::Out;
        // The tier a swap goes to without a node (the disk): its verb names no tier.
        const std::string verb = a.key.tier == kDefaultTier
                                     ? (write ? "swap out" : "swap in")
                                     : fmt::format("{} {}", write ? "swap out to" : "swap in from", tier_row(a.key.tier).name);
        // The engine names a disk activity's tensor in `label`: that serves when the workload is not at hand.
        const bool label_is_name = !names.knows_names() && subject.size() == 1 && !a.label.empty();
        const std::string what = label_is_name || subject.empty() ? fmt::format("tensor {}", a.label) : names.list(subject);
        return with_bytes(fmt::format("{} {}", verb, what), a.bytes);
    }
    if (a.lane == lane::kStall) {
        if (subject.empty()) return std::string(a.label);
        return fmt::format("wait for {}{}", names.list(subject), a.label.empty() ? "" : " (" + stall_reason(std::string(a.label)) + ")");
    }
    if (is_resource_lane(a.key)) {  // a request on one of the node's links or disks: its tensor, as the request says it
        const bool label_is_name = !names.knows_names() && subject.size() == 1 && !a.label.empty();
        return with_bytes(label_is_name || subject.empty() ? fmt::format("tensor {}", a.label) : names.list(subject), a.bytes);
    }
    if (a.lane == lane::kRecompute) {
        std::string text = fmt::format("recompute op {}", a.op);
        if (!a.label.empty()) text += fmt::format(" ({})", a.label);
        if (!subject.empty()) text += " for " + names.list(subject);
        return text;
    }
    return std::string(a.label);
}

std::string mark_label(const Mark& m, const TensorNames& names) {
    const std::string tensor = with_bytes(m.tensor >= 0 ? names.list(std::span<const int>(&m.tensor, 1)) : "a tensor", m.bytes);
    if (m.kind == mark::kEvictToDisk)
        return fmt::format("evict {} to {}", tensor, m.tier != kNoTier ? tier_row(m.tier).name : tier_row(kDefaultTier).name);
    if (m.kind == mark::kDrop) return fmt::format("drop {}: recomputed when needed", tensor);
    if (m.kind == mark::kCancelWrite) return fmt::format("cancel the swap-out of {}: needed again first", tensor);
    return fmt::format("{} {}", m.kind, tensor);
}

std::string mark_display_name(const std::string& kind) {
    if (kind == mark::kEvictToDisk) return "evictions to disk";
    if (kind == mark::kDrop) return "drops";
    if (kind == mark::kCancelWrite) return "cancelled writes";
    return kind;
}

}  // namespace memsim
