package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A keys file gives each key its role; an asker's key cannot review.
func TestKeysFileRoles(t *testing.T) {
	askers, reviewers, err := ReadKeys(strings.NewReader("# keys\nask-1\nask-2 asker\n\nrev-1 reviewer\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{"ask-1", "ask-2"}, askers)
	assert.Equal(t, []string{"rev-1"}, reviewers)
	for text, want := range map[string]string{
		"k1 admin\n":      `line 1: role "admin" is not asker or reviewer`,
		"k1\nk2 a b\n":    "line 2: a key, then its role",
		"# nothing\n\n":   "no key in it",
		"secret-key boss": `role "boss"`,
	} {
		_, _, err := ReadKeys(strings.NewReader(text))
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want)
		assert.NotContains(t, err.Error(), "secret-key", "an error never shows a key")
	}
	url := serve(t, offline, Options{APIKeys: askers, ReviewerKeys: reviewers}).URL
	body := `{"interrupt_id": "i", "decision": "approve"}`
	expectError(t, post(t, url+"/v1/threads/s/resume", "ask-1", body), http.StatusForbidden, "", "reviewer_only")
	res := post(t, url+"/v1/threads/s/resume", "rev-1", body)
	assert.NotEqual(t, http.StatusForbidden, res.StatusCode)
	assert.NotEqual(t, http.StatusUnauthorized, res.StatusCode)
}
