package record

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

func TestHeaderRoundTrip(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("X", 7200))
	cases := []struct {
		name string
		cp   checkpoint.Checkpoint
	}{
		{"minimal", checkpoint.Checkpoint{Thread: "t", State: json.RawMessage(`{}`)}},
		{"everything", checkpoint.Checkpoint{Thread: "t", Parent: "p", Next: []string{"a", "b"},
			Interrupts: []checkpoint.Interrupt{
				{Node: "a", Index: 0, Payload: json.RawMessage(`{"q":1}`), Value: json.RawMessage(`true`)},
				{Node: "b", Index: -1}, // no payload: stays empty, not "null"
			},
			Metadata: checkpoint.Metadata{Step: 4, Node: "a", Source: "interrupt", Version: 2},
			State:    json.RawMessage(`[1,2]`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp, err := Prepare(c.cp, now)
			require.NoError(t, err)
			assert.Equal(t, time.UTC, cp.Metadata.Time.Location(), "times are kept in UTC")
			h, err := Header(cp)
			require.NoError(t, err)
			assert.NotContains(t, string(h), `"state"`, "the state is stored apart")
			got, err := Decode("t", "id", h, cp.State)
			require.NoError(t, err)
			cp.ID = "id"
			assert.True(t, cp.Metadata.Time.Equal(got.Metadata.Time))
			cp.Metadata.Time, got.Metadata.Time = time.Time{}, time.Time{}
			assert.Equal(t, cp, got)
		})
	}
}

func TestDecodeCorruptHeader(t *testing.T) {
	_, err := Decode("t", "id", []byte(`{"metadata":`), nil)
	require.ErrorContains(t, err, `thread "t" checkpoint "id": corrupt header`)
}
