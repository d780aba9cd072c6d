// The restricted unpickler (pickle.h). Written by hand: Debian packages no C++ pickle
// reader; libtorch's own unpickler resolves classes through TorchScript and comes with all
// of libtorch, and a reader that refuses every class is small (docs/torch_allocator.md).
#include <bit>
#include <charconv>
#include <cstring>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "models/io/pickle.h"
#include "models/io/pickle_text.h"
#include "models/workload/input_error.h"

namespace memsim {

namespace {

constexpr int kMaxDepth = 1000;
// Dicts up to this many keys find a duplicate key by a scan (snapshots' dicts have about 6).
constexpr std::size_t kIndexedFrom = 16;
// Strings up to this long are stored once (keys, states, file names repeat).
constexpr std::size_t kShortString = 64;

// Opcodes that name a class, call one or need Python objects: refused, by name.
const char* refused_opcode(unsigned char op) {
    switch (op) {
        case 'R': return "REDUCE (calls an object)";
        case 'b': return "BUILD (sets an object's state)";
        case 'o': return "OBJ (builds a class instance)";
        case 0x81: return "NEWOBJ (builds a class instance)";
        case 0x92: return "NEWOBJ_EX (builds a class instance)";
        case 0x82: case 0x83: case 0x84: return "EXT (an object from the extension registry)";
        case 'P': case 'Q': return "PERSID (a persistent object, as in torch.save files)";
        case 0x97: case 0x98: return "NEXT_BUFFER (an out-of-band buffer)";
        case 0x8f: case 0x90: case 0x91: return "EMPTY_SET/ADDITEMS/FROZENSET (a set)";
        case 'S': case 'T': case 'U': return "STRING (a Python 2 str)";
        default: return nullptr;
    }
}

class Unpickler {
public:
    Unpickler(std::string_view bytes, const std::string& what) : in_(bytes), what_(what) {}

