package main

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// TestOutput runs the program and compares what it printed with output.txt.
func TestOutput(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("output.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("the program printed\n%s\noutput.txt has\n%s", out.String(), want)
	}
}
