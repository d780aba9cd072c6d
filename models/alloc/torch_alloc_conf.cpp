#include "models/alloc/torch_alloc_conf.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "models/checked_math.h"
#include "models/io/input_file.h"           // kMiB
#include "models/workload/dtr_log_lines.h"  // shorten_for_message

namespace memsim {

namespace {

// PyTorch requires max_split_size_mb above its 20 MiB large-buffer size; the top keeps
// byte totals within the project's 2^53 limit (docs/limits.md).
constexpr std::uint64_t kMinSplitMb = 21;
constexpr std::uint64_t kMaxSplitMb = kMaxTotalBytes / kMiB;
constexpr std::uint64_t kMaxDivisions = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxIntervalMb = std::uint64_t{1} << (kRoundupIntervals - 1);  // 32768 MiB = 32 GiB

const char* const kOptions =
    "max_split_size_mb:N (N from 21 to 8589934592), roundup_power2_divisions:N or "
    "roundup_power2_divisions:[MB:N,...,>:N] (N a power of two from 1 to 1073741824, MB a power of two from 1 to 32768), "
    "garbage_collection_threshold:X (0 < X < 1), expandable_segments:True|False, "
    "release_lock_on_cudamalloc:True|False, backend:native";

// PyTorch's lexer: ',', ':', '[' and ']' are tokens of their own; spaces are dropped.
std::vector<std::string> tokens_of(std::string_view text) {
    std::vector<std::string> tokens;
    std::string word;
    for (char c : text) {
        if (c == ',' || c == ':' || c == '[' || c == ']') {
            if (!word.empty()) tokens.push_back(std::move(word));
            word.clear();
            tokens.emplace_back(1, c);
        } else if (c != ' ') {
            word.push_back(c);
        }
    }
    if (!word.empty()) tokens.push_back(std::move(word));
    return tokens;
}

class ConfParser {
public:
    explicit ConfParser(std::string_view text) : tokens_(tokens_of(text)) {}

    TorchAllocConf parse(std::string_view text) {
        TorchAllocConf conf;
        conf.text = std::string(text);
        while (i_ < tokens_.size()) {
            const std::string key = tokens_[i_++];
            if (key.size() == 1 && std::string_view(",:[]").find(key[0]) != std::string_view::npos)
                fail(fmt::format("expected an option name, found '{}'", shown(key)));
            expect(":", key);
            if (key == "max_split_size_mb") {
                const std::uint64_t mb = integer(key, kMinSplitMb, kMaxSplitMb, "an integer number of MiB from 21 to 8589934592");
                conf.max_split_size = mb * kMiB;
            } else if (key == "roundup_power2_divisions") {
                divisions(conf);
            } else if (key == "garbage_collection_threshold") {
                conf.garbage_collection_threshold = fraction(key);
            } else if (key == "expandable_segments") {
                conf.expandable_segments = boolean(key);
            } else if (key == "release_lock_on_cudamalloc") {
                conf.release_lock_on_cudamalloc = boolean(key);
            } else if (key == "backend") {
                const std::string value = word(key);
                if (value == "cudaMallocAsync")
                    fail("backend: cudaMallocAsync is CUDA's own allocator, not modelled; torch_caching models backend:native");
                if (value != "native") fail(fmt::format("backend: unknown value '{}' (valid: native)", shown(value)));
            } else {
                fail(fmt::format("unknown option '{}' (valid: {})", shown(key), kOptions));
            }
            if (i_ < tokens_.size()) expect(",", key);
        }
        return conf;
    }

private:
    [[noreturn]] static void fail(const std::string& why) { throw std::invalid_argument(why); }
    // A token as a message quotes it: a value of megabytes is cut, as everywhere else.
    static std::string shown(const std::string& token) { return shorten_for_message(token); }

    void expect(std::string_view token, const std::string& after) {
        if (i_ >= tokens_.size() || tokens_[i_] != token)
            fail(fmt::format("expected '{}' after {}, found {}", token, shown(after),
                             i_ < tokens_.size() ? "'" + shown(tokens_[i_]) + "'" : "the end"));
        ++i_;
    }

