#include "models/workload/io_info_reader.h"

#include <stdexcept>
#include <string_view>

#include <simdjson.h>

#include "models/workload/mnn_files.h"

namespace memsim {

namespace {

namespace dom = simdjson::dom;

// A value as JSON text, for error messages (containers abbreviated).
std::string describe(dom::element v) {
    switch (v.type()) {
        case dom::element_type::ARRAY: return "[...]";
        case dom::element_type::OBJECT: return "{...}";
        default: return simdjson::minify(v);
    }
}

IoListField read_list(dom::object entry, std::string_view key) {
    IoListField field;
    dom::element value;
    if (entry.at_key(key).get(value) != simdjson::SUCCESS) return field;
    field.present = true;
    dom::array list;
    if (value.get_array().get(list) != simdjson::SUCCESS) return field;
    field.is_list = true;
    field.values.reserve(list.size());
    for (dom::element item : list) {
        int64_t id = 0;
        if (item.get_int64().get(id) != simdjson::SUCCESS) {
            field.bad_value = describe(item);
            break;
        }
        field.values.push_back(id);
    }
    return field;
}

}  // namespace

IoInfo read_io_info(const std::string& text) {
    // One parser per call: profiles are loaded once per process.
    dom::parser parser;
    const simdjson::padded_string padded(text);
    dom::element doc;
    if (const auto error = parser.parse(padded).get(doc)) throw std::runtime_error(simdjson::error_message(error));
    IoInfo info;
    info.duplicate_key = mnn::duplicate_key(doc);
    dom::array top;
    if (doc.get_array().get(top) != simdjson::SUCCESS) {
        info.is_array = false;
        return info;
    }
    info.entries.reserve(top.size());
    for (dom::element item : top) {
        IoEntry& e = info.entries.emplace_back();
        dom::object entry;
        if (item.get_object().get(entry) != simdjson::SUCCESS) {
            e.is_object = false;
            continue;
        }
        dom::element id;
        if (entry.at_key("id").get(id) == simdjson::SUCCESS) {
            int64_t value = 0;
            if (id.get_int64().get(value) == simdjson::SUCCESS) e.id = value;
            e.id_text = describe(id);
        }
        std::string_view name;
        if (entry.at_key("op").get_string().get(name) == simdjson::SUCCESS) e.name = std::string(name);
        e.inputs = read_list(entry, "inputs");
        e.outputs = read_list(entry, "outputs");
        e.release = read_list(entry, "release");
    }
    return info;
}

}  // namespace memsim
