package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutput(t *testing.T) {
	var out, timing bytes.Buffer
	require.NoError(t, run(context.Background(), &out, &timing))
	want, err := os.ReadFile("output.txt")
	require.NoError(t, err)
	results := func(s string) string { return s[:strings.LastIndex(s, "wall time:")] }
	assert.Equal(t, results(string(want)), results(out.String()))
	// The speed itself is the benchmark's to measure; here it is enough
	// that the branches overlapped, which one after another they cannot
	// do in under 600 ms.
	var ms int
	_, err = fmt.Sscanf(timing.String(), "wall time: %d ms", &ms)
	require.NoError(t, err)
	assert.Less(t, ms, 600, "the three branches ran one after another")
}

// TestThousandRunsAgree runs the graph 1,000 times at once: every run
// merges the branches the same way, whichever finishes first.
func TestThousandRunsAgree(t *testing.T) {
	ctx := context.Background()
	r, err := build(ctx, 200*time.Millisecond)
	require.NoError(t, err)
	want, err := r.Invoke(ctx, &Report{})
	require.NoError(t, err)
	results := make([]string, 1000)
	errs := make([]error, len(results))
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			out, err := r.Invoke(ctx, &Report{})
			errs[i] = err
			if err == nil {
				results[i] = result(out)
			}
		})
	}
	wg.Wait()
	for i := range results {
		require.NoError(t, errs[i])
		require.Equal(t, result(want), results[i], "run %d", i)
	}
}
