package openaitest

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func TestConcurrentRequestsGetDistinctNumbers(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	srv := New(sgrtest.NewScriptedModel(sgrtest.Text("ok")).Repeat(), WithFaults(func(r Request) Fault {
		mu.Lock()
		defer mu.Unlock()
		assert.False(t, seen[r.N], "request number %d given twice", r.N)
		seen[r.N] = true
		return Fault{}
	}))
	defer srv.Close()
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(srv.URL+"/chat/completions", "application/json",
				strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
			if assert.NoError(t, err) {
				resp.Body.Close()
				assert.Equal(t, http.StatusOK, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	assert.Len(t, seen, 20)
	require.Len(t, srv.Requests(), 20)
}

func TestHalvesKeepCharactersWhole(t *testing.T) {
	for _, s := range []string{`{"query":"xфильтр"}`, "я", "", `{"q":"a"}`} {
		parts := halves(s)
		assert.Equal(t, s, strings.Join(parts, ""))
		for _, p := range parts {
			assert.True(t, utf8.ValidString(p), "%q", p)
		}
	}
}
