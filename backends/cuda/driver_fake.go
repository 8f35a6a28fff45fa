//go:build cuda && cgo

package cuda

/*
#include "shim.h"
*/
import "C"

import "sync"

// The stand-in driver (shim_fake.c) lets tests run the Go and C paths of
// programs, run and error handling on machines without a GPU. It is
// installed only when the real driver cannot be loaded.

var (
	fakeOnce      sync.Once
	fakeInstalled bool
)

// useFakeDriver installs the stand-in driver unless libcuda loads; it
// reports whether the stand-in is in use.
func useFakeDriver() bool {
	fakeOnce.Do(func() {
		if loadDriver() != nil {
			C.lt_fake_install()
			fakeInstalled = true
		}
	})
	return fakeInstalled
}

// fakeGPU returns a gpu over the stand-in driver.
func fakeGPU() *gpu { return &gpu{ctx: 1, devName: "stand-in"} }

// fakeBlas returns a cuBLAS handle on s over the stand-in driver.
func fakeBlas(g *gpu, s *stream) *blas { return &blas{g: g, s: s, h: 1} }

// fakeFail makes the shim operation named op fail with code from now on
// ("" for none). It reports whether op names an operation.
func fakeFail(op string, code int) bool {
	if op == "" {
		C.lt_fake_fail(0, 0)
		return true
	}
	for i := 1; i < opCount; i++ {
		if opName(i) == op {
			C.lt_fake_fail(C.int(i), C.int(code))
			return true
		}
	}
	return false
}
