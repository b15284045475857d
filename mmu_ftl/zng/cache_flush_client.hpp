// Implemented by translators that need an application's dirty lines written back from
// the L2 (ZnG's helper thread before a merge). The platform connects the hook to its
// L2 when the translator derives from this. The hook writes back and invalidates the
// application's lines and returns at once; it must not wait for the write-backs.
#pragma once
#include <cstdint>
#include <functional>

namespace zng {

class CacheFlushClient {
public:
    virtual ~CacheFlushClient() = default;
    using FlushApp = std::function<void(uint16_t app)>;
    virtual void set_cache_flush(FlushApp f) = 0;
};

}  // namespace zng
