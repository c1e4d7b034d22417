// Tiled, filtered and triangular domains as the stub renders them.
#include <dp/dp.hpp>

#include <functional>

void run(dp::field<2, float> &A, dp::field<2, float> &B, dp::field<2, int> &C,
         dp::scalar<long> &count) {
  dp::forall(dp::tile<8, 8>(A.get_grid()),
             [](const dp::tile_group<2> &t, const float &x, dp::field<2, float> &b) {
               dp::tile_static<float[8][9]> s(t);
               const dp::index<2> l = t.local();
               s.get()[l[0]][l[1]] = x;
               t.barrier();
               const std::int64_t i = t.tile_origin()[0] + l[1], j = t.tile_origin()[1] + l[0];
               if (j < b.get_extent(0) && i < b.get_extent(1))
                 b(j, i) = s.get()[l[1]][l[0]];
             },
             dp::_tile, A, B);
// STUB: //   domain:       tiled, one group per tile of 8 x 8; padding threads run masked, and reach every barrier
// STUB: //   tile memory:  dp::tile_static<float[8][9]>
// STUB: //   argument 1 `dp::_tile` -> const dp::tile_group<2> &t: special index (the tile_group), value
// STUB: inline constexpr std::size_t forall_[[@LINE-14]]_3_tile_bytes = dp::rt::tile_bytes<float[8][9]>();
// STUB: inline constexpr auto forall_[[@LINE-15]]_3_tile_sight = dp::rt::sees_tile;
// STUB:   const dp::tile_group<2> v0 = at.group(p.indices.lb, p.indices.stride);
// STUB:   const float v1 = dp::rt::masked(p.a1, pos, at.in_domain); // padding: float()
// STUB:   if (!dp::rt::map_thread<Mode>(geometry, thread.group, first, at.tile))
// STUB:   p.tiling.place(thread.local, at); // padding threads: at.in_domain == false
// STUB:   dp::detail::tile_memory memory{dp::rt::tile_shared<forall_[[@LINE-20]]_3_tile_bytes>(), forall_[[@LINE-20]]_3_tile_bytes, 0};
// STUB:       launch.tiling(),
// STUB:   launch.run_tiled(
// STUB-NEXT:       stubs, params, forall_[[@LINE-23]]_3_tile_bytes, forall_[[@LINE-23]]_3_tile_sight,
  dp::forall(dp::tile<2, 4>(C.get_grid()),
             [](dp::index<2> tile, dp::index<2> local, int &c) { c = int(tile[0] * 10 + local[1]); },
             dp::_tile_index, dp::_local_index, C);
// The tile tokens; a padding thread's writes are dropped.
// STUB: //   domain:       tiled, one group per tile of 2 x 4; padding threads run masked
// STUB: //   tile memory:  none
// STUB: inline constexpr auto forall_[[@LINE-6]]_3_tile_sight = dp::rt::sees_tile_place;
// STUB:   const dp::index<2> v0 = at.tile;
// STUB:   const dp::index<2> v1 = at.local;
// STUB:   int v2 = dp::rt::masked(p.a2, pos, at.in_domain); // padding: int(), written back below
// STUB:   if (at.in_domain) { // a padding thread's writes are dropped
// STUB:     p.a2[pos] = v2;
  dp::forall(dp::where(C.get_grid(), [](dp::index<2> i) { return i[1] > i[0]; }),
             [](int &c) { c = 1; }, C);
// STUB: //   domain:       dp::where: the grid's points whose index value the predicate keeps, tested after the index mapping
// STUB:   DomainView domain; // the predicate, tested after the index mapping
// STUB:       p.domain.keep(pos))
// STUB:       launch.domain_map(),
  dp::forall(dp::lower_triangle(C.get_extent(0)), [](dp::index<2> i, int &c) { c = int(i[0] - i[1]); },
             dp::_index, C);
// A triangle is launched as a rank-1 domain of its points.
// STUB: //   domain:       lower triangle: n(n+1)/2 points launched as a rank-1 domain, each raised exactly to (i, j)
// STUB: DP_GLOBAL void dp_forall__tiles_and_domains_cpp__[[@LINE-4]](const dp::rt::launch_geometry<1> geometry, const Params p) {
// STUB:     forall_[[@LINE-5]]_3_body(p.domain(point[0]), p); // raised exactly to (i, j)
// STUB:   static const dp::rt::stub_table<1, params_type> stubs{{[{][{]}}
  dp::reduce(dp::upper_triangle(100), std::plus<>(), count,
             [](dp::index<2> i) { return long(i[1] - i[0]); }, dp::_index);
// STUB: //   domain:       upper triangle: n(n+1)/2 points launched as a rank-1 domain, each raised exactly to (i, j)
// STUB:   dp::rt::launch_context<2, Domain> launch("dp::reduce", "tiles_and_domains.cpp:[[@LINE-3]]:3", domain);
  dp::scalar<float> total(0);
  dp::reduce(dp::tile<16, 16>(A.get_grid()), std::plus<>(), total,
             [](const dp::tile_group<2> &t, const float &x) {
               dp::tile_static<float[16][17]> s(t);
               const dp::index<2> l = t.local();
               s.get()[l[0]][l[1]] = x;
               t.barrier();
               return x * s.get()[l[1]][l[0]];
             },
             dp::_tile, A);
// STUB: //   domain:       tiled, one group per tile of 16 x 16; padding threads run masked, and reach every barrier
// STUB: //   fold:         each tile folds its in-domain values in tile memory, then the tiles' folds are folded
// STUB: //   tile memory:  dp::tile_static<float[16][17]>
// STUB: inline constexpr std::size_t reduce_[[@LINE-12]]_3_tile_bytes = dp::rt::tile_bytes<float[16][17]>();
// STUB: DP_HOST_DEVICE DP_INLINE auto reduce_[[@LINE-13]]_3_body(const dp::rt::tile_point<2> &at, const Params &p) {
// STUB:   const dp::tile_group<2> v0 = at.group(p.indices.lb, p.indices.stride);
// STUB:   const float v1 = dp::rt::masked(p.a1, pos, at.in_domain); // padding: float()
// STUB:   return p.kernel(v0, v1);
// STUB:   DP_HOST_DEVICE DP_INLINE auto operator()(const dp::rt::tile_point<2> &at) const { return reduce_[[@LINE-17]]_3_body(at, p); }
// STUB:   launch.template reduce_tiled<reduce_[[@LINE-18]]_3_tile_bytes>( // each tile folds in tile memory
// STUB:       result, launch.capture(op, false), reduce_[[@LINE-19]]_3_map<params_type>{params}, reduce_[[@LINE-19]]_3_tile_sight);
  dp::forall(dp::tile<4, 32>(C.get_grid()), [](int &c) { c += 1; }, C);
// A kernel that takes no tile token cannot tell its tile: natively on the
// host it runs as plain loops over the grid's rows, then once per padding
// thread, its body called with positions that need no tile.
// STUB: /// The kernel takes no tile token, so it cannot tell its tile: on the host
// STUB: inline constexpr auto forall_[[@LINE-5]]_3_tile_sight = dp::rt::blind_to_tile;
// STUB: // At: a dp::rt::tile_point<2>; on the host's rows, a dp::rt::row_point
// STUB: DP_HOST_DEVICE DP_INLINE void forall_[[@LINE-7]]_3_body(const At &at, const Params &p) {
// STUB-NEXT:   const auto &pos = at.pos; // past the grid for a padding thread
// STUB:       stubs, params, forall_[[@LINE-9]]_3_tile_bytes, forall_[[@LINE-9]]_3_tile_sight,
// STUB-NEXT:       [](const auto &at, const params_type &p) DP_ALWAYS_INLINE {
  dp::reduce(dp::tile<4, 32>(C.get_grid()), std::plus<>(), count, [](int c) { return long(c); }, C);
// STUB: inline constexpr auto reduce_[[@LINE-1]]_3_tile_sight = dp::rt::blind_to_tile;
// STUB: DP_HOST_DEVICE DP_INLINE auto reduce_[[@LINE-2]]_3_body(const At &at, const Params &p) {
// STUB:   template <class At> DP_HOST_DEVICE DP_INLINE auto operator()(const At &at) const {
// STUB:       result, launch.capture(op, false), reduce_[[@LINE-4]]_3_map<params_type>{params}, reduce_[[@LINE-4]]_3_tile_sight);
  dp::forall(dp::tile<4>(dp::grid<1>(10)),
             [](const dp::tile_group<1> &t) {
               auto share = [&] {
                 dp::tile_static<int[4]> s(t);
                 s.get()[t.local()[0]] = 1;
               };
               share();
             },
             dp::_tile);
// A dp::tile_static in a lambda the kernel calls takes its room once.
// STUB: inline constexpr std::size_t forall_[[@LINE-10]]_3_tile_bytes = dp::rt::tile_bytes<int[4]>();
}

