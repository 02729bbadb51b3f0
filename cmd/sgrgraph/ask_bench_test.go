package main

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// BenchmarkAskProcess is `sgrgraph ask` as a person at a terminal runs it:
// a new process each time, offline, with the embedded documentation whose
// index an earlier run left in the cache. ns/op is the mean; p50-ms the
// median, which a slow first run or a busy moment does not move.
func BenchmarkAskProcess(b *testing.B) {
	bin := servers.Sgrgraph(b)
	cache := filepath.Join(b.TempDir(), "cache")
	ask := func() {
		out, err := exec.Command(bin, "ask", "--cache-dir", cache, "How do I set the guard mode?").CombinedOutput()
		if err != nil {
			b.Fatalf("sgrgraph ask: %v\n%s", err, out)
		}
	}
	ask() // builds the index once, as a first run does
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		ask()
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}
