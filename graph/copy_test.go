package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bare is a user's state with no Clone method: the framework copies it.
type bare struct {
	Count int            `reduce:"sum"`
	Path  []string       `reduce:"append"`
	Seen  map[string]int `reduce:"union"`
	Note  *note
}

type note struct{ N int }

func newBare() *bare { return &bare{Seen: map[string]int{}, Note: &note{}} }

// retried runs a one-node graph whose node changes the state it is given
// and fails until attempt 3.
func retried[S any](t *testing.T, in S, touch func(context.Context, S) S, opts ...NodeOption) S {
	t.Helper()
	fn := func(ctx context.Context, s S) (S, error) {
		s = touch(ctx, s)
		if Attempt(ctx) < 3 {
			return s, errors.New("flaky")
		}
		return s, nil
	}
	opts = append(opts, WithRetry(RetryPolicy{MaxAttempts: 3, InitialInterval: time.Millisecond}))
	r, err := New[S]("retry").AddNode("n", fn, opts...).AddEdge(START, "n").AddEdge("n", END).Compile(context.Background())
	require.NoError(t, err)
	out, err := r.Invoke(context.Background(), in)
	require.NoError(t, err)
	return out
}

// TestEachAttemptStartsOnAFreshCopy: a failed attempt's changes must not
// reach the next one, whether the state has Clone or not; before, a state
// without Clone carried them over (the counter ended at 3).
func TestEachAttemptStartsOnAFreshCopy(t *testing.T) {
	touchBare := func(ctx context.Context, s *bare) *bare {
		s.Count++
		s.Path = append(s.Path, fmt.Sprint(Attempt(ctx)))
		s.Seen[fmt.Sprint(Attempt(ctx))]++
		s.Note.N++
		return s
	}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T) (count int, path []string, seen, note int)
	}{
		{"a state with Clone", func(t *testing.T) (int, []string, int, int) {
			out := retried(t, &state{}, func(ctx context.Context, s *state) *state {
				s.Count++
				s.Path = append(s.Path, fmt.Sprint(Attempt(ctx)))
				return s
			})
			return out.Count, out.Path, 1, 1
		}},
		{"a pointer state without Clone", func(t *testing.T) (int, []string, int, int) {
			in := newBare()
			out := retried(t, in, touchBare)
			assert.Equal(t, newBare(), in, "the caller's state is left as it was")
			return out.Count, out.Path, len(out.Seen), out.Note.N
		}},
		{"a value state without Clone", func(t *testing.T) (int, []string, int, int) {
			in := *newBare()
			out := retried(t, in, func(ctx context.Context, s bare) bare { return *touchBare(ctx, &s) })
			assert.Equal(t, *newBare(), in, "the caller's map and pointer are left as they were")
			return out.Count, out.Path, len(out.Seen), out.Note.N
		}},
		{"an attempt a timeout left behind", func(t *testing.T) (int, []string, int, int) {
			// Attempts 1 and 2 outlive their timeout and write after it:
			// to their own copies, which -race checks.
			out := retried(t, newBare(), func(ctx context.Context, s *bare) *bare {
				if Attempt(ctx) < 3 {
					<-ctx.Done()
					time.Sleep(5 * time.Millisecond)
				}
				return touchBare(ctx, s)
			}, WithTimeout(20*time.Millisecond))
			time.Sleep(20 * time.Millisecond) // the late writers write while the test reads
			return out.Count, out.Path, len(out.Seen), out.Note.N
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			count, path, seen, n := tc.run(t)
			assert.Equal(t, 1, count, "the counter of the third attempt")
			assert.Equal(t, []string{"3"}, path)
			assert.Equal(t, 1, seen, "a map the attempts wrote to")
			assert.Equal(t, 1, n, "a value behind a pointer")
		})
	}
}

