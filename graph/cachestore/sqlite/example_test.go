package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/graph/cachestore/sqlite"
)

type Quote struct {
	Item  string `json:"item"`
	Price int    `json:"price,omitempty"`
}

// A node's cache in a file outlives the Runnable: a second one, as a
// restarted program would build it, takes the price from the file.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "cache")
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(filepath.Join(dir, "cache.db"), 10_000)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	calls := 0
	price := func(_ context.Context, q *Quote) (*Quote, error) { calls++; q.Price = 42; return q, nil }
	byItem := graph.CachePolicy[*Quote]{Key: func(q *Quote) string { return q.Item }, TTL: time.Hour}
	for range 2 { // two runs of the program
		r, err := graph.New[*Quote]("quote").
			AddNode("price", price, graph.WithCache(byItem)).
			AddEdge(graph.START, "price").AddEdge("price", graph.END).
			Compile(ctx, graph.WithCacheStore(store))
		if err != nil {
			fmt.Println(err)
			return
		}
		q, err := r.Invoke(ctx, &Quote{Item: "tea"})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(q.Item, q.Price)
	}
	fmt.Println("priced", calls, "time(s)")
	// Output:
	// tea 42
	// tea 42
	// priced 1 time(s)
}
