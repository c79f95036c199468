// tile.cuh: tile programming for ordinary CUDA C++ (namespace tile).
//
// A tile kernel is written for a whole block of tile::kThreads threads: it
// loads tiles (immutable, power-of-two compile-time shapes) from arrays
// (global, mutable, shaped), computes on them and stores them back.  On the
// GPU this header is plain SIMT code; every tile operation also leaves a
// "//@ tile.*" comment in the PTX that ptxas ignores and warpsim's PTX parser
// reads (sim/ptx_tile.c), so the simulator sees tiles.  See lessons/13-tiles.
#ifndef WARPSIM_TILE_CUH
#define WARPSIM_TILE_CUH

// Bytes of shared memory the block-wide operations (broadcasting, reductions,
// matmul, scalar atomics) stage values through.  Only kernels that use one
// of them get the buffer.
#ifndef TILE_SCRATCH_BYTES
#define TILE_SCRATCH_BYTES 8192
#endif

namespace tile {

// Threads per block of a tile kernel: declare it __launch_bounds__(tile::kThreads)
// and `warpsim run` needs only --grid.
constexpr int kThreads = 128;

// Value an element of a load or gather takes where it falls outside the array
// (or is masked off).  Integer tiles: zero and neg_zero give 0, nan gives 0,
// pos_inf the largest and neg_inf the smallest value of the type.
enum class Pad { zero, neg_zero, nan, pos_inf, neg_inf };
// Memory order and thread scope of a tile atomic (each element's update).
enum class Order { relaxed, acquire, release, acq_rel };
enum class Scope { block, device, system };

// ---- hints --------------------------------------------------------------
// A hint may change the generated code and never a result.  Arch follows
// __CUDA_ARCH__ (900 = sm_90); 0 applies to every arch, and an
// arch-specific hint overrides it.
//
// latency<L, Arch>: memory access latency of one load/store/gather/scatter,
// 1 (light) .. 10 (heavy DRAM traffic).  L >= 8 marks the accesses
// streaming (ld.global.cs / st.global.cs: evict first), L <= 2 caches them
// at all levels (.ca); otherwise the default.
template <int L, int Arch = 0>
struct latency {
    static_assert(L >= 1 && L <= 10, "latency hint: 1 .. 10");
};
struct no_hint {};
// TILE_OCCUPANCY(arch, n): a kernel-level hint, n (1..32) resident blocks per
// SM wanted on `arch` (0: all); it becomes __launch_bounds__'s minimum
// blocks, which changes register allocation, never a result.
#if defined(__CUDA_ARCH__)
#define TILE_ARCH_MATCHES(arch) ((arch) == 0 || (arch) == __CUDA_ARCH__)
#else
#define TILE_ARCH_MATCHES(arch) 0
#endif
#define TILE_OCCUPANCY(arch, n) __launch_bounds__(tile::kThreads, TILE_ARCH_MATCHES(arch) ? (n) : 1)

namespace detail {

template <bool B, typename T = void> struct enable_if {};
template <typename T> struct enable_if<true, T> { using type = T; };
template <typename A, typename B> struct is_same { static constexpr bool value = false; };
template <typename A> struct is_same<A, A> { static constexpr bool value = true; };
template <typename T> struct is_const { static constexpr bool value = false; };
template <typename T> struct is_const<const T> { static constexpr bool value = true; };
template <typename T> struct remove_const { using type = T; };
template <typename T> struct remove_const<const T> { using type = T; };

__host__ __device__ constexpr bool pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

// Element types a tile may hold, their PTX marker code and their limits.
template <typename T> struct elem;
#define TILE_ELEM(T, CODE, LO, HI, FLT)                                          \
    template <> struct elem<T> {                                               \
        static constexpr int code = CODE;                                      \
        static constexpr bool is_float = FLT;                                  \
        __device__ static T lowest() { return LO; }                            \
        __device__ static T highest() { return HI; }                           \
    };
TILE_ELEM(bool, 1, false, true, false)
TILE_ELEM(int, 2, (-2147483647 - 1), 2147483647, false)
TILE_ELEM(unsigned, 3, 0u, 0xffffffffu, false)
TILE_ELEM(long long, 4, (-9223372036854775807LL - 1), 9223372036854775807LL, false)
TILE_ELEM(unsigned long long, 5, 0ull, ~0ull, false)
TILE_ELEM(float, 6, __int_as_float(0xff800000), __int_as_float(0x7f800000), true)
TILE_ELEM(double, 7, __longlong_as_double((long long)0xfff0000000000000ull),
          __longlong_as_double(0x7ff0000000000000ll), true)
#undef TILE_ELEM

template <typename S> struct is_scalar { static constexpr bool value = false; };
template <> struct is_scalar<bool> { static constexpr bool value = true; };
template <> struct is_scalar<int> { static constexpr bool value = true; };
template <> struct is_scalar<unsigned> { static constexpr bool value = true; };
template <> struct is_scalar<long long> { static constexpr bool value = true; };
template <> struct is_scalar<unsigned long long> { static constexpr bool value = true; };
template <> struct is_scalar<float> { static constexpr bool value = true; };
template <> struct is_scalar<double> { static constexpr bool value = true; };

// The canonical quiet NaN of the GPU (what add.f32 of a NaN returns).
__device__ inline float nan_of(float) { return __int_as_float(0x7fffffff); }
__device__ inline double nan_of(double) { return __longlong_as_double(0x7fffffffffffffffll); }
__device__ inline float neg_zero_of(float) { return __int_as_float((int)0x80000000u); }
__device__ inline double neg_zero_of(double) { return __longlong_as_double((long long)0x8000000000000000ull); }

template <typename T>
__device__ inline T pad_value(Pad p)
{
    if constexpr (elem<T>::is_float) {
        switch (p) {
        case Pad::neg_zero: return neg_zero_of(T());
        case Pad::nan: return nan_of(T());
        case Pad::pos_inf: return elem<T>::highest();
        case Pad::neg_inf: return elem<T>::lowest();
        default: return T(0);
        }
    } else {
        return p == Pad::pos_inf ? elem<T>::highest() : p == Pad::neg_inf ? elem<T>::lowest() : T(0);
    }
}

// max/min of the reductions: a NaN anywhere gives the canonical NaN, and
// +0 > -0 (IEEE's maxNum would drop the NaN and pick either zero).
template <typename T>
__device__ inline T max2(T a, T b)
{
    if constexpr (elem<T>::is_float) {
        if (a != a || b != b)
            return nan_of(T());
        if (a == b)
            return signbit(a) ? b : a;
    }
    return a > b ? a : b;
}
template <typename T>
__device__ inline T min2(T a, T b)
{
    if constexpr (elem<T>::is_float) {
        if (a != a || b != b)
            return nan_of(T());
        if (a == b)
            return signbit(a) ? a : b;
    }
    return a < b ? a : b;
}

// The one shared buffer every block-wide step goes through.
__device__ inline unsigned char *scratch()
{
    __shared__ alignas(16) unsigned char buf[TILE_SCRATCH_BYTES];
    return buf;
}

__device__ inline int tid() { return (int)threadIdx.x; }

// Marker codes written into the PTX comments (sim/ptx_tile.c reads them).
enum { REDUCE_SUM = 0, REDUCE_MAX = 1, REDUCE_MIN = 2 };
enum { ATOM_ADD = 0, ATOM_MIN, ATOM_MAX, ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_XCHG, ATOM_CAS };
// Element states of tile.elem markers.
enum { ELEM_OK = 0, ELEM_MASKED = 1, ELEM_OUT = 2 };

template <typename H> struct hint_level { static constexpr int value = 0; };
template <int L, int Arch> struct hint_level<latency<L, Arch>> {
    static constexpr int value = TILE_ARCH_MATCHES(Arch) ? (L >= 8 ? 2 : L <= 2 ? 1 : 0) : 0;
};

// Loads and stores as the latency hint asks (same value either way).
template <int Level, typename T>
__device__ inline T ld(const T *p)
{
    if constexpr (Level == 2)
        return __ldcs(p);
    else if constexpr (Level == 1)
        return __ldca(p);
    else
        return *p;
}
template <int Level, typename T>
__device__ inline void st(T *p, T v)
{
    if constexpr (Level == 2)
        __stcs(p, v);
    else
        *p = v;
}
template <int Level>
__device__ inline void st(bool *p, bool v)
{
    *p = v;
}
template <int Level>
__device__ inline bool ld(const bool *p)
{
    return *p;
}

} // namespace detail

// ---- arrays -------------------------------------------------------------
// A global array: mutable (unless T is const), shaped, row-major.
template <typename T, int Rank> struct Array;
template <typename T> struct Array<T, 1> {
    T *p;
    int n;
};
template <typename T> struct Array<T, 2> {
    T *p;
    int rows, cols;
};

template <typename T>
__device__ inline Array<T, 1> array(T *p, int n)
{
    return Array<T, 1>{p, n};
}
template <typename T>
__device__ inline Array<T, 2> array(T *p, int rows, int cols)
{
    return Array<T, 2>{p, rows, cols};
}

// ---- tiles --------------------------------------------------------------
// Tile<T, N> and Tile<T, M, N>: an immutable block-wide value.  Element e
// (row-major) lives in thread e % kThreads, slot e / kThreads; a tile of
// fewer than kThreads elements leaves the other threads empty.  The fields
// belong to the header: a kernel builds tiles with the operations below.
template <typename T, int D0, int D1 = 0>
struct Tile {
    static_assert(detail::pow2(D0) && (D1 == 0 || detail::pow2(D1)),
                  "tile dimensions must be powers of two");
    static constexpr int rank = D1 == 0 ? 1 : 2;
    static constexpr int rows = D1 == 0 ? 1 : D0;
    static constexpr int cols = D1 == 0 ? D0 : D1;
    static constexpr int size = rows * cols;
    static constexpr int slots = (size + kThreads - 1) / kThreads;
    using value_type = T;
    T v[slots];
    // Does this thread hold slot k (element k * kThreads + threadIdx.x)?
    __device__ static bool holds(int k) { return size % kThreads == 0 || k * kThreads + detail::tid() < size; }
    __device__ static int element(int k) { return k * kThreads + detail::tid(); }
};

namespace detail {

template <typename T> struct is_tile { static constexpr bool value = false; };
template <typename T, int A, int B> struct is_tile<Tile<T, A, B>> { static constexpr bool value = true; };

// The tile type with rows x cols elements (rank 1 when rank1).
template <typename T, int R, int C, bool Rank1> struct make_tile { using type = Tile<T, R, C>; };
template <typename T, int R, int C> struct make_tile<T, R, C, true> { using type = Tile<T, C>; };

// Broadcasting (as NumPy): a dimension of 1 stretches to the other's size;
// a rank-1 tile of N is a row of N.
template <typename U, typename TA, typename TB>
struct bcast {
    static_assert(TA::rows == TB::rows || TA::rows == 1 || TB::rows == 1, "tile shapes do not broadcast (rows)");
    static_assert(TA::cols == TB::cols || TA::cols == 1 || TB::cols == 1, "tile shapes do not broadcast (cols)");
    static constexpr int rows = TA::rows > TB::rows ? TA::rows : TB::rows;
    static constexpr int cols = TA::cols > TB::cols ? TA::cols : TB::cols;
    using type = typename make_tile<U, rows, cols, TA::rank == 1 && TB::rank == 1>::type;
};

// t stretched to Out's shape: through shared memory when the shapes differ.
template <typename Out, typename T, int A, int B>
__device__ inline Tile<T, Out::rank == 1 ? Out::cols : Out::rows, Out::rank == 1 ? 0 : Out::cols>
broadcast_to(const Tile<T, A, B> &t)
{
    using In = Tile<T, A, B>;
    using R = Tile<T, Out::rank == 1 ? Out::cols : Out::rows, Out::rank == 1 ? 0 : Out::cols>;
    R r;
    if constexpr (In::rows == R::rows && In::cols == R::cols) {
#pragma unroll
        for (int k = 0; k < R::slots; k++)
            r.v[k] = t.v[k];
    } else {
        static_assert(In::size * sizeof(T) <= TILE_SCRATCH_BYTES, "tile too large for TILE_SCRATCH_BYTES");
        T *s = reinterpret_cast<T *>(scratch());
        __syncthreads();
#pragma unroll
        for (int k = 0; k < In::slots; k++)
            if (In::holds(k))
                s[In::element(k)] = t.v[k];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < R::slots; k++)
            if (R::holds(k)) {
                int e = R::element(k), row = e / R::cols, col = e % R::cols;
                r.v[k] = s[(In::rows == 1 ? 0 : row) * In::cols + (In::cols == 1 ? 0 : col)];
            }
        __syncthreads();
    }
    return r;
}

template <typename T, int A, int B>
__device__ inline const Tile<T, A, B> &as_tile(const Tile<T, A, B> &t) { return t; }

// Apply f element by element to two tiles broadcast to one shape.
template <typename F, typename TA, typename TB>
__device__ inline auto zip(const TA &a, const TB &b, F f)
{
    using U = decltype(f(a.v[0], b.v[0]));
    using R = typename bcast<U, TA, TB>::type;
    auto x = broadcast_to<R>(a);
    auto y = broadcast_to<R>(b);
    R r;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        r.v[k] = f(x.v[k], y.v[k]);
    return r;
}
template <typename F, typename T, int A, int B>
__device__ inline auto map(const Tile<T, A, B> &a, F f)
{
    using U = decltype(f(a.v[0]));
    Tile<U, A, B> r;
#pragma unroll
    for (int k = 0; k < Tile<T, A, B>::slots; k++)
        r.v[k] = f(a.v[k]);
    return r;
}

} // namespace detail

