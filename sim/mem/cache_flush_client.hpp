// Implemented by translators that need an application's dirty lines written back from
// the L2 (ZnG's helper thread before a merge). A translator offers it by name (see
// interface_provider.hpp) and the platform connects the hook to its L2. The hook writes
// back and invalidates the application's lines and returns at once; it must not wait
// for the write-backs.
#pragma once
#include <cstdint>
#include <functional>
#include <string_view>

namespace zng {

class CacheFlushClient {
public:
    static constexpr std::string_view kInterfaceName = "cache_flush_client";
    virtual ~CacheFlushClient() = default;
    using FlushApp = std::function<void(uint16_t app)>;
    virtual void set_cache_flush(FlushApp f) = 0;
};

}  // namespace zng