// A tiled launch: one group per tile, tile memory sized for the kernel's
// dp::tile_static objects (a __shared__ array on the GPU), padding masked.
// REWRITE:   dpstub::tiles_and_domains_cpp::forall_8_3(dp::tile<8, 8>(A.get_grid()),


// dp::where: the predicate is tested after the index mapping.
// REWRITE:   dpstub::tiles_and_domains_cpp::forall_44_3(dp::where(C.get_grid(), [] DP_HOST_DEVICE (dp::index<2> i) { return i[1] > i[0]; }),



// A full reduce over a tiled grid: the map runs on every thread of a tile
// (padding too) and the runtime folds each tile's values in tile memory.
// REWRITE:   dpstub::tiles_and_domains_cpp::reduce_62_3(dp::tile<16, 16>(A.get_grid()), std::plus<>(), total,



// --list names each call-site's domain; a tiled one with its tile, its tile
// memory and whether it meets at barriers.
// LIST: "line": 8,
// LIST: "domain": {
// LIST-NEXT: "kind": "tiled grid",
// LIST-NEXT: "type": "dp::tiled_grid<2, 8, 8>",
// LIST-NEXT: "tile": [
// LIST-NEXT: 8,
// LIST-NEXT: 8
// LIST-NEXT: ],
// LIST-NEXT: "tile_static": [
// LIST-NEXT: "float[8][9]"
// LIST-NEXT: ],
// LIST-NEXT: "barrier": true
// LIST: "line": 44,
// LIST: "domain": {
// LIST-NEXT: "kind": "dp::where",
// LIST: "line": 50,
// LIST: "domain": {
// LIST-NEXT: "kind": "lower triangle",
// LIST-NEXT: "type": "dp::triangle_domain<dp::triangle_part::lower>"
// LIST: "line": 62,
// LIST: "kind": "reduce",
// LIST: "domain": {
// LIST-NEXT: "kind": "tiled grid",
// LIST-NEXT: "type": "dp::tiled_grid<2, 16, 16>",
