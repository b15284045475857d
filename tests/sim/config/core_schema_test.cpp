#include "sim/config/core_schema.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace zng {
namespace {

TEST(CoreSchema, NamedValues) {
    for (const char* v : {"null", "Null", "NULL", "~"}) EXPECT_EQ(classify_plain_scalar(v), PlainScalarKind::Null) << v;
    for (const char* v : {"true", "True", "TRUE"}) EXPECT_EQ(classify_plain_scalar(v), PlainScalarKind::True) << v;
    for (const char* v : {"false", "False", "FALSE"}) EXPECT_EQ(classify_plain_scalar(v), PlainScalarKind::False) << v;
    for (const char* v : {"nULL", "tRUE", "yes", "no", "on", "off", "~~", "", ".inf", ".nan", "0x10", "1_000"})
        EXPECT_EQ(classify_plain_scalar(v), PlainScalarKind::String) << v;
}

TEST(CoreSchema, Numbers) {
    for (const char* v : {"0", "7", "-12", "+12", "0012", "18446744073709551616"})
        EXPECT_EQ(classify_plain_scalar(v), PlainScalarKind::Int) << v;
    for (const char* v : {"1.", ".5", "-.5", "+1.25", "1e3", "1E-3", "2.5e+10", ".5e1", "1.e2"})
        EXPECT_EQ(classify_plain_scalar(v), PlainScalarKind::Float) << v;
    for (const char* v : {".", "-.", "+", "-", "e3", ".e3", "1e", "1e+", "1.2.3", "1e3.5", "1 ", " 1", "4KiB", "1-2"})
        EXPECT_EQ(classify_plain_scalar(v), PlainScalarKind::String) << v;
}

// Every string of up to five characters over the characters that matter to the number
// patterns (and one that never does) is classified as the core schema's regular
// expressions, matched by std::regex, classify it.
TEST(CoreSchema, AgreesWithTheSchemasRegularExpressionsOnEveryShortString) {
    const std::regex kInt("[-+]?[0-9]+");
    const std::regex kFloat(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
    const std::string alphabet = "07.eE+-x";
    size_t ints = 0, floats = 0, strings = 0;
    std::string s;
    auto visit = [&](auto&& self, size_t left) -> void {
        PlainScalarKind want = std::regex_match(s, kInt)     ? PlainScalarKind::Int
                               : std::regex_match(s, kFloat) ? PlainScalarKind::Float
                                                             : PlainScalarKind::String;
        ASSERT_EQ(classify_plain_scalar(s), want) << '"' << s << '"';
        (want == PlainScalarKind::Int ? ints : want == PlainScalarKind::Float ? floats : strings)++;
        if (left == 0) return;
        for (char c : alphabet) {
            s.push_back(c);
            self(self, left - 1);
            s.pop_back();
        }
    };
    visit(visit, 5);
    EXPECT_EQ(ints + floats + strings, 37'449u);  // 1 + 8 + 8^2 + ... + 8^5
    EXPECT_GT(ints, 100u);
    EXPECT_GT(floats, 500u);
}

}  // namespace
}  // namespace zng
