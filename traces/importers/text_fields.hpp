// Whitespace tokenizing and number parsing over string_views, for the text formats of
// foreign traces. Nothing here allocates; failures are reported as `false` so callers
// can name the file, line and field in their error.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>
#include <system_error>

namespace zng::importers {

// Blank and every control character separate fields (one compare per byte on hot lines).
inline bool is_space(char c) { return static_cast<unsigned char>(c) <= ' '; }

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// Yields whitespace-separated tokens of a line one by one.
class Tokens {
public:
    explicit Tokens(std::string_view line) : rest_(line) {}
    bool next(std::string_view& tok) {
        size_t i = 0;
        while (i < rest_.size() && is_space(rest_[i])) ++i;
        if (i == rest_.size()) {
            rest_ = {};
            return false;
        }
        size_t j = i;
        while (j < rest_.size() && !is_space(rest_[j])) ++j;
        tok = rest_.substr(i, j - i);
        rest_.remove_prefix(j);
        return true;
    }
    bool done() {
        rest_ = trim(rest_);
        return rest_.empty();
    }

private:
    std::string_view rest_;
};

// Unsigned decimal or hexadecimal (with or without 0x) integer filling the whole token.
template <typename T>
bool parse_uint(std::string_view tok, T& out, int base = 10) {
    if (base == 16 && tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) tok.remove_prefix(2);
    if (tok.empty() || tok[0] == '-' || tok[0] == '+') return false;
    const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), out, base);
    return r.ec == std::errc() && r.ptr == tok.data() + tok.size();
}

// Signed decimal integer filling the whole token (a leading '+' is accepted).
template <typename T>
bool parse_int(std::string_view tok, T& out) {
    if (!tok.empty() && tok[0] == '+') tok.remove_prefix(1);
    if (tok.empty()) return false;
    const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), out, 10);
    return r.ec == std::errc() && r.ptr == tok.data() + tok.size();
}

}  // namespace zng::importers
