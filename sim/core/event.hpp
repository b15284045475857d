// Events are owned by the components that schedule them (as members), so scheduling
// allocates nothing: the queue only stores (tick, sequence, pointer). An event is
// scheduled at most once at a time; rescheduling moves it.
#pragma once
#include <cstdint>

#include "sim/core/tick.hpp"

namespace zng {

class EventQueue;

class Event {
public:
    explicit Event(const char* name = "event") : name_(name) {}
    virtual ~Event() = default;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    virtual void process() = 0;

    bool scheduled() const { return seq_ != 0; }
    Tick when() const { return when_; }
    const char* name() const { return name_; }

private:
    friend class EventQueue;
    const char* name_;
    Tick when_ = 0;
    uint64_t seq_ = 0;  // 0 = not scheduled; else the sequence of its live queue entry
};

// Calls obj->*F() when it fires: the usual way a component declares its events.
template <class T, void (T::*F)()>
class MemberEvent final : public Event {
public:
    explicit MemberEvent(T* obj, const char* name = "member-event") : Event(name), obj_(obj) {}
    void process() override { (obj_->*F)(); }

private:
    T* obj_;
};

}  // namespace zng
