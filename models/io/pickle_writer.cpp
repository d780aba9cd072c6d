#include <bit>
#include <cstring>

#include "models/io/pickle.h"

namespace memsim {

namespace {

// Opcodes (Python's pickletools names).
constexpr char kProto = '\x80', kStop = '.', kMark = '(', kNone = 'N', kTrue = '\x88', kFalse = '\x89';
constexpr char kBinInt = 'J', kBinInt1 = 'K', kBinInt2 = 'M', kLong1 = '\x8a', kBinFloat = 'G';
constexpr char kBinUnicode = 'X', kBinPut = 'q', kLongBinPut = 'r', kBinGet = 'h', kLongBinGet = 'j';
constexpr char kEmptyDict = '}', kSetItems = 'u', kEmptyList = ']', kAppends = 'e', kTuple = 't';

void little_endian(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

PickleWriter::PickleWriter() {
    out_.push_back(kProto);
    out_.push_back('\x02');
}

void PickleWriter::none() { out_.push_back(kNone); }

void PickleWriter::boolean(bool value) { out_.push_back(value ? kTrue : kFalse); }

void PickleWriter::integer(std::int64_t value) {
    if (value >= 0 && value < 256) {
        out_.push_back(kBinInt1);
        little_endian(out_, static_cast<std::uint64_t>(value), 1);
    } else if (value >= 0 && value < 65536) {
        out_.push_back(kBinInt2);
        little_endian(out_, static_cast<std::uint64_t>(value), 2);
    } else if (value >= INT32_MIN && value <= INT32_MAX) {
        out_.push_back(kBinInt);
        little_endian(out_, static_cast<std::uint32_t>(static_cast<std::int32_t>(value)), 4);
    } else {
        // LONG1: the fewest little-endian two's-complement bytes that keep the sign.
        int bytes = 1;
        while (bytes < 8) {
            const std::int64_t low = -(std::int64_t{1} << (8 * bytes - 1));
            const std::int64_t high = (std::int64_t{1} << (8 * bytes - 1)) - 1;
            if (value >= low && value <= high) break;
            ++bytes;
        }
        out_.push_back(kLong1);
        out_.push_back(static_cast<char>(bytes));
        little_endian(out_, static_cast<std::uint64_t>(value), bytes);
    }
}

void PickleWriter::real(double value) {
    out_.push_back(kBinFloat);
    const auto bits = std::bit_cast<std::uint64_t>(value);
    for (int i = 7; i >= 0; --i) out_.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));  // big-endian
}

void PickleWriter::str(std::string_view value) {
    if (const auto it = memo_.find(std::string(value)); it != memo_.end()) {
        if (it->second < 256) {
            out_.push_back(kBinGet);
            little_endian(out_, it->second, 1);
        } else {
            out_.push_back(kLongBinGet);
            little_endian(out_, it->second, 4);
        }
        return;
    }
    out_.push_back(kBinUnicode);
    little_endian(out_, value.size(), 4);
    out_.append(value);
    const auto slot = static_cast<std::uint32_t>(memo_.size());
    memo_.emplace(std::string(value), slot);
    if (slot < 256) {
        out_.push_back(kBinPut);
        little_endian(out_, slot, 1);
    } else {
        out_.push_back(kLongBinPut);
        little_endian(out_, slot, 4);
    }
}

void PickleWriter::begin_dict() {
    out_.push_back(kEmptyDict);
    out_.push_back(kMark);
}

void PickleWriter::end_dict() { out_.push_back(kSetItems); }

void PickleWriter::begin_list() {
    out_.push_back(kEmptyList);
    out_.push_back(kMark);
}

void PickleWriter::end_list() { out_.push_back(kAppends); }

void PickleWriter::begin_tuple() { out_.push_back(kMark); }

void PickleWriter::end_tuple() { out_.push_back(kTuple); }

std::string PickleWriter::finish() {
    out_.push_back(kStop);
    return std::move(out_);
}

}  // namespace memsim
