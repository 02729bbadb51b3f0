package agent

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A SQLite file named in a folder that does not exist is refused: a
// mistyped path must not make folders unseen.
func TestOpenStoreRefusesAFileInAMissingFolder(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope", "x.db")
	_, err := OpenStore(context.Background(), missing)
	assert.EqualError(t, err, "store "+missing+": the folder "+filepath.Dir(missing)+" does not exist")
	assert.NoDirExists(t, filepath.Dir(missing))

	s, err := OpenStore(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "x.db"))
	require.NoError(t, err)
	require.NoError(t, s.Close())
}
