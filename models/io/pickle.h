// Python pickles of plain data, read and written without Python (docs/torch_allocator.md,
// "Pickles"). The reader is restricted: it builds dicts, lists, tuples, strings, bytes,
// ints, floats, bools and None, and refuses every opcode that names a class or calls
// something (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, EXT*, persistent
// ids, buffers, sets) with an error naming the class or the opcode: nothing in the file
// is ever executed. The writer emits protocol 2 (the opcodes PyTorch's memory viewer
// reads: it is reported not to read protocol 5).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memsim {

struct PyContainer;

// One value: its kind and one word (16 bytes). A string's text and a container live in
// the PyDocument the value was read into, which must outlive it: a snapshot of a million
// five-key dicts would otherwise cost a kilobyte per dict (docs/limits.md).
class PyValue {
public:
    enum class Kind : std::uint8_t { None, Bool, Int, Float, Str, Bytes, List, Tuple, Dict };
    Kind kind = Kind::None;

    static PyValue of_bool(bool b);
    static PyValue of_int(std::int64_t i);
    static PyValue of_float(double d);
    static PyValue of_text(Kind k, const std::string* text);      // Str or Bytes
    static PyValue of_container(Kind k, PyContainer* container);  // List, Tuple or Dict

    [[nodiscard]] bool is(Kind k) const { return kind == k; }
    // Each is its kind's value, and false, 0, "" or nullptr for a value of another kind.
    [[nodiscard]] bool boolean() const { return kind == Kind::Bool && word_.b; }
    [[nodiscard]] std::int64_t integer() const { return kind == Kind::Int ? word_.i : 0; }
    [[nodiscard]] double real() const { return kind == Kind::Float ? word_.d : 0.0; }
    [[nodiscard]] const std::string& text() const;  // Str (UTF-8) or Bytes
    [[nodiscard]] PyContainer* container() const {
        return kind == Kind::List || kind == Kind::Tuple || kind == Kind::Dict ? word_.c : nullptr;
    }
    // The dict's value for a string key, or nullptr.
    [[nodiscard]] const PyValue* get(std::string_view key) const;
    // A list's or tuple's items, a dict's entries (empty for any other kind).
    [[nodiscard]] const std::vector<PyValue>& items() const;
    [[nodiscard]] const std::vector<std::pair<PyValue, PyValue>>& entries() const;

private:
    union Word {
        bool b;
        std::int64_t i;
        double d;
        const std::string* s;
        PyContainer* c;
    } word_{.i = 0};
};

// Containers are shared, as in Python: a pickle may refer to one list from many places
// (PyTorch's snapshots share stack-frame lists between trace entries).
struct PyContainer {
    std::vector<PyValue> items;                        // list, tuple
    std::vector<std::pair<PyValue, PyValue>> entries;  // dict, in insertion order
    // dict: a key's identity -> its entry (duplicates replace), built only once the dict is
    // larger than a few keys: a map per small dict would cost more than the dict itself.
    std::unique_ptr<std::unordered_map<std::string, std::size_t>> key_index;
    bool frozen = false;  // referred to again: a later change would make a cycle
    int depth = 1;        // nesting below and including it
};

// Where a document's strings and containers live: addresses never move (deques), short
// strings are stored once however often the pickle repeats them.
struct PyArena {
    std::deque<PyContainer> containers;
    std::deque<std::string> strings;
    std::unordered_map<std::string_view, const std::string*> short_strings;
};

// What read_pickle returns: the top-level value and the arena its parts live in.
struct PyDocument {
    std::unique_ptr<PyArena> arena;
    PyValue root;
};

// Python's name for a kind ("dict", "int", ...).
const char* py_kind_name(PyValue::Kind kind);

// Reads one pickled object (protocols 0 to 5, plain data only). Throws InputError
// "<what>: ..." naming the byte offset and the problem.
PyDocument read_pickle(std::string_view bytes, const std::string& what);

// A streaming protocol-2 pickle writer: values in order, containers opened and closed.
class PickleWriter {
public:
    PickleWriter();
    void none();
    void boolean(bool value);
    void integer(std::int64_t value);
    void real(double value);
    void str(std::string_view value);  // repeated strings are written once and referred to
    void begin_dict();
    void end_dict();
    void begin_list();
    void end_list();
    void begin_tuple();
    void end_tuple();
    // Ends the pickle and returns it.
    std::string finish();

private:
    std::string out_;
    std::unordered_map<std::string, std::uint32_t> memo_;  // string -> memo slot
};

}  // namespace memsim
