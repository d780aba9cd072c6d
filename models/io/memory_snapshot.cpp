#include "models/io/memory_snapshot.h"

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/checked_math.h"
#include "models/io/input_file.h"
#include "models/io/pickle.h"
#include "models/workload/input_error.h"

namespace memsim {

namespace {

void write_frames(PickleWriter& p, const SnapshotStack& frames) {
    p.begin_list();
    if (frames)
        for (const SnapshotFrame& f : *frames) {
            p.begin_dict();
            p.str("filename");
            p.str(f.filename);
            p.str("line");
            p.integer(f.line);
            p.str("name");
            p.str(f.name);
            p.end_dict();
        }
    p.end_list();
}

void key_int(PickleWriter& p, const char* key, std::uint64_t value) {
    p.str(key);
    p.integer(static_cast<std::int64_t>(value));
}

void write_block(PickleWriter& p, const SnapshotBlock& b) {
    p.begin_dict();
    key_int(p, "address", b.address);
    key_int(p, "size", b.size);
    key_int(p, "requested_size", b.requested_size);
    p.str("state");
    p.str(b.state);
    p.str("frames");
    write_frames(p, b.frames);
    if (b.state == "active_allocated") {  // torch 1.13's form of the same, which its _memory_viz reads
        p.str("history");
        p.begin_list();
        p.begin_dict();
        key_int(p, "addr", b.address);
        key_int(p, "real_size", b.requested_size);
        p.str("frames");
        write_frames(p, b.frames);
        p.end_dict();
        p.end_list();
    }
    p.end_dict();
}

void write_segment(PickleWriter& p, const SnapshotSegment& s) {
    p.begin_dict();
    key_int(p, "device", static_cast<std::uint64_t>(s.device));
    key_int(p, "address", s.address);
    key_int(p, "total_size", s.total_size);
    key_int(p, "allocated_size", s.allocated_size);
    key_int(p, "active_size", s.active_size);
    key_int(p, "requested_size", s.requested_size);
    key_int(p, "stream", static_cast<std::uint64_t>(s.stream));
    p.str("segment_type");
    p.str(s.segment_type);
    p.str("segment_pool_id");
    p.begin_tuple();
    p.integer(0);
    p.integer(0);
    p.end_tuple();
    p.str("is_expandable");
    p.boolean(s.is_expandable);
    p.str("frames");
    write_frames(p, s.frames);
    p.str("blocks");
    p.begin_list();
    for (const SnapshotBlock& b : s.blocks) write_block(p, b);
    p.end_list();
    p.end_dict();
}

void write_entry(PickleWriter& p, const SnapshotTraceEntry& e) {
    p.begin_dict();
    p.str("action");
    p.str(e.action);
    key_int(p, e.action == "oom" ? "device_free" : "addr", e.addr);
    key_int(p, "size", e.size);
    key_int(p, "stream", static_cast<std::uint64_t>(e.stream));
    if (e.time_us) key_int(p, "time_us", static_cast<std::uint64_t>(*e.time_us));
    p.str("frames");
    write_frames(p, e.frames);
    p.end_dict();
}

}  // namespace

std::string write_memory_snapshot(const MemorySnapshot& s) {
    PickleWriter p;
    p.begin_dict();
    p.str("segments");
    p.begin_list();
    for (const SnapshotSegment& seg : s.segments) write_segment(p, seg);
    p.end_list();
    p.str("device_traces");
    p.begin_list();
    for (const auto& trace : s.device_traces) {
        p.begin_list();
        for (const SnapshotTraceEntry& e : trace) write_entry(p, e);
        p.end_list();
    }
    p.end_list();
    p.str("allocator_settings");
    p.begin_dict();
    p.str("PYTORCH_CUDA_ALLOC_CONF");
    p.str(s.alloc_conf.value_or(""));
    key_int(p, "max_split_size", s.max_split_size);
    p.str("garbage_collection_threshold");
    p.real(s.garbage_collection_threshold);
    p.str("expandable_segments");
    p.boolean(s.expandable_segments);
    p.end_dict();
    p.end_dict();
    return p.finish();
}

namespace {

// The strict reader: a path into the value for every message.
class SnapshotReader {
public:
    explicit SnapshotReader(std::string what) : what_(std::move(what)) {}