// ---- element-wise operators with broadcasting ---------------------------
#define TILE_BINARY(OP)                                                                          \
    template <typename T, int A, int B, typename U, int C, int D>                                 \
    __device__ inline auto operator OP(const Tile<T, A, B> &a, const Tile<U, C, D> &b)            \
    {                                                                                            \
        return detail::zip(a, b, [](T x, U y) { return x OP y; });                               \
    }                                                                                            \
    template <typename T, int A, int B, typename S,                                              \
              typename = typename detail::enable_if<detail::is_scalar<S>::value>::type>           \
    __device__ inline auto operator OP(const Tile<T, A, B> &a, S s)                              \
    {                                                                                            \
        return detail::map(a, [s](T x) { return x OP s; });                                      \
    }                                                                                            \
    template <typename T, int A, int B, typename S,                                              \
              typename = typename detail::enable_if<detail::is_scalar<S>::value>::type>           \
    __device__ inline auto operator OP(S s, const Tile<T, A, B> &a)                              \
    {                                                                                            \
        return detail::map(a, [s](T x) { return s OP x; });                                      \
    }
TILE_BINARY(+)
TILE_BINARY(-)
TILE_BINARY(*)
TILE_BINARY(/)
TILE_BINARY(%)
TILE_BINARY(&)
TILE_BINARY(|)
TILE_BINARY(^)
TILE_BINARY(<)
TILE_BINARY(<=)
TILE_BINARY(>)
TILE_BINARY(>=)
TILE_BINARY(==)
TILE_BINARY(!=)
#undef TILE_BINARY

