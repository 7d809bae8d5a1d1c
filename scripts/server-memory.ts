// The environment the console's server process starts with, for its memory: npm start and the
// benchmarks use it, and the Dockerfile sets the same.
//
// glibc serves allocations above its mmap threshold with mmap, returned to the system when
// freed; below it, from its heap, which it cannot give back while anything above a freed block
// is still in use. The threshold starts at 128 KiB but rises to the size of every large block
// freed (up to 32 MiB), so after the first large buffers come and go (the embedded store's first
// start, a list of thousands read from the cluster) most of them land in that heap and stay
// resident. A fixed threshold keeps it at 128 KiB. Measured with the embedded store and cluster:
// 400 MiB idle instead of 505–570, and 933 MiB instead of 1,084 with 10,000 sandboxes.
export const SERVER_MEMORY_ENV = { MALLOC_MMAP_THRESHOLD_: "131072" } as const;
