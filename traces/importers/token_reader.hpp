// Whitespace-separated tokens across the lines of a small text file (MacSim's
// kernel_config.txt, trace.txt, trace_info.txt are read with `>>` by MacSim), keeping
// the line number of each token for error messages.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "traces/importers/line_reader.hpp"
#include "traces/importers/text_fields.hpp"
#include "traces/trace.hpp"

namespace zng::importers {

class TokenReader {
public:
    // Lines of these files are short; a small cap keeps the reader small.
    explicit TokenReader(const std::string& path) : lines_(open_plain_stream(path), 1 << 16), tokens_("") {}

    // Next token; false at the end of the file. The view is valid until the next call.
    bool next(std::string_view& tok) {
        while (!tokens_.next(tok)) {
            std::string_view line;
            if (!lines_.next(line)) return false;
            tokens_ = Tokens(line);
        }
        return true;
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw trace::TraceError(fmt::format("{}:{}: {}", lines_.path(), lines_.line_number(), what));
    }

    std::string_view need(const char* what) {
        std::string_view tok;
        if (!next(tok)) fail(fmt::format("file ends before the {}", what));
        return tok;
    }

    template <typename T>
    T need_uint(const char* what) {
        return need_number<T>(what, [](std::string_view tok, T& v) { return parse_uint(tok, v); });
    }

    template <typename T>
    T need_int(const char* what) {
        return need_number<T>(what, [](std::string_view tok, T& v) { return parse_int(tok, v); });
    }

    const std::string& path() const { return lines_.path(); }

private:
    // The next token as a number read by parse(tok, v); a missing or bad one fails.
    template <typename T, typename Parse>
    T need_number(const char* what, Parse parse) {
        const std::string_view tok = need(what);
        T v{};
        if (!parse(tok, v)) fail(fmt::format("bad {} '{}'", what, tok));
        return v;
    }

    LineReader lines_;
    Tokens tokens_;
};

}  // namespace zng::importers
