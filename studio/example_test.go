package studio_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/studio"
)

// counter is the state of the example's graph.
type counter struct {
	N     int      `json:"n"`
	Steps []string `json:"steps" reduce:"append"`
}

// A graph of your own, in the studio: compile it with a checkpointer and
// give the studio the same store; mount the handler at /studio and
// /studio/ (behind your authentication) and open /studio in a browser.
func ExampleNew() {
	store := checkpoint.NewMemory()
	defer store.Close()
	step := func(name string) graph.NodeFunc[*counter] {
		return func(_ context.Context, s *counter) (*counter, error) {
			s.N++
			s.Steps = append(s.Steps, name)
			return s, nil
		}
	}
	g, err := graph.New[*counter]("count").
		AddNode("one", step("one")).AddNode("two", step("two")).
		AddEdge(graph.START, "one").AddEdge("one", "two").AddEdge("two", graph.END).
		Compile(context.Background(), graph.WithCheckpointer(store))
	if err != nil {
		panic(err)
	}
	h, err := studio.New(g, store, studio.Options[*counter]{})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/studio", h)
	mux.Handle("/studio/", h)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	res, err := http.Get(ts.URL + "/studio/api/graph")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	var info struct {
		Name  string
		Nodes []struct{ Path string }
	}
	if err := json.NewDecoder(res.Body).Decode(&info); err != nil {
		panic(err)
	}
	fmt.Println(info.Name)
	for _, n := range info.Nodes {
		fmt.Print(n.Path, " ")
	}
	fmt.Println()
	// Output:
	// count
	// START one two END
}