    MemorySnapshot read(const PyValue& root) {
        if (root.is(PyValue::Kind::List))
            fail("", "a list of segments: the form of torch 1.13's snapshot, which has no trace of allocations to replay "
                     "(take it with torch 2.x: torch.cuda.memory._record_memory_history(), then _dump_snapshot)");
        const auto& top = dict(root, "", {"segments", "device_traces", "allocator_settings", "external_annotations"});
        MemorySnapshot s;
        const PyValue& segments = list(field(root, "", "segments"), "segments");
        for (std::size_t i = 0; i < segments.items().size(); ++i) s.segments.push_back(segment(segments.items()[i], fmt::format("segments[{}]", i)));
        const PyValue& traces = list(field(root, "", "device_traces"), "device_traces");
        for (std::size_t d = 0; d < traces.items().size(); ++d) {
            const std::string at = fmt::format("device_traces[{}]", d);
            const PyValue& trace = list(traces.items()[d], at);
            auto& out = s.device_traces.emplace_back();
            for (std::size_t i = 0; i < trace.items().size(); ++i) out.push_back(entry(trace.items()[i], fmt::format("{}[{}]", at, i)));
        }
        (void)top;
        if (const PyValue* settings = root.get("allocator_settings")) {
            if (!settings->is(PyValue::Kind::Dict)) wrong(*settings, "allocator_settings", "a dict");
            if (const PyValue* conf = settings->get("PYTORCH_CUDA_ALLOC_CONF")) {
                if (!conf->is(PyValue::Kind::Str)) wrong(*conf, "allocator_settings.PYTORCH_CUDA_ALLOC_CONF", "a string");
                s.alloc_conf = conf->text();
            }
        }
        return s;
    }

private:
    [[noreturn]] void fail(const std::string& at, const std::string& why) const {
        throw InputError(fmt::format("{}: {}{}not a PyTorch memory snapshot: {}", what_, at, at.empty() ? "" : ": ", why));
    }
    [[noreturn]] void wrong(const PyValue& v, const std::string& at, const char* expected) const {
        fail(at, fmt::format("expected {}, found a {}", expected, py_kind_name(v.kind)));
    }
    // A dict whose string keys are all known.
    const PyValue& dict(const PyValue& v, const std::string& at, std::initializer_list<const char*> known) const {
        if (!v.is(PyValue::Kind::Dict)) wrong(v, at.empty() ? std::string("the top level") : at, "a dict");
        for (const auto& entry : v.entries()) {
            const PyValue& k = entry.first;
            if (!k.is(PyValue::Kind::Str)) fail(at, fmt::format("a key of type {} (keys are field names)", py_kind_name(k.kind)));
            if (std::none_of(known.begin(), known.end(), [&](const char* n) { return k.text() == n; }))
                fail(at, fmt::format("unknown field '{}' (known: {}; the fields of the PyTorch versions in docs/outputs.md)", k.text(),
                                     fmt::join(known, ", ")));
        }
        return v;
    }
    const PyValue& field(const PyValue& v, const std::string& at, const char* name) const {
        const PyValue* f = v.get(name);
        if (!f) fail(at, fmt::format("missing field '{}'", name));
        return *f;
    }
    const PyValue& list(const PyValue& v, const std::string& at) const {
        if (!v.is(PyValue::Kind::List)) wrong(v, at, "a list");
        return v;
    }
    std::uint64_t bytes(const PyValue& v, const std::string& at) const {
        if (!v.is(PyValue::Kind::Int)) wrong(v, at, "an int");
        if (v.integer() < 0 || static_cast<std::uint64_t>(v.integer()) > kMaxTotalBytes)
            fail(at, fmt::format("{} is out of range: 0 to 2^53 (docs/limits.md)", v.integer()));
        return static_cast<std::uint64_t>(v.integer());
    }
    std::int64_t integer(const PyValue& v, const std::string& at) const {
        if (!v.is(PyValue::Kind::Int)) wrong(v, at, "an int");
        return v.integer();
    }
    std::string text(const PyValue& v, const std::string& at) const {
        if (!v.is(PyValue::Kind::Str)) wrong(v, at, "a string");
        return v.text();
    }
    // A list the pickle refers to from many places is read once and shared (SnapshotStack).
    SnapshotStack frames(const PyValue& owner, const std::string& at) {
        const PyValue* f = owner.get("frames");
        if (!f) return nullptr;
        const PyValue& l = list(*f, at + ".frames");
        if (const auto seen = stacks_.find(l.container()); seen != stacks_.end()) return seen->second;
        auto out = std::make_shared<std::vector<SnapshotFrame>>();
        for (std::size_t i = 0; i < l.items().size(); ++i) {
            const std::string fat = fmt::format("{}.frames[{}]", at, i);
            const PyValue& frame = dict(l.items()[i], fat, {"filename", "line", "name"});
            out->push_back({text(field(frame, fat, "filename"), fat + ".filename"), integer(field(frame, fat, "line"), fat + ".line"),
                            text(field(frame, fat, "name"), fat + ".name")});
        }
        SnapshotStack stack = std::move(out);
        stacks_.emplace(l.container(), stack);
        return stack;
    }
    SnapshotSegment segment(const PyValue& v, const std::string& at) {
        dict(v, at, {"device", "address", "total_size", "allocated_size", "active_size", "requested_size", "stream", "segment_type",
                     "segment_pool_id", "is_expandable", "frames", "blocks"});
        SnapshotSegment s;
        s.device = v.get("device") ? integer(*v.get("device"), at + ".device") : 0;
        s.address = bytes(field(v, at, "address"), at + ".address");
        s.total_size = bytes(field(v, at, "total_size"), at + ".total_size");
        s.stream = integer(field(v, at, "stream"), at + ".stream");
        if (const PyValue* t = v.get("segment_type")) s.segment_type = text(*t, at + ".segment_type");
        if (const PyValue* e = v.get("is_expandable")) {
            if (!e->is(PyValue::Kind::Bool)) wrong(*e, at + ".is_expandable", "a bool");
            s.is_expandable = e->boolean();
        }
        s.frames = frames(v, at);
        const PyValue& blocks = list(field(v, at, "blocks"), at + ".blocks");
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < blocks.items().size(); ++i) {
            const std::string bat = fmt::format("{}.blocks[{}]", at, i);
            const PyValue& b = dict(blocks.items()[i], bat, {"address", "size", "requested_size", "state", "frames", "history"});
            SnapshotBlock block;
            block.size = bytes(field(b, bat, "size"), bat + ".size");
            if (const PyValue* a = b.get("address")) block.address = bytes(*a, bat + ".address");
            if (const PyValue* r = b.get("requested_size")) block.requested_size = bytes(*r, bat + ".requested_size");
            block.state = text(field(b, bat, "state"), bat + ".state");
            if (block.state != "active_allocated" && block.state != "active_pending_free" && block.state != "inactive")
                fail(bat + ".state", fmt::format("unknown state '{}' (known: active_allocated, active_pending_free, inactive)", block.state));
            block.frames = frames(b, bat);
            sum += block.size;
            s.blocks.push_back(std::move(block));
        }
        if (sum != s.total_size)
            fail(at, fmt::format("its blocks add up to {} B but its total_size is {} B", sum, s.total_size));
        return s;
    }
    SnapshotTraceEntry entry(const PyValue& v, const std::string& at) {
        dict(v, at, {"action", "addr", "device_free", "size", "stream", "time_us", "frames", "compile_context", "user_metadata"});
        SnapshotTraceEntry e;
        e.action = text(field(v, at, "action"), at + ".action");
        static const char* const kActions[] = {"alloc",       "free_requested", "free_completed", "segment_alloc", "segment_free",
                                               "segment_map", "segment_unmap",  "snapshot",       "oom"};
        if (std::none_of(std::begin(kActions), std::end(kActions), [&](const char* a) { return e.action == a; }))
            fail(at + ".action", fmt::format("unknown action '{}' (known: {})", e.action, fmt::join(kActions, ", ")));
        const char* addr_key = e.action == "oom" ? "device_free" : "addr";
        e.addr = bytes(field(v, at, addr_key), at + "." + addr_key);
        e.size = bytes(field(v, at, "size"), at + ".size");
        e.stream = integer(field(v, at, "stream"), at + ".stream");
        if (const PyValue* t = v.get("time_us")) e.time_us = integer(*t, at + ".time_us");
        // PyTorch writes microseconds since the epoch: a negative one is no time it took.
        if (e.time_us && *e.time_us < 0) fail(at + ".time_us", fmt::format("{} is negative (microseconds since the epoch)", *e.time_us));
        e.frames = frames(v, at);
        return e;
    }

    std::string what_;
    std::unordered_map<const PyContainer*, SnapshotStack> stacks_;  // the frames lists read so far
};

}  // namespace

MemorySnapshot parse_memory_snapshot(std::string_view bytes, const std::string& what) {
    const PyDocument document = read_pickle(bytes, what);
    return SnapshotReader(what).read(document.root);
}

MemorySnapshot read_memory_snapshot(const std::string& path) {
    // The checked open every reader uses (docs/limits.md, "Input files"), with the limit
    // its memory sets.
    return parse_memory_snapshot(read_input_file(path, "the memory snapshot", kMaxSnapshotFileBytes), path);
}

}  // namespace memsim
