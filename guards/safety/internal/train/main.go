// Command train writes the safety model the rules guard embeds (model.bin)
// from the training data under testdata/train, and the held-out fifth of
// that data as a guard set for sgrgraph eval
// (tests/testdata/guard_heldout.jsonl). `go generate ./guards/safety` runs
// it in the package directory; the same data always gives the same bytes.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/sgrgraph/sgrgraph/guards/safety"
)

const (
	data    = "testdata/train"
	weights = "model.bin"
	heldOut = "../../tests/testdata/guard_heldout.jsonl"
)

func main() {
	start := time.Now()
	// Both are made before either is written: a failure leaves the
	// embedded weights and the held-out set as they were, together.
	b, err := safety.TrainModel(data)
	var set []byte
	if err == nil {
		set, err = safety.HeldOutSet(data)
	}
	if err == nil {
		err = os.WriteFile(weights, b, 0o644)
	}
	if err == nil {
		err = os.WriteFile(heldOut, set, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d bytes in %s; %s: %d bytes\n", weights, len(b), time.Since(start).Round(time.Millisecond), heldOut, len(set))
}
