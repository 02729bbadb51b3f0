// Package exampletest checks that an example program prints the output.txt
// beside it.
package exampletest

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Output runs an example's run function and compares what it printed with
// output.txt in the test's directory.
func Output(t *testing.T, run func(context.Context, io.Writer) error) {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	want, err := os.ReadFile("output.txt")
	require.NoError(t, err)
	assert.Equal(t, string(want), out.String())
}
