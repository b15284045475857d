#include "sim/app/progress_line.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace zng::cli {

bool ProgressLine::wanted() {
    if (const char* e = std::getenv("ZNGSIM_PROGRESS"); e && *e) return e[0] != '0';
    return ::isatty(STDERR_FILENO) != 0;
}

void ProgressLine::show(const std::string& text) {
    if (!enabled_) return;
    std::fprintf(stderr, "\r%s\033[K", text.c_str());  // \033[K clears what a longer line left
    std::fflush(stderr);
    open_ = true;
    last_ = std::chrono::steady_clock::now();
}

ProgressLine::~ProgressLine() {
    if (open_) std::fputc('\n', stderr);
}

void ProgressLine::finish(const std::string& text) {
    if (!enabled_) return;
    show(text);
    std::fputc('\n', stderr);
    open_ = false;
}

}  // namespace zng::cli