template <typename T, int A, int B>
__device__ inline Tile<T, A, B> operator-(const Tile<T, A, B> &a)
{
    return detail::map(a, [](T x) { return T(-x); });
}

namespace detail {

// Shape arithmetic over tiles and scalars (a scalar is rank 0, 1 x 1).
template <typename X> struct dims {
    static constexpr int rows = 1, cols = 1, rank = 0;
    using value_type = X;
};
template <typename T, int A, int B> struct dims<Tile<T, A, B>> {
    static constexpr int rows = Tile<T, A, B>::rows, cols = Tile<T, A, B>::cols, rank = Tile<T, A, B>::rank;
    using value_type = T;
};
__host__ __device__ constexpr int max3(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }
template <typename T> struct identity { using type = T; };

// x spread to R's shape: a tile broadcast, a scalar kept as it is.
template <typename R, typename X>
__device__ inline auto spread(const X &x)
{
    if constexpr (is_tile<X>::value)
        return broadcast_to<R>(x);
    else
        return x;
}
template <typename X>
__device__ inline auto at(const X &x, int k)
{
    if constexpr (is_tile<X>::value)
        return x.v[k];
    else
        return x;
}

} // namespace detail

// where(cond, a, b): a where cond holds, else b; a and b are tiles or
// scalars, and all three broadcast to one shape.
template <int A, int B, typename X, typename Y>
__device__ inline auto where(const Tile<bool, A, B> &c, const X &a, const Y &b)
{
    using DC = detail::dims<Tile<bool, A, B>>;
    using DA = detail::dims<X>;
    using DB = detail::dims<Y>;
    using U = decltype(true ? typename DA::value_type() : typename DB::value_type());
    constexpr int rows = detail::max3(DC::rows, DA::rows, DB::rows);
    constexpr int cols = detail::max3(DC::cols, DA::cols, DB::cols);
    static_assert((DA::rows == rows || DA::rows == 1) && (DB::rows == rows || DB::rows == 1) &&
                  (DC::rows == rows || DC::rows == 1) && (DA::cols == cols || DA::cols == 1) &&
                  (DB::cols == cols || DB::cols == 1) && (DC::cols == cols || DC::cols == 1),
                  "where: shapes do not broadcast");
    using R = typename detail::make_tile<U, rows, cols, detail::max3(DC::rank, DA::rank, DB::rank) == 1>::type;
    auto cc = detail::spread<R>(c);
    auto aa = detail::spread<R>(a);
    auto bb = detail::spread<R>(b);
    R r;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        r.v[k] = detail::at(cc, k) ? U(detail::at(aa, k)) : U(detail::at(bb, k));
    return r;
}