// TestBranchesAndSendsStartOnCopies: without Clone, each branch and each
// Send gets a copy of its own (before, Compile refused such a state).
func TestBranchesAndSendsStartOnCopies(t *testing.T) {
	touch := func(name string) NodeFunc[*bare] {
		return func(_ context.Context, s *bare) (*bare, error) {
			s.Count++
			s.Path = append(s.Path, name)
			s.Seen[name] = s.Note.N
			s.Note.N++ // each branch finds 0: nobody else's copy
			return s, nil
		}
	}
	same := func(_ context.Context, s *bare) ([]Send[*bare], error) {
		return []Send[*bare]{{Key: "w", State: s}, {Key: "w", State: s}, {Key: "w", State: s}}, nil
	}
	keys := func(context.Context, *bare) ([]string, error) { return []string{"b", "c"}, nil }
	for _, tc := range []struct {
		name  string
		graph *StateGraph[*bare]
		path  []string
		count int
	}{
		{"edges", New[*bare]("edges").AddNode("a", touch("a")).AddNode("b", touch("b")).AddNode("c", touch("c")).AddNode("j", touch("j")).
			AddEdge(START, "a").AddEdge("a", "b").AddEdge("a", "c").AddEdge("b", "j").AddEdge("c", "j").AddEdge("j", END),
			[]string{"a", "b", "c", "j"}, 4},
		{"keys", New[*bare]("keys").AddNode("a", touch("a")).AddNode("b", touch("b")).AddNode("c", touch("c")).AddNode("j", touch("j")).
			AddEdge(START, "a").AddConditionalEdges("a", ByKeys(keys), map[string]string{"b": "b", "c": "c"}).
			AddEdge("b", "j").AddEdge("c", "j").AddEdge("j", END),
			[]string{"a", "b", "c", "j"}, 4},
		{"one state sent three times", New[*bare]("sends").AddNode("a", touch("a")).AddNode("w", touch("w")).
			AddEdge(START, "a").AddConditionalEdges("a", BySend(same), map[string]string{"w": "w"}).AddEdge("w", END),
			[]string{"a", "w", "w", "w"}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.graph.Compile(context.Background())
			require.NoError(t, err)
			assert.Equal(t, CopyByDeepCopy, r.StateCopy().By)
			out, err := r.Invoke(context.Background(), newBare())
			require.NoError(t, err)
			assert.Equal(t, tc.path, out.Path)
			assert.Equal(t, tc.count, out.Count)
			for name, n := range out.Seen {
				if name != "a" && name != "j" {
					assert.Equal(t, 1, n, "%s found the fork's note, not a sibling's", name)
				}
			}
		})
	}
}

// deep holds one of each kind the deep copy meets.
type deep struct {
	Name   string
	List   []string
	Empty  []int
	Nested []deepInner
	ByName map[string]*deepInner
	Any    any
	Ptr    *deepInner
	Alias  *deepInner // the same value as Ptr
	Arr    [2][]int
	Skip   []string `json:"-"`
	hidden []int
	When   time.Time
	Fn     func() int
	Ch     chan int
	Big    *big.Int
	Tree   *treeNode
	Own    ownClone
}

type deepInner struct {
	Tags []string
	M    map[string][]int
}

type treeNode struct {
	Name string
	Next *treeNode
}

// ownClone copies itself by its own Clone, which the deep copy calls.
type ownClone struct{ N *int }

func (c ownClone) Clone() ownClone {
	if c.N == nil {
		return c
	}
	n := *c.N + 100
	return ownClone{N: &n}
}

func newDeep() *deep {
	in := &deepInner{Tags: []string{"t"}, M: map[string][]int{"k": {1}}}
	tree := &treeNode{Name: "root"}
	tree.Next = tree
	one := 1
	return &deep{Name: "d", List: []string{"a", "b"}, Empty: []int{}, Nested: []deepInner{{Tags: []string{"n"}}},
		ByName: map[string]*deepInner{"x": in}, Any: []any{map[string]any{"k": []int{1}}}, Ptr: in, Alias: in,
		Arr: [2][]int{{1}, {2}}, Skip: []string{"kept"}, hidden: []int{7},
		When: time.Date(2024, 5, 6, 7, 8, 9, 0, time.Local), Fn: func() int { return 42 }, Ch: make(chan int, 1),
		Big: big.NewInt(5), Tree: tree, Own: ownClone{N: &one}}
}

