package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/lintel-ml/lintel/compute"
)

// opRow is one line of a profile table: an op type's or a node's time.
type opRow struct {
	Node   string  `json:"node,omitempty"`
	Op     string  `json:"op"`
	TimeNs int64   `json:"time_ns"`
	Share  float64 `json:"share"` // of the nodes' total time, 0..1
	Calls  int64   `json:"calls"` // runs of the node (or of every node of the op type)
	GFLOPS float64 `json:"gflops,omitempty"`
}

// profileReport is a batch size's profile: per op type and per node,
// each sorted by time, most first.
type profileReport struct {
	GraphCalls int64   `json:"graph_calls"`
	ByOp       []opRow `json:"by_op"`
	ByNode     []opRow `json:"by_node"`
}

// summarizeProfile turns a profile into tables.
func summarizeProfile(p compute.Profile) *profileReport {
	r := &profileReport{GraphCalls: p.Calls}
	var total time.Duration
	for _, n := range p.Nodes {
		total += n.Total
	}
	share := func(d time.Duration) float64 {
		if total <= 0 {
			return 0
		}
		return float64(d) / float64(total)
	}
	gflops := func(f int64, d time.Duration) float64 {
		if f == 0 || d <= 0 {
			return 0
		}
		return float64(f) / d.Seconds() / 1e9
	}
	type agg struct {
		t     time.Duration
		calls int64
		flops int64
	}
	byOp := map[string]*agg{}
	for _, n := range p.Nodes {
		a := byOp[n.Op]
		if a == nil {
			a = &agg{}
			byOp[n.Op] = a
		}
		a.t += n.Total
		a.calls += n.Calls
		a.flops += n.FLOPs
		r.ByNode = append(r.ByNode, opRow{Node: n.Node, Op: n.Op, TimeNs: int64(n.Total), Share: share(n.Total), Calls: n.Calls, GFLOPS: gflops(n.FLOPs, n.Total)})
	}
	for op, a := range byOp {
		r.ByOp = append(r.ByOp, opRow{Op: op, TimeNs: int64(a.t), Share: share(a.t), Calls: a.calls, GFLOPS: gflops(a.flops, a.t)})
	}
	byTime := func(rows []opRow) {
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].TimeNs != rows[j].TimeNs {
				return rows[i].TimeNs > rows[j].TimeNs
			}
			return rows[i].Node+rows[i].Op < rows[j].Node+rows[j].Op
		})
	}
	byTime(r.ByOp)
	byTime(r.ByNode)
	return r
}

// maxNodeRows bounds the per-node table printed; -json has every node.
const maxNodeRows = 30

// printProfile writes a profile's tables. Times are totals over the
// profiled graph runs; per run is time divided by runs.
func printProfile(w io.Writer, batch int, p *profileReport) {
	fmt.Fprintf(w, "\nprofile, batch %d: %d graph runs; time is the total over them\n", batch, p.GraphCalls)
	fmt.Fprintf(w, "%-28s %10s %6s %8s %10s %8s\n", "op type", "time", "share", "runs", "per run", "GFLOPS")
	for _, r := range p.ByOp {
		printRow(w, r.Op, r)
	}
	fmt.Fprintf(w, "\n%-28s %10s %6s %8s %10s %8s  %s\n", "node", "time", "share", "runs", "per run", "GFLOPS", "op")
	for i, r := range p.ByNode {
		if i == maxNodeRows {
			fmt.Fprintf(w, "… %d more nodes (-json lists them all)\n", len(p.ByNode)-maxNodeRows)
			break
		}
		printRow(w, r.Node, r)
	}
}

func printRow(w io.Writer, name string, r opRow) {
	if len(name) > 28 {
		name = name[:27] + "…"
	}
	per := time.Duration(0)
	if r.Calls > 0 {
		per = time.Duration(r.TimeNs / r.Calls)
	}
	g := ""
	if r.GFLOPS > 0 {
		g = fmt.Sprintf("%.1f", r.GFLOPS)
	}
	fmt.Fprintf(w, "%-28s %10v %5.1f%% %8d %10v %8s", name, round(time.Duration(r.TimeNs)), 100*r.Share, r.Calls, round(per), g)
	if r.Node != "" {
		fmt.Fprintf(w, "  %s", r.Op)
	}
	fmt.Fprintln(w)
}

// traceEvent is one event of the Chrome trace-event format, which
// Perfetto and the Performance panel of Chromium's DevTools open.
type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`            // µs
	Dur  float64        `json:"dur,omitempty"` // µs
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// traceRun is one profiled run to put in a trace file: its label and
// what it recorded.
type traceRun struct {
	label string
	p     compute.Profile
}

// writeTrace writes runs as a Chrome trace-event JSON file: a process per
// run, and one complete event per node run, named for the node, with its
// op type as category and its graph run's number as an argument.
func writeTrace(w io.Writer, runs []traceRun) error {
	var evs []traceEvent
	for pid, r := range runs {
		pid++
		evs = append(evs, traceEvent{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": r.label}})
		for _, e := range r.p.Events {
			n := r.p.Nodes[e.Node]
			evs = append(evs, traceEvent{
				Name: n.Node, Cat: n.Op, Ph: "X", Pid: pid, Tid: 1,
				Ts: float64(e.Start) / 1e3, Dur: float64(e.Dur) / 1e3,
				Args: map[string]any{"op": n.Op, "graph_run": e.Call},
			})
		}
		if r.p.Dropped > 0 {
			evs = append(evs, traceEvent{Name: "process_labels", Ph: "M", Pid: pid,
				Args: map[string]any{"labels": fmt.Sprintf("%d later node runs not recorded", r.p.Dropped)}})
		}
	}
	enc := json.NewEncoder(w)
	return enc.Encode(struct {
		TraceEvents     []traceEvent `json:"traceEvents"`
		DisplayTimeUnit string       `json:"displayTimeUnit"`
	}{evs, "ns"})
}
