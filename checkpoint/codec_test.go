package checkpoint_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

type chat struct {
	Messages []string `json:"messages"`
}

func TestCodec(t *testing.T) {
	errMigrate := errors.New("migration failed")
	migrate := func(from int, data json.RawMessage) (json.RawMessage, error) {
		switch from {
		case 1: // version 1 kept a single message
			var v1 struct{ Message string }
			if err := json.Unmarshal(data, &v1); err != nil {
				return nil, err
			}
			return json.Marshal(chat{Messages: []string{v1.Message}})
		case 2:
			return json.RawMessage(`{"messages":`), nil
		}
		return nil, errMigrate
	}
	cases := []struct {
		name    string
		codec   checkpoint.Codec[chat]
		version int
		state   string
		want    chat
		wantErr []string
		is      error
	}{
		{"current version", checkpoint.Codec[chat]{Version: 3}, 3, `{"messages":["a"]}`, chat{[]string{"a"}}, nil, nil},
		{"migrated", checkpoint.Codec[chat]{Version: 3, Migrate: migrate}, 1, `{"Message":"a"}`, chat{[]string{"a"}}, nil, nil},
		{"no migrate", checkpoint.Codec[chat]{Version: 3}, 1, `{}`, chat{}, []string{"version 1", "no Migrate"}, nil},
		{"migrate fails", checkpoint.Codec[chat]{Version: 3, Migrate: migrate}, 0, `{}`, chat{}, []string{"version 0", "migrate to version 3"}, errMigrate},
		{"migrate returns bad JSON", checkpoint.Codec[chat]{Version: 3, Migrate: migrate}, 2, `{}`, chat{}, []string{"returned invalid JSON"}, nil},
		{"newer", checkpoint.Codec[chat]{Version: 3}, 4, `{}`, chat{}, []string{"version 4", "newer", "version 3"}, nil},
		{"negative", checkpoint.Codec[chat]{Version: 3}, -2, `{}`, chat{}, []string{"version -2", "not a version"}, nil},
		{"empty", checkpoint.Codec[chat]{Version: 3}, 3, ``, chat{}, []string{"empty"}, nil},
		{"corrupt", checkpoint.Codec[chat]{Version: 3}, 3, "\x00\x01gob?", chat{}, []string{"corrupt", "not valid JSON"}, nil},
		{"wrong shape", checkpoint.Codec[chat]{Version: 3}, 3, `{"messages":"a"}`, chat{}, []string{"does not fit checkpoint_test.chat"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp := checkpoint.Checkpoint{Thread: "th", ID: "id-7", State: json.RawMessage(c.state)}
			cp.Metadata.Version = c.version
			got, err := c.codec.Decode(cp)
			if c.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, c.want, got)
				return
			}
			require.Error(t, err)
			for _, w := range append([]string{`thread "th"`, `checkpoint "id-7"`}, c.wantErr...) {
				assert.Contains(t, err.Error(), w)
			}
			if c.is != nil {
				assert.ErrorIs(t, err, c.is)
			}
		})
	}
}

func TestCodecEncodeRoundTrip(t *testing.T) {
	codec := checkpoint.Codec[chat]{Version: 5}
	data, version, err := codec.Encode(chat{Messages: []string{"x", "ü"}})
	require.NoError(t, err)
	assert.Equal(t, 5, version)
	assert.JSONEq(t, `{"messages":["x","ü"]}`, string(data))
	got, err := codec.Decode(checkpoint.Checkpoint{State: data, Metadata: checkpoint.Metadata{Version: version}})
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "ü"}, got.Messages)

	_, _, err = checkpoint.Codec[chan int]{Version: 1}.Encode(make(chan int))
	require.ErrorContains(t, err, "encode chan int state version 1")
}
