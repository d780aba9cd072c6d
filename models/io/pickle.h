// Python pickles of plain data, read and written without Python (docs/torch_allocator.md,
// "Pickles"). The reader is restricted: it builds dicts, lists, tuples, strings, bytes,
// ints, floats, bools and None, and refuses every opcode that names a class or calls
// something (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, EXT*, persistent
// ids, buffers, sets) with an error naming the class or the opcode: nothing in the file
// is ever executed. The writer emits protocol 2 (the opcodes PyTorch's memory viewer
// reads: it is reported not to read protocol 5).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memsim {

struct PyValue;
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

struct PyValue {
    enum class Kind { None, Bool, Int, Float, Str, Bytes, List, Tuple, Dict };
    Kind kind = Kind::None;
    bool boolean = false;
    std::int64_t integer = 0;
    double real = 0.0;
    std::string text;  // Str (UTF-8) or Bytes
    std::shared_ptr<PyContainer> container;

    [[nodiscard]] bool is(Kind k) const { return kind == k; }
    // The dict's value for a string key, or nullptr.
    [[nodiscard]] const PyValue* get(std::string_view key) const;
    [[nodiscard]] const std::vector<PyValue>& items() const { return container->items; }
    [[nodiscard]] const std::vector<std::pair<PyValue, PyValue>>& entries() const { return container->entries; }
};

// Python's name for a kind ("dict", "int", ...).
const char* py_kind_name(PyValue::Kind kind);

// Reads one pickled object (protocols 0 to 5, plain data only). Throws InputError
// "<what>: ..." naming the byte offset and the problem.
PyValue read_pickle(std::string_view bytes, const std::string& what);

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