func TestDeepCopy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(t *testing.T, o, c *deep)
	}{
		{"a new value, equal to the old", func(t *testing.T, o, c *deep) {
			assert.NotSame(t, o, c)
			assert.Equal(t, o.Name, c.Name)
			assert.Equal(t, o.List, c.List)
			assert.Equal(t, o.Nested, c.Nested)
			assert.Equal(t, o.ByName, c.ByName)
			assert.Equal(t, o.Any, c.Any)
			assert.Equal(t, o.Arr, c.Arr)
		}},
		{"lists, maps and pointers are its own", func(t *testing.T, o, c *deep) {
			c.List[0], c.Nested[0].Tags[0], c.ByName["x"].Tags[0], c.Arr[0][0] = "X", "X", "X", 9
			c.Any.([]any)[0].(map[string]any)["k"].([]int)[0] = 9
			c.Ptr.M["k"][0] = 9
			assert.Equal(t, newDeep().List, o.List)
			assert.Equal(t, "n", o.Nested[0].Tags[0])
			assert.Equal(t, "t", o.ByName["x"].Tags[0])
			assert.Equal(t, 1, o.Arr[0][0])
			assert.Equal(t, []int{1}, o.Any.([]any)[0].(map[string]any)["k"])
			assert.Equal(t, []int{1}, o.Ptr.M["k"])
		}},
		{"nil stays nil, empty stays empty", func(t *testing.T, _, c *deep) {
			assert.NotNil(t, c.Empty)
			assert.Empty(t, c.Empty)
			var d deep
			cp := deepCopy(&d)
			assert.Nil(t, cp.List)
			assert.Nil(t, cp.ByName)
			assert.Nil(t, cp.Any)
			assert.Nil(t, cp.Ptr)
		}},
		{"what shares stays shared, cycles end", func(t *testing.T, o, c *deep) {
			assert.Same(t, c.Ptr, c.Alias)
			assert.Same(t, c.Ptr, c.ByName["x"])
			assert.NotSame(t, o.Ptr, c.Ptr)
			assert.Same(t, c.Tree, c.Tree.Next)
			assert.NotSame(t, o.Tree, c.Tree)
		}},
		{"what JSON would drop is kept", func(t *testing.T, o, c *deep) {
			assert.Equal(t, []string{"kept"}, c.Skip)
			assert.Equal(t, []int{7}, c.hidden)
			assert.True(t, o.When.Equal(c.When))
			assert.Equal(t, o.When.Location(), c.When.Location())
			assert.IsType(t, []any{}, c.Any, "an interface keeps its dynamic type")
		}},
		{"handles are shared", func(t *testing.T, o, c *deep) {
			assert.Equal(t, 42, c.Fn())
			assert.Equal(t, o.Ch, c.Ch)
			assert.Same(t, o.Big, c.Big)
		}},
		{"a type's own Clone is used", func(t *testing.T, _, c *deep) {
			assert.Equal(t, 101, *c.Own.N)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newDeep()
			tc.check(t, o, deepCopy(o))
		})
	}
}

func TestDeepCopyOfOtherStates(t *testing.T) {
	s := []any{nil}
	s[0] = s // a slice that holds itself
	c := deepCopy(s)
	assert.NotSame(t, &s[0], &c[0])
	assert.Equal(t, 7, deepCopy(7))
	assert.Equal(t, "s", deepCopy("s"))
	m := map[string][]string{"a": {"b"}}
	cm := deepCopy(m)
	cm["a"][0] = "c"
	assert.Equal(t, "b", m["a"][0])

	type opaque struct{ n []int } // no field shows: the state itself is still copied
	o := &opaque{n: []int{1}}
	co := deepCopy(o)
	assert.NotSame(t, o, co)
	assert.Equal(t, o.n, co.n)
}

type withLogger struct {
	Log   *slog.Logger
	Lines []string
}

func stateCopyOf[S any]() StateCopy { return (&Runnable[S]{}).StateCopy() }

func TestStateCopySaysHow(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  StateCopy
		want string
	}{
		{"Clone", stateCopyOf[*state](), "Clone"},
		{"plain data", stateCopyOf[*bare](), "deep copy"},
		{"a value", stateCopyOf[bare](), "deep copy"},
		{"handles and hidden fields", stateCopyOf[*deep](), "deep copy; shared: hidden ([]int), Fn (func() int), Ch (chan int), Big (*big.Int)"},
		{"a logger", stateCopyOf[*withLogger](), "deep copy; shared: Log (*slog.Logger)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.got.String())
		})
	}
}

// TestFanOutWithoutClone: a state without Clone runs in parallel (Compile
// used to refuse it).
func TestFanOutWithoutClone(t *testing.T) {
	type plain struct{ N int }
	id := func(_ context.Context, s *plain) (*plain, error) { return s, nil }
	r, err := New[*plain]("noclone").AddNode("a", id).AddNode("b", id).AddNode("c", id).
		AddEdge(START, "a").AddEdge("a", "b").AddEdge("a", "c").AddEdge("b", END).
		Compile(context.Background())
	require.NoError(t, err)
	assert.Equal(t, StateCopy{By: CopyByDeepCopy}, r.StateCopy())
}
