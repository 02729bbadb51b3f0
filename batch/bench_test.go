package batch

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// BenchmarkBatchMemory shows the batch machinery's memory staying flat as
// the input grows ten times: rows are streamed in and out, results go to
// disk as they finish. The handler is a test double answering at once
// with a result of a few kilobytes, so only the batch's own memory counts.
func BenchmarkBatchMemory(b *testing.B) {
	chunk := strings.Repeat("Set the mode with guard.mode in the configuration. ", 20)
	result := contracts.StructuredResult{Action: contracts.ActionNormal, Answer: chunk,
		Plan:    &contracts.SGRPlan{UserIntent: "configure the guard"},
		Verdict: &contracts.Verdict{Verdict: contracts.VerdictPass},
		Articles: []contracts.Article{{KBID: "safety-guard", Title: "The safety guard", Score: 0.8,
			Chunks: []contracts.Chunk{{ID: "safety-guard#1", Text: chunk, Score: 0.8}, {ID: "safety-guard#2", Text: chunk, Score: 0.7}}}}}
	h := handlerFunc(func(_ context.Context, t agent.Turn) (contracts.StructuredResult, error) {
		r := result
		r.SessionID = t.SessionID
		return r, nil
	})
	for _, rows := range []int{1_000, 10_000} {
		for _, ext := range []string{"csv", "xlsx"} {
			b.Run(fmt.Sprintf("%s/rows=%d", ext, rows), func(b *testing.B) {
				in := filepath.Join(b.TempDir(), "t."+ext)
				require.NoError(b, WriteExample(in, rows))
				var peak atomic.Uint64
				stop := sample(&peak)
				for b.Loop() {
					out := filepath.Join(b.TempDir(), "out."+ext)
					sum, err := Run(context.Background(), h, Options{Input: in, Output: out, Concurrency: 4})
					require.NoError(b, err)
					require.Equal(b, rows, sum.Done+sum.Failed)
				}
				stop()
				b.ReportMetric(float64(peak.Load())/(1<<20), "peak-live-heap-MB")
			})
		}
	}
}

// sample records the largest live heap (what the last collection kept,
// garbage left out) until stopped.
func sample(peak *atomic.Uint64) func() {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(live)
			if v := live[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
