package outbound

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A body that stops sending part way ends with ErrIdle after the idle
// bound, not when the caller's whole deadline runs out; a body that keeps
// sending slower than the bound between its pieces, but never idle that
// long, is read whole.
func TestIdleTimeout(t *testing.T) {
	tests := []struct {
		name  string
		gaps  []time.Duration // the pause before each piece
		stall bool            // then send nothing more
		want  error
	}{
		{"steady pieces are read whole", []time.Duration{0, 30 * time.Millisecond, 30 * time.Millisecond, 30 * time.Millisecond}, false, nil},
		{"a stall after the first piece is cut", []time.Duration{0}, true, ErrIdle},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusOK)
				for _, gap := range tc.gaps {
					time.Sleep(gap)
					_, _ = w.Write([]byte("data: x\n\n"))
					w.(http.Flusher).Flush()
				}
				if tc.stall {
					<-r.Context().Done()
				}
			}))
			defer srv.Close()
			c := Client("model", Policy{Attempts: 1}, nil, Timeouts{Idle: 200 * time.Millisecond})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
			require.NoError(t, err)
			resp, err := c.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			start := time.Now()
			body, err := io.ReadAll(resp.Body)
			if tc.want == nil {
				require.NoError(t, err)
				assert.Len(t, body, 9*len(tc.gaps))
				return
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, tc.want), err.Error())
			assert.Less(t, time.Since(start), 5*time.Second, "cut at the idle bound, not the call's deadline")
		})
	}
}
