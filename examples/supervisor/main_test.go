package main

import (
	"testing"

	"github.com/sgrgraph/sgrgraph/examples/internal/exampletest"
)

func TestOutput(t *testing.T) { exampletest.Output(t, run) }
