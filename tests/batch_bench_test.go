package tests

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/batch"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

// rowsPerWorker sizes one benchmark op: each worker gets the same load,
// one cycle of the example table's ten kinds of row, so the pool sizes
// compare at equal work per worker.
const rowsPerWorker = 10

// BenchmarkBatch reports rows per second of a whole batch run at three
// pool sizes: with the offline engine (bound by this machine's CPUs) and
// with a model server that takes 200 ms per call (bound by waiting, so
// throughput should grow with the pool).
func BenchmarkBatch(b *testing.B) {
	slow := func(openaitest.Request) openaitest.Fault { return openaitest.Fault{Delay: 200 * time.Millisecond} }
	for _, model := range []string{"offline", "server-200ms"} {
		var a *agent.Agent
		if model == "offline" {
			a = newAgent(b, agent.Options{})
		} else {
			a = newAgent(b, agent.Options{}, remote(engineServerB(b, openaitest.WithFaults(slow))))
		}
		for _, workers := range []int{1, 4, 16} {
			b.Run(fmt.Sprintf("%s/concurrency=%d", model, workers), func(b *testing.B) {
				rows := 0
				start := time.Now()
				for b.Loop() {
					dir := b.TempDir()
					in := filepath.Join(dir, "t.csv")
					require.NoError(b, batch.WriteExample(in, rowsPerWorker*workers))
					sum, err := batch.Run(context.Background(), a, batch.Options{Input: in, Concurrency: workers})
					require.NoError(b, err)
					rows += sum.Done + sum.Failed
				}
				b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
			})
		}
	}
}
