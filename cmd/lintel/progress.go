package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressBar draws a one-line bar on a terminal, redrawing it in place
// with a carriage return at most every interval. It is driven by the
// loop it measures (no goroutine), so nothing runs while allocations are
// counted.
type progressBar struct {
	w        io.Writer
	width    int
	interval time.Duration
	last     time.Time
	drawn    bool
}

// newProgressBar returns a bar writing to w, or nil (a no-op bar) when
// show is false.
func newProgressBar(w io.Writer, show bool) *progressBar {
	if !show {
		return nil
	}
	return &progressBar{w: w, width: 30, interval: 100 * time.Millisecond}
}

// update redraws the bar at fraction done of the whole, with a label,
// unless it was drawn less than an interval ago.
func (p *progressBar) update(done float64, label string) {
	if p == nil {
		return
	}
	now := time.Now()
	if p.drawn && now.Sub(p.last) < p.interval {
		return
	}
	p.last, p.drawn = now, true
	done = min(max(done, 0), 1)
	full := int(done * float64(p.width))
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%% %s\x1b[K", strings.Repeat("=", full), strings.Repeat(" ", p.width-full), done*100, label)
}

// finish clears the bar's line.
func (p *progressBar) finish() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	p.drawn = false
}

// isTerminal reports whether w is a character device, such as a
// terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
