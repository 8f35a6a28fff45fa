// Package errs holds the sentinel errors that every lintel package wraps.
//
// The sentinels are re-exported by package compute, which is where users
// name them; they live here so that low-level packages (artifacts, model)
// can wrap them without importing compute.
package errs

import (
	"errors"
	"fmt"
)

// The sentinels. compute re-exports each one under an Err prefix.
var (
	InvalidArtifact     = errors.New("invalid artifact")
	Unsupported         = errors.New("unsupported")
	ShapeMismatch       = errors.New("shape mismatch")
	ExecutionFailed     = errors.New("execution failed")
	ResourceUnavailable = errors.New("resource unavailable")
	NotInitialized      = errors.New("not initialized")
	Closed              = errors.New("closed")
	// TypeMismatch is a ShapeMismatch about element types: errors.Is
	// matches it and ShapeMismatch both.
	TypeMismatch error = &subKind{msg: "element type mismatch", parent: ShapeMismatch}
)

// subKind is a sentinel that refines another: errors.Is matches both.
type subKind struct {
	msg    string
	parent error
}

func (k *subKind) Error() string { return k.msg }

func (k *subKind) Unwrap() error { return k.parent }

// New returns an error that wraps kind with a formatted message:
// "lintel: <kind>: <message>".
func New(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Wrap returns an error that wraps kind and cause with a formatted message.
// errors.Is matches both kind and cause.
func Wrap(kind, cause error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Cause: cause}
}

// Error is a lintel error: a sentinel kind, a message saying what and
// where, and an optional cause.
type Error struct {
	Kind  error
	Msg   string
	Cause error
	// Brief, when set, says what Msg says in one short line, with a
	// shorter where (the node rather than the decoder's whole path), for
	// terse output such as a command's error line. Error never prints it.
	Brief string
}

// Brief returns the short form of err for one line of output: the first
// Brief set in err's chain, else err.Error().
func Brief(err error) string {
	if s := brief(err); s != "" {
		return s
	}
	return err.Error()
}

// brief returns the first Brief set in err's chain, or "".
func brief(err error) string {
	if e, ok := err.(*Error); ok && e.Brief != "" {
		return e.Brief
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if c := u.Unwrap(); c != nil {
			return brief(c)
		}
	case interface{ Unwrap() []error }:
		for _, c := range u.Unwrap() {
			if s := brief(c); s != "" {
				return s
			}
		}
	}
	return ""
}

// Error implements error.
func (e *Error) Error() string {
	s := "lintel: " + e.Kind.Error() + ": " + e.Msg
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// Unwrap returns the kind and the cause, so errors.Is matches either.
func (e *Error) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Kind, e.Cause}
	}
	return []error{e.Kind}
}
