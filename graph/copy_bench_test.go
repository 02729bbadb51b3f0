package graph

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// fill gives every string of v some text, every number a value and every
// list n elements, down to depth levels of lists and pointers: a state the
// size of a turn in its middle.
func fill(v reflect.Value, n, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strings.Repeat("word ", 20))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n, depth)
			}
		}
	case reflect.Slice:
		if depth == 0 {
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(v.Index(i), n, depth-1)
		}
	case reflect.Pointer:
		if depth == 0 || v.Type().Elem().Kind() == reflect.Interface {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n, depth-1)
	case reflect.Map:
		if depth == 0 || v.Type().Key().Kind() != reflect.String {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for i := range n {
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, n, depth-1)
			v.SetMapIndex(reflect.ValueOf(fmt.Sprint("k", i)).Convert(v.Type().Key()), e)
		}
	}
}

// orderState is a user's small state without Clone.
type orderState struct {
	Items []string `reduce:"append"`
	Notes map[string]string
	Total int `reduce:"sum"`
}

// BenchmarkStateCopy is the cost of one copy (one retried attempt, one
// branch, one Send): the default agent's ChatState by its Clone (the path
// it keeps), and what the deep copy and a JSON round trip through the
// checkpoint codec would cost instead; then a small state of a user's.
func BenchmarkStateCopy(b *testing.B) {
	chat := &contracts.ChatState{}
	fill(reflect.ValueOf(chat).Elem(), 6, 2)
	codec := checkpoint.Codec[*contracts.ChatState]{Version: 1}
	data, _, _ := codec.Encode(chat)
	b.Logf("ChatState: %d bytes of JSON", len(data))
	order := &orderState{Items: make([]string, 20), Notes: map[string]string{"a": "b", "c": "d"}}
	for i := range order.Items {
		order.Items[i] = fmt.Sprint("item ", i)
	}
	orderCodec := checkpoint.Codec[*orderState]{Version: 1}
	for _, bc := range []struct {
		name string
		copy func()
	}{
		{"ChatState/Clone", func() { _ = copyState(chat) }},
		{"ChatState/deep", func() { _ = deepIgnoringClone(chat) }},
		{"ChatState/json", func() { jsonCopy(b, codec, chat) }},
		{"order/deep", func() { _ = copyState(order) }},
		{"order/json", func() { jsonCopy(b, orderCodec, order) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bc.copy()
			}
		})
	}
}

// deepIgnoringClone is the deep copy of a ChatState were it to have no
// Clone: the plan of the struct, whose value type has none.
func deepIgnoringClone(s *contracts.ChatState) *contracts.ChatState {
	c := new(contracts.ChatState)
	planFor(reflect.TypeFor[contracts.ChatState]()).copyInto(reflect.ValueOf(c).Elem(), reflect.ValueOf(s).Elem(), &memo{})
	return c
}

func jsonCopy[S any](b *testing.B, c checkpoint.Codec[S], s S) {
	data, v, err := c.Encode(s)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.Decode(checkpoint.Checkpoint{State: data, Metadata: checkpoint.Metadata{Version: v}}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkFanOut10Deep is BenchmarkFanOut10 over a state without Clone:
// every branch starts on a deep copy.
func BenchmarkFanOut10Deep(b *testing.B) {
	add := func(name string) NodeFunc[*orderState] {
		return func(_ context.Context, s *orderState) (*orderState, error) {
			s.Items = append(s.Items, name)
			return s, nil
		}
	}
	g := New[*orderState]("fan10").AddNode("split", add("split")).AddNode("join", add("join")).
		AddEdge(START, "split").AddEdge("join", END)
	for i := range 10 {
		n := fmt.Sprintf("b%d", i)
		g.AddNode(n, add(n)).AddEdge("split", n).AddEdge(n, "join")
	}
	r, err := g.Compile(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := r.Invoke(context.Background(), &orderState{})
		if err != nil || len(out.Items) != 12 {
			b.Fatal(err, out)
		}
	}
}