// full<N>(v), full<M, N>(v): every element v.  arange<N>(): 0, 1, ..., N-1.
template <int M, int N = 0, typename T>
__device__ inline Tile<T, M, N> full(T value)
{
    Tile<T, M, N> r;
#pragma unroll
    for (int k = 0; k < Tile<T, M, N>::slots; k++)
        r.v[k] = value;
    return r;
}
template <int N>
__device__ inline Tile<int, N> arange()
{
    Tile<int, N> r;
#pragma unroll
    for (int k = 0; k < Tile<int, N>::slots; k++)
        r.v[k] = Tile<int, N>::element(k);
    return r;
}
// astype<U>(t): each element converted as static_cast<U> does.
template <typename U, typename T, int A, int B>
__device__ inline Tile<U, A, B> astype(const Tile<T, A, B> &t)
{
    return detail::map(t, [](T x) { return static_cast<U>(x); });
}

// ---- the tile space: load and store -------------------------------------
// Tile i of a 1-D array's tile space covers elements [i*N, i*N + N); tile
// (i, j) of a 2-D array rows [i*M, i*M + M) and columns [j*N, j*N + N).
// A load gives elements outside the array the pad value; a store drops them.

#define TILE_INFO(T, RANK, EXTRA) (detail::elem<T>::code | (RANK) << 8 | (EXTRA) << 12)

template <int N, typename T, typename H = no_hint>
__device__ inline Tile<typename detail::remove_const<T>::type, N> load(const Array<T, 1> &a, int i,
                                                                      Pad pad = Pad::zero, H = H())
{
    using V = typename detail::remove_const<T>::type;
    using R = Tile<V, N>;
    asm volatile("//@ tile.load %0, 0, %1, 1, %2, %3, %4, %5;" ::"l"(a.p), "r"(i), "r"(a.n), "n"(1 << 16 | N),
                 "r"((int)pad), "n"(TILE_INFO(V, 1, 0)));
    V pv = detail::pad_value<V>(pad);
    R r;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            long long idx = (long long)i * N + R::element(k);
            r.v[k] = idx >= 0 && idx < a.n ? detail::ld<detail::hint_level<H>::value>(a.p + idx) : pv;
        }
    return r;
}

