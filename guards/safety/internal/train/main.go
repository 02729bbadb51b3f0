// Command train writes the safety model the rules guard embeds (model.bin)
// from the training data under testdata/train. `go generate
// ./guards/safety` runs it in the package directory; the same data always
// gives the same bytes.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/sgrgraph/sgrgraph/guards/safety"
)

func main() {
	start := time.Now()
	b, err := safety.TrainModel("testdata/train")
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("model.bin", b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	fmt.Printf("model.bin: %d bytes in %s\n", len(b), time.Since(start).Round(time.Millisecond))
}
