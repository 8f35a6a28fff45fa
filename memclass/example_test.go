package memclass_test

import (
	"fmt"

	"github.com/lintel-ml/lintel/memclass"
)

// A consumer states the placements it accepts; a producer checks its
// buffer's class against them.
func ExampleSet() {
	accepts := memclass.SetOf(memclass.Host, memclass.Pinned)
	fmt.Println(accepts.Contains(memclass.Pinned), accepts.Contains(memclass.Device(0)))
	// Output: true false
}
