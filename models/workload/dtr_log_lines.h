// A DTR log's lines (models/workload/dtr_log.cpp reads the log through these): each
// non-blank line parsed as one JSON object with each key once, and its fields read with
// the line named in every error.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace memsim {

struct DtrLine {
    long long number = 0;  // a 64 GiB log may have more lines than an int counts
    nlohmann::json value;
};

class DtrLineReader {
public:
    DtrLineReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {}
    // The next non-blank line, parsed and checked, or none at the end. Throws InputError
    // naming the file and the line for malformed JSON, a key written twice, or a line
    // that is not an object.
    std::optional<DtrLine> next();
    [[nodiscard]] long long number() const { return number_; }  // lines read

private:
    std::istream& in_;
    std::string path_;
    long long number_ = 0;
};

// A long text cut for a message.
std::string shorten_for_message(const std::string& s);

[[noreturn]] void fail_at_line(const std::string& path, const DtrLine& line, const std::string& what);
std::string dtr_string_field(const std::string& path, const DtrLine& line, const char* key);
// Sizes, times, indices: strings in the logs ("123"), plain integers accepted too. A
// number past `maximum` is an error saying so (a size of 2^63 read as a signed integer
// was reported as "got -1").
long long dtr_integer_field(const std::string& path, const DtrLine& line, const char* key, long long minimum, long long maximum);
std::vector<std::string> dtr_string_list(const std::string& path, const DtrLine& line, const char* key);

}  // namespace memsim
