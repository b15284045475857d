// Registers every storage component implementation in its slot (the SSD device models,
// Hetero's hetero_host translator)
// and catalogues the schemas of the storage components for `config describe`. Safe to
// call more than once.
#pragma once

namespace zng::storage {
void register_storage_components();
}
