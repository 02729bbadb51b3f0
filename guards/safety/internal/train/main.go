// Command train writes the safety model the rules guard embeds (model.bin)
// from the training data under testdata/train and the development parts of
// the labelled sets safety.TrainingSets names; its calibration
// (calibration.json), fitted on the development part of the held-out
// fifth; and that held-out fifth as a guard set for sgrgraph eval
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
	data        = "testdata/train"
	weights     = "model.bin"
	calibration = "calibration.json"
	heldOut     = "../../tests/testdata/guard_heldout.jsonl"
)

func main() {
	start := time.Now()
	// All are made before any is written: a failure leaves the embedded
	// weights, their calibration and the held-out set as they were,
	// together.
	b, err := safety.TrainModel(data, safety.TrainingSets...)
	var cal, set []byte
	if err == nil {
		cal, err = safety.Calibrate(b, data)
	}
	if err == nil {
		set, err = safety.HeldOutSet(data)
	}
	if err == nil {
		err = os.WriteFile(weights, b, 0o644)
	}
	if err == nil {
		err = os.WriteFile(calibration, cal, 0o644)
	}
	if err == nil {
		err = os.WriteFile(heldOut, set, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d bytes in %s; %s: %s%s: %d bytes\n", weights, len(b), time.Since(start).Round(time.Millisecond), calibration, cal, heldOut, len(set))
}
