package tests

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeExample keeps the README's "compose your own graph" code the
// same as Example_composeYourOwnGraph, which the test run compiles and checks.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	example, err := os.ReadFile("compose_example_test.go")
	require.NoError(t, err)
	start := strings.Index(string(example), "\ttype Greeting")
	end := strings.Index(string(example), "\t// Output:")
	require.True(t, start > 0 && end > start)
	var body []string
	for _, line := range strings.Split(string(example)[start:end], "\n") {
		body = append(body, strings.TrimPrefix(line, "\t"))
	}
	assert.Contains(t, string(readme), strings.TrimSpace(strings.Join(body, "\n")), "README's example differs from compose_example_test.go")
}
