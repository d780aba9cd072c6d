// Fast reader for an MNN profile's <model>.io_info.json: the largest profile
// file (~1 MB for MobilenetV2), parsed with simdjson into compact entries (nlohmann
// took a third of a whole run on it; the other profile files are read from simdjson's
// DOM by the loader itself). Validation stays in the loader: this reader only records what it saw,
// including the first ill-typed value of each field, so the loader can name it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace memsim {

struct IoListField {
    bool present = false;
    bool is_list = false;
    std::vector<long long> values;
    std::optional<std::string> bad_value;  // first element that is not an integer, as JSON text
};

struct IoEntry {
    bool is_object = true;
    std::optional<long long> id;
    std::string id_text = "missing";  // the id as written, for error messages
    std::optional<std::string> name;
    IoListField inputs, outputs, release;
};

struct IoInfo {
    bool is_array = true;  // top level was a list
    std::vector<IoEntry> entries;
    std::optional<std::string> duplicate_key;  // mnn::duplicate_key's description of the first one
};

// Throws std::runtime_error with the parser's message on malformed JSON.
IoInfo read_io_info(const std::string& text);

}  // namespace memsim
