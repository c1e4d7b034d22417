/// \file
/// Whether a vendor algorithm's values are the call-site's data or partial
/// results made from it (the group folds of a tiled reduce): the request
/// log (requests.hpp) counts only the former as passes over the data. Its
/// own header, so that kernels that specialise it include no host-side
/// logging.
#pragma once

#include <type_traits>

namespace dp::rt {

/// True for a map over partial results (the group folds of a tiled
/// reduce), not over the call-site's data.
template <class Map> struct partial_results : std::false_type {};

} // namespace dp::rt
