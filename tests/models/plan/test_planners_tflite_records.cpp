// TensorFlow Lite's own planner tests (tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc), transcribed by hand: the usage records of EmptyRecords,
// OneRecord, ChainRecords, ComplexRecords and OffsetAssignmentWithAlignment and the
// object ids, object sizes and offsets TFLite asserts for every strategy memsim
// implements (naive, equality, greedy_in_order, greedy_by_breadth, greedy_by_size,
// mincostflow; offsets greedy_by_size; ObjectsToOffsets). TFLite's records are
// {size, first_task, last_task}; memsim's are {tensor, bytes, first_op, last_op}.
// The multi-dimensional records (BHWC, uint2, uint3) have no byte-size counterpart.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/plan/mincostflow.h"
#include "models/plan/objects_to_offsets.h"
#include "models/plan/strategies.h"

using namespace memsim;
using namespace memsim::plan;
using Ids = std::vector<std::size_t>;
using Sizes = std::vector<std::uint64_t>;

namespace {

std::vector<UsageRecord> records(std::initializer_list<std::array<int, 3>> size_first_last) {
    std::vector<UsageRecord> out;
    for (const auto& r : size_first_last)
        out.push_back({static_cast<TensorId>(out.size()), static_cast<std::uint64_t>(r[0]), r[1], r[2]});
    return out;
}

std::vector<UsageRecord> one_record() { return records({{16, 0, 1}}); }

std::vector<UsageRecord> chain_records() {
    return records({{16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}});
}

std::vector<UsageRecord> complex_records() {
    return records({{32, 0, 1},
                    {32, 1, 4},
                    {8, 2, 5},
                    {16, 3, 5},
                    {8, 4, 5},
                    {64, 5, 7},
                    {8, 6, 8},
                    {8, 7, 8},
                    {16, 8, 9}});
}

void check_objects_plan(const std::string& strategy, const std::vector<UsageRecord>& recs, const Ids& ids,
                        const Sizes& sizes) {
    INFO("strategy " << strategy);
    const Plan p = make_plan(strategy, recs);
    CHECK(p.objects.object_ids == ids);
    CHECK(p.objects.object_sizes == sizes);
}

void check_offsets_plan(const std::vector<UsageRecord>& recs, std::uint64_t align, const Sizes& offsets,
                        std::uint64_t total) {
    PlanOptions options;
    options.align = align;
    const Plan p = make_plan("greedy_by_size_offsets", recs, options);
    CHECK(p.offsets.offsets == offsets);
    CHECK(p.offsets.total == total);
}

}  // namespace

TEST_CASE("tflite records: EmptyRecords give empty assignments for every strategy") {
    for (const std::string s : {"naive", "equality", "greedy_in_order", "greedy_by_breadth", "greedy_by_size",
                                "mincostflow", "mincostflow_fast"})
        check_objects_plan(s, {}, {}, {});
    check_offsets_plan({}, 1, {}, 0);
}

TEST_CASE("tflite records: OneRecord") {
    for (const std::string s : {"naive", "equality", "greedy_in_order", "greedy_by_breadth", "greedy_by_size",
                                "mincostflow", "mincostflow_fast"})
        check_objects_plan(s, one_record(), {0}, {16});
    check_offsets_plan(one_record(), 1, {0}, 16);
}

TEST_CASE("tflite records: ChainRecords, every strategy TFLite asserts") {
    const auto recs = chain_records();
    check_objects_plan("naive", recs, {0, 1, 2, 3, 4}, {16, 8, 64, 32, 8});
    check_objects_plan("equality", recs, {0, 1, 2, 3, 1}, {16, 8, 64, 32});
    check_objects_plan("mincostflow", recs, {0, 1, 0, 1, 0}, {64, 32});
    check_objects_plan("greedy_in_order", recs, {0, 1, 0, 1, 0}, {64, 32});
    check_objects_plan("greedy_by_breadth", recs, {0, 1, 0, 1, 0}, {64, 32});
    check_objects_plan("greedy_by_size", recs, {0, 1, 0, 1, 0}, {64, 32});
    check_offsets_plan(recs, 1, {0, 64, 0, 64, 0}, 96);
}

TEST_CASE("tflite records: ComplexRecords, every strategy TFLite asserts") {
    const auto recs = complex_records();
    check_objects_plan("naive", recs, {0, 1, 2, 3, 4, 5, 6, 7, 8}, {32, 32, 8, 16, 8, 64, 8, 8, 16});
    check_objects_plan("equality", recs, {0, 1, 2, 3, 4, 5, 4, 2, 3}, {32, 32, 8, 16, 8, 64});
    check_objects_plan("mincostflow", recs, {0, 1, 2, 0, 3, 1, 3, 2, 0}, {32, 64, 8, 8});
    check_objects_plan("greedy_in_order", recs, {0, 1, 0, 2, 3, 1, 3, 2, 0}, {32, 64, 16, 8});
    check_objects_plan("greedy_by_breadth", recs, {0, 4, 2, 1, 3, 0, 2, 3, 1}, {64, 16, 8, 8, 32});
    check_objects_plan("greedy_by_size", recs, {1, 0, 2, 1, 3, 0, 1, 2, 0}, {64, 32, 8, 8});
    check_offsets_plan(recs, 1, {0, 32, 80, 64, 88, 0, 64, 72, 0}, 96);
}

TEST_CASE("tflite records: OffsetAssignmentWithAlignment (ChainRecords, base address align 128)") {
    check_offsets_plan(chain_records(), 128, {0, 128, 0, 128, 0}, 160);
}

TEST_CASE("tflite records: ObjectsToOffsets lays objects end to end in id order") {
    // EmptyAssignment, OneObjectAssignment, ManyObjectsAssignment.
    CHECK(objects_to_offsets(ObjectAssignment{}).offsets.empty());
    CHECK(objects_to_offsets(ObjectAssignment{}).total == 0);
    ObjectAssignment one;
    one.object_sizes = {16};
    one.object_ids = {0};
    CHECK(objects_to_offsets(one).offsets == Sizes{0});
    CHECK(objects_to_offsets(one).total == 16);
    one.object_ids = {0, 0, 0};
    CHECK(objects_to_offsets(one).offsets == Sizes{0, 0, 0});
    CHECK(objects_to_offsets(one).total == 16);
    ObjectAssignment many;
    many.object_sizes = {16, 8, 32, 32, 4, 16};
    many.object_ids = {2, 0, 2, 1, 3, 3, 1, 5};
    CHECK(objects_to_offsets(many).offsets == Sizes{24, 0, 24, 16, 56, 56, 16, 92});
    // TFLite's test does not assert the total; the objects end at 92 + 16.
    CHECK(objects_to_offsets(many).total == 108);
}
