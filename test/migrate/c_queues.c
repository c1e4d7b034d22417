// A C file whose loops run on OpenACC's async queues (the training's
// image filter): the migrated file declares its queues before its first
// declaration, and when that is a function other files call, before the
// `extern "C"` that function gets (the two once made `extern "C" static
// dp::queue &dp_async_queue(...)`, which no compiler takes).
// REWRITE:      static dp::queue &dp_async_queue(long long number = -1) {
// REWRITE:      extern "C" void blur(const float *in, float *out, long n) {

void blur(const float *in, float *out, long n) {
#pragma acc parallel loop copyin(in[0:n]) copyout(out[0:n]) async(1)
  for (long i = 0; i < n; i++)
    out[i] = 0.5f * in[i];
// DIAG: c_queues.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma acc wait(1)
}
// SUMMARY: migrated 1 of 1 loop (0 refused)