    PyDocument run() {
        if (in_.empty()) fail(0, "not a pickle: the file is empty");
        while (true) {
            const std::size_t at = pos_;
            const auto op = static_cast<unsigned char>(byte(at, "an opcode"));
            if (at == 0 && op != 0x80 && op != '(' && op != ']' && op != '}')
                fail(at, fmt::format("not a pickle: it starts with byte 0x{:02x} ('{}'), where a pickle of protocol 2 or later "
                                     "starts with 0x80", op, op >= 0x20 && op < 0x7f ? static_cast<char>(op) : '?'));
            if (step(op, at)) break;
        }
        if (stack_.size() != 1 || !marks_.empty()) fail(pos_ - 1, "STOP with a malformed stack");
        return PyDocument{std::move(arena_), stack_.back()};
    }

private:
    [[noreturn]] void fail(std::size_t at, const std::string& why) const {
        throw InputError(fmt::format("{}: byte {}: {}", what_, at, why));
    }
    char byte(std::size_t at, const char* what) {
        if (pos_ >= in_.size()) fail(at, fmt::format("truncated: the file ends where {} should be", what));
        return in_[pos_++];
    }
    std::uint64_t uint(std::size_t at, int n) {
        if (in_.size() - pos_ < static_cast<std::size_t>(n)) fail(at, "truncated: the file ends inside an argument");
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
        pos_ += static_cast<std::size_t>(n);
        return v;
    }
    std::string_view take(std::size_t at, std::uint64_t n) {
        if (n > in_.size() - pos_) fail(at, fmt::format("truncated: an argument of {} bytes runs past the end of the file", n));
        const std::string_view s = in_.substr(pos_, static_cast<std::size_t>(n));
        pos_ += static_cast<std::size_t>(n);
        return s;
    }
    std::string_view line(std::size_t at) {
        const std::size_t end = in_.find('\n', pos_);
        if (end == std::string_view::npos) fail(at, "truncated: the file ends inside a text argument");
        const std::string_view s = in_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return s;
    }
    PyValue pop(std::size_t at) {
        if (stack_.empty() || (!marks_.empty() && marks_.back() == stack_.size())) fail(at, "an opcode needs a value and there is none");
        PyValue v = std::move(stack_.back());
        stack_.pop_back();
        return v;
    }
    PyValue& top(std::size_t at) {
        if (stack_.empty() || (!marks_.empty() && marks_.back() == stack_.size())) fail(at, "an opcode needs a value and there is none");
        return stack_.back();
    }
    std::vector<PyValue> since_mark(std::size_t at) {
        if (marks_.empty()) fail(at, "an opcode needs a MARK and there is none");
        const std::size_t from = marks_.back();
        marks_.pop_back();
        std::vector<PyValue> out(std::make_move_iterator(stack_.begin() + static_cast<std::ptrdiff_t>(from)),
                                 std::make_move_iterator(stack_.end()));
        stack_.resize(from);
        return out;
    }
    static PyValue integer(std::int64_t i) { return PyValue::of_int(i); }
    // Short strings are kept once in the arena however often they are repeated.
    const std::string* store(std::string_view s) {
        if (s.size() <= kShortString) {
            if (const auto it = arena_->short_strings.find(s); it != arena_->short_strings.end()) return it->second;
            const std::string& kept = arena_->strings.emplace_back(s);
            arena_->short_strings.emplace(kept, &kept);
            return &kept;
        }
        return &arena_->strings.emplace_back(s);
    }
    PyValue text(std::size_t at, std::string_view s, bool is_str) {
        if (is_str && !pickle_text::valid_utf8(s)) fail(at, "a string that is not valid UTF-8");
        return PyValue::of_text(is_str ? PyValue::Kind::Str : PyValue::Kind::Bytes, store(s));
    }
    PyValue container(PyValue::Kind k) { return PyValue::of_container(k, &arena_->containers.emplace_back()); }
    PyValue sequence(std::size_t at, PyValue::Kind k, std::vector<PyValue> items) {
        PyValue v = container(k);
        for (PyValue& item : items) add_child(at, *v.container(), item);
        v.container()->items = std::move(items);
        return v;
    }
    void add_child(std::size_t at, PyContainer& parent, const PyValue& child) {
        if (parent.frozen) fail(at, "a container that holds itself (a recursive structure)");
        if (const PyContainer* c = child.container()) {
            parent.depth = std::max(parent.depth, c->depth + 1);
            if (parent.depth > kMaxDepth) fail(at, fmt::format("containers nested more than {} deep", kMaxDepth));
        }
    }
    PyContainer& mutable_container(std::size_t at, PyValue& v, PyValue::Kind k, const char* op) {
        if (v.kind != k) fail(at, fmt::format("{} applied to a {}", op, py_kind_name(v.kind)));
        return *v.container();
    }
    void set_items(std::size_t at, PyValue& dict, std::vector<PyValue> kv) {
        PyContainer& d = mutable_container(at, dict, PyValue::Kind::Dict, "SETITEMS");
        if (kv.size() % 2 != 0) fail(at, "SETITEMS with an odd number of values");
        // A dict's first batch (a small dict's whole content) sizes its entries: doubling would
        // leave a block's 5-key dict with room for 8. Later batches of a large dict double.
        if (d.entries.empty()) d.entries.reserve(kv.size() / 2);
        for (std::size_t i = 0; i < kv.size(); i += 2) {
            PyValue& key = kv[i];
            if (key.kind == PyValue::Kind::List || key.kind == PyValue::Kind::Dict)
                fail(at, fmt::format("a dict key of unhashable type {}", py_kind_name(key.kind)));
            add_child(at, d, key);
            add_child(at, d, kv[i + 1]);
            if (key.kind == PyValue::Kind::Tuple) {
                d.entries.emplace_back(std::move(key), std::move(kv[i + 1]));
                continue;
            }
            std::optional<std::size_t> slot;
            if (!d.key_index && d.entries.size() >= kIndexedFrom) {
                d.key_index = std::make_unique<std::unordered_map<std::string, std::size_t>>();
                for (std::size_t e = 0; e < d.entries.size(); ++e)
                    if (d.entries[e].first.kind != PyValue::Kind::Tuple) d.key_index->emplace(identity(d.entries[e].first), e);
            }
            if (d.key_index) {
                const auto [at_slot, added] = d.key_index->emplace(identity(key), d.entries.size());
                if (!added) slot = at_slot->second;
            } else {
                for (std::size_t e = 0; e < d.entries.size() && !slot; ++e)
                    if (same_key(d.entries[e].first, key)) slot = e;
            }
            if (slot) d.entries[*slot].second = std::move(kv[i + 1]);
            else d.entries.emplace_back(std::move(key), std::move(kv[i + 1]));
        }
    }
    // A key's identity: its kind and value (1 and True are one key in Python; rare enough
    // here to keep apart). Tuples are never deduplicated.
    static std::string identity(const PyValue& key) {
        std::string id(1, static_cast<char>(key.kind));
        if (key.kind == PyValue::Kind::Str || key.kind == PyValue::Kind::Bytes) id += key.text();
        else if (key.kind == PyValue::Kind::Float) id += std::to_string(std::bit_cast<std::uint64_t>(key.real()));
        else id += std::to_string(key.kind == PyValue::Kind::Bool ? std::int64_t{key.boolean()} : key.integer());
        return id;
    }
    static bool same_key(const PyValue& a, const PyValue& b) {
        if (a.kind != b.kind || a.kind == PyValue::Kind::Tuple) return false;
        switch (a.kind) {
            case PyValue::Kind::Str: case PyValue::Kind::Bytes: return a.text() == b.text();
            case PyValue::Kind::Float: return std::bit_cast<std::uint64_t>(a.real()) == std::bit_cast<std::uint64_t>(b.real());
            case PyValue::Kind::Bool: return a.boolean() == b.boolean();
            case PyValue::Kind::None: return true;
            default: return a.integer() == b.integer();
        }
    }
    std::int64_t text_integer(std::size_t at, std::string_view s) {
        if (!s.empty() && s.back() == 'L') s.remove_suffix(1);
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size()) fail(at, fmt::format("a text integer that is not one or exceeds 64 bits: '{}'", s));
        return v;
    }
    std::int64_t long_bytes(std::size_t at, std::uint64_t n) {
        if (n > 8) fail(at, fmt::format("an integer of {} bytes: wider than 64 bits", n));
        const std::string_view s = take(at, n);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < s.size(); ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[i])) << (8 * i);
        if (n > 0 && n < 8 && (static_cast<unsigned char>(s.back()) & 0x80)) v |= ~std::uint64_t{0} << (8 * n);  // sign
        return static_cast<std::int64_t>(v);
    }
    // The memo: slots as pickles number them (0, 1, 2, ...) in a vector, kept within twice
    // the values stored so that a far slot cannot make it grow out of proportion; far
    // slots in a map.
    void memo_put(std::size_t at, std::uint64_t slot) {
        const PyValue& v = top(at);
        if (slot < 2 * memo_stored_ + 1024) {
            if (slot >= memo_.size()) {
                memo_.resize(slot + 1);
                memo_present_.resize(slot + 1, 0);
            }
            if (!memo_present_[slot]) ++memo_stored_;
            memo_[slot] = v;
            memo_present_[slot] = 1;
        } else {
            if (far_memo_.insert_or_assign(slot, v).second) ++memo_stored_;
        }
    }
    void memo_get(std::size_t at, std::uint64_t slot) {
        const PyValue* v = nullptr;
        if (slot < memo_.size() && memo_present_[slot]) v = &memo_[slot];
        else if (const auto it = far_memo_.find(slot); it != far_memo_.end()) v = &it->second;
        if (!v) fail(at, fmt::format("a memo reference to slot {} that was never stored", slot));
        if (PyContainer* c = v->container()) c->frozen = true;
        stack_.push_back(*v);
    }

    // One opcode; true at STOP.
    bool step(unsigned char op, std::size_t at) {
        switch (op) {
            case 0x80: {
                const auto proto = static_cast<unsigned char>(byte(at, "the protocol number"));
                if (proto > 5) fail(at, fmt::format("pickle protocol {}: 5 is the highest there is", proto));
                return false;
            }
            case 0x95: uint(at, 8); return false;  // FRAME: a length hint
            case '.': return true;
            case '(': marks_.push_back(stack_.size()); return false;
            case '0': pop(at); return false;
            case '1': since_mark(at); return false;
            case '2': {
                const PyValue v = top(at);
                if (PyContainer* c = v.container()) c->frozen = true;
                stack_.push_back(v);
                return false;
            }
            case 'N': stack_.push_back(PyValue{}); return false;
            case 0x88: case 0x89: stack_.push_back(PyValue::of_bool(op == 0x88)); return false;
            case 'I': {
                const std::string_view s = line(at);
                if (s == "00" || s == "01") {  // protocol 0's False and True
                    stack_.push_back(PyValue::of_bool(s == "01"));
                } else {
                    stack_.push_back(integer(text_integer(at, s)));
                }
                return false;
            }
            case 'L': stack_.push_back(integer(text_integer(at, line(at)))); return false;
            case 'J': stack_.push_back(integer(static_cast<std::int32_t>(static_cast<std::uint32_t>(uint(at, 4))))); return false;
            case 'K': stack_.push_back(integer(static_cast<std::int64_t>(uint(at, 1)))); return false;
            case 'M': stack_.push_back(integer(static_cast<std::int64_t>(uint(at, 2)))); return false;
            case 0x8a: stack_.push_back(integer(long_bytes(at, uint(at, 1)))); return false;
            case 0x8b: stack_.push_back(integer(long_bytes(at, uint(at, 4)))); return false;
            case 'F': {
                const std::string_view s = line(at);
                double real = 0.0;
                const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), real);
                if (ec != std::errc() || end != s.data() + s.size()) fail(at, fmt::format("a text float that is not one: '{}'", s));
                stack_.push_back(PyValue::of_float(real));
                return false;
            }
            case 'G': {
                const std::string_view s = take(at, 8);
                std::uint64_t bits = 0;
                for (char c : s) bits = (bits << 8) | static_cast<unsigned char>(c);
                stack_.push_back(PyValue::of_float(std::bit_cast<double>(bits)));
                return false;
            }
            case 'X': stack_.push_back(text(at, take(at, uint(at, 4)), true)); return false;
            case 'V': {
                const std::optional<std::string> decoded = pickle_text::raw_unicode_escape(line(at));
                if (!decoded) fail(at, "a protocol-0 string with an escape that is not a character");
                stack_.push_back(text(at, *decoded, true));
                return false;
            }
            case 0x8c: stack_.push_back(text(at, take(at, uint(at, 1)), true)); return false;
            case 0x8d: stack_.push_back(text(at, take(at, uint(at, 8)), true)); return false;
            case 'B': stack_.push_back(text(at, take(at, uint(at, 4)), false)); return false;
            case 'C': stack_.push_back(text(at, take(at, uint(at, 1)), false)); return false;
            case 0x8e: case 0x96: stack_.push_back(text(at, take(at, uint(at, 8)), false)); return false;
            case ']': stack_.push_back(container(PyValue::Kind::List)); return false;
            case ')': stack_.push_back(container(PyValue::Kind::Tuple)); return false;
            case '}': stack_.push_back(container(PyValue::Kind::Dict)); return false;
            case 'l': stack_.push_back(sequence(at, PyValue::Kind::List, since_mark(at))); return false;
            case 't': stack_.push_back(sequence(at, PyValue::Kind::Tuple, since_mark(at))); return false;
            case 0x85: case 0x86: case 0x87: {
                const std::size_t n = op - 0x84u;
                std::vector<PyValue> items(n);
                for (std::size_t i = n; i-- > 0;) items[i] = pop(at);
                stack_.push_back(sequence(at, PyValue::Kind::Tuple, std::move(items)));
                return false;
            }
            case 'a': {
                PyValue v = pop(at);
                PyContainer& list = mutable_container(at, top(at), PyValue::Kind::List, "APPEND");
                add_child(at, list, v);
                list.items.push_back(std::move(v));
                return false;
            }
            case 'e': {
                std::vector<PyValue> items = since_mark(at);
                PyContainer& list = mutable_container(at, top(at), PyValue::Kind::List, "APPENDS");
                for (PyValue& v : items) {
                    add_child(at, list, v);
                    list.items.push_back(std::move(v));
                }
                return false;
            }
            case 'd': {
                std::vector<PyValue> kv = since_mark(at);
                PyValue dict = container(PyValue::Kind::Dict);
                set_items(at, dict, std::move(kv));
                stack_.push_back(std::move(dict));
                return false;
            }
            case 's': {
                PyValue value = pop(at);
                PyValue key = pop(at);
                std::vector<PyValue> kv;
                kv.push_back(std::move(key));
                kv.push_back(std::move(value));
                set_items(at, top(at), std::move(kv));
                return false;
            }
            case 'u': {
                std::vector<PyValue> kv = since_mark(at);
                set_items(at, top(at), std::move(kv));
                return false;
            }
            case 'p': memo_put(at, static_cast<std::uint64_t>(text_integer(at, line(at)))); return false;
            case 'q': memo_put(at, uint(at, 1)); return false;
            case 'r': memo_put(at, uint(at, 4)); return false;
            case 0x94: memo_put(at, memo_.size()); return false;
            case 'g': memo_get(at, static_cast<std::uint64_t>(text_integer(at, line(at)))); return false;
            case 'h': memo_get(at, uint(at, 1)); return false;
            case 'j': memo_get(at, uint(at, 4)); return false;
            case 'c': case 'i': {
                const std::string module(line(at));
                const std::string name(line(at));
                refuse_class(at, module + "." + name, op == 'c' ? "GLOBAL" : "INST");
            }
            case 0x93: {
                const PyValue name = pop(at);
                const PyValue module = pop(at);
                refuse_class(at, module.kind == PyValue::Kind::Str && name.kind == PyValue::Kind::Str ? module.text() + "." + name.text() : "?",
                             "STACK_GLOBAL");
            }
            default:
                if (const char* what = refused_opcode(op))
                    fail(at, fmt::format("opcode {}: memsim reads plain data only (dicts, lists, tuples, strings, bytes, numbers, "
                                         "booleans, None) and never runs anything from a file",
                                         what));
                fail(at, fmt::format("not a pickle: unknown opcode 0x{:02x}", op));
        }
    }
    [[noreturn]] void refuse_class(std::size_t at, const std::string& name, const char* opcode) const {
        fail(at, fmt::format("the pickle refers to the Python object '{}' (opcode {}): memsim reads plain data only (dicts, lists, "
                             "tuples, strings, bytes, numbers, booleans, None) and never imports or runs anything from a file",
                             name, opcode));
    }

    std::string_view in_;
    const std::string& what_;
    std::size_t pos_ = 0;
    std::vector<PyValue> stack_;
    std::vector<std::size_t> marks_;
    std::vector<PyValue> memo_;
    std::vector<char> memo_present_;
    std::unordered_map<std::uint64_t, PyValue> far_memo_;
    std::uint64_t memo_stored_ = 0;
    std::unique_ptr<PyArena> arena_ = std::make_unique<PyArena>();
};

}  // namespace

PyDocument read_pickle(std::string_view bytes, const std::string& what) { return Unpickler(bytes, what).run(); }

}  // namespace memsim
