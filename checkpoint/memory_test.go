package checkpoint_test

import (
	"testing"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/checkpointtest"
)

func TestMemoryConformance(t *testing.T) {
	checkpointtest.Run(t, func(*testing.T) checkpoint.Store { return checkpoint.NewMemory() })
}

func BenchmarkSaveLoad(b *testing.B) {
	checkpointtest.BenchSaveLoad(b, checkpoint.NewMemory())
}
