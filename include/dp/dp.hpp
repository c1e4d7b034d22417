/// \file
/// The dpstub programming model: everything in one include.
///
///     #include <dp/dp.hpp>
///     dp::grid<1> g(n);
///     dp::field<1, float> a(g, 1.0f), b(g, 2.0f), c(g);
///     dp::forall(g, [](float &c, float a, float b) { c = a + b; }, c, a, b);
///
/// The public model only: the runtime (dp/rt/) comes in through the stubs
/// dpstub generates, which include it last; a program asking the runtime
/// itself (its backend, its counters) includes those headers.
#pragma once

#include "arithmetic_sequence.hpp"
#include "atomic.hpp"
#include "borrow.hpp"
#include "config.hpp"
#include "data.hpp"
#include "error.hpp"
#include "extent.hpp"
#include "field.hpp"
#include "forall.hpp"
#include "graph.hpp"
#include "grid.hpp"
#include "index.hpp"
#include "indexable.hpp"
#include "reduce.hpp"
#include "rows.hpp"
#include "scalar.hpp"
#include "scan.hpp"
#include "sort.hpp"
#include "tile_group.hpp"
#include "tiled_grid.hpp"
#include "tokens.hpp"
#include "triangle.hpp"
#include "options.hpp"
#include "views.hpp"
#include "wait.hpp"
#include "where.hpp"