template <int M, int N, typename T, typename H = no_hint>
__device__ inline Tile<typename detail::remove_const<T>::type, M, N> load(const Array<T, 2> &a, int i, int j,
                                                                         Pad pad = Pad::zero, H = H())
{
    using V = typename detail::remove_const<T>::type;
    using R = Tile<V, M, N>;
    asm volatile("//@ tile.load %0, %1, %2, %3, %4, %5, %6, %7;" ::"l"(a.p), "r"(i), "r"(j), "r"(a.rows),
                 "r"(a.cols), "n"(M << 16 | N), "r"((int)pad), "n"(TILE_INFO(V, 2, 0)));
    V pv = detail::pad_value<V>(pad);
    R r;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            int e = R::element(k);
            long long row = (long long)i * M + e / N, col = (long long)j * N + e % N;
            r.v[k] = row >= 0 && row < a.rows && col >= 0 && col < a.cols
                         ? detail::ld<detail::hint_level<H>::value>(a.p + row * a.cols + col)
                         : pv;
        }
    return r;
}

template <typename T, int N, typename H = no_hint>
__device__ inline void store(const Array<T, 1> &a, int i, const Tile<T, N> &t, H = H())
{
    static_assert(!detail::is_const<T>::value, "store: the array is read-only (const T *)");
    using R = Tile<T, N>;
    asm volatile("//@ tile.store %0, 0, %1, 1, %2, %3, %4;" ::"l"(a.p), "r"(i), "r"(a.n), "n"(1 << 16 | N),
                 "n"(TILE_INFO(T, 1, 0)));
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            long long idx = (long long)i * N + R::element(k);
            if (idx >= 0 && idx < a.n)
                detail::st<detail::hint_level<H>::value>(a.p + idx, t.v[k]);
        }
}

template <typename T, int M, int N, typename H = no_hint>
__device__ inline void store(const Array<T, 2> &a, int i, int j, const Tile<T, M, N> &t, H = H())
{
    static_assert(!detail::is_const<T>::value, "store: the array is read-only (const T *)");
    using R = Tile<T, M, N>;
    asm volatile("//@ tile.store %0, %1, %2, %3, %4, %5, %6;" ::"l"(a.p), "r"(i), "r"(j), "r"(a.rows),
                 "r"(a.cols), "n"(M << 16 | N), "n"(TILE_INFO(T, 2, 0)));
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            int e = R::element(k);
            long long row = (long long)i * M + e / N, col = (long long)j * N + e % N;
            if (row >= 0 && row < a.rows && col >= 0 && col < a.cols)
                detail::st<detail::hint_level<H>::value>(a.p + row * a.cols + col, t.v[k]);
        }
}

// ---- gather and scatter ---------------------------------------------------
// gather(A, index, mask, pad): element e is A[index[e]] where mask[e] holds
// and 0 <= index[e] < n, else the pad value.  scatter(A, index, value, mask)
// writes value[e] to A[index[e]] where mask[e] holds and the index is inside
// A; the rest are dropped (two elements with one index: one of them wins).
template <typename T, int A, int B, typename H = no_hint>
__device__ inline Tile<typename detail::remove_const<T>::type, A, B>
gather(const Array<T, 1> &a, const Tile<int, A, B> &index, const Tile<bool, A, B> &mask, Pad pad = Pad::zero, H = H())
{
    using V = typename detail::remove_const<T>::type;
    using R = Tile<V, A, B>;
    asm volatile("//@ tile.gather %0, %1, %2, %3, %4;" ::"l"(a.p), "r"(a.n), "n"(R::size), "r"((int)pad),
                 "n"(TILE_INFO(V, R::rank, 0)));
    V pv = detail::pad_value<V>(pad);
    R r;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            int i = index.v[k];
            int state = !mask.v[k] ? detail::ELEM_MASKED : i < 0 || i >= a.n ? detail::ELEM_OUT : detail::ELEM_OK;
            asm volatile("//@ tile.elem %0, %1, %2;" ::"r"(R::element(k)), "r"(i), "r"(state));
            r.v[k] = state == detail::ELEM_OK ? detail::ld<detail::hint_level<H>::value>(a.p + i) : pv;
        }
    asm volatile("//@ tile.end;");
    return r;
}
template <typename T, int A, int B>
__device__ inline Tile<typename detail::remove_const<T>::type, A, B> gather(const Array<T, 1> &a,
                                                                           const Tile<int, A, B> &index,
                                                                           Pad pad = Pad::zero)
{
    return gather(a, index, full<A, B>(true), pad);
}

template <typename T, int A, int B, typename H = no_hint>
__device__ inline void scatter(const Array<T, 1> &a, const Tile<int, A, B> &index, const Tile<T, A, B> &value,
                               const Tile<bool, A, B> &mask, H = H())
{
    static_assert(!detail::is_const<T>::value, "scatter: the array is read-only (const T *)");
    using R = Tile<T, A, B>;
    asm volatile("//@ tile.scatter %0, %1, %2, %3;" ::"l"(a.p), "r"(a.n), "n"(R::size), "n"(TILE_INFO(T, R::rank, 0)));
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            int i = index.v[k];
            int state = !mask.v[k] ? detail::ELEM_MASKED : i < 0 || i >= a.n ? detail::ELEM_OUT : detail::ELEM_OK;
            asm volatile("//@ tile.elem %0, %1, %2;" ::"r"(R::element(k)), "r"(i), "r"(state));
            if (state == detail::ELEM_OK)
                detail::st<detail::hint_level<H>::value>(a.p + i, value.v[k]);
        }
    asm volatile("//@ tile.end;");
}
template <typename T, int A, int B>
__device__ inline void scatter(const Array<T, 1> &a, const Tile<int, A, B> &index, const Tile<T, A, B> &value)
{
    scatter(a, index, value, full<A, B>(true));
}