    std::string word(const std::string& key) {
        if (i_ >= tokens_.size() || (tokens_[i_].size() == 1 && std::string_view(",:[]").find(tokens_[i_][0]) != std::string_view::npos))
            fail(fmt::format("{}: missing value", shown(key)));
        return tokens_[i_++];
    }

    std::uint64_t integer(const std::string& key, std::uint64_t low, std::uint64_t high, const char* range) {
        return integer_text(key, word(key), low, high, range);
    }

    static std::uint64_t integer_text(const std::string& key, const std::string& text, std::uint64_t low, std::uint64_t high,
                                      const char* range) {
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
            fail(fmt::format("{}: '{}' is out of range: {}", shown(key), shown(text), range));
        return value;
    }

    std::uint64_t power_of_two(const std::string& key, std::uint64_t high, const char* range) {
        return power_of_two_text(key, word(key), high, range);
    }

    static std::uint64_t power_of_two_text(const std::string& key, const std::string& text, std::uint64_t high, const char* range) {
        const std::uint64_t value = integer_text(key, text, 1, high, range);
        if (!std::has_single_bit(value)) fail(fmt::format("{}: {} is not a power of two: {}", key, value, range));
        return value;
    }

    double fraction(const std::string& key) {
        const std::string text = word(key);
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || !(value > 0.0 && value < 1.0))
            fail(fmt::format("{}: '{}' is out of range: a number between 0 and 1, both excluded", shown(key), shown(text)));
        return value;
    }

    bool boolean(const std::string& key) {
        const std::string text = word(key);
        if (text != "True" && text != "False") fail(fmt::format("{}: '{}' is not True or False", shown(key), shown(text)));
        return text == "True";
    }

    // N for every interval, or [MB:N, ..., >:N]: the first entry also sets the intervals
    // below it, '>' sets every interval from the previous entry's on (PyTorch's rule).
    void divisions(TorchAllocConf& conf) {
        const std::string key = "roundup_power2_divisions";
        const char* range = "a power of two from 1 to 1073741824";
        if (i_ >= tokens_.size() || tokens_[i_] != "[") {
            conf.roundup_divisions.fill(power_of_two(key, kMaxDivisions, range));
            return;
        }
        ++i_;
        bool first = true;
        std::size_t last_index = 0;
        while (true) {
            if (i_ >= tokens_.size()) fail(key + ": missing ']'");
            const std::string interval = tokens_[i_];
            if (interval == "]") fail(key + ": an empty list");
            ++i_;
            const std::uint64_t mb =
                interval == ">" ? 0
                                : power_of_two_text(key + " interval", interval, kMaxIntervalMb,
                                                    "a size in MiB, a power of two from 1 to 32768, or '>'");
            expect(":", key + " " + interval);
            const std::uint64_t n = power_of_two(key, kMaxDivisions, range);
            if (interval == ">") {
                std::fill(conf.roundup_divisions.begin() + static_cast<std::ptrdiff_t>(last_index), conf.roundup_divisions.end(), n);
            } else {
                const auto index = static_cast<std::size_t>(std::countr_zero(mb));
                if (first) std::fill(conf.roundup_divisions.begin(), conf.roundup_divisions.begin() + static_cast<std::ptrdiff_t>(index), n);
                conf.roundup_divisions[index] = n;
                last_index = index;
            }
            first = false;
            if (i_ < tokens_.size() && tokens_[i_] == "]") {
                ++i_;
                return;
            }
            expect(",", key + " entry");
        }
    }

    std::vector<std::string> tokens_;
    std::size_t i_ = 0;
};

}  // namespace

std::uint64_t TorchAllocConf::divisions_for(std::uint64_t bytes) const {
    // Interval k holds sizes in [2^k, 2^(k+1)) MiB; smaller sizes use interval 0, larger the last.
    const int log_size = 63 - std::countl_zero(bytes | 1);
    const int index = std::clamp(log_size - 20, 0, static_cast<int>(kRoundupIntervals) - 1);
    return roundup_divisions[static_cast<std::size_t>(index)];
}

TorchAllocConf parse_torch_alloc_conf(std::string_view text) { return ConfParser(text).parse(text); }

std::string torch_alloc_conf_options() { return kOptions; }

}  // namespace memsim
