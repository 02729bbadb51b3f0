package checkpointtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// BenchSaveLoad measures a Put and a Get of one checkpoint with a 5 KB,
// 50 KB and 250 KB state: what a graph pays per super-step and per resume.
func BenchSaveLoad(b *testing.B, s checkpoint.Store) {
	for _, size := range []int{5 << 10, 50 << 10, 250 << 10} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			ctx := context.Background()
			cp := newCheckpoint(fmt.Sprintf("bench-%d", size), 0)
			cp.State = chatState(size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				if n++; n%1000 == 0 { // keep the memory store from holding gigabytes
					b.StopTimer()
					if err := s.Delete(ctx, cp.Thread); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				out, err := s.Put(ctx, cp)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Get(ctx, out.Thread, out.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// chatState returns a JSON state of exactly size bytes shaped like a chat
// history, the usual bulk of a graph's state.
func chatState(size int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"messages":[`)
	for i := 0; b.Len() < size-200; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"role":"assistant","content":"Answer %d cites the guide section %d and explains the steps in order."}`, i, i%17)
	}
	b.WriteString(`],"pad":"`)
	b.WriteString(strings.Repeat("x", size-b.Len()-2))
	b.WriteString(`"}`)
	return json.RawMessage(b.String())
}
