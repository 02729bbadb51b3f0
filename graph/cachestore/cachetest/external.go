package cachetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph/cachestore"
)

// RunExternal runs Run and the subtests of a store outside the process:
// the limits of graph/cachestore, and calls that honour their context.
func RunExternal(t *testing.T, open Open) {
	Run(t, open)
	t.Run("limits", func(t *testing.T) { testLimits(t, open) })
	t.Run("every call honours its context", func(t *testing.T) { testContext(t, open) })
}

func testLimits(t *testing.T, open Open) {
	s := open(t, 0)
	atLimit := strings.Repeat("k", cachestore.MaxKeyBytes)
	set(t, s, atLimit, "v", 0)
	has(t, s, atLimit, "v")
	long := atLimit + "k"
	for name, err := range map[string]error{
		"set long key":  s.Set(ctx(t), long, []byte("v"), 0),
		"set empty key": s.Set(ctx(t), "", []byte("v"), 0),
		"set big value": s.Set(ctx(t), "big", make([]byte, cachestore.MaxValueBytes+1), 0),
		"negative ttl":  s.Set(ctx(t), "neg", []byte("v"), -time.Second),
		"get long key":  getErr(t, s.Get, long),
		"get empty key": getErr(t, s.Get, ""),
	} {
		require.Error(t, err, name)
		assert.Regexp(t, `(key is|value is|ttl must)`, err.Error(), name)
	}
	assert.ErrorContains(t, s.Set(ctx(t), long, nil, 0), "over the limit of 2048")
	missing(t, s, "big")
	missing(t, s, "neg")
}

func getErr(t *testing.T, get func(context.Context, string) ([]byte, bool, error), key string) error {
	_, ok, err := get(ctx(t), key)
	assert.False(t, ok)
	return err
}

func testContext(t *testing.T, open Open) {
	s := open(t, 0)
	set(t, s, "k", "v", 0)
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	expired, stop := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer stop()
	for _, c := range []struct {
		ctx  context.Context
		want error
	}{{canceled, context.Canceled}, {expired, context.DeadlineExceeded}} {
		_, ok, err := s.Get(c.ctx, "k")
		assert.False(t, ok)
		assert.ErrorIs(t, err, c.want, "get")
		assert.ErrorContains(t, err, "get:")
		err = s.Set(c.ctx, "new", []byte("v"), 0)
		assert.ErrorIs(t, err, c.want, "set")
		assert.ErrorContains(t, err, "set:")
	}
	missing(t, s, "new")
}
