package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunUsage(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderr   string
		noStdout bool
	}{
		{name: "none", args: nil, code: 2, stderr: "usage: lintel"},
		{name: "help", args: []string{"help"}, code: 0, stdout: "demo"},
		{name: "-h", args: []string{"-h"}, code: 0, stdout: "commands:"},
		{name: "help lists inspect", args: []string{"help"}, code: 0, stdout: "inspect"},
		{name: "help lists bench", args: []string{"help"}, code: 0, stdout: "bench"},
		{name: "run -h", args: []string{"run", "-h"}, code: 0, stderr: "-shape"},
		{name: "bench -h", args: []string{"bench", "-h"}, code: 0, stderr: "-duration"},
		{name: "inspect -h", args: []string{"inspect", "-h"}, code: 0, stderr: "-json"},
		{name: "unknown", args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{name: "demo -h", args: []string{"demo", "-h"}, code: 0, stderr: "-png"},
		{name: "demo bad flag", args: []string{"demo", "-nope"}, code: 2, stderr: "-nope", noStdout: true},
		{name: "demo bad runs", args: []string{"demo", "-runs", "-1"}, code: 2, stderr: "-runs", noStdout: true},
		{name: "demo bad threads", args: []string{"demo", "-threads", "0"}, code: 2, stderr: "-threads", noStdout: true},
		{name: "run bad weights", args: []string{"run", "m.onnx", "-weights", "f64"}, code: 2, stderr: "f32, f16 or bf16", noStdout: true},
		{name: "bench -h weights", args: []string{"bench", "-h"}, code: 0, stderr: "-weights"},
		{name: "demo extra arg", args: []string{"demo", "x"}, code: 2, stderr: "no arguments", noStdout: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(c.args, &stdout, &stderr); code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			if !strings.Contains(stdout.String(), c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, stderr.String())
			}
			if c.noStdout && stdout.Len() > 0 {
				t.Errorf("unexpected stdout:\n%s", stdout.String())
			}
		})
	}
}
