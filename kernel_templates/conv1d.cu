// 1D convolution (correlation, "valid"): out[i] = sum_t in[i + t] * filter[t] for 0 <= i < n and
// 0 <= t < taps; `in` holds n + taps - 1 values.
// VARIANT 0: filter and input read from global memory
// VARIANT 1: filter in constant memory (one broadcast per tap), input from global memory
// VARIANT 2: filter in constant memory, the block's input span staged in shared memory
// Each thread computes OUTS consecutive outputs from a window held in registers: a chunk of U taps
// loads OUTS + U - 1 inputs (as float4 where OUTS is a multiple of 4) for OUTS * U multiply-adds.
// In shared memory the span gets 4 words of padding after every 32, so the float4 reads of threads
// OUTS words apart fall in different banks while float4 alignment is kept.

#define MAX_TAPS 4096              // constraint TAPS <= 4096 in conv1d.toml
#define U (OUTS >= 8 ? OUTS : 8)   // taps per unrolled chunk
#define W (OUTS + U - 1)           // window of inputs a chunk needs
#define W4 (OUTS % 4 == 0 ? W / 4 : 0)  // of which read as float4

__constant__ float c_filter[MAX_TAPS];

extern "C" __global__ void conv1d_reference(float* __restrict__ out, const float* __restrict__ in,
                                            const float* __restrict__ filter, int n, int taps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double sum = 0.0;
  for (int t = 0; t < taps; ++t) sum += (double)in[i + t] * (double)filter[t];
  out[i] = (float)sum;
}

__device__ __forceinline__ int pad(int i) { return i + ((i >> 5) << 2); }

// Src::at(i) reads input i of this thread's run, Src::at4(i) inputs i..i+3 (i a multiple of 4).
struct GlobalSrc {
  const float* p;
  __device__ float at(int i) const { return p[i]; }
  __device__ float4 at4(int i) const { return *reinterpret_cast<const float4*>(p + i); }
};
struct SharedSrc {
  const float* span;
  int base;
  __device__ float at(int i) const { return span[pad(base + i)]; }
  __device__ float4 at4(int i) const { return *reinterpret_cast<const float4*>(span + pad(base + i)); }
};
struct GlobalFilter {
  const float* p;
  __device__ float operator()(int t) const { return p[t]; }
};
struct ConstFilter {
  __device__ float operator()(int t) const { return c_filter[t]; }
};

template <class Src, class Filter>
__device__ __forceinline__ void convolve(float (&acc)[OUTS], Src src, Filter f, int taps) {
  int t = 0;
  for (; t + U <= taps; t += U) {
    float w[W];
#pragma unroll
    for (int m = 0; m < W4; ++m) {
      float4 v = src.at4(t + 4 * m);
      w[4 * m] = v.x; w[4 * m + 1] = v.y; w[4 * m + 2] = v.z; w[4 * m + 3] = v.w;
    }
#pragma unroll
    for (int k = 4 * W4; k < W; ++k) w[k] = src.at(t + k);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      float fu = f(t + u);
#pragma unroll
      for (int j = 0; j < OUTS; ++j) acc[j] = fmaf(w[u + j], fu, acc[j]);
    }
  }
  for (; t < taps; ++t) {
    float ft = f(t);
#pragma unroll
    for (int j = 0; j < OUTS; ++j) acc[j] = fmaf(src.at(t + j), ft, acc[j]);
  }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
conv1d(float* __restrict__ out, const float* __restrict__ in, const float* __restrict__ filter, int n, int taps) {
  const long long block_first = (long long)blockIdx.x * BLOCK * OUTS;
  const long long first = block_first + (long long)threadIdx.x * OUTS;
  float acc[OUTS];
#pragma unroll
  for (int j = 0; j < OUTS; ++j) acc[j] = 0.0f;

#if VARIANT == 2
  extern __shared__ __align__(16) float span[];
  const long long in_len = (long long)n + taps - 1;
  const int span_len = BLOCK * OUTS + taps - 1;
  for (int i = threadIdx.x; i < span_len; i += BLOCK)
    span[pad(i)] = block_first + i < in_len ? in[block_first + i] : 0.0f;
  __syncthreads();
  if (first >= n) return;
  convolve(acc, SharedSrc{span, (int)threadIdx.x * OUTS}, ConstFilter{}, taps);  // span is zero past the input
#else
  if (first >= n) return;
  if (first + OUTS > n) {  // the last run is cut short: no reads past the input
    for (int j = 0; first + j < n; ++j)
      for (int t = 0; t < taps; ++t) acc[j] += in[first + j + t] * (VARIANT == 0 ? filter[t] : c_filter[t]);
  } else {
#if VARIANT == 0
    convolve(acc, GlobalSrc{in + first}, GlobalFilter{filter}, taps);
#else
    convolve(acc, GlobalSrc{in + first}, ConstFilter{}, taps);
#endif
  }
#endif
  if (first + OUTS <= n) {
#if OUTS % 4 == 0
#pragma unroll
    for (int j = 0; j < OUTS; j += 4)
      *reinterpret_cast<float4*>(out + first + j) = make_float4(acc[j], acc[j + 1], acc[j + 2], acc[j + 3]);
#else
#pragma unroll
    for (int j = 0; j < OUTS; ++j) out[first + j] = acc[j];
#endif
  } else {
#pragma unroll
    for (int j = 0; j < OUTS; ++j)
      if (first + j < n) out[first + j] = acc[j];
  }
}
