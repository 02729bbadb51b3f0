package graph

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/callbacks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A graph fused into one group runs without eino only when no eino
// callback handler would see the run: given to the run, or global.
func TestDirectRunKeepsEinoCallbacks(t *testing.T) {
	r, err := fanOutGraph().Compile(context.Background())
	require.NoError(t, err)
	require.NotNil(t, r.direct, "the fan-out is one group")
	var starts atomic.Int32
	h := callbacks.NewHandlerBuilder().OnStartFn(func(ctx context.Context, _ *callbacks.RunInfo, _ callbacks.CallbackInput) context.Context {
		starts.Add(1)
		return ctx
	}).Build()

	require.False(t, globalCallbacks())
	_, err = r.Invoke(context.Background(), &state{}, WithCallbacks(h))
	require.NoError(t, err)
	assert.EqualValues(t, 2, starts.Load(), "the graph and its one eino node")

	starts.Store(0)
	callbacks.AppendGlobalHandlers(h)
	defer callbacks.InitCallbackHandlers(nil)
	require.True(t, globalCallbacks())
	_, err = r.Invoke(context.Background(), &state{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, starts.Load(), "a global handler sees the run too")

	callbacks.InitCallbackHandlers(nil)
	assert.False(t, globalCallbacks())
	starts.Store(0)
	out, err := r.Invoke(context.Background(), &state{})
	require.NoError(t, err)
	assert.Len(t, out.Path, 12)
	assert.Zero(t, starts.Load())
}
