// Interfaces offered by name: the assembly finds exactly the interfaces a part says it
// implements, as the right sub-object of a class with several bases.
#include "sim/mem/interface_provider.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>

namespace zng {
namespace {

struct Counts {
    static constexpr std::string_view kInterfaceName = "counts";
    virtual ~Counts() = default;
    virtual int count() const = 0;
};
struct Names {
    static constexpr std::string_view kInterfaceName = "names";
    virtual ~Names() = default;
    virtual std::string_view label() const = 0;
};
struct NotOffered {
    static constexpr std::string_view kInterfaceName = "not_offered";
};

// Counts and Names are the second and third bases: their sub-objects sit at non-zero
// offsets, so a pointer handed back unconverted would not point at them.
class Part final : public InterfaceProvider, public Counts, public Names {
public:
    int count() const override { return 7; }
    std::string_view label() const override { return "part"; }

protected:
    void* offered_interface(std::string_view name) override { return offer<Counts, Names>(this, name); }
};

TEST(InterfaceProvider, FindsTheOfferedInterfacesAsTheirSubObjects) {
    Part part;
    InterfaceProvider& provider = part;
    Counts* c = provider.find_interface<Counts>();
    Names* n = provider.find_interface<Names>();
    ASSERT_NE(c, nullptr);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(c, static_cast<Counts*>(&part));
    EXPECT_EQ(n, static_cast<Names*>(&part));
    EXPECT_NE(reinterpret_cast<uintptr_t>(n), reinterpret_cast<uintptr_t>(&part));
    EXPECT_EQ(c->count(), 7);
    EXPECT_EQ(n->label(), "part");
    EXPECT_EQ(provider.find_interface<NotOffered>(), nullptr);
}

TEST(InterfaceProvider, OffersNothingByDefault) {
    InterfaceProvider plain;
    EXPECT_EQ(plain.find_interface<Counts>(), nullptr);
}

}  // namespace
}  // namespace zng
