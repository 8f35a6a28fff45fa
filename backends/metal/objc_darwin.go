//go:build metal && darwin

package metal

import (
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/ebitengine/purego/objc"
	"github.com/lintel-ml/lintel/internal/errs"
)

// The Objective-C runtime and Metal entry points, resolved once. Selectors
// are strings the compiler cannot check: each one below is spelled as in
// Apple's Metal headers, and a misspelling shows only at run time, as an
// "unrecognized selector" exception (see docs/adr/0010).
var (
	runtimeOnce sync.Once
	runtimeErr  error

	msgSend        uintptr // objc_msgSend
	poolPush       uintptr // objc_autoreleasePoolPush
	poolPop        uintptr // objc_autoreleasePoolPop
	createDevice   uintptr // MTLCreateSystemDefaultDevice
	classNSString  objc.Class
	classMTLCompOp objc.Class

	selName, selUTF8String, selStringWithUTF8, selLocalizedDescription objc.SEL
	selNew, selRelease, selSetFastMath                                 objc.SEL
	selNewQueue, selNewLibrary, selNewFunction, selNewPipeline         objc.SEL
	selMaxThreads, selNewBuffer, selNewBufferNoCopy, selContents       objc.SEL
	selCommandBuffer, selComputeEncoder, selSetPipeline, selSetBytes   objc.SEL
	selSetBuffer, selDispatch, selEndEncoding, selCommit, selWait      objc.SEL
	selStatus, selError                                                objc.SEL
)

// Framework paths. CoreGraphics is loaded for its side effect: without it,
// MTLCreateSystemDefaultDevice returns nil in a process with no window
// server connection.
const (
	libobjcPath      = "/usr/lib/libobjc.A.dylib"
	metalPath        = "/System/Library/Frameworks/Metal.framework/Metal"
	coreGraphicsPath = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"
)

// MTLCommandBufferStatus values.
const (
	statusCompleted = 4
	statusError     = 5
)

// loadRuntime resolves the runtime's functions and the selectors.
func loadRuntime() error {
	runtimeOnce.Do(func() {
		lib, err := purego.Dlopen(libobjcPath, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			runtimeErr = errs.Wrap(errs.ResourceUnavailable, err, "metal: loading %s", libobjcPath)
			return
		}
		mtl, err := purego.Dlopen(metalPath, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			runtimeErr = errs.Wrap(errs.ResourceUnavailable, err, "metal: loading %s", metalPath)
			return
		}
		_, _ = purego.Dlopen(coreGraphicsPath, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		for _, s := range []struct {
			h    uintptr
			name string
			p    *uintptr
		}{
			{lib, "objc_msgSend", &msgSend},
			{lib, "objc_autoreleasePoolPush", &poolPush},
			{lib, "objc_autoreleasePoolPop", &poolPop},
			{mtl, "MTLCreateSystemDefaultDevice", &createDevice},
		} {
			if *s.p, err = purego.Dlsym(s.h, s.name); err != nil {
				runtimeErr = errs.Wrap(errs.ResourceUnavailable, err, "metal: resolving %s", s.name)
				return
			}
		}
		classNSString = objc.GetClass("NSString")
		classMTLCompOp = objc.GetClass("MTLCompileOptions")
		if classNSString == 0 || classMTLCompOp == 0 {
			runtimeErr = errs.New(errs.ResourceUnavailable, "metal: the NSString or MTLCompileOptions class is missing")
			return
		}
		for _, s := range []struct {
			p    *objc.SEL
			name string
		}{
			{&selName, "name"},
			{&selUTF8String, "UTF8String"},
			{&selStringWithUTF8, "stringWithUTF8String:"},
			{&selLocalizedDescription, "localizedDescription"},
			{&selNew, "new"},
			{&selRelease, "release"},
			{&selSetFastMath, "setFastMathEnabled:"},
			{&selNewQueue, "newCommandQueue"},
			{&selNewLibrary, "newLibraryWithSource:options:error:"},
			{&selNewFunction, "newFunctionWithName:"},
			{&selNewPipeline, "newComputePipelineStateWithFunction:error:"},
			{&selMaxThreads, "maxTotalThreadsPerThreadgroup"},
			{&selNewBuffer, "newBufferWithLength:options:"},
			{&selNewBufferNoCopy, "newBufferWithBytesNoCopy:length:options:deallocator:"},
			{&selContents, "contents"},
			{&selCommandBuffer, "commandBuffer"},
			{&selComputeEncoder, "computeCommandEncoder"},
			{&selSetPipeline, "setComputePipelineState:"},
			{&selSetBytes, "setBytes:length:atIndex:"},
			{&selSetBuffer, "setBuffer:offset:atIndex:"},
			{&selDispatch, "dispatchThreadgroups:threadsPerThreadgroup:"},
			{&selEndEncoding, "endEncoding"},
			{&selCommit, "commit"},
			{&selWait, "waitUntilCompleted"},
			{&selStatus, "status"},
			{&selError, "error"},
		} {
			*s.p = objc.RegisterName(s.name)
		}
	})
	return runtimeErr
}

// caller makes C calls with integer and pointer arguments only: the hot
// path's calls, without reflection or boxing. SyscallN's arguments escape
// (it is go:uintptrescapes), so they are staged in argv, which lives on
// the heap once, rather than in a fresh slice per call.
type caller struct {
	argv [12]uintptr
}

// call calls the C function fn.
func (c *caller) call(fn uintptr, args ...uintptr) uintptr {
	n := copy(c.argv[:], args)
	r, _, _ := purego.SyscallN(fn, c.argv[:n]...)
	return r
}

// send calls objc_msgSend: it sends sel to id.
func (c *caller) send(id uintptr, sel objc.SEL, args ...uintptr) uintptr {
	c.argv[0], c.argv[1] = id, uintptr(sel)
	n := 2 + copy(c.argv[2:], args)
	r, _, _ := purego.SyscallN(msgSend, c.argv[:n]...)
	return r
}

// nsString returns an autoreleased NSString holding s.
func nsString(s string) uintptr {
	return uintptr(objc.ID(classNSString).Send(selStringWithUTF8, s))
}

// goString returns an NSString's contents.
func goString(ns uintptr) string {
	if ns == 0 {
		return ""
	}
	return objc.Send[string](objc.ID(ns), selUTF8String)
}

// errorText returns an NSError's localized description.
func errorText(nserr uintptr) string {
	if nserr == 0 {
		return "no error description"
	}
	return goString(uintptr(objc.ID(nserr).Send(selLocalizedDescription)))
}

// bytesAt views n bytes at a pointer the framework returned.
func bytesAt(p uintptr, n int) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}
