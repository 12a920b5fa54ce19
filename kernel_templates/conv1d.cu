// 1D convolution (correlation, "valid"): out[i] = sum_t in[i + t] * filter[t] for 0 <= i < n and
// 0 <= t < taps; `in` holds n + taps - 1 values.
// VARIANT 0: filter and input read from global memory
// VARIANT 1: filter in constant memory (one broadcast per tap), input from global memory
// VARIANT 2: filter in constant memory, the block's input span staged in shared memory
// VARIANT 3: filter and input span both staged in shared memory (the filter read as float4)
// Each thread computes OUTS consecutive outputs from a window held in registers: a chunk of U taps
// loads OUTS + U - 1 inputs (as float4 where OUTS is a multiple of 4) for OUTS * U multiply-adds.
// In shared memory the span gets 4 words of padding after every 32, so the float4 reads of threads
// OUTS words apart fall in different banks while float4 alignment is kept.

#define MAX_TAPS 4096              // constraint TAPS <= 4096 in conv1d.toml
#define U (OUTS >= 8 ? OUTS : 8)   // taps per unrolled chunk
#define W (OUTS + U - 1)           // window of inputs a chunk needs
// Window words sharing one address computation: thread runs start OUTS-aligned and chunks U-aligned.
#define G (OUTS % 16 == 0 && U % 16 == 0 ? 16 : OUTS % 8 == 0 && U % 8 == 0 ? 8 : OUTS % 4 == 0 ? 4 : 1)

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
  __device__ const float* group(int i) const { return p + i; }
};
struct SharedSrc {
  const float* span;
  int base;
  __device__ float at(int i) const { return span[pad(base + i)]; }
  // A G-aligned group of G words never straddles a padding gap: one pad() per group.
  __device__ const float* group(int i) const { return span + pad(base + i); }
};
// Filter(t) reads tap t; Filter::chunk(f, t) taps t..t+U-1 (t a multiple of U).
struct GlobalFilter {
  const float* p;
  __device__ float operator()(int t) const { return p[t]; }
  __device__ void chunk(float (&f)[U], int t) const {
#pragma unroll
    for (int u = 0; u < U; ++u) f[u] = p[t + u];
  }
};
struct ConstFilter {
  __device__ float operator()(int t) const { return c_filter[t]; }
  __device__ void chunk(float (&f)[U], int t) const {
#pragma unroll
    for (int u = 0; u < U; ++u) f[u] = c_filter[t + u];
  }
};
struct SharedFilter {  // 16-byte aligned; every thread reads the same words: broadcasts, 4 taps a load
  const float* p;
  __device__ float operator()(int t) const { return p[t]; }
  __device__ void chunk(float (&f)[U], int t) const {
#pragma unroll
    for (int u = 0; u < U; u += 4) {
      float4 v = *reinterpret_cast<const float4*>(p + t + u);
      f[u] = v.x; f[u + 1] = v.y; f[u + 2] = v.z; f[u + 3] = v.w;
    }
  }
};

template <class Src>
__device__ __forceinline__ void chunk(float (&acc)[OUTS], Src src, const float (&fc)[U], int t) {
  float w[W];
#pragma unroll
  for (int g = 0; g < (W + G - 1) / G; ++g) {
    const float* q = src.group(t + g * G);
#pragma unroll
    for (int k = g * G; k < (g + 1) * G && k < W; k += (G >= 4 && k + 4 <= W) ? 4 : 1) {
      if (G >= 4 && k + 4 <= W) {
        float4 v = *reinterpret_cast<const float4*>(q + (k - g * G));
        w[k] = v.x; w[k + 1] = v.y; w[k + 2] = v.z; w[k + 3] = v.w;
      } else {
        w[k] = q[k - g * G];
      }
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u)
#pragma unroll
    for (int j = 0; j < OUTS; ++j) acc[j] = fmaf(w[u + j], fc[u], acc[j]);
}

// ZERO_TAIL: the source may be read up to U words past the last input (the shared span is zero
// there), so the last taps % U taps run as one more chunk with the missing taps set to zero.
template <bool ZERO_TAIL, class Src, class Filter>
__device__ __forceinline__ void convolve(float (&acc)[OUTS], Src src, Filter f, int taps) {
  int t = 0;
  for (; t + U <= taps; t += U) {
    float fc[U];
    f.chunk(fc, t);
    chunk(acc, src, fc, t);
  }
  if (ZERO_TAIL) {
    if (t < taps) {
      float fc[U];
#pragma unroll
      for (int u = 0; u < U; ++u) fc[u] = t + u < taps ? f(t + u) : 0.0f;
      chunk(acc, src, fc, t);
    }
  } else {
    for (; t < taps; ++t) {
      float ft = f(t);
#pragma unroll
      for (int j = 0; j < OUTS; ++j) acc[j] = fmaf(src.at(t + j), ft, acc[j]);
    }
  }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
conv1d(float* __restrict__ out, const float* __restrict__ in, const float* __restrict__ filter, int n, int taps) {
  const long long block_first = (long long)blockIdx.x * BLOCK * OUTS;
  const long long first = block_first + (long long)threadIdx.x * OUTS;
  float acc[OUTS];
#pragma unroll
  for (int j = 0; j < OUTS; ++j) acc[j] = 0.0f;

#if VARIANT >= 2
  extern __shared__ __align__(16) float span[];
  const long long in_len = (long long)n + taps - 1;
  const int span_len = BLOCK * OUTS + taps - 1;
  for (int i = threadIdx.x; i < span_len + U; i += BLOCK)  // U zeros past the span for ZERO_TAIL
    span[pad(i)] = i < span_len && block_first + i < in_len ? in[block_first + i] : 0.0f;
#if VARIANT == 3
  float* s_filter = span + ((pad(span_len + U) + 7) & ~3);  // after the span and its 4 spare words
  for (int i = threadIdx.x; i < taps; i += BLOCK) s_filter[i] = filter[i];
#endif
  __syncthreads();
  if (first >= n) return;
#if VARIANT == 3
  convolve<true>(acc, SharedSrc{span, (int)threadIdx.x * OUTS}, SharedFilter{s_filter}, taps);
#else
  convolve<true>(acc, SharedSrc{span, (int)threadIdx.x * OUTS}, ConstFilter{}, taps);
#endif
#else
  if (first >= n) return;
  if (first + OUTS > n) {  // the last run is cut short: no reads past the input
    for (int j = 0; first + j < n; ++j)
      for (int t = 0; t < taps; ++t) acc[j] += in[first + j + t] * (VARIANT == 0 ? filter[t] : c_filter[t]);
  } else {
#if VARIANT == 0
    convolve<false>(acc, GlobalSrc{in + first}, GlobalFilter{filter}, taps);
#else
    convolve<false>(acc, GlobalSrc{in + first}, ConstFilter{}, taps);
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
