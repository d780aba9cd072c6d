// The restricted unpickler and the protocol-2 writer (models/io/pickle.h). Pickles that
// Python itself writes are checked in tests/torch_snapshot/ (Debian's python3).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "models/io/input_file.h"
#include "models/io/memory_snapshot.h"
#include "models/io/pickle.h"
#include "models/workload/input_error.h"
#include "file_support.h"

using namespace memsim;

namespace {

std::string bytes(std::initializer_list<int> b) {
    std::string s;
    for (int c : b) s.push_back(static_cast<char>(c));
    return s;
}

}  // namespace

TEST_CASE("pickle: what the writer writes the reader reads back, repeated strings written once") {
    PickleWriter w;
    w.begin_dict();
    w.str("ints");
    w.begin_list();
    for (std::int64_t v : {std::int64_t{0}, std::int64_t{255}, std::int64_t{256}, std::int64_t{65536}, std::int64_t{-1},
                           std::int64_t{0x7f0000000000}, -(std::int64_t{1} << 40), INT64_MAX, INT64_MIN})
        w.integer(v);
    w.end_list();
    w.str("tuple");
    w.begin_tuple();
    w.real(0.5);
    w.boolean(true);
    w.none();
    w.str("ints");  // a repeat: a memo reference
    w.str("h\xc3\xa9");
    w.end_tuple();
    w.end_dict();
    const std::string p = w.finish();
    CHECK(p.substr(0, 2) == bytes({0x80, 2}));
    const PyDocument doc = read_pickle(p, "test");
    const PyValue& v = doc.root;
    REQUIRE(v.is(PyValue::Kind::Dict));
    const PyValue& ints = *v.get("ints");
    REQUIRE(ints.items().size() == 9);
    CHECK(ints.items()[2].integer() == 256);
    CHECK(ints.items()[4].integer() == -1);
    CHECK(ints.items()[5].integer() == 0x7f0000000000);
    CHECK(ints.items()[6].integer() == -(std::int64_t{1} << 40));
    CHECK(ints.items()[7].integer() == INT64_MAX);
    CHECK(ints.items()[8].integer() == INT64_MIN);
    const PyValue& t = *v.get("tuple");
    REQUIRE(t.is(PyValue::Kind::Tuple));
    CHECK(t.items()[0].real() == 0.5);
    CHECK(t.items()[1].boolean());
    CHECK(t.items()[2].is(PyValue::Kind::None));
    CHECK(t.items()[3].text() == "ints");
    CHECK(t.items()[4].text() == "h\xc3\xa9");
    CHECK(p.find("ints") == p.rfind("ints"));  // written once
}

TEST_CASE("pickle: classes and calls are refused by name, cycles, wide ints and bad UTF-8 too") {
    // pickle.dumps(os.system, 2): GLOBAL 'posix system'
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 2}) + "cposix\nsystem\nq\x00.", "evil.pickle"),
                      Catch::StartsWith("evil.pickle: byte 2: the pickle refers to the Python object 'posix.system' (opcode GLOBAL)"));
    // STACK_GLOBAL of two short strings
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 4, 0x8c, 2}) + "os" + bytes({0x8c, 6}) + "system" + bytes({0x93}) + ".", "x"),
                      Catch::Contains("'os.system' (opcode STACK_GLOBAL)"));
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 2, ')', ')', 'R', '.'}), "x"), Catch::Contains("opcode REDUCE"));
    // l = []; l.append(l): EMPTY_LIST BINPUT 0 BINGET 0 APPEND
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 2, ']', 'q', 0, 'h', 0, 'a', '.'}), "x"), Catch::Contains("holds itself"));
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 2, 0x8a, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, '.'}), "x"), Catch::Contains("wider than 64 bits"));
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 2, 'X', 1, 0, 0, 0, 0xff, '.'}), "x"), Catch::Contains("not valid UTF-8"));
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 2, 'X', 9, 0, 0, 0, 'a'}), "x"), Catch::Contains("truncated"));
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 2, 'N'}), "x"), Catch::Contains("truncated: the file ends where an opcode should be"));
    CHECK_THROWS_WITH(read_pickle(bytes({0x80, 6, 'N', '.'}), "x"), Catch::Contains("pickle protocol 6"));
    CHECK_THROWS_WITH(read_pickle("hello", "x"), Catch::Contains("not a pickle: it starts with byte 0x68 ('h')"));
    std::string deep = bytes({0x80, 2});
    for (int i = 0; i < 1001; ++i) deep += "]";
    for (int i = 0; i < 1000; ++i) deep += "a";
    deep += ".";
    CHECK_THROWS_WITH(read_pickle(deep, "x"), Catch::Contains("nested more than 1000 deep"));
    // Protocol 0 text: a dict of a unicode key and an int (pickle.dumps({'a': 1}, 0)).
    const PyDocument doc = read_pickle("(dp0\nVa\\u00e9\np1\nI1\ns.", "x");
    CHECK(doc.root.get("a\xc3\xa9")->integer() == 1);
}

TEST_CASE("hostile snapshots: a memory snapshot above 256 MiB is refused before it is read (its tree would be ~40x)") {
    const std::filesystem::path path = memsim::test::scratch_file("big_snapshot.pickle");
    { std::ofstream(path) << ""; }
    std::filesystem::resize_file(path, memsim::kMaxSnapshotFileBytes + 1);  // sparse: nothing is written
    try {
        memsim::read_memory_snapshot(path.string());
        FAIL("accepted");
    } catch (const memsim::InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("it is 268435457 bytes, more than the 268435456 bytes (limit) such a file may have"));
    }
    std::filesystem::remove(path);
    // At the limit it is read (and refused for what it holds, not for its size).
    { std::ofstream(path) << ""; }
    std::filesystem::resize_file(path, 16);
    CHECK_THROWS_WITH(memsim::read_memory_snapshot(path.string()), !Catch::Contains("(limit)"));
    std::filesystem::remove(path);
}
