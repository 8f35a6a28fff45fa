//go:build cuda && cgo

// The host simulation of kernels.cu: the kernels compiled as plain C++
// (the host flavour of cudart_compat.h; both included from the copies go
// generate writes into this directory) and a launcher that runs a grid the
// way the GPU would, block after block, each block's threads as real
// threads so that __syncthreads() is a real barrier.
#define LINTEL_CUDA_HOST 1

#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cudart_compat.h"
#include "sim.h"

thread_local lt_dim3 lt_thread_idx;
thread_local lt_dim3 lt_block_idx;
lt_dim3 lt_block_dim;
lt_dim3 lt_grid_dim;

namespace {

// barrier is a reusable barrier whose party can shrink: a thread that
// returns from the kernel early leaves the block's barrier, as an exited
// thread no longer holds back bar.sync on the GPU.
struct barrier {
    std::mutex mu;
    std::condition_variable cv;
    int expected = 0;
    int waiting = 0;
    unsigned long gen = 0;

    void reset(int n) {
        expected = n;
        waiting = 0;
    }

    // release wakes the waiters; mu is held.
    void release() {
        waiting = 0;
        gen++;
        cv.notify_all();
    }

    template <typename F>
    void wait(F last) {
        std::unique_lock<std::mutex> l(mu);
        unsigned long g = gen;
        if (++waiting == expected) {
            last();
            release();
            return;
        }
        cv.wait(l, [&] { return gen != g; });
    }

    void leave() {
        std::lock_guard<std::mutex> l(mu);
        expected--;
        if (waiting > 0 && waiting == expected) {
            release();
        }
    }
};

barrier block_sync; // __syncthreads within a block
barrier block_end;  // every thread done with a block
std::mutex launch_mu;

} // namespace

void lt_host_sync() {
    block_sync.wait([] {});
}

#include "kernels_cu.h"

namespace {

constexpr size_t align_up(size_t off, size_t a) { return (off + a - 1) / a * a; }

// param_size is the size of a kernel's packed parameter buffer: each
// parameter at its natural alignment, as cuLaunchKernel's
// CU_LAUNCH_PARAM_BUFFER_POINTER expects.
template <typename... P>
constexpr size_t param_size() {
    size_t off = 0;
    ((off = align_up(off, alignof(std::remove_cv_t<P>)) + sizeof(std::remove_cv_t<P>)), ...);
    return off;
}

template <typename T>
T take(const unsigned char* params, size_t* off) {
    T v;
    *off = align_up(*off, alignof(T));
    std::memcpy(&v, params + *off, sizeof(T));
    *off += sizeof(T);
    return v;
}

struct entry {
    const char* name;
    size_t params;
    void (*run)(const unsigned char* params, unsigned int nthreads);
};

// run_grid runs kernel f over the launch geometry set in lt_grid_dim and
// lt_block_dim, with the parameters decoded from params.
template <typename... P>
void run_grid(void (*f)(P...), const unsigned char* params, unsigned int nthreads) {
    size_t off = 0;
    std::tuple<std::remove_cv_t<P>...> args{take<std::remove_cv_t<P>>(params, &off)...};
    std::vector<std::thread> threads;
    threads.reserve(nthreads);
    lt_dim3 bd = lt_block_dim;
    lt_dim3 gd = lt_grid_dim;
    int n = int(nthreads);
    block_sync.reset(n);
    block_end.reset(n);
    for (unsigned int t = 0; t < nthreads; t++) {
        threads.emplace_back([&, t] {
            lt_thread_idx = lt_dim3{t % bd.x, (t / bd.x) % bd.y, t / (bd.x * bd.y)};
            for (unsigned int bz = 0; bz < gd.z; bz++) {
                for (unsigned int by = 0; by < gd.y; by++) {
                    for (unsigned int bx = 0; bx < gd.x; bx++) {
                        lt_block_idx = lt_dim3{bx, by, bz};
                        std::apply(f, args);
                        block_sync.leave();
                        block_end.wait([n] { block_sync.reset(n); });
                    }
                }
            }
        });
    }
    for (auto& th : threads) {
        th.join();
    }
}

#define LT_ENTRY(k) \
    entry { #k, param_size_of(k), [](const unsigned char* p, unsigned int n) { run_grid(k, p, n); } }

template <typename... P>
constexpr size_t param_size_of(void (*)(P...)) {
    return param_size<P...>();
}

const entry entries[] = {
    LT_ENTRY(unary_f32),
    LT_ENTRY(not_u8),
    LT_ENTRY(binary_f32),
    LT_ENTRY(compare_f32),
    LT_ENTRY(where_f32),
    LT_ENTRY(copy_b32),
    LT_ENTRY(copy_b64),
    LT_ENTRY(copy_b8),
    LT_ENTRY(cast_any),
    LT_ENTRY(gemm_f32),
    LT_ENTRY(softmax_f32),
    LT_ENTRY(layernorm_f32),
    LT_ENTRY(reduce_f32),
    LT_ENTRY(argmax_f32),
    LT_ENTRY(gather_f32),
    LT_ENTRY(conv2d_f32),
    LT_ENTRY(pool2d_f32),
    LT_ENTRY(batchnorm_f32),
    LT_ENTRY(resize_f32),
    LT_ENTRY(im2col_f32),
    LT_ENTRY(pad_f32),
    LT_ENTRY(convtranspose2d_f32),
};

const entry* find(const char* name) {
    for (const entry& e : entries) {
        if (std::strcmp(e.name, name) == 0) {
            return &e;
        }
    }
    return nullptr;
}

} // namespace

extern "C" int lt_sim_kernels(void) { return int(sizeof entries / sizeof entries[0]); }

extern "C" const char* lt_sim_kernel_name(int i) {
    if (i < 0 || i >= lt_sim_kernels()) {
        return nullptr;
    }
    return entries[i].name;
}

extern "C" long lt_sim_param_size(const char* name) {
    const entry* e = find(name);
    return e == nullptr ? -1 : long(e->params);
}

extern "C" int lt_sim_launch(const char* name, const unsigned int* grid, const unsigned int* block,
                             const unsigned char* params, size_t nparams) {
    const entry* e = find(name);
    if (e == nullptr) {
        return LT_SIM_NO_KERNEL;
    }
    if (nparams != e->params) {
        return LT_SIM_BAD_PARAMS;
    }
    unsigned long long threads = 1;
    for (int i = 0; i < 3; i++) {
        if (grid[i] == 0 || block[i] == 0) {
            return LT_SIM_BAD_GEOMETRY;
        }
        threads *= block[i];
    }
    if (threads > 1024) {
        return LT_SIM_BAD_GEOMETRY;
    }
    std::lock_guard<std::mutex> l(launch_mu);
    lt_grid_dim = lt_dim3{grid[0], grid[1], grid[2]};
    lt_block_dim = lt_dim3{block[0], block[1], block[2]};
    e->run(params, (unsigned int)threads);
    return LT_SIM_OK;
}
