// How the platform assembly connects two parts that meet through an interface neither
// part's base class declares (the FTL that needs the L2 flushed, the flash back end that
// tells the L2 policy to redirect writes, the translator a memory back end reports to):
// a part offers the interfaces it implements by name, and the assembly, which knows
// every model, asks its translator or memory back end for one by that name and wires
// it. No part needs another domain's concrete type, and no type query is run.
//
// An interface offered this way declares `static constexpr std::string_view
// kInterfaceName`, a name no other interface uses.
#pragma once
#include <string_view>

namespace zng {

class InterfaceProvider {
public:
    virtual ~InterfaceProvider() = default;
    // This part as interface I, or null when it does not implement I.
    template <class I>
    I* find_interface() {
        return static_cast<I*>(offered_interface(I::kInterfaceName));
    }

protected:
    // This part as the interface named `name` (the pointer static_cast to that
    // interface's type), or null. Implementations answer with offer<...>(this, name).
    virtual void* offered_interface(std::string_view name) {
        (void)name;
        return nullptr;
    }
};

// The answer of an offered_interface() implementation that implements the interfaces
// Is...: `self` converted to the one whose kInterfaceName is `name`, else null.
template <class... Is, class Self>
void* offer(Self* self, std::string_view name) {
    void* found = nullptr;
    (void)((name == Is::kInterfaceName ? (found = static_cast<Is*>(self), true) : false) || ...);
    return found;
}

}  // namespace zng
