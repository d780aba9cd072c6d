// The files of an MNN profile folder (docs/mnn_format.md) and the simdjson helpers its
// loader validates values with: which model and batches the folder holds, a file's
// text, and JSON values described for error messages.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <string_view>

#include <simdjson.h>

namespace memsim::mnn {

// A regular, non-empty file's whole text; InputError naming it otherwise.
std::string read_text(const std::filesystem::path& path);
// A value as compact JSON text, for error messages.
std::string dump(simdjson::dom::element v);
// JSON's name for a value's type, for error messages.
const char* type_name(simdjson::dom::element v);
// An integer >= 0 that fits a signed 64-bit value (the sizes and ids profiles hold).
std::optional<std::uint64_t> non_negative_integer(simdjson::dom::element v);
// An index as MNN writes it in a key: decimal digits, no sign, space or leading zero
// ("0", "17"; not "00", " 1", "+1"), at most INT_MAX; nullopt otherwise.
std::optional<int> canonical_index(std::string_view text);
// Whether a file is there (a broken one too: reading it then says what is wrong).
bool present(const std::filesystem::path& path);
// The names in a profile folder; InputError naming the folder when it cannot be read.
std::vector<std::string> folder_entries(const std::filesystem::path& dir);
// A number of any kind, as a double.
std::optional<double> number(simdjson::dom::element v);
// The first key written twice in one object, with where that object is ("key \"id\" in
// [3]", "key \"7\" at the top level"); JSON keys must be unique, as in scenarios.
std::optional<std::string> duplicate_key(simdjson::dom::element v);
// The model name: the prefix of the folder's single *.io_info.json file.
std::string find_model_name(const std::filesystem::path& dir);
// The batches with a `model`.B.`kind`.json file, sorted, each once; a batch number
// written with a leading zero is an error.
std::vector<int> batches_with(const std::filesystem::path& dir, const std::string& model, const std::string& kind);

}  // namespace memsim::mnn
