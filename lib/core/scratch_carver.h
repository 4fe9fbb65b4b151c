// scratch_carver.h — lays out a call's scratch arrays in one piece of code
// shared by sizing and use: with an arena it carves the arrays, without one it
// only adds up their bytes. A *_workspace_bytes() function that runs the same
// layout code as the call it sizes can therefore never disagree with it.
#pragma once
#include <cstddef>

#include "arena.h"

namespace kmx::cluster {

class ScratchCarver {
public:
    ScratchCarver() = default;  // sizing only: take() returns nullptr
    explicit ScratchCarver(Arena &arena) : arena_(&arena) {}

    template <class T>
    T *take(size_t count) {
        plan_.add<T>(count);
        return arena_ ? arena_->alloc<T>(count) : nullptr;
    }
    // `bytes` carved as an arena of their own (an empty one when only sizing).
    Arena take_arena(size_t bytes) {
        void *memory = take<unsigned char>(bytes);
        return memory ? Arena(memory, align_up(bytes)) : Arena();
    }
    size_t bytes() const { return plan_.bytes(); }

private:
    Arena *arena_ = nullptr;
    WorkspacePlan plan_;
};

}  // namespace kmx::cluster