// ---- reductions -----------------------------------------------------------
// sum, reduce_max, reduce_min: the whole tile to one value, the same in every
// thread.  The order is fixed (each thread's elements in slot order, then a
// butterfly over the 32 lanes of each warp, then the 4 warps in order), so a
// float sum gives the same bits on every run and on every device.  Floats:
// the sum of only -0 is -0; max/min give NaN if any element is NaN, and
// treat -0 as less than +0.
namespace detail {
template <int KIND, typename T, int A, int B, typename F>
__device__ inline T reduce(const Tile<T, A, B> &t, T ident, F f)
{
    using R = Tile<T, A, B>;
    asm volatile("//@ tile.reduce %0, %1, %2;" ::"n"(KIND), "n"(R::rows << 16 | R::cols),
                 "n"(TILE_INFO(T, R::rank, 0)));
    T acc = ident;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k))
            acc = f(acc, t.v[k]);
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
        acc = f(acc, __shfl_xor_sync(0xffffffffu, acc, d));
    T *s = reinterpret_cast<T *>(scratch());
    __syncthreads();
    if (tid() % 32 == 0)
        s[tid() / 32] = acc;
    __syncthreads();
    T r = s[0];
#pragma unroll
    for (int w = 1; w < kThreads / 32; w++)
        r = f(r, s[w]);
    __syncthreads();
    return r;
}
} // namespace detail

template <typename T, int A, int B>
__device__ inline T sum(const Tile<T, A, B> &t)
{
    T ident = T(0);
    if constexpr (detail::elem<T>::is_float)
        ident = detail::neg_zero_of(T());
    return detail::reduce<detail::REDUCE_SUM>(t, ident, [](T a, T b) { return a + b; });
}
template <typename T, int A, int B>
__device__ inline T reduce_max(const Tile<T, A, B> &t)
{
    return detail::reduce<detail::REDUCE_MAX>(t, detail::elem<T>::lowest(), [](T a, T b) { return detail::max2(a, b); });
}
template <typename T, int A, int B>
__device__ inline T reduce_min(const Tile<T, A, B> &t)
{
    return detail::reduce<detail::REDUCE_MIN>(t, detail::elem<T>::highest(), [](T a, T b) { return detail::min2(a, b); });
}

// ---- matmul ----------------------------------------------------------------
// matmul(a, b): (M x K) times (K x N).  Element (r, c) accumulates
// a[r][0]*b[0][c], a[r][1]*b[1][c], ... in that order from 0, floats with one
// fused multiply-add per step.
template <typename T, int M, int K, int N>
__device__ inline Tile<T, M, N> matmul(const Tile<T, M, K> &a, const Tile<T, K, N> &b)
{
    static_assert((M * K + K * N) * sizeof(T) <= TILE_SCRATCH_BYTES, "matmul: tiles too large for TILE_SCRATCH_BYTES");
    using TA = Tile<T, M, K>;
    using TB = Tile<T, K, N>;
    using R = Tile<T, M, N>;
    asm volatile("//@ tile.matmul %0, %1, %2;" ::"n"(M << 16 | K), "n"(K << 16 | N), "n"(TILE_INFO(T, 2, 0)));
    T *sa = reinterpret_cast<T *>(detail::scratch());
    T *sb = sa + M * K;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TA::slots; k++)
        if (TA::holds(k))
            sa[TA::element(k)] = a.v[k];
#pragma unroll
    for (int k = 0; k < TB::slots; k++)
        if (TB::holds(k))
            sb[TB::element(k)] = b.v[k];
    __syncthreads();
    R r;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            int e = R::element(k), row = e / N, col = e % N;
            T acc = T(0);
            for (int q = 0; q < K; q++) {
                if constexpr (detail::elem<T>::is_float)
                    acc = fma(sa[row * K + q], sb[q * N + col], acc);
                else
                    acc += sa[row * K + q] * sb[q * N + col];
            }
            r.v[k] = acc;
        }
    __syncthreads();
    return r;
}

