// The slot objects shared by all libraries (one registry per interface).
#include "sim/mem/address_translator.hpp"
#include "sim/mem/memory_backend.hpp"

namespace zng {

MemoryBackendSlot& memory_backend_slot() {
    static MemoryBackendSlot slot("memory");
    return slot;
}

TranslatorSlot& translator_slot() {
    static TranslatorSlot slot("translation");
    return slot;
}

}  // namespace zng
