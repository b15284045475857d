#include "sim/config/core_schema.hpp"

#include <cstddef>

namespace zng {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Advances `i` over a run of digits; returns how many there were.
size_t skip_digits(std::string_view v, size_t& i) {
    const size_t start = i;
    while (i < v.size() && is_digit(v[i])) ++i;
    return i - start;
}

void skip_sign(std::string_view v, size_t& i) {
    if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? over the whole of v, and whether
// it had no fraction and no exponent (then it is [-+]?[0-9]+, an integer).
bool number(std::string_view v, bool& integer) {
    size_t i = 0;
    skip_sign(v, i);
    const size_t whole = skip_digits(v, i);
    bool dot = false;
    size_t fraction = 0;
    if (i < v.size() && v[i] == '.') {
        dot = true;
        ++i;
        fraction = skip_digits(v, i);
    }
    if (whole == 0 && fraction == 0) return false;  // "", "+", ".", "-." are not numbers
    bool exponent = false;
    if (i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
        exponent = true;
        ++i;
        skip_sign(v, i);
        if (skip_digits(v, i) == 0) return false;
    }
    integer = !dot && !exponent;
    return i == v.size();
}

}  // namespace

PlainScalarKind classify_plain_scalar(std::string_view v) {
    if (v == "null" || v == "Null" || v == "NULL" || v == "~") return PlainScalarKind::Null;
    if (v == "true" || v == "True" || v == "TRUE") return PlainScalarKind::True;
    if (v == "false" || v == "False" || v == "FALSE") return PlainScalarKind::False;
    bool integer = false;
    if (number(v, integer)) return integer ? PlainScalarKind::Int : PlainScalarKind::Float;
    return PlainScalarKind::String;
}

}  // namespace zng