// ---- tile atomics -----------------------------------------------------------
// atomic_OP(A, index, value, order, scope): for each element e, one atomic
// read-modify-write of A[index[e]] with value[e] (a tile of index's shape or
// a scalar); the result is the tile of old values.  Each element's update is
// atomic, the call as a whole is not, and the order between elements is
// unspecified (warpsim's --atomic-order picks one).  Elements whose index is
// outside A are skipped (old value 0).  Scope::block suffices when only this
// block touches the data; other blocks' updates need Scope::device.
// atomic_OP(A, i, v, ...) with an int index and a scalar is a one-element
// tile; its old value comes back to every thread.  Types: int, unsigned,
// long long, unsigned long long; float adds, exchanges and compares-and-swaps.
namespace detail {

#define TILE_ATOM_ASM(SEMSCOPE, OPTYPE, C)                                                              \
    asm volatile("atom." SEMSCOPE ".global." OPTYPE " %0, [%1], %2;" : "=" C(old) : "l"(p), C(v) : "memory")
#define TILE_CAS_ASM(SEMSCOPE, OPTYPE, C)                                                               \
    asm volatile("atom." SEMSCOPE ".global." OPTYPE " %0, [%1], %2, %3;"                                \
                 : "=" C(old)                                                                           \
                 : "l"(p), C(c), C(v)                                                                   \
                 : "memory")
#define TILE_ATOM_SWITCH(ASM, OPTYPE, C)                                                                \
    switch ((int)o * 3 + (int)s) {                                                                      \
    case 0: ASM("relaxed.cta", OPTYPE, C); break;                                                       \
    case 1: ASM("relaxed.gpu", OPTYPE, C); break;                                                       \
    case 2: ASM("relaxed.sys", OPTYPE, C); break;                                                       \
    case 3: ASM("acquire.cta", OPTYPE, C); break;                                                       \
    case 4: ASM("acquire.gpu", OPTYPE, C); break;                                                       \
    case 5: ASM("acquire.sys", OPTYPE, C); break;                                                       \
    case 6: ASM("release.cta", OPTYPE, C); break;                                                       \
    case 7: ASM("release.gpu", OPTYPE, C); break;                                                       \
    case 8: ASM("release.sys", OPTYPE, C); break;                                                       \
    case 9: ASM("acq_rel.cta", OPTYPE, C); break;                                                       \
    case 10: ASM("acq_rel.gpu", OPTYPE, C); break;                                                      \
    default: ASM("acq_rel.sys", OPTYPE, C); break;                                                      \
    }
#define TILE_ATOM_TYPE(T, C, ADD, MIN, MAX, BITS)                                                       \
    template <int OP>                                                                                   \
    __device__ inline T atom(T *p, T v, T c, Order o, Scope s)                                          \
    {                                                                                                   \
        T old;                                                                                          \
        (void)c;                                                                                        \
        if constexpr (OP == ATOM_ADD) { TILE_ATOM_SWITCH(TILE_ATOM_ASM, "add." ADD, C) }                \
        else if constexpr (OP == ATOM_MIN) { TILE_ATOM_SWITCH(TILE_ATOM_ASM, "min." MIN, C) }           \
        else if constexpr (OP == ATOM_MAX) { TILE_ATOM_SWITCH(TILE_ATOM_ASM, "max." MAX, C) }           \
        else if constexpr (OP == ATOM_AND) { TILE_ATOM_SWITCH(TILE_ATOM_ASM, "and." BITS, C) }          \
        else if constexpr (OP == ATOM_OR) { TILE_ATOM_SWITCH(TILE_ATOM_ASM, "or." BITS, C) }            \
        else if constexpr (OP == ATOM_XOR) { TILE_ATOM_SWITCH(TILE_ATOM_ASM, "xor." BITS, C) }          \
        else if constexpr (OP == ATOM_XCHG) { TILE_ATOM_SWITCH(TILE_ATOM_ASM, "exch." BITS, C) }        \
        else { TILE_ATOM_SWITCH(TILE_CAS_ASM, "cas." BITS, C) }                                         \
        return old;                                                                                     \
    }
TILE_ATOM_TYPE(int, "r", "s32", "s32", "s32", "b32")
TILE_ATOM_TYPE(unsigned, "r", "u32", "u32", "u32", "b32")
TILE_ATOM_TYPE(long long, "l", "u64", "s64", "s64", "b64")
TILE_ATOM_TYPE(unsigned long long, "l", "u64", "u64", "u64", "b64")
#undef TILE_ATOM_TYPE

template <int OP>
__device__ inline float atom(float *p, float v, float c, Order o, Scope s)
{
    static_assert(OP == ATOM_ADD || OP == ATOM_XCHG || OP == ATOM_CAS,
                  "float tile atomics: add, xchg and cas (PTX has no f32 atom.min/max/and/or/xor)");
    float old;
    (void)c;
    if constexpr (OP == ATOM_ADD) {
        TILE_ATOM_SWITCH(TILE_ATOM_ASM, "add.f32", "f")
    } else if constexpr (OP == ATOM_XCHG) {
        TILE_ATOM_SWITCH(TILE_ATOM_ASM, "exch.b32", "f")
    } else {
        TILE_ATOM_SWITCH(TILE_CAS_ASM, "cas.b32", "f")
    }
    return old;
}
#undef TILE_ATOM_SWITCH
#undef TILE_ATOM_ASM
#undef TILE_CAS_ASM

template <typename R, typename X>
__device__ inline R values_of(const X &x)
{
    if constexpr (is_tile<X>::value) {
        return broadcast_to<R>(x);
    } else {
        R r;
#pragma unroll
        for (int k = 0; k < R::slots; k++)
            r.v[k] = (typename R::value_type)x;
        return r;
    }
}

template <int OP, typename T, int A, int B>
__device__ inline Tile<T, A, B> atomic_tile(const Array<T, 1> &arr, const Tile<int, A, B> &index,
                                            const Tile<T, A, B> &value, const Tile<T, A, B> &expected, Order o, Scope s)
{
    static_assert(!is_const<T>::value, "tile atomics: the array is read-only (const T *)");
    using R = Tile<T, A, B>;
    asm volatile("//@ tile.atom %0, %1, %2, %3, %4, %5;" ::"l"(arr.p), "r"(arr.n), "n"(R::size), "r"((int)o),
                 "r"((int)s), "n"(TILE_INFO(T, R::rank, OP)));
    R r;
#pragma unroll
    for (int k = 0; k < R::slots; k++)
        if (R::holds(k)) {
            int i = index.v[k];
            int state = i < 0 || i >= arr.n ? ELEM_OUT : ELEM_OK;
            asm volatile("//@ tile.elem %0, %1, %2;" ::"r"(R::element(k)), "r"(i), "r"(state));
            r.v[k] = state == ELEM_OK ? atom<OP>(arr.p + i, value.v[k], expected.v[k], o, s) : T(0);
        }
    asm volatile("//@ tile.end;");
    return r;
}

// Element 0 of t in every thread.
template <typename T, int A, int B>
__device__ inline T first(const Tile<T, A, B> &t)
{
    T *s = reinterpret_cast<T *>(scratch());
    __syncthreads();
    if (tid() == 0)
        s[0] = t.v[0];
    __syncthreads();
    T r = s[0];
    __syncthreads();
    return r;
}

} // namespace detail

