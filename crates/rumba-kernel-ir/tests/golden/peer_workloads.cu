extern "C" __global__ void vadd(rumba_array<float, 1> a, rumba_array<float, 1> b, rumba_array<float, 1> c, rumba_fault* rb_fault) {
    unsigned long long i = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x);
    if ((i < ((unsigned long long)c.shape[0]))) {
        rb_st(c, i, (rb_ld(a, i, RB_AT(0)) + rb_ld(b, i, RB_AT(1))), RB_AT(2));
    }
}

extern "C" __global__ void matmul_shared(rumba_array<float, 2> a, rumba_array<float, 2> b, rumba_array<float, 2> c, rumba_fault* rb_fault) {
    __shared__ float sa_mem[TPB * TPB];
    __shared__ float sb_mem[TPB * TPB];
    rumba_array<float, 2> sa = rb_fixed<float>(sa_mem, TPB, TPB);
    rumba_array<float, 2> sb = rb_fixed<float>(sb_mem, TPB, TPB);
    unsigned long long x = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x);
    unsigned long long y = ((unsigned long long)blockIdx.y * blockDim.y + threadIdx.y);
    unsigned long long tx = ((unsigned long long)threadIdx.x);
    unsigned long long ty = ((unsigned long long)threadIdx.y);
    unsigned long long n = ((unsigned long long)c.shape[0]);
    float acc = 0.0f;
    for (unsigned long long tile = 0ull, rb_end1 = ((unsigned long long)gridDim.x); tile < rb_end1; tile++) {
        rb_st(sa, ty, tx, (((y < n) && ((tx + (tile * TPB)) < n)) ? rb_ld(a, y, (tx + (tile * TPB)), RB_AT(0)) : 0.0f), RB_AT(1));
        rb_st(sb, ty, tx, (((x < n) && ((ty + (tile * TPB)) < n)) ? rb_ld(b, (ty + (tile * TPB)), x, RB_AT(2)) : 0.0f), RB_AT(3));
        __syncthreads();
        for (unsigned long long j = 0ull, rb_end2 = TPB; j < rb_end2; j++) {
            acc = (acc + (rb_ld(sa, ty, j, RB_AT(4)) * rb_ld(sb, j, tx, RB_AT(5))));
        }
        __syncthreads();
    }
    if (((y < n) && (x < n))) {
        rb_st(c, y, x, acc, RB_AT(6));
    }
}

extern "C" __global__ void reduce_shared(rumba_array<float, 1> x, rumba_array<float, 1> partial, rumba_fault* rb_fault) {
    __shared__ float s_mem[256];
    rumba_array<float, 1> s = rb_fixed<float>(s_mem, 256);
    unsigned long long tid = ((unsigned long long)threadIdx.x);
    unsigned long long i = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x);
    rb_st(s, tid, ((i < ((unsigned long long)x.shape[0])) ? rb_ld(x, i, RB_AT(0)) : 0.0f), RB_AT(1));
    __syncthreads();
    unsigned long long stride = 128ull;
    while ((stride > 0ull)) {
        if ((tid < stride)) {
            {
                unsigned long long rb_i1 = tid;
                float rb_v2 = rb_ld(s, (tid + stride), RB_AT(2));
                rb_st(s, rb_i1, (rb_ld(s, rb_i1, RB_AT(3)) + rb_v2), RB_AT(3));
            }
        }
        __syncthreads();
        stride = rb_div(stride, 2ull, RB_AT(4));
    }
    if ((tid == 0ull)) {
        rb_st(partial, ((unsigned long long)blockIdx.x), rb_ld(s, 0ull, RB_AT(5)), RB_AT(6));
    }
}

