package cachestore_test

import (
	"testing"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/graph/cachestore/cachetest"
)

// The memory cache passes the suite the stores outside the process pass,
// but for their limits and contexts: it has no call to bound.
func TestMemoryCacheConformance(t *testing.T) {
	cachetest.Run(t, func(_ *testing.T, maxEntries int) graph.CacheStore { return graph.NewMemoryCache(maxEntries) })
}