#define TILE_ATOMIC_FN(NAME, OPC)                                                                        \
    template <typename T, int A, int B, typename V>                                                     \
    __device__ inline Tile<T, A, B> NAME(const Array<T, 1> &arr, const Tile<int, A, B> &index, const V &value, \
                                         Order o = Order::acq_rel, Scope s = Scope::device)             \
    {                                                                                                   \
        auto v = detail::values_of<Tile<T, A, B>>(value);                                               \
        return detail::atomic_tile<OPC>(arr, index, v, v, o, s);                                        \
    }                                                                                                   \
    template <typename T>                                                                               \
    __device__ inline T NAME(const Array<T, 1> &arr, int index, typename detail::identity<T>::type value, \
                             Order o = Order::acq_rel, Scope s = Scope::device)                         \
    {                                                                                                   \
        auto v = full<1>(value);                                                                        \
        return detail::first(detail::atomic_tile<OPC>(arr, full<1>(index), v, v, o, s));                \
    }
TILE_ATOMIC_FN(atomic_add, detail::ATOM_ADD)
TILE_ATOMIC_FN(atomic_max, detail::ATOM_MAX)
TILE_ATOMIC_FN(atomic_min, detail::ATOM_MIN)
TILE_ATOMIC_FN(atomic_and, detail::ATOM_AND)
TILE_ATOMIC_FN(atomic_or, detail::ATOM_OR)
TILE_ATOMIC_FN(atomic_xor, detail::ATOM_XOR)
TILE_ATOMIC_FN(atomic_xchg, detail::ATOM_XCHG)
#undef TILE_ATOMIC_FN

// atomic_cas(A, index, expected, desired, order, scope): A[index[e]] becomes
// desired[e] where it equals expected[e]; the old values come back.
template <typename T, int A, int B, typename X, typename D>
__device__ inline Tile<T, A, B> atomic_cas(const Array<T, 1> &arr, const Tile<int, A, B> &index, const X &expected,
                                           const D &desired, Order o = Order::acq_rel, Scope s = Scope::device)
{
    return detail::atomic_tile<detail::ATOM_CAS>(arr, index, detail::values_of<Tile<T, A, B>>(desired),
                                                 detail::values_of<Tile<T, A, B>>(expected), o, s);
}
template <typename T>
__device__ inline T atomic_cas(const Array<T, 1> &arr, int index, typename detail::identity<T>::type expected,
                               typename detail::identity<T>::type desired, Order o = Order::acq_rel,
                               Scope s = Scope::device)
{
    return detail::first(
        detail::atomic_tile<detail::ATOM_CAS>(arr, full<1>(index), full<1>(desired), full<1>(expected), o, s));
}

// ---- the grid ----------------------------------------------------------------
// bid(d): this block's index in dimension d (0 = x, 1 = y, 2 = z);
// num_blocks(d): blocks in the grid along d.  num_tiles<N>(A) / num_tiles<M,
// N>(A, d): tiles of A's tile space (along d), partial tiles included.
__device__ inline int bid(int d) { return d == 0 ? (int)blockIdx.x : d == 1 ? (int)blockIdx.y : (int)blockIdx.z; }
__device__ inline int num_blocks(int d) { return d == 0 ? (int)gridDim.x : d == 1 ? (int)gridDim.y : (int)gridDim.z; }
template <int N, typename T>
__device__ inline int num_tiles(const Array<T, 1> &a, int d = 0)
{
    return d == 0 ? (a.n + N - 1) / N : 1;
}
template <int M, int N, typename T>
__device__ inline int num_tiles(const Array<T, 2> &a, int d)
{
    return d == 0 ? (a.rows + M - 1) / M : d == 1 ? (a.cols + N - 1) / N : 1;
}

#undef TILE_INFO

} // namespace tile

#endif
