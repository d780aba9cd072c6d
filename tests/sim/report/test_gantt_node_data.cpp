// The Gantt page's node data (sim/report/gantt_node_data.h): the order and groups of the
// lanes, and a page that has the node's data and script only when the run is a node.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/gantt_html.h"
#include "sim/report/gantt_node_data.h"

using namespace memsim;

namespace {

nlohmann::json page_json(const std::string& html) {
    const std::string open = "<script id=\"memsim-data\" type=\"application/json\">";
    const std::size_t from = html.find(open) + open.size();
    return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}

EventLog host_log() {
    EventLog log;
    log.add({lane::kCompute, 0.0, 4.0, 0, "conv", {1}, 1024});
    log.add(swap_activity(kHostRamTier, true, 1.0, 2.0, 0, "", {1}, 1024));
    log.add(swap_activity(kHostRamTier, false, 3.0, 4.0, 0, "", {1}, 1024));
    log.sample(0.0, 1024, 1024, 1024);
    log.host_memory = {{1.0, 1024}, {4.0, 0}};
    log.node = true;
    log.host_capacity_bytes = 4096;
    return log;
}

// GPU 0 and GPU 1 compute; GPU 1 writes through its own link and the switch.
void resource_lane_log(EventLog& log) {
    log.add({lane::kCompute, 0.0, 4.0, 0, "conv", {1}, 1024});
    Activity other{lane::kCompute, 0.5, 5.0, 0, "conv", {1}, 1024};
    other.gpu = 1;
    log.add(other);
    for (const char* link : {"switch0 d2h", "pcie1 d2h"}) {
        Activity flow{link, 1.0, 2.0, 0, "", {1}, 1024};
        flow.gpu = 1;
        flow.key = {LaneKind::Link, Direction::Out, kHostRamTier};
        log.add(flow);
    }
    log.resource_lanes = {"pcie0 d2h", "pcie1 d2h", "switch0 d2h"};
    MemorySample first{0.0, 100, 100, 100}, second{0.5, 200, 200, 200};
    second.gpu = 1;
    log.memory = {first, second};
}

}  // namespace

TEST_CASE("gantt node data: the GPU's lanes nearest tier first, then links, then disks", "[report]") {
    const std::vector<std::string> in = {"compute", "stall", "disk_read", "disk_write", "host_read", "host_write",
                                         "disk0 read", "disk0 write", "pcie10 d2h", "pcie2 h2d", "pcie2 d2h",
                                         "switch0 h2d", "switch0 d2h"};
    // The keys the engine gives them (the lane strings are only their rendering).
    const LaneKey link_out{LaneKind::Link, Direction::Out, kHostRamTier}, link_in{LaneKind::Link, Direction::In, kHostRamTier};
    const std::map<std::string, LaneKey> keys = {{"disk_read", {LaneKind::Swap, Direction::In, kDiskTier}},
                                                 {"disk_write", {LaneKind::Swap, Direction::Out, kDiskTier}},
                                                 {"host_read", {LaneKind::Swap, Direction::In, kHostRamTier}},
                                                 {"host_write", {LaneKind::Swap, Direction::Out, kHostRamTier}},
                                                 {"disk0 read", {LaneKind::Disk, Direction::In, kDiskTier}},
                                                 {"disk0 write", {LaneKind::Disk, Direction::Out, kDiskTier}},
                                                 {"pcie10 d2h", link_out},
                                                 {"pcie2 h2d", link_in},
                                                 {"pcie2 d2h", link_out},
                                                 {"switch0 h2d", link_in},
                                                 {"switch0 d2h", link_out}};
    const std::vector<std::string> expected = {"compute", "host_write", "host_read", "disk_write", "disk_read", "stall",
                                               "pcie2 d2h", "pcie2 h2d", "pcie10 d2h", "switch0 d2h", "switch0 h2d",
                                               "disk0 write", "disk0 read"};
    CHECK(node_lane_order(in, keys) == expected);
    CHECK(std::string(lane_group(link_out)) == "node");
    CHECK(std::string(lane_group(keys.at("disk0 read"))) == "node");
    CHECK(std::string(lane_group(keys.at("disk_write"))) == "gpu");
    CHECK(std::string(lane_group(keys.at("host_read"))) == "gpu");
    CHECK(std::string(lane_group(LaneKey{})) == "gpu");
}

