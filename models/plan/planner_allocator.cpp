#include "models/plan/planner_allocator.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "models/plan/strategies.h"

namespace memsim {

namespace {

class PlannerAllocator final : public Allocator {
public:
    PlannerAllocator(std::string strategy, ParamValues params) : strategy_(std::move(strategy)) {
        (void)plan::strategy_info(strategy_);  // throws for an unknown name
        options_.params = std::move(params);
    }

    [[nodiscard]] std::string name() const override { return "planner:" + strategy_; }

    void prepare(const Workload& w) override {
        records_ = usage_records(w);
        const plan::Plan p = plan::make_plan(strategy_, records_, options_);
        total_ = p.total;
        placement_.clear();
        for (std::size_t i = 0; i < records_.size(); ++i) {
            Placement& pl = placement_[records_[i].tensor];
            pl.record = i;
            pl.offset = p.offsets.offsets[i];
            const std::size_t parent = p.offsets.inplace_parent.empty() ? plan::kNoRecord : p.offsets.inplace_parent[i];
            pl.inplace_with = parent == plan::kNoRecord ? -1 : records_[parent].tensor;
        }
        live_.clear();
        live_by_offset_.clear();
        prepared_ = true;
    }

    void allocate(TensorId tensor, std::uint64_t bytes) override {
        if (!prepared_) throw std::logic_error(fmt::format("{}: allocate before prepare", name()));
        auto it = placement_.find(tensor);
        if (it == placement_.end())
            throw std::logic_error(fmt::format("{}: tensor {} ({} bytes) is not in the plan", name(), tensor, bytes));
        const Placement& pl = it->second;
        const UsageRecord& r = records_[pl.record];
        if (bytes > r.bytes)
            throw std::logic_error(
                fmt::format("{}: tensor {} asks {} bytes, the plan has {}", name(), tensor, bytes, r.bytes));
        if (live_.count(tensor))
            throw std::logic_error(fmt::format("{}: tensor {} allocated twice", name(), tensor));
        if (bytes > 0) check_no_overlap(tensor, pl.offset, bytes);
        live_.emplace(tensor, bytes);
        live_by_offset_.emplace(pl.offset, tensor);
    }

    void release(TensorId tensor) override {
        auto it = live_.find(tensor);
        if (it == live_.end())
            throw std::logic_error(fmt::format("{}: tensor {} freed but not allocated", name(), tensor));
        live_.erase(it);
        auto [lo, hi] = live_by_offset_.equal_range(placement_.at(tensor).offset);
        for (auto b = lo; b != hi; ++b)
            if (b->second == tensor) {
                live_by_offset_.erase(b);
                break;
            }
    }

    [[nodiscard]] std::uint64_t footprint_bytes() const override { return total_; }
    [[nodiscard]] std::uint64_t peak_bytes() const override { return total_; }
    [[nodiscard]] std::uint64_t footprint_if_allocated(std::uint64_t /*bytes*/) const override { return total_; }

private:
    struct Placement {
        std::size_t record = 0;
        std::uint64_t offset = 0;
        TensorId inplace_with = -1;  // the tensor whose bytes this one takes over in place
    };

    [[nodiscard]] std::string describe(TensorId t) const {
        const Placement& pl = placement_.at(t);
        const UsageRecord& r = records_[pl.record];
        return fmt::format("tensor {} (bytes [{}, {}), planned for ops [{}, {}])", t, pl.offset, pl.offset + r.bytes,
                           r.first_op, r.last_op);
    }

    void check_no_overlap(TensorId tensor, std::uint64_t offset, std::uint64_t bytes) const {
        // Live blocks are disjoint except in-place pairs, so only blocks starting before
        // offset + bytes can overlap, and among those starting below `offset` the ones
        // reaching past it. Scan from the last start below `offset` downwards until a
        // non-empty block ends at or before `offset` (the earlier ones end even earlier).
        auto conflict = [&](TensorId other) {
            const Placement& me = placement_.at(tensor);
            const Placement& them = placement_.at(other);
            if (me.inplace_with == other || them.inplace_with == tensor) return;
            throw std::logic_error(fmt::format("{}: {} overlaps live {}", name(), describe(tensor), describe(other)));
        };
        auto hi = live_by_offset_.lower_bound(offset + bytes);
        for (auto b = live_by_offset_.lower_bound(offset); b != hi; ++b)
            if (live_.at(b->second) > 0) conflict(b->second);
        for (auto b = live_by_offset_.lower_bound(offset); b != live_by_offset_.begin();) {
            --b;
            const std::uint64_t size = live_.at(b->second);
            if (size == 0) continue;
            if (b->first + size > offset) conflict(b->second);
            else break;
        }
    }

    std::string strategy_;
    plan::PlanOptions options_;
    std::vector<UsageRecord> records_;
    std::unordered_map<TensorId, Placement> placement_;
    std::unordered_map<TensorId, std::uint64_t> live_;   // tensor -> bytes asked
    std::multimap<std::uint64_t, TensorId> live_by_offset_;
    std::uint64_t total_ = 0;
    bool prepared_ = false;
};

}  // namespace

std::vector<std::string> planner_strategy_names() { return plan::strategy_names(); }

std::unique_ptr<Allocator> make_planner_allocator(const std::string& strategy, const ParamValues& params) {
    const std::vector<std::string> names = plan::strategy_names();
    if (std::find(names.begin(), names.end(), strategy) == names.end())
        throw std::invalid_argument(unknown_name_message("planner strategy", strategy, names));
    return std::make_unique<PlannerAllocator>(strategy, params);
}

}  // namespace memsim
