package main

import (
	"context"
	"io"
	"testing"

	"github.com/sgrgraph/sgrgraph/examples/internal/exampletest"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

func TestOutput(t *testing.T) {
	url := servers.Redis(t)
	exampletest.Output(t, func(ctx context.Context, w io.Writer) error { return run(ctx, w, url) })
}
