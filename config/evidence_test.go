package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEvidenceTokens(t *testing.T) {
	assert.Equal(t, 8000, Default().Agent.EvidenceTokens)
	for _, tc := range []struct {
		file    string
		want    int
		wantErr string
	}{
		{file: "agent:\n  evidence_tokens: 0\n", want: 0},
		{file: "agent:\n  evidence_tokens: 2000\n", want: 2000},
		{file: "agent:\n  evidence_tokens: -1\n", wantErr: "agent.evidence_tokens: -1 is outside 0..100000"},
		{file: "agent:\n  evidence_tokens: 100001\n", wantErr: "agent.evidence_tokens: 100001 is outside 0..100000"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := Load(writeFile(t, tc.file), nil)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.Agent.EvidenceTokens)
		})
	}
}