TEST_CASE("gantt node data: only a node's page has the node's data and script", "[report]") {
    Summary single;
    single.time_ms = 4.0;
    EventLog not_node = host_log();
    not_node.node = false;
    const std::string plain = gantt_html(not_node, single, "plain");
    CHECK_FALSE(page_json(plain).contains("node"));
    CHECK(plain.find("memsimGanttNode = function") == std::string::npos);
    CHECK(plain.find("id=\"gpu-select\"") == std::string::npos);

    Summary node = single;
    node.node = NodeFigures{};
    node.node->step_time_ms = 4.0;
    node.node->host_peak_bytes = 1024;
    node.node->host_capacity_bytes = 4096;
    node.node->gpus = {{"ok", 4.0, 0.0, 1024, 1024, std::nullopt}};
    const std::string html = gantt_html(host_log(), node, "node");
    const nlohmann::json data = page_json(html);
    REQUIRE(data.contains("node"));
    CHECK(data["node"]["gpus"] == 1);
    CHECK(data["node"]["host_capacity_bytes"] == 4096);
    CHECK(data["node"]["host_memory"] == nlohmann::json::parse("[[1.0, 1024], [4.0, 0]]"));
    CHECK(data["node"]["memory"] == nlohmann::json::parse("[[[0.0, 1024, 1024]]]"));
    CHECK(data["memory"].empty());  // GPU 0's curve is node.memory[0]
    // Lanes: names of the host tier's swaps, and each lane's group; each activity says its GPU.
    CHECK(data["lanes"][1]["name"] == "host RAM write");
    CHECK(data["lanes"][2]["name"] == "host RAM read");
    CHECK(data["lanes"][1]["kind"] == "swap");  // the tooltip's journey counts swaps by kind and direction
    CHECK(data["lanes"][1]["direction"] == "out");
    CHECK(data["lanes"][1]["tier"] == "host");
    CHECK(data["lanes"][2]["direction"] == "in");
    for (const auto& lane : data["lanes"]) CHECK(lane["group"] == "gpu");
    for (const auto& a : data["activities"]) CHECK(a.size() == 9);
    CHECK(html.find("memsimGanttNode = function") != std::string::npos);
    CHECK(html.find("GPUs <b>1</b>") != std::string::npos);
    CHECK(html.find("host RAM peak <b>1.00 KiB</b>") != std::string::npos);
    CHECK(html.find("id=\"gpu-select\"") == std::string::npos);  // one GPU: no selector
}


TEST_CASE("gantt node data: two GPUs: each activity's GPU, each GPU's own memory curve, the selector", "[report]") {
    EventLog log;
    log.node = true;
    log.gpus = 2;
    resource_lane_log(log);
    Summary summary;
    summary.node = NodeFigures{};
    summary.node->gpus = {{"ok", 4.0, 0.0, 1024, 0, std::nullopt}, {"ok", 5.0, 1.0, 1024, 0, std::nullopt}};
    const std::string html = gantt_html(log, summary, "two");
    const nlohmann::json data = page_json(html);
    // Lanes: compute, then the links in the platform's order (the log's resource_lanes).
    std::vector<std::string> lanes;
    for (const auto& lane : data["lanes"]) lanes.push_back(lane["id"]);
    CHECK(lanes == std::vector<std::string>{"compute", "pcie1 d2h", "switch0 d2h"});
    CHECK(data["lanes"][2]["group"] == "node");
    // Each lane's key for the page's scripts: a link of the route, out; its family and number
    // group the GPUs' own links; a link without a number (switch0 has 0) is its own family.
    CHECK(data["lanes"][0]["kind"] == "other");
    CHECK_FALSE(data["lanes"][0].contains("direction"));
    CHECK(data["lanes"][1]["kind"] == "link");
    CHECK(data["lanes"][1]["direction"] == "out");
    CHECK(data["lanes"][1]["family"] == "pcie* d2h");
    CHECK(data["lanes"][1]["number"] == 1);
    CHECK_FALSE(data["lanes"][1].contains("tier"));  // a link's tier is its request's, not the lane's
    CHECK(data["lanes"][2]["family"] == "switch* d2h");
    // [lane, start, end, op, label, tensors, bytes, for_tensor, gpu]
    CHECK(data["activities"][0][8] == 0);
    CHECK(data["activities"][1][8] == 1);
    CHECK(data["activities"][3][8] == 1);
    CHECK(data["node"]["memory"] == nlohmann::json::parse("[[[0.0, 100, 100]], [[0.5, 200, 200]]]"));
    CHECK(data["node"]["gpu_summaries"][1]["time_ms"] == 5.0);
    CHECK(html.find("<button data-gpu=\"0\" style=\"--c:#4e79a7\">0</button><button data-gpu=\"1\" style=\"--c:#f28e2b\">1"
                    "</button><button data-gpu=\"all\">all</button>") != std::string::npos);
}
